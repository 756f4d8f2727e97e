import Foundation
import SymbolicateCrashReport

/// The parts of a report the diagnosis reads, normalised once: exception fields, the
/// termination reason as numbers, ASI lines, and the frames of interesting threads.
struct ReportFacts {
    let report: CrashReport
    let exceptionType: String?
    let signal: String?
    let codes: String?
    let subtype: String?
    let message: String?
    let note: String?
    let namespace: String?
    let terminationCode: UInt64?
    let terminationText: String?
    /// Extra termination lines (TCC usage text, dyld messages) as the parser read them.
    let terminationDetails: [String]
    let asiLines: [String]
    let crashedThread: CrashReport.Thread?
    let mainThread: CrashReport.Thread?
    let isNonFatal: Bool
    let architecture: String?
    let isTranslated: Bool
    /// `panic(cpu …)` line of a kernel panic.
    let panicLine: String?

    init(report: CrashReport) {
        self.report = report
        let exception = report.exception
        // What the fields mean (a bare signal or a description in the type field) is the
        // model's to say, once for every stage.
        exceptionType = exception?.machExceptionType
        signal = exception?.signalName
        codes = exception?.codes
        subtype = exception?.subtype
        message = exception?.message?.trimmingCharacters(in: .whitespaces)
        note = exception?.note ?? exception?.nonFatalNote
        namespace = report.termination?.namespaceName
        terminationCode = report.termination?.codeValue
        terminationText = report.termination?.text
        terminationDetails = report.termination?.details ?? []
        asiLines = (report.applicationSpecificInformation ?? "")
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        crashedThread = report.crashedThread
        mainThread = report.mainThread
        isNonFatal = exception?.isNonFatal ?? false
        architecture = report.architecture?.name
        isTranslated = report.isTranslated
        panicLine = report.panicString
        faultDescription = Self.faultDescription(
            subtype: subtype, codes: codes, exceptionType: exceptionType, signal: signal, platform: Self.platform(of: report))
    }

    /// The operating system family the report comes from, for platform-specific advice.
    enum Platform: String { case iOS, macOS, watchOS, tvOS, visionOS, linux, other }

    var platform: Platform { Self.platform(of: report) }

    static func platform(of report: CrashReport) -> Platform {
        if report.kind == .linuxBacktrace { return .linux }
        switch report.operatingSystem?.platform {
        case .linux: return .linux
        case .watchOS: return .watchOS
        case .tvOS: return .tvOS
        case .visionOS: return .visionOS
        case .iOS: return .iOS
        case .macOS: return .macOS
        case nil: break
        }
        // No OS line (MetricKit, crash reporters): the hardware model says which family.
        let model = (report.hardwareModel ?? "").lowercased()
        if model.hasPrefix("watch") { return .watchOS }
        if model.hasPrefix("appletv") { return .tvOS }
        if model.hasPrefix("realitydevice") { return .visionOS }
        if model.hasPrefix("iphone") || model.hasPrefix("ipad") || model.hasPrefix("ipod") { return .iOS }
        if model.hasPrefix("mac") || model.hasPrefix("imac") { return .macOS }
        return .other
    }

    /// Intel code (native or translated by Rosetta): traps are `ud2`, faults can be general-protection faults.
    var isIntel: Bool {
        let arch = (architecture ?? "").lowercased()
        return arch.hasPrefix("x86") || arch == "i386" || (report.codeType ?? "").uppercased().contains("X86")
    }

    /// ARM code running natively (not an Intel process under Rosetta).
    var isNativeARM: Bool {
        !isTranslated && !isIntel && (architecture ?? report.codeType ?? "").lowercased().contains("arm")
    }

    /// The app's line of the crashed thread: the frame in the app's own code where the reader
    /// starts. The same rule names the headline's frame (`CrashReport.appLine`). `nil` when no
    /// frame is in the app's code (the crash is entirely in system code, or no backtrace).
    var appLine: AppLine? {
        crashedThread.flatMap { report.appLine(in: $0) }
    }

    /// The frame of `appLine`.
    var firstAppFrame: Frame? {
        guard let thread = crashedThread, let line = appLine else { return nil }
        return thread.frames[line.position]
    }

    func isAppOwned(_ frame: Frame) -> Bool {
        frame.imageIndex.map { report.binaryImages.indices.contains($0) && report.binaryImages[$0].isAppOwned } ?? false
    }

    /// True when some app frame near the top of the crashed thread still has no function name:
    /// symbolicating would add information.
    var needsSymbolication: Bool {
        guard let thread = crashedThread else { return false }
        let top = thread.frames.prefix(32)
        let appFrames = top.filter(isAppOwned)
        return (appFrames.isEmpty ? Array(top.prefix(1)) : appFrames).contains { $0.functionNames.isEmpty }
    }

    /// The crashed thread's program counter (`pc` on ARM, `rip`/`eip` on Intel).
    var programCounter: UInt64? {
        crashedThread?.registers.first { ["pc", "rip", "eip"].contains($0.name) }?.value
    }

    /// The `Exception Type:` line as Apple prints it.
    var exceptionLine: String? {
        switch (exceptionType, signal) {
        case let (type?, signal?): "\(type) (\(signal))"
        case let (type?, nil): type
        case let (nil, signal?): signal
        default: nil
        }
    }

