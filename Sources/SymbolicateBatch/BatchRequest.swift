import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// One `batch` run, as data: inputs, debug files, the output folder and what to write there.
/// `run()` holds the command's rules (outputs that may not replace inputs, what a CI log
/// shows, the `--fail-on` policy, the exit status) and prints nothing.
public struct BatchRequest: Sendable {
    /// Report files, folders (searched recursively) and zips of reports.
    public var inputs: [String]
    /// Debug-file arguments (`--dsyms`); a missing one is a usage error.
    public var debugFiles: [String]
    /// Places the user keeps debug files (`SYMBOLICATE_DSYM_PATH`).
    public var searchFolders: [String]
    public var outputFolder: String
    public var format: OutputFormat
    /// Reports processed in parallel; nil for every core.
    public var jobs: Int?
    /// Also write this JUnit XML file.
    public var junit: String?
    /// Also return GitHub Actions annotations as standard output.
    public var githubAnnotations: Bool
    /// Build-time source folder stripped from annotation and JUnit paths.
    public var sourceRoot: String?
    public var failOn: BatchFailurePolicy
    /// Put each report's diagnosis above it in its output file.
    public var explain: Bool
    /// Scrub each output file (`--scrub`): identifying values replaced, image identities kept.
    public var scrub = false
    /// The language of the diagnoses, in the output files and the summaries (`--language`).
    public var language: Language
    public var resymbolicate: Bool
    /// Called from worker threads as reports finish.
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    /// Called when the process is dying of a fatal signal mid-run (the summary of what was
    /// done is written next): the only message that cannot wait for the response.
    public var dying: (@Sendable (BatchMessage) -> Void)?
    /// Apple's libraries for system frames the reports left unnamed; nil names none.
    public var systemSymbols: SystemSymbols?
    /// Where the object files a binary's debug map names may have moved (`--object-path-map`).
    public var objectPathMap = ObjectPathMap()
    /// Symbol servers, debuginfod, dsymForUUID and their cache, for images no local debug
    /// file answered: each identity fetched once for the whole batch, several at a time.
    package var remoteDebugFiles: (any RemoteDebugFiles)?
    /// Where debug-file zips are unpacked once and kept for later runs; nil unpacks them
    /// for this run only.
    package var zipCache: ZipCache?
    /// The checkout whose lines go with each crash group (`--source-root` naming a folder that
    /// exists here); nil shows none.
    package var sourceContext: SourceContextProvider?
    /// Sends each report read to a crash inbox (`--upload URL`); nil sends nothing.
    package var upload: BatchUploader?
    /// Where `upload` sends (the URL without credentials), for the messages.
    package var uploadDestination = ""
    /// What the input `-` stands for (a report or a zip of reports piped in); read once, only
    /// when `-` is among the inputs. A report is read to one byte past its limit (a stream
    /// piped in by mistake, `cat /dev/zero | symbolicate batch -`, never fills memory); a zip
    /// goes to a private temporary file as it arrives, to `zipLimit` (`ReportInputSet`).
    package var standardInput: @Sendable () -> FileHandle = { FileHandle.standardInput }

    /// The most a zip piped into `batch -` may hold: what a run may unpack.
    package static var zipLimit: Int {
        let gib = ProcessInfo.processInfo.environment["SYMBOLICATE_MAX_UNZIP_GIB"].flatMap(Int.init) ?? 16
        return gib >= 1 << 30 ? Int.max - 1 : max(gib, 1) << 30
    }

    public init(
        inputs: [String], debugFiles: [String] = [], searchFolders: [String] = [], outputFolder: String, format: OutputFormat = .text,
        jobs: Int? = nil, junit: String? = nil, githubAnnotations: Bool = false, sourceRoot: String? = nil,
        failOn: BatchFailurePolicy = .never, explain: Bool = false, resymbolicate: Bool = false, systemSymbols: SystemSymbols? = nil,
        language: Language = .english
    ) {
        self.systemSymbols = systemSymbols
        self.language = language
        self.inputs = inputs
        self.debugFiles = debugFiles
        self.searchFolders = searchFolders
        self.outputFolder = outputFolder
        self.format = format
        self.jobs = jobs
        self.junit = junit
        self.githubAnnotations = githubAnnotations
        self.sourceRoot = sourceRoot
        self.failOn = failOn
        self.explain = explain
        self.resymbolicate = resymbolicate
    }

    var summaryMarkdownPath: String { URL(fileURLWithPath: outputFolder).appendingPathComponent("summary.md").path }
    var summaryJSONPath: String { URL(fileURLWithPath: outputFolder).appendingPathComponent("summary.json").path }

