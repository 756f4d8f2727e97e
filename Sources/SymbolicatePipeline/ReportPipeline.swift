import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicatePresentation
import SymbolicateScrub
import SymbolicateSourceContext
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// Where a report comes from: a file, a file standing for something else (a zip entry unpacked
/// to a private folder), or bytes already in memory.
public struct ReportSource: Sendable {
    enum Content: Sendable {
        case file(String)
        case bytes(Data)
    }

    let content: Content
    /// The name errors and warnings use: the path as the user gave it, or `reports.zip!a.ips`.
    public let displayPath: String

    /// The path as the user gave it, when the report is a file of theirs (not bytes, not a
    /// temporary copy): the only kind of source with a folder to search or to protect.
    public var userPath: String? {
        if case .file(let path) = content, path == displayPath { return path }
        return nil
    }

    /// The report at `path`; `displayPath` replaces it in messages (a zip entry's temporary
    /// copy means nothing to the user).
    public static func file(_ path: String, displayPath: String? = nil) -> ReportSource {
        ReportSource(content: .file(path), displayPath: displayPath ?? path)
    }

    /// A report already read (pasted, received over a pipe, produced by a test).
    public static func bytes(_ data: Data, name: String) -> ReportSource {
        ReportSource(content: .bytes(data), displayPath: name)
    }
}

/// One report after the pipeline: symbolicated when there were debug files to use, diagnosed
/// when asked. Everything an output needs, so presenting never goes back to the input.
public struct ProcessedReport: Sendable {
    public var report: CrashReport
    /// What symbolication did; nil when the pipeline had no debug files to use.
    public var summary: SymbolicationSummary?
    /// The plain-language diagnosis; nil until `diagnose()` (it costs a quarter of a report's time).
    public var diagnosis: Diagnosis?
    /// What the rules decided, in no language: made once by `decide()` (or the first
    /// `diagnose`), then worded for every language asked without deciding again.
    package var decision: DiagnosisDecision?
    /// The lines around the crash in a checkout and their history (`--source-root`); nil when
    /// none was given.
    package var sourceContext: SourceContext?

    public init(report: CrashReport, summary: SymbolicationSummary? = nil, diagnosis: Diagnosis? = nil) {
        self.report = report
        self.summary = summary
        self.diagnosis = diagnosis
    }

    /// Decides the report once. It reads the symbolicated frames (inlined trap frames such as
    /// `Swift runtime failure: …`), so it comes after symbolication.
    package mutating func decide() {
        if decision == nil { decision = SymbolicateExplain.decide(report) }
    }

    /// Diagnoses the report, its prose in `language`: the decision is made once, the wording
    /// last, so asking again in another language only words it again.
    public mutating func diagnose(language: Language = .english) {
        decide()
        diagnosis = decision?.worded(in: language)
    }

    /// The diagnosis in `language`, from the decision already made (nil before `decide()`).
    package func diagnosis(in language: Language) -> Diagnosis? {
        decision?.worded(in: language)
    }

    /// Adds the lines around the crash from `provider`'s checkout, and shows the app's line in
    /// the diagnosis's "open X:N" step when there is a diagnosis.
    package mutating func addSourceContext(from provider: SourceContextProvider?) {
        guard let provider, let context = provider.context(for: report) else { return }
        sourceContext = context
        diagnosis?.showAppLine(of: report) { context.text(of: $0, line: $1) }
    }

    /// The report in the presenter's format; the diagnosis goes above it when `withDiagnosis`
    /// (the `--explain` flags), else the presenter's own setting stands.
    package func render(with presenter: Presenter, withDiagnosis: Bool) throws(CrashReportError) -> String {
        var presenter = presenter
        if withDiagnosis { presenter.diagnosis = diagnosis }
        presenter.sourceContext = sourceContext
        return try presenter.render(report, summary: summary)
    }

    /// The report in Apple's text layout (`presenter` is a text one), written into `out` as it
    /// is rendered, as `render` would return it.
    package func writeText(with presenter: Presenter, withDiagnosis: Bool, to out: inout some TextOutputStream) {
        var presenter = presenter
        if withDiagnosis { presenter.diagnosis = diagnosis }
        presenter.sourceContext = sourceContext
        presenter.writeText(report, summary: summary, to: &out)
    }
}

/// The one path every command takes: input → reports of a known layout (`ReportReaders`) →
/// debug files matched by identity (`DebugFileIndex`) → symbolicated report (`Annotator`) →
/// diagnosis (`SymbolicateExplain`) → presentation (`Presenter`).
///
/// `report`, `explain` and `batch` differ only in what they do with the results (print, write
/// files, summarise), so that a new input layout or debug-file format reaches all of them at once.
public struct ReportPipeline: Sendable {
    /// Symbolicates the reports; nil reads and diagnoses without symbolicating (`explain`
    /// without debug files), which leaves frames and summaries untouched.
    package let annotator: Annotator?

    package init(annotator: Annotator?) {
        self.annotator = annotator
    }

    /// A pipeline that reads and diagnoses without symbolicating.
    public init() {
        annotator = nil
    }

    /// A pipeline over the debug files at `paths` (dSYMs, Mach-O or ELF files, folders,
    /// `.xcarchive`s, zips), each opened once for all reports; frames that already carry a file
    /// and line are rewritten only with `resymbolicate`. System frames no debug file names are
    /// looked up in `systemSymbols`.
    /// - Throws: why the first unusable path cannot be used.
    public init(debugFiles paths: [String], resymbolicate: Bool = false, systemSymbols: SystemSymbols? = nil) throws(DiscoveryError) {
        let index = try Self.debugFiles(paths, searchPath: false)
        self.init(debugFiles: index, options: Annotator.Options(resymbolicate: resymbolicate), systemSymbols: systemSymbols)
    }

