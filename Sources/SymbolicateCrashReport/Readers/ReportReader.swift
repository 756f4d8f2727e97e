import Foundation
import SymbolicateJSON

/// A reader of one input layout (Apple text, `.ips`, a `sample` call graph, a MetricKit
/// payload…). `CrashReport.parseAll` decodes the bytes once into a `TextDocument`, then asks
/// the readers of `ReportReaders.all` in order; the first whose `detect` answers reads.
///
/// Detection is by content, never by file name: reports arrive renamed, pasted and zipped.
/// What detection had to parse to decide (a whole JSON payload, the line where a body starts)
/// is handed to `read` as `Evidence`, so nothing is parsed twice.
package protocol ReportReader: Sendable {
    associatedtype Evidence
    /// Whether the document is in this layout, with what was learned deciding it; nil when not.
    /// Must be cheap to refuse: every reader before the matching one is asked.
    static func detect(_ document: TextDocument) -> Evidence?
    /// The reports the document holds (several for a MetricKit payload), never empty. Each has
    /// its `kind` set. Malformed lines are warnings, not errors; an error means nothing usable.
    static func read(_ document: TextDocument, evidence: Evidence, path: String) throws(CrashReportError) -> [CrashReport]
}

/// The readers, in the order they are asked. A new layout is one more type here, placed
/// before any reader whose detection would also accept it (JSON layouts before `.ips`, which
/// takes any document starting with `{`; everything before Apple text, which takes the rest).
package enum ReportReaders {
    package static let all: [any ReportReader.Type] = [
        MetricKitPayloadReader.self,
        DiagnosticLogsReader.self,
        KSCrashReportReader.self,
        SentryEventReader.self,
        SwiftBacktraceJSONReportReader.self,
        SwiftBacktraceReportReader.self,
        IPSReportReader.self,
        UnknownJSONReader.self,
        IPSFragmentReportReader.self,
        LLDBReportReader.self,
        CallGraphReportReader.self,
        CrashServiceReportReader.self,
        DeviceLogReportReader.self,
        XcodeConsoleReportReader.self,
        AppleTextReportReader.self,
    ]

    /// Reads with the first reader that recognises the document; nil when none does (only
    /// possible when `AppleTextReportReader` is left out of `readers`).
    static func read(
        _ document: TextDocument, path: String,
        readers: [any ReportReader.Type] = all
    ) throws(CrashReportError) -> [CrashReport]? {
        // A layout recognised by its shape but empty of it (a JSON string, a backtracer's banner
        // whose trace never came, report fields with no thread) may still state a crash in a
        // line: the tolerant reader's answer, when it finds one, else the refusal. Apple text's
        // own refusal of a text with no crash fact is final: the console shapes were looked for
        // before it was asked.
        let tolerant = readers.contains { $0 == AppleTextReportReader.self }
        for reader in readers {
            // The console and LLDB readers are the tolerant reader: what they refused, it refuses.
            let fallsBack =
                tolerant && reader != AppleTextReportReader.self && reader != XcodeConsoleReportReader.self
                && reader != LLDBReportReader.self
            var reports: [CrashReport]
            do {
                guard let read = try attempt(reader, document, path: path) else { continue }
                reports = read
            } catch  where error.kind == .notACrashReport && fallsBack {
                guard let stated = statedCrash(in: document, path: path) else { throw error }
                reports = stated
            }
            do {
                try finish(&reports, path: path)
            } catch  where error.kind == .notACrashReport && tolerant && (fallsBack || reader == AppleTextReportReader.self) {
                guard var stated = statedCrash(in: document, path: path) else { throw error }
                try finish(&stated, path: path)
                return stated
            }
            return reports
        }
        return nil
    }

    /// The console reader's report of `document` when it holds a crash fact (a message, an
    /// exception, a signal, a frame), nil otherwise.
    static func statedCrash(in document: TextDocument, path: String) -> [CrashReport]? {
        guard let report = try? DebuggerOutputParser(document: document, path: path).parse().refusingDiagnosticsOnly().withDetectedKind()
        else { return nil }
        let hasFrames = report.allBacktraces.contains { !$0.frames.isEmpty }
        var probe = report
        probe.readFacts()
        let facts = probe.facts
        let states =
            hasFrames || facts.exception != nil || facts.uncaughtException != nil || facts.swiftRuntimeError != nil
            || facts.assertion != nil || !facts.statedMessages.isEmpty
        return states ? [report] : nil
    }

    /// What every layout's reports go through once read, text or binary.
    static func finish(_ reports: inout [CrashReport], path: String) throws(CrashReportError) {
        for i in reports.indices {
            reports[i].stripPointerAuthentication()
            reports[i].demangleReportNames()
            reports[i].notePlaceholderNames()
            // Frames a layout left outside any image (a backtracer's `in Frontend` with no image
            // list) are judged by what their lines name, as the paste readers judge theirs.
            reports[i].markAppCodeWithoutImage(onlyUnjudged: true)
            reports[i].readFacts()
            // An `.ips` cut before its threads (a header and a body without `threads`) that still
            // states its exception or termination: partial, explained from those. (A text layout
            // with no trace falls back to the tolerant reader's reading of its lines instead.)
            let report = reports[i]
            if report.format == .ips, report.completeness == .complete, report.threads.isEmpty, report.binaryImages.isEmpty,
                !report.allBacktraces.contains(where: { !$0.frames.isEmpty }),
                report.exception?.type != nil || report.termination?.namespace != nil
            {
                reports[i].completeness = .partial([.noThreads, .noBinaryImages])
            }
        }
        try refuseEmpty(reports, path: path)
    }

    private static func attempt<Reader: ReportReader>(
        _ reader: Reader.Type, _ document: TextDocument,
        path: String
    ) throws(CrashReportError) -> [CrashReport]? {
        guard let evidence = reader.detect(document) else { return nil }
        return try reader.read(document, evidence: evidence, path: path)
    }
}

