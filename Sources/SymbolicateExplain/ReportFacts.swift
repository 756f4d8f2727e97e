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
        // Third-party reporters print a bare signal as the exception type.
        if let type = exception?.type, type.hasPrefix("SIG"), exception?.signal == nil {
            exceptionType = nil
            signal = type
        } else {
            exceptionType = exception?.type
            signal = exception?.signal
        }
        codes = exception?.codes
        subtype = exception?.subtype
        message = exception?.message?.trimmingCharacters(in: .whitespaces)
        note = exception?.note ?? exception?.nonFatalNote
        namespace = report.termination?.namespace?.uppercased()
        terminationCode = report.termination?.code.flatMap { code in
            code.split(separator: " ").first.flatMap { parseNumber(String($0)) }
        }
        terminationText = report.termination?.text
        terminationDetails = report.termination?.details ?? []
        asiLines = (report.applicationSpecificInformation ?? "")
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        crashedThread = report.crashedThread
        mainThread = report.threads.first { $0.queue == "com.apple.main-thread" } ?? report.threads.first { $0.index == 0 }
        isNonFatal = exception?.nonFatalNote != nil
            || (exception?.note.map { $0.contains("NOT a crash") } ?? false)
        architecture = report.architecture
        isTranslated = report.codeType?.contains("Translated") ?? false
        panicLine = report.panicString
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
    /// subtype is absent (older macOS prints it in `Exception Codes`).
    var faultDescription: (name: String, address: UInt64, stripped: UInt64?, quote: String, field: String)? {
        for (field, text) in [("Exception Subtype", subtype), ("Exception Codes", codes)] {
            guard let text, let match = firstMatch(#"([A-Za-z_0-9]+) at (0x[0-9a-fA-F]+)(?: -> (0x[0-9a-fA-F]+))?"#, in: text),
                  let name = match[0], let address = match[1].flatMap(parseNumber) else { continue }
            return (name, address, match[2].flatMap(parseNumber), text, field)
        }
        // Numeric codes: code[0] = kern_return_t, code[1] = address.
        if exceptionType == "EXC_BAD_ACCESS", let codes {
            let numbers = codes.split(separator: ",").compactMap { parseNumber(String($0)) }
            if numbers.count == 2 {
                let name = base.entries(kind: .exceptionCode, value: numbers[0]).first?.term ?? "code \(hex(numbers[0]))"
                return (name, numbers[1], nil, codes, "Exception Codes")
            }
        }
        return nil
    }

    private var base: KnowledgeBase { .standard }
}

/// Capture groups of the first match of `pattern` (nil for groups that did not take part).
/// Swift Regex rather than NSRegularExpression: Foundation's ICU-backed regex leaked about
/// 550 bytes per `--explain` run (issue 14).
func firstMatch(_ pattern: String, in text: String) -> [String?]? {
    // `$` also before a line break, as NSRegularExpression does before a final one (frame
    // names from `.ips` can end in "\n").
    guard let regex = try? Regex(pattern).anchorsMatchLineEndings(), let match = try? regex.firstMatch(in: text) else { return nil }
    let output = match.output
    return (1..<max(output.count, 1)).map { group in output[group].substring.map(String.init) }
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
        if let level = symbolication?.first(where: { ($0.file.map { !$0.contains("<compiler-generated>") } ?? false) && ($0.line ?? 0) > 0 })
            ?? symbolication?.first(where: { $0.file != nil }), let path = level.file {
            return (path as NSString).lastPathComponent + (level.line.map { ":\($0)" } ?? "")
        }
        return sourceFile.map { ($0 as NSString).lastPathComponent + (sourceLine.map { ":\($0)" } ?? "") }
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