    /// A pipeline over one debug-file index, each debug file opened once for all reports;
    /// system frames no debug file names are looked up in `systemSymbols`.
    package init(debugFiles index: DebugFileIndex, options: Annotator.Options = .init(), systemSymbols: SystemSymbols? = nil) {
        annotator = Annotator(index: index, options: options, systemSymbols: systemSymbols)
    }

    /// The same, with debug files fetched by identity (symbol servers, debuginfod,
    /// dsymForUUID, their cache) for images the local files did not answer.
    package init(
        debugFiles index: DebugFileIndex, options: Annotator.Options = .init(), systemSymbols: SystemSymbols? = nil,
        remoteDebugFiles: (any RemoteDebugFiles)?
    ) {
        var annotator = Annotator(index: index, options: options, systemSymbols: systemSymbols)
        annotator.remoteDebugFiles = remoteDebugFiles
        self.annotator = annotator
    }

    /// Finds the debug files for a run.
    /// - Parameters:
    ///   - explicit: debug-file arguments; a missing or unusable one is an error.
    ///   - report: with no explicit files, the top level of this report's folder and of the
    ///     current directory are searched too (never recursively: the current directory may be `$HOME`).
    ///   - searchPath: also search `SYMBOLICATE_DSYM_PATH` (recursively).
    ///   - zipCache: where debug-file zips are unpacked once and kept; nil for this run only.
    /// - Returns: the index over every debug file found.
    /// - Throws: why the first unusable explicit argument cannot be used.
    package static func debugFiles(
        _ explicit: [String], searchingNear report: String? = nil,
        searchPath: Bool = true, zipCache: ZipCache? = nil
    ) throws(DiscoveryError) -> DebugFileIndex {
        let implicit = explicit.isEmpty ? report.map(DebugFileIndex.defaultSearchFolders(forReport:)) ?? [] : []
        return try DebugFileIndex(
            inputs: explicit, shallowFolders: implicit,
            searchFolders: searchPath ? DebugFileIndex.extraSearchFolders() : [], zipCache: zipCache)
    }

    /// An output with identifying values replaced (`--scrub`), the identities of `reports`'
    /// images kept; one scrubber for the whole output, so a value gets one placeholder.
    package static func scrub(_ output: String, reports: [CrashReport]) -> String {
        var scrubber = Scrubber()
        return scrubber.scrub(output, context: ScrubContext(reports: reports))
    }

    /// Every report the source holds (one per diagnostic for a MetricKit payload), read once.
    /// Reading needs no debug files, so a command can say what is wrong with the report before
    /// it searches for them.
    /// A path given as it is may also be an Xcode `.xccrashpoint` bundle (or a folder of them):
    /// every log in it is read.
    public static func read(_ source: ReportSource) throws(CrashReportError) -> [CrashReport] {
        if case .file(let path) = source.content, path == source.displayPath {
            return try CrashReport.readAll(at: path)
        }
        return try CrashReport.parseAll(data: Self.data(of: source), path: source.displayPath)
    }

    /// The first report the source holds, with a warning when it holds more.
    public static func readFirst(_ source: ReportSource) throws(CrashReportError) -> CrashReport {
        try CrashReport.parse(data: Self.data(of: source), path: source.displayPath)
    }

    private static func data(of source: ReportSource) throws(CrashReportError) -> Data {
        switch source.content {
        case .file(let path): return try CrashReport.read(contentsOf: path, displayPath: source.displayPath)
        case .bytes(let data): return data
        }
    }

    /// Symbolicates one report (when the pipeline has debug files) and diagnoses it when asked:
    /// the diagnosis is decided without a language (`ProcessedReport.decision`) and `language`
    /// only words it.
    /// Never throws: an image without a usable debug file is a diagnostic in the summary.
    /// The report is taken over, not copied: when the caller lets go of it (`popLast()` from
    /// its array rather than `for … in`), symbolication writes into its frames in place
    /// instead of copying every backtrace first (a report may hold a million frames).
    public func process(_ report: consuming CrashReport, diagnose: Bool = false, language: Language = .english) -> ProcessedReport {
        var processed = ProcessedReport(report: consume report)
        if let annotator { processed.summary = annotator.annotate(&processed.report) }
        if diagnose { processed.diagnose(language: language) }
        return processed
    }

    /// Reads and processes every report of the source.
    public func run(
        _ source: ReportSource, diagnose: Bool = false, language: Language = .english
    ) throws(CrashReportError) -> [ProcessedReport] {
        var reports = try Self.read(source)
        var processed: [ProcessedReport] = []
        reports.reverse()
        while let report = reports.popLast() { processed.append(process(report, diagnose: diagnose, language: language)) }
        return processed
    }

    /// Several rendered reports as one output: a JSON array for JSON, else one after the other
    /// with a blank line between them.
    public static func join(_ pieces: [String], asJSONArray: Bool) -> String {
        if pieces.count == 1 { return pieces[0] }
        guard asJSONArray else { return pieces.joined(separator: "\n") }
        return "[\n" + pieces.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(separator: ",\n") + "\n]\n"
    }
}