extension TextDocument {
    /// Index of the first line with anything but whitespace.
    var firstContentLine: Int? {
        lines.firstIndex { !$0.text.allSatisfy(\.isWhitespace) }
    }
}

extension CrashReport {
    /// The report with its `kind` judged from what it says (event, exception, termination…).
    func withDetectedKind() -> CrashReport {
        var report = self
        report.kind = ReportKind.detect(in: report)
        return report
    }
}

/// A MetricKit payload (`MXDiagnosticPayload` JSON, alone or in an array) or a single diagnostic
/// as apps log it (`MXCrashDiagnostic.jsonRepresentation()`): one report per diagnostic. Detection parses the whole document as JSON, so it stops at the second line of
/// an `.ips` (header line, then body) and the parsed payload is reused by `read`.
package enum MetricKitPayloadReader: ReportReader {
    /// Read with the deep nesting bound (call trees nest two levels per frame), held by a
    /// `DeepJSON` so it is released with a loop.
    package static func detect(_ document: TextDocument) -> DeepJSON? {
        guard let first = document.firstContentLine else { return nil }
        let start = document.lines[first].text.drop(while: \.isWhitespace)
        guard start.hasPrefix("{") || start.hasPrefix("[") else { return nil }
        guard let value = try? JSONParser.parse(document.bytes(), maxDepth: JSONParser.deepMaxDepth).value else { return nil }
        let payload = DeepJSON(value)
        return MetricKitReader.isPayload(payload.value) ? payload : nil
    }

    package static func read(_ document: TextDocument, evidence: DeepJSON, path: String) throws(CrashReportError) -> [CrashReport] {
        let reports = MetricKitReader.reports(from: evidence.value, path: path)
        guard !reports.isEmpty else {
            throw CrashReportError(kind: .notACrashReport, path: path, message: "MetricKit payload without any diagnostic")
        }
        return reports
    }
}

/// `.ips`: a one-line JSON header and a JSON body (or, in older files, a text body), or a
/// bare JSON body. Takes every document whose first content starts with `{`.
package enum IPSReportReader: ReportReader {
    /// The first content line, which holds the header.
    package static func detect(_ document: TextDocument) -> Int? {
        guard let first = document.firstContentLine,
            document.lines[first].text.drop(while: \.isWhitespace).hasPrefix("{")
        else { return nil }
        return first
    }

    package static func read(_ document: TextDocument, evidence: Int, path: String) throws(CrashReportError) -> [CrashReport] {
        [try CrashReport.parseJSONStarting(document: document, firstLine: evidence, path: path).withDetectedKind()]
    }
}

