import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// One `report` run, as data: which report, which debug files, what to do and where the
/// output goes. `run()` holds every rule of the command (the argument swap, the search, the
/// output that may not replace an input, where the headline goes, which problems are worth
/// a word, the exit status) and prints nothing, so the CLI and a server give the same bytes.
public struct ReportRequest: Sendable {
    /// Where the rendered reports go.
    public enum Destination: Sendable, Equatable {
        /// Returned in `ReportResponse.standardOutput` for the caller to print or send.
        case standardOutput
        /// Written atomically by the run (`-o`).
        case file(String)
    }

    public var report: ReportSource
    /// Debug-file arguments (dSYMs, folders, `.xcarchive`, zips); a missing one is an error.
    public var debugFiles: [String]
    /// Places the user keeps debug files (`SYMBOLICATE_DSYM_PATH`), searched recursively.
    public var searchFolders: [String]
    /// With no debug-file argument, search the top level of the report's folder and of the
    /// current directory (a report given as a path only).
    public var searchesNearReport: Bool
    public var resymbolicate: Bool
    /// Put the diagnosis above the report (`--explain`).
    public var explain: Bool
    /// The language of the diagnosis (`--language`).
    public var language: Language
    /// Fail when an app image could not be symbolicated (`--require-all`).
    public var requireAll: Bool
    public var format: OutputFormat
    public var color: ColorChoice
    public var crashedOnly: Bool
    /// Put the headline in the output even when it is a file or a pipe (`--headline`).
    public var headline: Bool
    /// Say where each image's debug information came from (`-v`).
    public var verbose = false
    /// Scrub the output (`--scrub`): identifying values replaced, image identities kept (`Scrubber`).
    public var scrub = false
    /// Text output printed as it is rendered instead of returned in `standardOutput` (the
    /// command line sets it; a server or a test reads the response).
    public var standardOutputSink: StandardOutputSink?
    public var destination: Destination
    public var terminal: Terminal
    /// Apple's libraries for system frames the report left unnamed; nil names none.
    public var systemSymbols: SystemSymbols?
    /// Where the object files a binary's debug map names may have moved (`--object-path-map`).
    public var objectPathMap = ObjectPathMap()
    /// Symbol servers, debuginfod, dsymForUUID and their cache, for images no local debug
    /// file answered; nil asks nobody.
    package var remoteDebugFiles: (any RemoteDebugFiles)?
    /// Where debug-file zips are unpacked once and kept for later runs; nil unpacks them
    /// for this run only.
    package var zipCache: ZipCache?
    /// Where Xcode leaves dSYMs (Spotlight, Archives, DerivedData), searched when no debug file
    /// is named; nil (the default) searches none. The CLI sets it.
    package var xcodeDSYMs: XcodeDSYMSearch?
    /// Debug files indexed and opened once for many requests (`symbolicate serve`), used
    /// instead of indexing `debugFiles`; given the reports read, so it can add what they need.
    /// The same index as the CLI's for the same inputs gives the same bytes.
    package var preparedDebugFiles: (@Sendable (_ reports: [CrashReport]) throws(DiscoveryError) -> PreparedDebugFiles)?
    /// Asked between the stages of the run (reading, the debug files, each report's
    /// symbolication, diagnosis and rendering), and inside symbolication before each image and
    /// frame: true stops the run there with `.stopped`. A server's request that timed out is
    /// not worked on any further.
    package var shouldStop: (@Sendable () -> Bool)?
    /// The checkout whose lines go with the crashing frames (`--source-root`); nil shows none.
    package var sourceContext: SourceContextProvider?

    public init(
        report: ReportSource, debugFiles: [String] = [], searchFolders: [String] = [], searchesNearReport: Bool = true,
        resymbolicate: Bool = false, explain: Bool = false, requireAll: Bool = false, format: OutputFormat = .text,
        color: ColorChoice = .never, crashedOnly: Bool = false, headline: Bool = false, destination: Destination = .standardOutput,
        terminal: Terminal = .none, systemSymbols: SystemSymbols? = nil, language: Language = .english
    ) {
        self.systemSymbols = systemSymbols
        self.language = language
        self.report = report
        self.debugFiles = debugFiles
        self.searchFolders = searchFolders
        self.searchesNearReport = searchesNearReport
        self.resymbolicate = resymbolicate
        self.explain = explain
        self.requireAll = requireAll
        self.format = format
        self.color = color
        self.crashedOnly = crashedOnly
        self.headline = headline
        self.destination = destination
        self.terminal = terminal
    }

