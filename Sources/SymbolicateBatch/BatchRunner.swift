import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateSymbolication

/// What batch mode does with each report.
package struct BatchOptions: Sendable {
    /// Folder receiving one output file per report (created when missing).
    package var outputDirectory: String
    /// `.text` writes Apple's text layout (`.ips` input becomes `NAME.crash`); `.ips` keeps
    /// `.ips` input as symbolicated JSON (text input stays text); `.json` and `.markdown`
    /// write `NAME.json` / `NAME.md`.
    package var format: OutputFormat
    /// Reports processed at the same time (≥ 1).
    package var jobs: Int
    /// Also put each report's diagnosis above it in its output file (the summary always
    /// has the diagnosis column).
    package var explainInOutput: Bool
    /// The language of the diagnoses (in the output files and the summaries).
    package var language: Language
    /// Scrub each output file (`--scrub`): identifying values replaced, one placeholder per value
    /// within the file, image identities kept (`ReportPipeline.scrub`).
    package var scrub = false
    /// The checkout whose lines go with each group's example (`--source-root`); nil shows none.
    package var sourceContext: SourceContextProvider?
    /// Sends each report read to a crash inbox (`--upload`); nil sends nothing.
    package var upload: BatchUploader?

    package init(
        outputDirectory: String, format: OutputFormat = .text,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, explainInOutput: Bool = false,
        language: Language = .english
    ) {
        self.outputDirectory = outputDirectory
        self.format = format
        self.jobs = max(1, jobs)
        self.explainInOutput = explainInOutput
        self.language = language
    }

    /// The output file for an input, relative to the output folder.
    package func outputRelativePath(for input: ReportInput) -> String {
        let relative = input.relativePath
        let ext = (relative.split(separator: "/").last.map(String.init) ?? relative).fileExtension
        switch format {
        case .text:
            // An `.ips` comes out as Apple's text layout; so does a MetricKit payload (JSON
            // in, text out: the name should not promise JSON).
            switch ext.lowercased() {
            case "ips": return relative.replacingExtension(with: "crash")
            case "json": return relative.replacingExtension(with: "txt")
            default: return relative
            }
        case .ips:
            return relative
        case .json:
            return relative.replacingExtension(with: "json")
        case .markdown:
            return relative.replacingExtension(with: "md")
        }
    }
}