    /// The summary files and the JUnit file, with the option each comes from: none of them may
    /// replace an input.
    var summaryOutputs: [(option: BatchOutputOption, path: String)] {
        [(.output, summaryMarkdownPath), (.output, summaryJSONPath)] + (junit.map { [(.junit, $0)] } ?? [])
    }

    /// A CI log is read by people: this many lines of each kind, the rest in the summary files.
    public static let shownPerKind = 3

    /// Runs the request; never throws and never prints (but `progress` and `dying`).
    public func run() -> BatchResponse {
        let started = Date()
        var response = BatchResponse()
        // The same assembly as `report`'s, shared by every report of the run.
        let assembly: RunAssembly
        do {
            assembly = try RunAssembly(
                DebugFileInputs(explicit: debugFiles, searchFolders: searchFolders, zipCache: zipCache), reports: [],
                options: .init(resymbolicate: resymbolicate), objectPathMap: objectPathMap, systemSymbols: systemSymbols,
                remoteDebugFiles: remoteDebugFiles)
        } catch {
            return response.fail(.debugFiles(error))
        }
        let index = assembly.index
        response.messages += index.problems.map(BatchMessage.debugFileProblem)
        // Checked before the folder is created: nothing is ever made inside a dSYM bundle
        // or a folder of debug files.
        if let input = OutputGuard(inputs: debugFiles).input(replacedBy: outputFolder) {
            return response.fail(.outputReplacesInput(option: .output, output: outputFolder, input: input))
        }
        let inputSet = ReportInputSet(inputs: inputs, excluding: [outputFolder], standardInput: standardInput, zipLimit: Self.zipLimit)
        defer { inputSet.removeTemporaryFiles() }
        // Inputs are never modified: the output folder, the summaries and the JUnit file may
        // not land on one or inside one (a dSYM bundle found by the search included), checked
        // before anything is created (issue 38: empty folders were left inside the bundle).
        let inputGuard = OutputGuard(inputs: inputSet.reports.map(\.path) + debugFiles + index.entries.map(\.path))
        for (option, path) in [(BatchOutputOption.output, outputFolder)] + summaryOutputs {
            if let input = inputGuard.input(replacedBy: path) {
                return response.fail(.outputReplacesInput(option: option, output: path, input: input))
            }
        }
        do throws(OutputFileError) {
            // Through trusted links only: no other user's link on the way is followed.
            try TrustedFolders.createFolders(outputFolder)
        } catch {
            return response.fail(.cannotCreateFolder(path: outputFolder, reason: error.reason))
        }

        var options = BatchOptions(
            outputDirectory: outputFolder, format: format, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            explainInOutput: explain, language: language)
        options.scrub = scrub
        options.sourceContext = sourceContext
        options.upload = upload
        let runner = BatchRunner(annotator: assembly.annotator, options: options)
        // A report that kills the process (a trap, a segfault) still leaves a summary behind.
        let crashGuard = BatchCrashGuard { [inputSet, self] results in
            let summary = BatchSummary(
                results: results, inputProblems: inputSet.problems, skipped: inputSet.skipped, skippedReasons: inputSet.skipReasons)
            dying?(.diedMidRun(outputFolder: outputFolder))
            try? writeSummaryFiles(summary)
        }
        let results = runner.run(inputSet.reports, progress: progress, crashGuard: crashGuard)
        let summary = BatchSummary(
            results: results, inputProblems: inputSet.problems, skipped: inputSet.skipped, skippedReasons: inputSet.skipReasons)
        response.summary = summary
        // Many reports, many OS builds: the ones without a DeviceSupport folder in one line.
        response.messages += (remoteDebugFiles?.takeMessages() ?? []).map(BatchMessage.symbolSources)
        response.messages += (systemSymbols?.takeMessages(collapsingMissing: true) ?? []).map(BatchMessage.systemSymbols)
        response.messages += Self.logLines(summary)
        if upload != nil { response.messages += Self.uploadLines(summary, destination: uploadDestination) }
        var summaryFailure: BatchFailure?
        do {
            try writeSummaryFiles(summary)
        } catch {
            summaryFailure = .cannotWriteSummary(reason: error.localizedDescription)
            response.messages.append(.failure(.cannotWriteSummary(reason: error.localizedDescription)))
        }
        if githubAnnotations { response.standardOutput = summary.renderGitHubAnnotations(sourceRoot: sourceRoot) }
        response.messages.append(
            .finished(
                BatchTiming(seconds: Date().timeIntervalSince(started), jobs: runner.options.jobs), summary.totals,
                summaryPath: summaryMarkdownPath))
        if summary.totals.processed == 0 {
            // Nothing to do is not an error for CI (a UI-test run that produced no crash
            // report is the good case): said, and exit 0. Reports that could not be read are.
            guard summary.totals.reports == 0, inputSet.problems.isEmpty else { return response.fail(.noReadableReport) }
            response.messages.append(.noReports(inputs: inputs.map { $0 == StandardInput.argument ? StandardInput.displayName : $0 }))
            return response
        }
        if let summaryFailure {
            response.status = summaryFailure.exitStatus
            return response
        }
        if let violation = failOn.violation(in: summary) {
            response.messages.append(.failOnTripped(failOn, violation: violation))
            response.status = .failed
        }
        // Asked for and not done: a report that did not reach the inbox fails the run.
        if let uploads = summary.totals.uploads, uploads.failed > 0 { response.status = .failed }
        return response
    }