    /// `symbolicate App.dSYM crash.crash`: a debug file where the report goes and a report
    /// among the debug files is a swap, not two errors. Returns the arguments the right way
    /// round, or nil when they already are.
    package static func swapped(report: String, debugFiles: [String]) -> (report: String, debugFiles: [String])? {
        guard DebugFileDiscovery.looksLikeDebugFile(report),
            let index = debugFiles.firstIndex(where: {
                !DebugFileDiscovery.looksLikeDebugFile($0) && ReportSniffer.looksLikeReport(path: $0)
            })
        else { return nil }
        var files = debugFiles
        files[index] = report
        return (debugFiles[index], files)
    }

    /// The headline goes into the output when asked (`--headline`) or when the output is a
    /// terminal; files and pipes get the report in Apple's layout, which other tools parse.
    package var headlineInOutput: Bool {
        headline || (destination == .standardOutput && terminal.standardOutputIsTerminal)
    }

    /// Files never get escape codes: they are read by editors and other tools.
    package var usesColor: Bool {
        destination == .standardOutput && color.enabled(on: terminal)
    }

    /// Where the headline goes when it is not in the output (text and ips only: JSON and
    /// Markdown carry it themselves), or nil.
    package var separateHeadlineStream: OutputStream? {
        guard !headlineInOutput, format == .text || format == .ips else { return nil }
        if case .file = destination, terminal.standardOutputIsTerminal { return .standardOutput }
        return .standardError
    }

    /// Runs the request. Never throws and never prints: what went wrong is in the response's
    /// messages and status.
    public func run() -> ReportResponse {
        var response = ReportResponse()
        var request = self
        if let path = report.userPath, let (report, debugFiles) = Self.swapped(report: path, debugFiles: debugFiles) {
            response.messages.append(.swappedArguments(debugFile: path, report: report))
            request.report = .file(report)
            request.debugFiles = debugFiles
        }
        request.proceed(&response)
        return response
    }

    /// True when the caller gave up on the run (`shouldStop`): the response then fails with `.stopped`.
    private func stopped(_ response: inout ReportResponse) -> Bool {
        guard let shouldStop, shouldStop() else { return false }
        response.fail(.stopped)
        return true
    }