    var terminationLine: String? {
        guard let termination = report.termination else { return nil }
        return [termination.namespace, termination.code, termination.text].compactMap { $0 }.joined(separator: " ")
    }

    /// `KERN_INVALID_ADDRESS at 0x… [-> 0x…]` from the subtype, or the codes when the
    /// subtype is absent (older macOS prints it in `Exception Codes`). Read once, when the
    /// facts are made: the rules and their filters ask for it many times.
    let faultDescription: FaultDescription?

    typealias FaultDescription = (name: String, address: UInt64, stripped: UInt64?, quote: String, field: String)

    private static func faultDescription(
        subtype: String?, codes: String?, exceptionType: String?, signal: String?, platform: Platform
    ) -> FaultDescription? {
        for (field, text) in [("Exception Subtype", subtype), ("Exception Codes", codes)] {
            guard let text, let match = TextScan(text).faultAddress(), let address = parseNumber(match.address) else { continue }
            return (match.name, address, match.stripped.flatMap(parseNumber), text, field)
        }
        // A Linux backtrace ("Bad pointer dereference at 0x20") carries the address alone.
        if exceptionType == nil, let signal, ["SIGSEGV", "SIGBUS"].contains(signal), platform == .linux, let codes,
            let address = parseNumber(codes.trimmingCharacters(in: .whitespaces))
        {
            return (signal, address, nil, codes, "Exception Codes")
        }
        // Numeric codes: code[0] = kern_return_t, code[1] = address.
        if exceptionType == "EXC_BAD_ACCESS", let codes {
            let numbers = codes.split(separator: ",").compactMap { parseNumber(String($0)) }
            if numbers.count == 2 {
                let name = KnowledgeBase.standard.entries(kind: .exceptionCode, value: numbers[0]).first?.term ?? "code \(hex(numbers[0]))"
                return (name, numbers[1], nil, codes, "Exception Codes")
            }
        }
        return nil
    }
}

extension Frame {
    /// Function names of the frame, innermost first: the symbolication when present,
    /// else the symbol the report printed.
    var functionNames: [String] {
        if let levels = symbolication, !levels.isEmpty { return levels.map(\.function) }
        if let symbol, !isUnsymbolicated { return [symbol] }
        return []
    }

    /// `File.m:15` from the symbolication or the report.
    var sourceLocation: String? {
        if let level = symbolication?.first(where: { ($0.file.map { !$0.contains("<compiler-generated>") } ?? false) && ($0.line ?? 0) > 0 }
        )
            ?? symbolication?.first(where: { $0.file != nil }), let path = level.file
        {
            return (path as NSString).lastPathComponent + (level.line.map { ":\($0)" } ?? "")
        }
        return sourceFile.map { ($0 as NSString).lastPathComponent + (sourceLine.map { ":\($0)" } ?? "") }
    }

    /// The function and `File.swift:42` of the frame's own code: of its inlined levels, the
    /// innermost one with a real line outside SDK headers, the Swift runtime's artificial
    /// frames and compiler-generated code (those are library code inlined into the app's
    /// function, not the app's line); else the outermost level. Either part is nil when the
    /// frame does not have it.
    var appLine: (function: String?, location: String?) {
        let levels: [AppLineLevel]
        if let resolved = symbolication, !resolved.isEmpty {
            levels = resolved.map { AppLineLevel(function: $0.function, file: $0.file, line: $0.line) }
        } else if let symbol, !isUnsymbolicated {
            levels = [AppLineLevel(function: symbol, file: sourceFile, line: sourceLine)]
        } else {
            let location = sourceFile.flatMap { file in
                AppLine.isLibrary(file) ? nil : (file as NSString).lastPathComponent + (sourceLine.map { ":\($0)" } ?? "")
            }
            return (nil, location)
        }
        let line = AppLine.choose(levels, position: 0)
        return (line?.function, line?.location)
    }

    var isLibraryCodeInApp: Bool {
        let (function, location) = appLine
        if let function, function.hasPrefix("std::") || function.contains(": assertion ") || function.hasPrefix("Swift runtime failure") {
            return true
        }
        return symbolication == nil && sourceFile != nil && location == nil
    }

    /// Objective-C method names or C-family source files: Swift runtime checks are unlikely here.
    var isCFamily: Bool {
        if let name = functionNames.first, name.hasPrefix("-[") || name.hasPrefix("+[") { return true }
        let file = symbolication?.first(where: { $0.file != nil })?.file ?? sourceFile
        guard let file else { return false }
        return ["m", "mm", "c", "cc", "cpp", "cxx", "h", "hpp"].contains((file as NSString).pathExtension)
    }

    /// `libswiftCore.dylib  _assertionFailure(…) (File.swift:42)` for evidence lines.
    var evidenceText: String {
        var parts = [imageName ?? "???"]
        let names = functionNames
        parts.append(names.isEmpty ? "0x" + String(address, radix: 16) : names.joined(separator: " → "))
        if let sourceLocation { parts.append("(\(sourceLocation))") }
        return parts.joined(separator: " ")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