    /// The first few unreadable reports and app images without a usable dSYM, each kind
    /// closed by a count of the rest.
    static func logLines(_ summary: BatchSummary) -> [BatchMessage] {
        var lines: [BatchMessage] = []
        let unreadable = summary.unreadable
        lines += unreadable.prefix(shownPerKind).map(BatchMessage.unreadable)
        if unreadable.count > shownPerKind { lines.append(.moreUnreadable(unreadable.count - shownPerKind)) }
        let missingApp = summary.missingDebugFiles.filter(\.isAppImage)
        lines += missingApp.prefix(shownPerKind).map(BatchMessage.missingDebugFile)
        if missingApp.count > shownPerKind { lines.append(.moreMissingDebugFiles(missingApp.count - shownPerKind)) }
        return lines
    }

    /// What `--upload` did: the first few failures by report, a count of the rest, and the
    /// figures of the whole run.
    static func uploadLines(_ summary: BatchSummary, destination: String) -> [BatchMessage] {
        guard let totals = summary.totals.uploads else { return [] }
        let failed = summary.reports.filter { $0.upload?.status == .failed }
        var lines = failed.prefix(shownPerKind).map { BatchMessage.uploadFailed(input: $0.input, error: $0.upload?.error ?? "") }
        if failed.count > shownPerKind { lines.append(.moreUploadFailures(failed.count - shownPerKind)) }
        lines.append(.uploaded(totals, destination: destination))
        return lines
    }

    /// summary.md, summary.json and the JUnit file when asked for.
    func writeSummaryFiles(_ summary: BatchSummary) throws {
        try writeAtomically(summary.renderMarkdown(language: language), to: summaryMarkdownPath)
        try summary.writeJSON(to: summaryJSONPath)
        if let junit { try writeAtomically(summary.renderJUnit(sourceRoot: sourceRoot), to: junit) }
    }
}

/// The option an output path comes from, as the error names it.
public enum BatchOutputOption: String, Sendable, Equatable {
    case output = "--output"
    case junit = "--junit"
}

/// How long a batch took, for the closing line.
public struct BatchTiming: Sendable, Equatable {
    public var seconds: Double
    public var jobs: Int

    public init(seconds: Double, jobs: Int) {
        self.seconds = seconds
        self.jobs = jobs
    }
}

/// Why a batch run stopped, or could not write what it owed.
public enum BatchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `--dsyms` path is missing or unusable (a usage error in batch mode).
    case debugFiles(DiscoveryError)
    case cannotCreateFolder(path: String, reason: String)
    /// A summary file or the JUnit file would replace an input.
    case outputReplacesInput(option: BatchOutputOption, output: String, input: String)
    case cannotWriteSummary(reason: String)
    /// Reports were found but none could be read.
    case noReadableReport

    public var exitStatus: ExitStatus {
        switch self {
        case .debugFiles, .outputReplacesInput: return .usage
        case .cannotCreateFolder, .cannotWriteSummary: return .cannotWrite
        case .noReadableReport: return .invalidInput
        }
    }

    public var description: String {
        switch self {
        case .debugFiles(let error): return error.description
        case .cannotCreateFolder(let path, let reason): return "cannot create \(path): \(reason)"
        case .outputReplacesInput(let option, let output, let input):
            return "\(option.rawValue) \(output) would replace the input \(input); choose another \(option == .junit ? "file" : "folder")"
        case .cannotWriteSummary(let reason): return "cannot write the summary: \(reason)"
        case .noReadableReport: return "no report could be read"
        }
    }
}