    private func proceed(_ response: inout ReportResponse) {
        if stopped(&response) { return }
        let reportPath = report.userPath
        let nearReport = debugFiles.isEmpty && searchesNearReport && reportPath != nil
        // The report first (a MetricKit payload holds several: each is a report of its own):
        // a report that does not exist (a typo) or cannot be read is said at once, before any
        // folder is searched or zip unpacked for its debug files; a server's preparation
        // brings in what the reports need.
        var reports: [CrashReport]
        do { reports = try ReportPipeline.read(report) } catch { return response.fail(.unreadableReport(error)) }
        if stopped(&response) { return }
        let assembly: RunAssembly
        do {
            assembly = try assemble(for: reports, nearReport: nearReport)
        } catch {
            return response.fail(.debugFiles(error))
        }
        response.messages += assembly.messages
        response.xcodeIndexAnswers = assembly.xcodeIndexAnswers
        response.debugFileIndexBuilds = assembly.indexBuilds
        let index = assembly.index
        if nearReport || !searchFolders.isEmpty {
            response.messages.append(.searched(DebugFileSearch(index, nearReport: nearReport, searchPath: !searchFolders.isEmpty)))
        }
        if case .file(let output) = destination,
            let input = OutputSafety.input(
                replacedBy: output, inputs: [reportPath].compactMap { $0 } + debugFiles + index.entries.map(\.path))
        {
            return response.fail(.outputReplacesInput(output: output, input: input))
        }
        // Unreadable files met while searching implicitly are only worth a word when they
        // concern a dSYM; explicit inputs always get one.
        for problem in index.problems where !debugFiles.isEmpty || problem.mentionsDSYM {
            response.messages.append(.debugFileProblem(problem))
        }
        response.messages += Self.emptyFolders(debugFiles, index: index).map(ReportMessage.emptyDebugFolder)
        var saidWhereDSYMsAre = false
        let pipeline = assembly.pipeline
        let presenter = Presenter(format: format, color: usesColor, crashedOnly: crashedOnly, headline: headlineInOutput)
        var pieces: [String] = []
        // Apple's text goes out as it is rendered, to the file or to the caller's standard
        // output: a million frames are never held as one string (scrubbing needs it whole).
        var streamed: StreamedText?
        if format == .text, !scrub {
            switch destination {
            case .file(let path):
                do { streamed = StreamedText(file: try AtomicFileWriter(path: path), path: path) } catch {
                    return response.fail(.cannotWrite(path: path, reason: error.localizedDescription))
                }
            case .standardOutput:
                if let standardOutputSink { streamed = StreamedText(sink: standardOutputSink) }
            }
        }
        // A run that ends before the commit leaves no file, and no temporary one.
        var committed = false
        defer { if !committed { streamed?.file?.discard() } }
        var written = 0
        // Each report is handed over to `process` (see there), first one first.
        reports.reverse()
        while let report = reports.popLast() {
            if stopped(&response) { return }
            var processed = pipeline.process(consume report)
            if explain {
                if stopped(&response) { return }
                processed.diagnose(language: language)
            }
            if stopped(&response) { return }
            processed.addSourceContext(from: sourceContext)
            let summary = processed.summary ?? SymbolicationSummary()
            response.messages += (remoteDebugFiles?.takeMessages() ?? []).map(ReportMessage.symbolSources)
            response.messages += (systemSymbols?.takeMessages() ?? []).map(ReportMessage.systemSymbols)
            response.messages += processed.report.warnings.map(ReportMessage.parseWarning)
            response.messages += summary.diagnostics.map(ReportMessage.image)
            if !saidWhereDSYMsAre, let missing = summary.diagnostics.first(where: \.needsTheBuildsDSYM) {
                saidWhereDSYMsAre = true
                response.messages.append(missing.isDebugBuildCode ? .whereDebugBuildsKeepDWARF(image: missing.imageName) : .whereDSYMsAre)
            }
            if verbose {
                // In the report's image order; each image once.
                var said = Set<String>()
                for image in processed.report.binaryImages where said.insert(image.name).inserted {
                    if let from = summary.debugFiles[image.name] { response.messages.append(.debugFileUsed(image: image.name, from: from)) }
                }
            }
            if !debugFiles.isEmpty {
                response.messages += UnusedDebugFile.find(index: index, summary: summary).map(ReportMessage.unusedDebugFile)
            }
            if let stream = separateHeadlineStream {
                response.messages.append(.headline(Headline(report: processed.report).text, on: stream))
            }
            response.reports.append(processed)
            if var text = streamed?.chunks {
                if let sink = streamed?.sink {
                    sink.messages(response.messages)
                    response.messages.removeAll()
                }
                if written > 0 { text.write("\n") }
                processed.writeText(with: presenter, withDiagnosis: explain, to: &text)
                text.flush()
                written += 1
                if let error = text.error {
                    return response.fail(.cannotWrite(path: streamed?.path ?? "standard output", reason: error.localizedDescription))
                }
                continue
            }
            do {
                pieces.append(try processed.render(with: presenter, withDiagnosis: explain))
            } catch {
                return response.fail(.cannotRender(error))
            }
        }
        if let streamed {
            if let file = streamed.file {
                committed = true
                do { try file.commit() } catch {
                    return response.fail(.cannotWrite(path: streamed.path ?? "", reason: error.localizedDescription))
                }
            }
            return finishRequireAll(&response)
        }
        // Several reports: text formats one after the other, JSON as an array.
        var rendered = ReportPipeline.join(pieces, asJSONArray: format == .json)
        if scrub { rendered = ReportPipeline.scrub(rendered, reports: response.reports.map(\.report)) }
        response.output = rendered
        switch destination {
        case .standardOutput:
            response.standardOutput = rendered
        case .file(let path):
            do { try writeAtomically(rendered, to: path) } catch {
                return response.fail(.cannotWrite(path: path, reason: error.localizedDescription))
            }
        }
        finishRequireAll(&response)
    }

    /// `--require-all`: the shortfalls of every report, after its output.
    private func finishRequireAll(_ response: inout ReportResponse) {
        if requireAll {
            // An app image without a debug file has its own warning; frames no image covers
            // and a report with nothing to check get one here: the gate fails on them too.
            for processed in response.reports {
                let shortfalls = RequireAllShortfall.shortfalls(of: processed)
                response.messages += shortfalls.map { .requireAll(path: processed.report.path, $0) }
                if processed.summary?.hasUnsymbolicatedAppImage == true || !shortfalls.isEmpty { response.status = .failed }
            }
        }
    }