/// Symbolicates many reports with one shared `Annotator` (one debug-file index, each dSYM
/// opened once and its decoded units reused by every report), on `jobs` threads.
///
/// Memory stays bounded by the debug files touched: a report is parsed, symbolicated,
/// written and dropped by the thread that took it; only its `BatchReportResult` (a few
/// strings) is kept for the summary.
package struct BatchRunner: Sendable {
    package let annotator: Annotator
    package let options: BatchOptions
    /// The path each report takes (the same as `symbolicate report`'s), over `annotator`.
    let pipeline: ReportPipeline

    package init(annotator: Annotator, options: BatchOptions) {
        self.annotator = annotator
        self.options = options
        pipeline = ReportPipeline(annotator: annotator)
    }

    /// Processes every input and returns one result per report, in input order (so the
    /// summary does not depend on scheduling): one per input, one per diagnostic for a
    /// MetricKit payload.
    /// - Parameters:
    ///   - inputs: the reports, in the order the summary lists them.
    ///   - progress: `progress(done, total)`, called from worker threads after each input.
    ///   - crashGuard: when given, can read the results so far if the process dies of a
    ///     fatal signal mid-run (see `BatchCrashGuard`).
    /// - Returns: one result per report, in input order.
    package func run(
        _ inputs: [ReportInput], progress: (@Sendable (Int, Int) -> Void)? = nil,
        crashGuard: BatchCrashGuard? = nil
    ) -> [BatchReportResult] {
        let outputs = Self.uniqueOutputPaths(inputs.map(options.outputRelativePath(for:)), reserved: Self.summaryFileNames)
        let state = RunState(count: inputs.count)
        crashGuard?.attach(inputs: inputs) { state.snapshot() }
        defer { crashGuard?.detach() }
        let gate = DiagnosisGate()
        let sourceGate = DiagnosisGate()
        let pool = StringPool()
        // Inputs are never modified: an output that would land on any input file is refused.
        let protected = OutputGuard(inputs: inputs.map(\.path))
        // Files already in the folder are replaced only when an earlier batch wrote them.
        let earlier = Self.earlierOutputs(in: options.outputDirectory)
        let workers = min(options.jobs, max(1, inputs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.next() {
                let results = process(
                    inputs[index], output: outputs[index], position: index, gate: gate, sourceGate: sourceGate, protected: protected,
                    earlierOutputs: earlier
                )
                .map(pool.shared)
                let done = state.store(results, at: index)
                progress?(done, inputs.count)
            }
        }
        var results = state.results()
        // Which later reports also got a diagnosis and source lines depends on scheduling: keep
        // only the first of each signature's so summaries are identical from run to run.
        var seen = Set<CrashSignature?>()
        for i in results.indices where results[i].isReadable {
            guard !seen.insert(results[i].signature).inserted else { continue }
            if !options.explainInOutput { results[i].diagnosis = nil }
            results[i].sourceContext = nil
        }
        return results
    }

    /// Parses, symbolicates, renders and writes one input: one result per report it holds
    /// (every diagnostic of a MetricKit payload), all written to the one output file. Never
    /// throws: failures become a result with `error` set, so one bad report cannot stop the others.
    package func process(_ input: ReportInput, output: String) -> [BatchReportResult] {
        process(input, output: output, position: 0, gate: nil, sourceGate: nil, protected: OutputGuard(inputs: [input.path]))
    }

    /// Reads, symbolicates and writes one input.
    /// - Parameters:
    ///   - input: the report file.
    ///   - output: where its symbolicated copy goes.
    ///   - position: the input's index, so the diagnosis kept for a group is the one of its
    ///     first report in input order, whatever the scheduling.
    ///   - gate: when given (and `explainInOutput` is off), diagnoses only reports that may
    ///     become their group's example; nil diagnoses every report.
    ///   - sourceGate: the same for the source lines (`--source-root`): once per group.
    ///   - protected: the inputs, which no output may replace.
    ///   - earlierOutputs: the outputs an earlier batch wrote into the folder (its
    ///     `summary.json`): any other file already at the output's name is kept, and the
    ///     report fails with a message. Nil replaces whatever is there.
    /// - Returns: one result per report the input holds.
    func process(
        _ input: ReportInput, output: String, position: Int, gate: DiagnosisGate?, sourceGate: DiagnosisGate?, protected: OutputGuard,
        earlierOutputs: Set<String>? = nil
    ) -> [BatchReportResult] {
        // Summaries name reports relative to the inputs (`reports/a.ips`, `logs/a.ips`), not
        // by absolute path; errors are stored without the path, which the summary shows once.
        var failed = BatchReportResult(input: input.relativePath)
        let target = URL(fileURLWithPath: options.outputDirectory).appendingPathComponent(output)
        if protected.input(replacedBy: target.path) != nil {
            failed.error = "its output \(target.path) would replace an input file; choose another --output folder"
            return [failed]
        }
        var existing = stat()
        if let earlierOutputs, !earlierOutputs.contains(output), lstat(target.path, &existing) == 0 {
            failed.error =
                "its output \(target.path) is already there and no earlier batch wrote it (summary.json does not list it); "
                + "kept: move it away or choose another --output folder"
            return [failed]
        }
        var reports: [CrashReport]
        do {
            reports = try ReportPipeline.read(.file(input.path, displayPath: input.displayPath))
        } catch {
            failed.error = Self.detail(of: error)
            failed.isNotAReport = error.kind == .notACrashReport && !input.isExplicit
            return [failed]
        }
        var results: [BatchReportResult] = []
        var pieces: [String] = []
        var scrubbed: [CrashReport] = []
        // Each report is handed over to `process` (not copied), first one first.
        reports.reverse()
        while let report = reports.popLast() {
            // One diagnostic of several is named by its place in the payload, as the reader
            // names it: `logs/p.json (crashDiagnostics[1])`.
            let place = report.path.hasPrefix(input.displayPath) ? report.path.dropFirst(input.displayPath.count) : ""
            var result = BatchReportResult(input: input.relativePath + place)
            var processed = pipeline.process(report)
            result.record(report: processed.report, summary: processed.summary ?? SymbolicationSummary())
            // The diagnosis is a quarter of the time per report, and reports of one signature
            // share it, so without --explain only the group's first report (in input order) needs one.
            if options.explainInOutput || gate?.shouldDiagnose(signature: result.signature, position: position) ?? true {
                processed.diagnose(language: options.language)
                result.diagnosis = processed.diagnosis?.headline
            }
            // The lines of a crash group are shown once, with its example.
            if let provider = options.sourceContext,
                sourceGate?.shouldDiagnose(signature: result.signature, position: position) ?? true
            {
                processed.addSourceContext(from: provider)
                result.sourceContext = processed.sourceContext
            }
            do {
                pieces.append(try processed.render(with: presenter(for: processed.report), withDiagnosis: options.explainInOutput))
            } catch {
                result.error = Self.detail(of: error)
            }
            if options.scrub { scrubbed.append(processed.report) }
            results.append(result)
        }
        if let upload = options.upload { send(input, with: upload, into: &results) }
        guard !pieces.isEmpty else { return results }
        var rendered = ReportPipeline.join(pieces, asJSONArray: options.format == .json)
        if options.scrub { rendered = ReportPipeline.scrub(rendered, reports: scrubbed) }
        do {
            try TrustedFolders.createFolders(target.deletingLastPathComponent().path)
            try writeAtomically(rendered, to: target.path)
            for i in results.indices where results[i].isReadable { results[i].output = output }
        } catch {
            for i in results.indices where results[i].isReadable {
                results[i].error = "cannot write \(target.path): \(error.localizedDescription)"
            }
        }
        return results
    }

    /// Sends the input's bytes, as read, to the inbox: one upload per file (a MetricKit
    /// payload's diagnostics are split by the inbox as by the reader), its answers given to
    /// the reports in order.
    func send(_ input: ReportInput, with upload: BatchUploader, into results: inout [BatchReportResult]) {
        let answers: [BatchUpload]
        switch RegularFile.read(path: input.path, limit: CrashReport.defaultSizeLimit) {
        case .success(let body):
            answers = upload(body, input.relativePath)
        case .failure(let error):
            answers = [BatchUpload(status: .failed, attempts: 0, error: "cannot read \(input.displayPath) again to send it: \(error)")]
        }
        guard let last = answers.last else { return }
        for i in results.indices { results[i].upload = i < answers.count ? answers[i] : last }
    }

    /// `line 14: JSON body does not parse: … (at threads[2])`: the error without its path.
    static func detail(of error: CrashReportError) -> String {
        var text = error.line.map { "line \($0): " } ?? ""
        text += error.message
        if let jsonPath = error.jsonPath { text += " (at \(jsonPath))" }
        return text
    }

    /// Output files are read by other tools, so text carries no headline; `--format ips`
    /// falls back to text for reports that have no JSON body to write back.
    func presenter(for report: CrashReport) -> Presenter {
        switch options.format {
        case .ips where report.format != .ips:
            return Presenter(format: .text, headline: false)
        case .text, .ips:
            return Presenter(format: options.format, headline: false)
        case .json, .markdown:
            return Presenter(format: options.format)
        }
    }

    /// The outputs the batch that wrote `folder/summary.json` listed: those files are its
    /// own, and a new batch into the same folder replaces them. Empty when there is no
    /// readable summary (then no file already in the folder is replaced).
    static func earlierOutputs(in folder: String) -> Set<String> {
        struct Summary: Decodable {
            struct Report: Decodable { var output: String? }
            var reports: [Report]
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent("summary.json").path
        guard case .success(let data) = RegularFile.read(path: path, limit: 1 << 30),
            let summary = try? JSONDecoder().decode(Summary.self, from: data)
        else { return [] }
        return Set(summary.reports.compactMap(\.output))
    }

    /// Files the run writes itself at the top of the output folder; a report never takes
    /// their names.
    package static let summaryFileNames = ["summary.md", "summary.json"]

    /// Two inputs may map to the same output (`a/x.crash` and `a/x.ips` in text mode, or the
    /// same file name from two folders): later ones get `-2`, `-3`… before the extension, in
    /// input order, so reruns give the same names. Compared case-insensitively because macOS
    /// file systems are.
    static func uniqueOutputPaths(_ paths: [String], reserved: [String] = []) -> [String] {
        var taken = Set((paths + reserved).map { $0.lowercased() })
        var seen = Set(reserved.map { $0.lowercased() })
        return paths.map { path in
            let key = path.lowercased()
            if seen.insert(key).inserted { return path }
            var n = 2
            while true {
                let ext = path.fileExtension
                let stem = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
                let candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
                if !taken.contains(candidate.lowercased()) {
                    taken.insert(candidate.lowercased())
                    seen.insert(candidate.lowercased())
                    return candidate
                }
                n += 1
            }
        }
    }
}

/// Remembers, per signature, the earliest input position diagnosed so far. The earliest
/// report of each signature is always diagnosed (nothing earlier can have been stored when
/// it runs); later ones are skipped unless they ran before it.
final class DiagnosisGate: @unchecked Sendable {
    private let lock = NSLock()
    private var earliest: [CrashSignature?: Int] = [:]

    func shouldDiagnose(signature: CrashSignature?, position: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let seen = earliest[signature], seen <= position { return false }
        earliest[signature] = position
        return true
    }
}

/// Work distribution and result slots shared by the worker threads.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private var slots: [[BatchReportResult]?]

    init(count: Int) {
        self.count = count
        slots = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    func store(_ results: [BatchReportResult], at index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = results
        done += 1
        return done
    }

    func results() -> [BatchReportResult] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }.flatMap { $0 }
    }

    /// The slots and how many inputs were handed out, read from a fatal-signal handler: the
    /// lock is only tried (the dying thread may be the one holding it).
    func snapshot() -> (slots: [[BatchReportResult]?], started: Int) {
        let locked = lock.try()
        defer { if locked { lock.unlock() } }
        return (slots, nextIndex)
    }
}

extension String {
    /// Extension of the last path component, without the dot (`""` when none).
    var fileExtension: String {
        let name = split(separator: "/").last.map(String.init) ?? self
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    func replacingExtension(with newExtension: String) -> String {
        let ext = fileExtension
        let stem = ext.isEmpty ? self : String(dropLast(ext.count + 1))
        return stem + "." + newExtension
    }
}
