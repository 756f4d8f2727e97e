import Foundation

/// Best effort for cut text reports (pasted into an issue, a chat or a mail): what is missing,
/// images known only from the frames themselves, and telling a cut report from a file that is
/// not a report at all.
extension TextReportParser {
    /// What a text report lacks, judged from where its last line falls.
    func completeness(
        of report: CrashReport, lastLine: Int, family: Family, sawBinaryImages: Bool,
        sawThreadsOrExceptionInfo: Bool, pastedFrames: Bool = false, emptyProcessTable: Bool
    ) -> Completeness {
        if emptyProcessTable, report.threads.isEmpty {
            return .partial([.endsInsideSection("the jetsam process table")])
        }
        // Other kinds (stackshots, resource reports) have their own layouts, not a cut crash's.
        guard family == .crash, ReportKind.detect(in: report) == .crash else { return .complete }
        // Frames pasted without their thread's title: where the text stops says nothing more.
        if pastedFrames {
            return .partial([.framesWithoutThreadHeader] + (sawBinaryImages ? [] : [.noBinaryImages]))
        }
        if sawBinaryImages {
            // A list cut mid-line leaves an image line that does not parse as the last line.
            if let last = report.binaryImages.last?.reportLine, last < lastLine,
                report.warnings.contains(where: { $0.line == lastLine && $0.message.hasPrefix("binary image line not understood") })
            {
                return .partial([.endsInsideBinaryImages])
            }
            return .complete
        }
        if sawThreadsOrExceptionInfo, report.threads.isEmpty, report.lastExceptionBacktrace == nil, report.exception == nil,
            report.crashedThreadIndex == nil, report.termination == nil
        {
            return .partial([.endsAfterHeader])
        }
        if sawThreadsOrExceptionInfo {
            var missing: [MissingPart] = []
            if let thread = report.threads.last(where: { t in t.frames.contains { ($0.reportLine ?? 0) >= lastLine - 1 } })
                ?? report.threads.last(where: { $0.frames.isEmpty })
            {
                missing.append(.endsInsideThread(thread.index))
            } else if let leb = report.lastExceptionBacktrace,
                leb.frames.isEmpty || leb.frames.contains(where: { ($0.reportLine ?? 0) >= lastLine - 1 })
            {
                missing.append(.endsInsideLastExceptionBacktrace)
            } else if report.threads.isEmpty {
                if report.exception == nil { missing.append(.noExceptionInformation) }
                missing.append(.noThreads)
            }
            missing.append(.noBinaryImages)
            return .partial(missing)
        }
        let keys = Set(report.headerFields.map(\.key))
        if !keys.isDisjoint(with: ["Process", "Incident Identifier"]),
            !keys.isDisjoint(with: ["Code Type", "Report Version", "OS Version"])
        {
            return .partial([.endsAfterHeader])
        }
        return .complete
    }

    /// `path:LINE: warning: partial report: report ends inside Thread 3; no Binary Images
    /// section: images matched by name, not UUID`.
    func partialWarning(_ report: CrashReport, lastLine: Int) -> ParseWarning {
        var message = "partial report: " + report.completeness.summary
        let missing = report.completeness.missing
        let hasFrames = report.allBacktraces.contains { !$0.frames.isEmpty }
        if missing.contains(.noBinaryImages), hasFrames {
            message +=
                report.binaryImages.isEmpty
                ? " (no frame prints its image's load address: frames cannot be matched to debug files)"
                : ": images are taken from the frames and matched by name, not UUID"
        } else if missing.contains(.endsInsideBinaryImages) {
            message += ": images missing from the list are taken from the frames and matched by name, not UUID"
        }
        return ParseWarning(path: path, line: lastLine, message: message, kind: .partialReport)
    }

    /// Adds an image for every frame whose line says where its image was loaded
    /// (`0x1002c8410 0x1002c4000 + 17424`) when the report's Binary Images list lacks it. Such an
    /// image has no UUID: a debug file can only be matched to it by name (and is marked
    /// unverified).
    func inferImagesFromFrames(in report: inout CrashReport) {
        var known = Set(report.binaryImages.map(\.name))
        var inferred: [BinaryImage] = []
        for (_, frames) in report.allBacktraces {
            for frame in frames {
                guard let name = frame.imageName, !known.contains(name), let offset = frame.imageOffset,
                    frame.address >= offset
                else { continue }
                known.insert(name)
                var image = BinaryImage(loadAddress: frame.address - offset, name: name, reportLine: nil)
                image.isInferredFromFrames = true
                image.isAppOwned = AppOwnership.isAppImage(
                    inferredName: name, processName: report.processName,
                    processPath: report.processPath, bundleIdentifier: report.bundleIdentifier)
                inferred.append(image)
            }
        }
        report.binaryImages += inferred
        // Frames that print no load address are judged by what their lines name.
        report.markAppCodeWithoutImage()
    }

    /// Why a text file that has no report structure at all is not a report; nil when it has
    /// some (a header field reports use, a frame, an image).
    static func notAReportReason(_ report: CrashReport, document: TextDocument, bodyStart: Int) -> String? {
        let reportKeys: Set<String> = [
            "Incident Identifier", "CrashReporter Key", "Hardware Model", "Process", "Path", "Identifier", "Code Type",
            "OS Version", "Date/Time", "Exception Type", "Exception Codes", "Exception Code", "Event", "Command", "Report Version",
            "Crashed Thread", "Triggered by Thread", "Termination Reason", "Kernel version", "Architecture", "Analysis Tool",
        ]
        if report.headerFields.contains(where: { reportKeys.contains($0.key) }) { return nil }
        let lines = document.lines[bodyStart...].map { $0.text.trimmedBlanks }.filter { !$0.isEmpty }
        let head = lines.prefix(40)
        func share(_ predicate: (String) -> Bool) -> Bool { head.filter(predicate).count * 3 >= head.count }
        if head.first?.hasPrefix("// swift-tools-version") == true { return "it is a Swift package manifest (Package.swift)" }
        let swiftish = [
            "import ", "func ", "let ", "var ", "struct ", "class ", "enum ", "extension ", "protocol ", "}", "//", "#include", "#import",
            "@",
        ]
        if share({ l in swiftish.contains(where: { l.hasPrefix($0) }) }) { return "it looks like source code" }
        if head.first?.hasPrefix("<?xml") == true || head.first?.hasPrefix("<!DOCTYPE") == true || head.first?.hasPrefix("<html") == true {
            return "it looks like XML/HTML"
        }
        if head.first?.hasPrefix("#") == true, share({ $0.hasPrefix("#") || $0.hasPrefix("- ") || $0.hasPrefix("* ") || $0.hasPrefix("|") })
        {
            return "it looks like a Markdown document"
        }
        let first = lines.first ?? ""
        return "first line: " + (first.count > 60 ? String(first.prefix(60)) + "…" : first)
    }
}
