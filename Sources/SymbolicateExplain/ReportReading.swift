import Foundation
import SymbolicateCrashReport

// What the rules read of a report besides its facts (`CrashReport.facts`, read once by the
// reader): its threads and frames, and the report's own lines they quote as evidence.

/// A fault address with the name the knowledge base gives it and the line that states it.
typealias FaultDescription = (name: String, address: UInt64, stripped: UInt64?, quote: String, field: String)

extension CrashReport {
    /// The fault as the rules quote it: the report's name for it, else the knowledge base's name
    /// for its kern_return_t code, with the line of the report it was read from.
    func faultDescription(in base: KnowledgeBase) -> FaultDescription? {
        guard let fault = facts.exception?.fault else { return nil }
        let name =
            fault.name ?? fault.kernelCode.flatMap { base.entries(kind: .exceptionCode, value: $0).first?.term }
            ?? (fault.source == .vmRegion ? "EXC_BAD_ACCESS" : fault.kernelCode.map { "code \(hex($0))" } ?? "EXC_BAD_ACCESS")
        let quote: String?
        let field: String
        switch fault.source {
        case .subtype: (quote, field) = (exception?.subtype, "Exception Subtype")
        case .codes: (quote, field) = (exception?.codes, "Exception Codes")
        case .vmRegion: (quote, field) = (facts.vmRegionLine, "VM Region Info")
        }
        return (name, fault.address, fault.strippedAddress, quote ?? "", field)
    }

    /// `Exception Message:` as the rules quote it.
    var exceptionMessage: String? { exception?.message?.trimmedBlanks }

    /// `Exception Note:`, or the non-fatal note a JSON report implies.
    var exceptionNote: String? { exception?.note ?? exception?.nonFatalNote }

    /// The `Exception Type:` line as Apple prints it.
    var exceptionLine: String? {
        switch (facts.exception?.machType, facts.exception?.signal) {
        case let (type?, signal?): "\(type) (\(signal))"
        case let (type?, nil): type
        case let (nil, signal?): signal
        default: nil
        }
    }

    var terminationLine: String? {
        guard let termination else { return nil }
        return [termination.namespace, termination.code, termination.text ?? reporterTerminationIndicator].compactMap { $0 }.joined(
            separator: " ")
    }

    /// The frame of `crashedAppLine`.
    var firstAppFrame: Frame? {
        guard let thread = crashedThread, let line = crashedAppLine else { return nil }
        return thread.frames[line.position]
    }

    /// A frame in the app's image; for a pasted frame no listed image holds, its reader's judgement.
    func isAppOwned(_ frame: Frame) -> Bool {
        frame.imageIndex.map { binaryImages.indices.contains($0) && binaryImages[$0].isAppOwned } ?? (frame.isAppCodeWithoutImage == true)
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
        if let level = symbolication?.first(where: {
            ($0.file.map { !$0.containsBytes("<compiler-generated>") } ?? false) && ($0.line ?? 0) > 0
        }
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
        if let function,
            function.hasPrefix("std::") || function.containsBytes(": assertion ") || function.hasPrefix("Swift runtime failure")
        {
            return true
        }
        // Rust's standard library and panic runtime, linked into the app's image.
        if let function, RustPanic.isStandardLibrary(function) { return true }
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
        let names = functionNames
        // A frame a paste names without its image (a crash service's list, HockeyApp's columns):
        // its name alone; `???` only when it has no name either.
        var parts = imageName.map { [$0] } ?? (names.isEmpty ? ["???"] : [])
        // A frame with no address its text printed, only its image's offset (the JVM's `V  [jvm.dll+0x11cab8]`).
        if names.isEmpty, !hasAddress, let offset = imageOffset, let image = imageName {
            parts = [image + "+0x" + String(offset, radix: 16)]
        } else {
            parts.append(names.isEmpty ? "0x" + String(address, radix: 16) : names.joined(separator: " → "))
        }
        if let sourceLocation { parts.append("(\(sourceLocation))") }
        return parts.joined(separator: " ")
            .split(whereSeparator: \.isNewline).map { $0.trimmedBlanks }.joined(separator: " ")
    }
}