    /// The run's debug files and annotator, built once: a server's prepared index, or the
    /// request's inputs indexed (with Xcode's dSYMs for app images they lack).
    private func assemble(for reports: [CrashReport], nearReport: Bool) throws(DiscoveryError) -> RunAssembly {
        let options = Annotator.Options(resymbolicate: resymbolicate)
        if let prepare = preparedDebugFiles {
            let prepared = try prepare(reports)
            return RunAssembly(
                index: prepared.index, sessions: prepared.sessions, options: options, systemSymbols: systemSymbols,
                remoteDebugFiles: remoteDebugFiles, shouldStop: shouldStop)
        }
        let inputs = DebugFileInputs(
            explicit: debugFiles,
            shallowFolders: nearReport ? report.userPath.map(DebugFileIndex.defaultSearchFolders(forReport:)) ?? [] : [],
            searchFolders: searchFolders, zipCache: zipCache, xcodeDSYMs: debugFiles.isEmpty ? xcodeDSYMs : nil)
        return try RunAssembly(
            inputs, reports: reports, options: options, objectPathMap: objectPathMap, systemSymbols: systemSymbols,
            remoteDebugFiles: remoteDebugFiles, shouldStop: shouldStop)
    }

    /// The folders among `inputs` that gave the index no debug file: a folder of the wrong
    /// build's files, or of nothing, is named rather than left for "no dSYM for X" to imply.
    static func emptyFolders(_ inputs: [String], index: DebugFileIndex) -> [String] {
        inputs.filter { input in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue,
                !input.hasSuffix(".dSYM"), !input.hasSuffix(".dSYM/")
            else { return false }
            let folder = URL(fileURLWithPath: input).standardizedFileURL.path
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            return !index.entries.contains { entry in
                [entry.path, entry.displayPath].contains { URL(fileURLWithPath: $0).standardizedFileURL.path.hasPrefix(prefix) }
            }
        }
    }
}

/// What a `report` or `explain` run produced.
public struct ReportResponse: Sendable {
    /// Everything to tell the user besides the output, in order (`text(tool:)` gives the bytes).
    public var messages: [ReportMessage] = []
    /// The reports, symbolicated and (when asked) diagnosed.
    public var reports: [ProcessedReport] = []
    /// The rendered output (what `-o` received or standard output shows); nil when the run
    /// stopped before it, or when Apple's text went out as it was rendered (to `-o`, or to
    /// `ReportRequest.standardOutputSink`) and is held nowhere.
    public var output: String?
    /// What the caller prints on standard output: the output when it was not written to a file.
    public var standardOutput: String?
    public var status: ExitStatus = .success
    /// App images whose dSYM the index of Xcode's folders answered (checked) with no folder
    /// walked: a second run for the same report counts them all here.
    public var xcodeIndexAnswers = 0
    /// How many times the run indexed its debug-file inputs: one (zero when it stopped before).
    package var debugFileIndexBuilds = 0

    public init() {}

    /// The failure that stopped the run, if any.
    public var failure: ReportFailure? {
        for case .failure(let failure) in messages.reversed() { return failure }
        return nil
    }

    mutating func fail(_ failure: ReportFailure) {
        messages.append(.failure(failure))
        status = failure.exitStatus
    }
}

/// An index with its opened debug files, shared by many runs (a server's requests).
package final class PreparedDebugFiles: Sendable {
    package let index: DebugFileIndex
    package let sessions: DebugSessionCache

    package init(index: DebugFileIndex, sessions: DebugSessionCache = DebugSessionCache()) {
        self.index = index
        self.sessions = sessions
    }
}

/// Where a run's text output is streamed: a file being written atomically, or the caller's
/// standard output.
private struct StreamedText {
    var file: AtomicFileWriter?
    var path: String?
    var sink: StandardOutputSink?
    var chunks: TextChunks

    init(file: AtomicFileWriter, path: String) {
        self.file = file
        self.path = path
        chunks = TextChunks { try file.write($0) }
    }

    init(sink: StandardOutputSink) {
        self.sink = sink
        chunks = TextChunks(deliver: sink.text)
    }
}