/// `sample` and `spindump` call graphs pasted or saved as text.
package enum CallGraphReportReader: ReportReader {
    package static func detect(_ document: TextDocument) -> Void? {
        CallGraphParser.detect(document, bodyStart: 0) ? () : nil
    }

    package static func read(_ document: TextDocument, evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        [CallGraphParser(document: document, path: path, bodyStart: 0, format: .text, bugType: nil).parse().withDetectedKind()]
    }
}

/// Apple's text layout (`.crash`, Xcode Organizer, pasted or cut reports). The last reader:
/// it takes whatever the others did not, and says what it could not find.
package enum AppleTextReportReader: ReportReader {
    package static func detect(_ document: TextDocument) -> Void? { () }

    package static func read(_ document: TextDocument, evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        [try TextReportParser(document: document, path: path, bodyStart: 0, format: .text).parse().withDetectedKind()]
    }
}

/// The JSON layouts `symbolicate` reads, as error messages name them.
package enum KnownJSONLayouts {
    package static let names =
        ".ips (header line and body, or body alone), MetricKit payload or single diagnostic, App Store Connect diagnostic logs, Swift runtime backtrace JSON, KSCrash report, Sentry event"
}

/// The text layouts `symbolicate` reads, as the refusal of a text with no crash fact names them.
package enum KnownTextLayouts {
    /// The one hint line under a refusal: what is read, briefly (in full in `--help`).
    package static let hint =
        "reads Apple crash text (.crash, .ips, pasted frames), console and LLDB output, sample/spindump, Swift backtraces, device log lines, Crashlytics/Sentry/HockeyApp issue text (symbolicate --help)"
}

/// A JSON array that no JSON reader took: refused, never read as text. (A document that is one
/// JSON string is a line of text in quotes, a message a poster quoted: the text readers read it.)
package enum UnknownJSONReader: ReportReader {
    package static func detect(_ document: TextDocument) -> Void? {
        guard let first = document.firstContentLine else { return nil }
        let start = document.lines[first].text.drop(while: \.isWhitespace)
        guard start.hasPrefix("[") else { return nil }
        return (try? JSONParser.parse(document.bytes())) != nil ? () : nil
    }

    package static func read(_ document: TextDocument, evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        throw CrashReportError(
            kind: .notACrashReport, path: path, line: (document.firstContentLine ?? 0) + 1,
            message: "JSON document in none of the layouts read (tried: \(KnownJSONLayouts.names))")
    }
}

extension ReportReaders {
    /// A report with no threads, no backtraces and no images has nothing to symbolicate or
    /// explain; printing it as an empty report would hide that the input was not understood.
    /// Kinds that can come without backtraces (jetsam events, panics, stackshots, resource
    /// and hang summaries, memory terminations) and cut reports are let through.
    static func refuseEmpty(_ reports: [CrashReport], path: String) throws(CrashReportError) {
        for report in reports {
            let hasFrames = report.allBacktraces.contains { !$0.frames.isEmpty }
            guard !hasFrames, report.threads.isEmpty, report.binaryImages.isEmpty else { continue }
            switch report.kind {
            case .jetsam, .kernelPanic, .stackshot, .resource, .hang: continue
            default: break
            }
            if report.termination?.namespace == "JETSAM" || report.completeness != .complete { continue }
            throw CrashReportError(
                kind: .notACrashReport, path: report.path,
                message:
                    "read as \(report.format.layoutName) but it holds no threads, no backtraces and no binary images: nothing to symbolicate"
            )
        }
    }
}

extension ReportFormat {
    /// How messages name the layout.
    package var layoutName: String {
        switch self {
        case .text: "a text crash report"
        case .ips: "an .ips report"
        case .ipsTextBody: "an .ips report with a text body"
        case .metricKit: "a MetricKit diagnostic"
        case .kscrash: "a KSCrash report"
        case .sentry: "a Sentry event"
        case .plcrash: "a PLCrashReporter report"
        }
    }
}
