import Foundation
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicateSourceContext
import SymbolicateSystemSymbols

/// Output formats of `explain`.
public enum ExplainFormat: String, Sendable, CaseIterable {
    case text, json, markdown
}

/// One `explain` run: a term to look up, or a report to diagnose (symbolicated first when
/// debug files are given, so the diagnosis can read inlined trap frames).
public struct ExplainRequest: Sendable {
    public enum Subject: Sendable {
        /// `EXC_BAD_ACCESS`, `0x8badf00d`, `Namespace SPRINGBOARD, Code 0x8badf00d`…
        case term(String)
        /// A report, and debug files to symbolicate it with first.
        case report(ReportSource, debugFiles: [String])
    }

    public var subject: Subject
    public var format: ExplainFormat
    public var color: ColorChoice
    public var terminal: Terminal
    /// The language of the explanation or diagnosis (`--language`).
    public var language: Language

    /// Apple's libraries, so the diagnosis quotes system frames by name; nil names none.
    public var systemSymbols: SystemSymbols?
    /// Symbol servers, debuginfod, dsymForUUID and their cache, for images no local debug
    /// file answered; nil asks nobody.
    package var remoteDebugFiles: (any RemoteDebugFiles)?
    /// Where debug-file zips are unpacked once and kept for later runs; nil unpacks them
    /// for this run only.
    package var zipCache: ZipCache?
    /// Scrub a report's diagnosis (`--scrub`): identifying values it quotes replaced (`Scrubber`).
    public var scrub = false
    /// The checkout whose app's line the "open X:N" step shows (`--source-root`); nil shows none.
    package var sourceContext: SourceContextProvider?
    /// Where the object files a debug file's debug map names may have moved (`--object-path-map`),
    /// as `report` takes it: a Debug build's frames diagnosed with their lines.
    public var objectPathMap = ObjectPathMap()

    public init(
        subject: Subject, format: ExplainFormat = .text, color: ColorChoice = .never, terminal: Terminal = .none,
        systemSymbols: SystemSymbols? = nil, language: Language = .english
    ) {
        self.systemSymbols = systemSymbols
        self.language = language
        self.subject = subject
        self.format = format
        self.color = color
        self.terminal = terminal
    }

    /// The command line's reading of its arguments: when the first names an existing file it
    /// is a report and the rest are debug files (`-` is a report read with `standardInput`);
    /// otherwise all of them form one term.
    package static func subject(arguments: [String], standardInput: () -> Data = { StandardInput.read() }) -> Subject {
        if arguments.first == StandardInput.argument {
            return .report(.standardInput(reading: standardInput), debugFiles: Array(arguments.dropFirst()))
        }
        if let first = arguments.first,
            FileManager.default.fileExists(atPath: first)
                || (looksLikePath(first) && !KnowledgeBase.standard.explain(arguments.joined(separator: " ")).isKnown)
        {
            // A path that does not exist (`reports/swift-trp.crash`) is a report to say "no
            // such file" about, not a term to look up (`Trace/BPT trap: 5` is a term).
            return .report(.file(first), debugFiles: Array(arguments.dropFirst()))
        }
        return .term(arguments.joined(separator: " "))
    }

    /// Whether an argument looks meant as a file: it has a folder (`/`) or a report's extension.
    static func looksLikePath(_ argument: String) -> Bool {
        if argument.contains("/") { return true }
        let lower = argument.lowercased()
        return [".crash", ".ips", ".txt", ".json", ".log", ".zip", ".xccrashpoint", ".diag", ".spin", ".hang", ".panic"].contains {
            lower.hasSuffix($0) && lower.count > $0.count
        }
    }

    /// Runs the request; never throws and never prints. An unknown term is `.failed` (near
    /// matches are still the output).
    public func run() -> ReportResponse {
        var response = ReportResponse()
        switch subject {
        case .term(let term):
            let explanation = KnowledgeBase.standard.explain(term, language: language)
            response.output = render(explanation)
            if !explanation.isKnown { response.status = .failed }
        case .report(let source, let debugFiles):
            diagnose(source, debugFiles: debugFiles, into: &response)
        }
        response.standardOutput = response.output
        return response
    }

    private func diagnose(_ source: ReportSource, debugFiles: [String], into response: inout ReportResponse) {
        var reports: [CrashReport]
        do {
            // A MetricKit payload holds several diagnostics: each is diagnosed.
            reports = try ReportPipeline.read(source)
        } catch {
            return response.fail(.unreadableReport(error))
        }
        // A cut report is diagnosed from what it has; say what it lacks.
        for report in reports {
            response.messages += report.warnings.filter { $0.kind == .partialReport }.map(ReportMessage.parseWarning)
        }
        // Symbolicating first lets the diagnosis read inlined trap frames.
        var pipeline = ReportPipeline(annotator: nil)
        if !debugFiles.isEmpty || systemSymbols != nil || remoteDebugFiles != nil {
            do {
                // The same assembly as `report`'s; only the debug files named (no folder nearby).
                let assembly = try RunAssembly(
                    DebugFileInputs(explicit: debugFiles, zipCache: zipCache), reports: reports, objectPathMap: objectPathMap,
                    systemSymbols: systemSymbols, remoteDebugFiles: remoteDebugFiles)
                response.messages += assembly.index.problems.map(ReportMessage.debugFileProblem)
                response.debugFileIndexBuilds = assembly.indexBuilds
                // System frames named from system symbols read as functions in the evidence.
                pipeline = assembly.pipeline
            } catch {
                return response.fail(.debugFiles(error))
            }
        }
        reports.reverse()
        while let report = reports.popLast() {
            var processed = pipeline.process(report, diagnose: true, language: language)
            processed.addSourceContext(from: sourceContext)
            response.reports.append(processed)
        }
        response.messages += (remoteDebugFiles?.takeMessages() ?? []).map(ReportMessage.symbolSources)
        response.messages += (systemSymbols?.takeMessages() ?? []).map(ReportMessage.systemSymbols)
        // Images without a debug file are only worth a word when debug files were given.
        if !debugFiles.isEmpty {
            response.messages += response.reports.flatMap { $0.summary?.diagnostics ?? [] }.map(ReportMessage.image)
        }
        // Several reports in one file: each diagnosis says which one it is for.
        let count = response.reports.count
        let diagnoses = response.reports.enumerated().compactMap { number, processed -> Diagnosis? in
            guard var diagnosis = processed.diagnosis else { return nil }
            if count > 1 {
                let report = processed.report
                diagnosis.entry = Diagnosis.Entry(
                    number: number + 1, count: count, path: report.path, kind: report.kind.identifier, dateTime: report.dateTime)
            }
            return diagnosis
        }
        // A report of a condition the process survived states no crash: said, and refused as a
        // text without a crash fact is (exit 65), after its explanation.
        if !diagnoses.isEmpty, diagnoses.allSatisfy(\.processKeptRunning), let path = response.reports.first?.report.path {
            response.messages.append(.processKeptRunning(path: path))
            response.status = .invalidInput
        }
        response.output = ReportPipeline.join(diagnoses.map(render), asJSONArray: format == .json)
        if scrub, let output = response.output { response.output = ReportPipeline.scrub(output, reports: response.reports.map(\.report)) }
    }

    /// A term explanation or a diagnosis in the chosen format.
    private func render(_ value: some ExplainRenderable) -> String {
        switch format {
        case .text: return value.renderText(color: color.enabled(on: terminal))
        case .json: return value.renderJSON()
        case .markdown: return value.renderMarkdown()
        }
    }
}