/// Everything `batch` tells the user besides the files it writes, in order.
public enum BatchMessage: RunMessage, Equatable {
    case debugFileProblem(DebugFileProblem)
    case unreadable(BatchSummary.Unreadable)
    case moreUnreadable(Int)
    case missingDebugFile(BatchSummary.MissingDebugFile)
    case moreMissingDebugFiles(Int)
    /// The closing line: counts, time and where the summary is.
    case finished(BatchTiming, BatchSummary.Totals, summaryPath: String)
    case failOnTripped(BatchFailurePolicy, violation: String)
    /// The inputs hold no crash report (and nothing failed to read): nothing to do, exit 0.
    case noReports(inputs: [String])
    /// Said from the fatal-signal handler, before the summary of what was done is written.
    case diedMidRun(outputFolder: String)
    /// What a system-symbols place held, OS builds without one (its own `warning:` when it is one).
    case systemSymbols(String)
    /// What symbol servers, debuginfod, dsymForUUID or the cache said (its own `warning:`).
    case symbolSources(String)
    /// A report `--upload` could not send, and why.
    case uploadFailed(input: String, error: String)
    case moreUploadFailures(Int)
    /// What `--upload` did, in figures.
    case uploaded(BatchUploadTotals, destination: String)
    case failure(BatchFailure)

    public var severity: MessageSeverity {
        switch self {
        case .debugFileProblem, .missingDebugFile, .moreMissingDebugFiles: return .warning
        case .unreadable, .moreUnreadable, .diedMidRun, .failure, .uploadFailed, .moreUploadFailures: return .error
        case .finished, .failOnTripped, .systemSymbols, .symbolSources, .noReports, .uploaded: return .plain
        }
    }

    public var body: String {
        switch self {
        case .debugFileProblem(let problem): return problem.description
        case .unreadable(let item): return "\(item.input): \(item.error)"
        case .moreUnreadable(let count): return "… and \(count) more unreadable reports (summary.md)"
        case .missingDebugFile(let missing): return missing.summaryLine
        case .moreMissingDebugFiles(let count): return "… and \(count) more app images without a usable dSYM (summary.md)"
        case .finished(let timing, let totals, let summaryPath):
            let rate = timing.seconds > 0 ? Double(totals.processed) / timing.seconds : 0
            let time = String(format: "%.2f s (%.1f reports/s", timing.seconds, rate)
            var message = "\(totals.processed) of \(totals.reports) reports processed in \(time), "
            message +=
                "\(timing.jobs) job\(timing.jobs == 1 ? "" : "s")), \(totals.groups) crash signature\(totals.groups == 1 ? "" : "s"), "
            message += "\(totals.otherReports) other report\(totals.otherReports == 1 ? "" : "s"), "
            if totals.partialReports > 0 { message += "\(totals.partialReports) partial, " }
            message += "\(totals.unreadable) unreadable; summary in \(summaryPath)"
            return message
        case .failOnTripped(let policy, let violation): return "--fail-on \(policy.rawValue): \(violation)"
        case .noReports(let inputs):
            let named =
                inputs.count > 3
                ? inputs.prefix(3).joined(separator: ", ") + " and \(inputs.count - 3) more" : inputs.joined(separator: ", ")
            return "no crash reports in \(named): nothing to do"
        case .diedMidRun(let folder): return "symbolicate died mid-run; summary of what was done written to \(folder)"
        case .systemSymbols(let line), .symbolSources(let line): return line
        case .uploadFailed(let input, let error): return "\(input): not sent to the inbox: \(error)"
        case .moreUploadFailures(let count): return "… and \(count) more reports not sent to the inbox (summary.json)"
        case .uploaded(let totals, let destination):
            var parts = ["\(totals.stored) stored", "\(totals.alreadyStored) already there"]
            if totals.newGroups > 0 { parts.append("\(totals.newGroups) in new groups") }
            if totals.regressions > 0 { parts.append("\(totals.regressions) regression\(totals.regressions == 1 ? "" : "s")") }
            parts.append("\(totals.failed) not sent")
            return "uploaded to \(destination): " + parts.joined(separator: ", ")
        case .failure(let failure): return failure.description
        }
    }
}

/// What a batch run produced.
public struct BatchResponse: Sendable {
    public var messages: [BatchMessage] = []
    /// The summary of every report; nil when the run stopped before processing.
    public var summary: BatchSummary?
    /// GitHub Actions annotations, when asked for.
    public var standardOutput: String?
    public var status: ExitStatus = .success

    public init() {}

    mutating func fail(_ failure: BatchFailure) -> BatchResponse {
        messages.append(.failure(failure))
        status = failure.exitStatus
        return self
    }
}
