import ArgumentParser
import Foundation
import SymbolicateBatch
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation

#if SymbolSources
    import SymbolicateSymbolSources
#endif

/// `symbolicate batch`: many reports at once, for CI.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Symbolicate many crash reports at once and summarise them for CI.",
        discussion: """
            INPUTS are report files, folders (searched recursively) and .zip files of reports \
            (- reads one report, or a zip of reports, from standard input: <stdin> in the summaries); \
            formats are detected by content. Files met in folders and zips that do not look like \
            crash reports are skipped. Each report is written to the output folder under the same \
            relative name (a folder's reports keep their path below it, a zip's go below \
            ZIPNAME/); .ips becomes .crash text unless --format ips. Reruns replace files atomically; \
            inputs are never modified.

            Debug files are indexed once, each dSYM is opened once per run, and reports are \
            processed in parallel. The output folder also receives summary.md (crashes grouped \
            by signature — exception plus first app frame — largest group first; ready for \
            $GITHUB_STEP_SUMMARY) and summary.json. A progress bar is drawn on stderr when it is \
            a terminal; otherwise (a CI log) a progress line is written every few seconds (--quiet: neither).

            Exit codes: 0 done (and --fail-on did not trip), or no crash report in the inputs (said: \
            nothing to do); 1 the --fail-on policy tripped; \
            64 usage error (including a --dsyms path that does not exist); 65 reports or inputs were \
            given but none could be read; 73 the output folder, a summary file or the JUnit file cannot be written. One unreadable report is listed in the summary and does not stop the others.
            """
    )

    @Argument(
        help:
            "Crash reports and logs (any input the report command takes), folders of them (recursive, .xccrashpoint bundles included) and .zip files of them."
    )
    var inputs: [String]

    @Option(
        name: .customLong("dsyms"), parsing: .upToNextOption,
        help:
            "dSYM bundles, DWARF files, folders, .xcarchive or .zip files (SYMBOLICATE_DSYM_PATH is searched too). Takes every value up to the next option: put INPUTS first."
    )
    var debugFiles: [String] = []

    @Option(name: [.short, .customLong("output")], help: "Folder for the symbolicated reports and summary files (created if missing).")
    var output: String

    @OptionGroup var format: FormatOption<BatchCommand>

    // `-j1` as well as `-j 1`: make's spelling, which people type from habit.
    @Option(
        name: [.customShort("j", allowingJoined: true), .customLong("jobs")], help: "Reports processed in parallel (default: all cores).")
    var jobs: Int?

    @Option(help: "Also write a JUnit XML file: one failed test case per crash group, one errored per unreadable report.")
    var junit: String?

    @Flag(help: "Print a GitHub Actions ::error annotation per crash group on stdout, at the crashing source line.")
    var githubAnnotations = false

    @Option(
        help: ArgumentHelp(
            "Build-time source folder to strip from paths in --github-annotations and --junit so they match the repository; when it is a checkout here, each crash group also shows the lines around its crash and their history from git (once per group).",
            valueName: "DIR"))
    var sourceRoot: String?

    @OptionGroup var sourceHistory: SourceHistoryOptions

    @OptionGroup var sourceDiscovery: SourceDiscoveryFlag

    @Option(
        help:
            "When to exit 1: never, crash (any crash report), unsymbolicated (an app frame left without a name) or missing-dsym (an app image without a usable dSYM). Every policy but never also trips on an unreadable report."
    )
    var failOn: BatchFailurePolicy = .never

    @OptionGroup var explain: ExplainFlag<BatchCommand>

    @OptionGroup var scrub: ScrubFlag

    @OptionGroup var language: LanguageOption

    @OptionGroup var symbolication: ResymbolicateFlag

    @OptionGroup var system: SystemSymbolOptions

    @OptionGroup var objectPaths: ObjectPathMapOption

    @OptionGroup var symbolSources: SymbolSourceOptions

    @Option(
        help: ArgumentHelp(
            "Also send each report read to a crash inbox: a `symbolicate serve --inbox` server's address (POST /v1/reports). Tried up to 3 times when the server is busy or away; each report's outcome (stored, already there, or why not sent) is in summary.json, and a report not sent makes the run exit 1.",
            valueName: "url"))
    var upload: String?

    @Option(
        help: ArgumentHelp(
            "The inbox server's upload token for --upload (default $SYMBOLICATE_SERVE_TOKEN, which keeps it out of the process list).",
            valueName: "token"))
    var token: String?

    @Flag(help: "Do not draw the progress bar even when stderr is a terminal.")
    var noProgress = false

    @Flag(
        name: .customLong("quiet"),
        help: "No progress at all: neither the bar on a terminal nor the line every few seconds on other stderr (a CI log).")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try sourceDiscovery.check(sourceRoot: sourceRoot)
        try sourceHistory.validate(sourceRoot: sourceRoot ?? (sourceDiscovery.noSourceRoot ? nil : ""))
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--output \(output) exists and is not a folder")
        }
        if token != nil, upload == nil { throw ValidationError("--token is the inbox's upload token: give --upload URL with it") }
    }

    #if SymbolSources
        /// `--upload`: the uploader batch hands each report's bytes to, mapped to batch's outcomes.
        func uploader() throws -> (BatchUploader, destination: String)? {
            guard let upload else { return nil }
            let sender: InboxUploader
            do {
                sender = try InboxUploader(server: upload, token: token ?? ProcessInfo.processInfo.environment["SYMBOLICATE_SERVE_TOKEN"])
            } catch {
                throw ValidationError(error.description)
            }
            let send: BatchUploader = { body, _ in
                let result = sender.upload(body)
                switch result.status {
                case .failed(let why):
                    return [BatchUpload(status: .failed, attempts: result.attempts, error: why)]
                case .answered(let outcomes):
                    return outcomes.map {
                        BatchUpload(
                            status: $0.stored ? .stored : .alreadyStored, group: $0.group, newGroup: $0.newGroup, regression: $0.regression,
                            attempts: result.attempts)
                    }
                }
            }
            return (send, sender.displayEndpoint)
        }
    #else
        /// A build without the SymbolSources trait has no HTTP client: `--upload` is a usage error naming it.
        func uploader() throws -> (BatchUploader, destination: String)? {
            guard upload == nil else { throw ValidationError(BuildTraits.missing(.symbolSources, for: "--upload")) }
            return nil
        }
    #endif

    func run() throws {
        var request = BatchRequest(
            inputs: inputs, debugFiles: debugFiles, searchFolders: DebugFileIndex.extraSearchFolders(), outputFolder: output,
            format: format.format, jobs: jobs, junit: junit, githubAnnotations: githubAnnotations, sourceRoot: sourceRoot,
            failOn: failOn, explain: explain.explain, resymbolicate: symbolication.resymbolicate,
            systemSymbols: system.systemSymbols(), language: language.resolved)
        request.remoteDebugFiles = try symbolSources.sources(showingProgress: false)
        request.zipCache = symbolSources.zipCache()
        request.objectPathMap = objectPaths.objectPathMap
        if let (send, destination) = try uploader() {
            request.upload = send
            request.uploadDestination = destination
        }
        request.scrub = scrub.scrub
        // A build machine's folder (only stripped from paths) is no checkout to read here.
        var isFolder: ObjCBool = false
        if let sourceRoot, FileManager.default.fileExists(atPath: sourceRoot, isDirectory: &isFolder), isFolder.boolValue {
            request.sourceContext = try sourceHistory.provider(root: sourceRoot)
        } else if let sourceRoot, sourceHistory.isGiven {
            throw ValidationError("--source-root \(sourceRoot): no such folder here, so no source lines to show")
        } else if sourceRoot == nil, !sourceDiscovery.noSourceRoot {
            request.sourceContext = try sourceHistory.discoveredProvider()
        }
        let terminal = isatty(STDERR_FILENO) == 1
        let bar = (!noProgress && !quiet && terminal) ? ProgressBar(start: Date()) : nil
        if let bar { request.progress = { done, total in bar.update(done: done, total: total) } }
        // A CI log gets a line every few seconds instead (2,520 reports were 21 s of silence).
        if !quiet && !noProgress && !terminal {
            let log = ProgressLog(start: Date())
            request.progress = { done, total in log.update(done: done, total: total) }
        }
        request.dying = { message in Console.write(message.text(tool: "symbolicate"), to: message.stream) }
        let response = request.run()
        bar?.finish()
        try Console.finish(response.messages, standardOutput: response.standardOutput, status: response.status)
    }
}

extension BatchCommand: FormatHelp, ExplainHelp {
    static let formatHelp =
        "Format of each output file: text (.ips → .crash), ips (.ips stays .ips; text reports stay text), json or markdown."
    static let explainHelp = "Also put each report's diagnosis above it in its output file (summary.md always has the diagnosis column)."
}

extension BatchFailurePolicy: ExpressibleByArgument {}

/// Writes a progress line to a stderr that is no terminal: at the first report, then at most
/// every five seconds, from any worker thread; the closing line says the end.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private let start: Date
    private var lastLine: Date?
    private let line = BatchProgressLine()
    static let interval: TimeInterval = 5

    init(start: Date) { self.start = start }

    func update(done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard done < total, lastLine.map({ now.timeIntervalSince($0) >= Self.interval }) ?? true else { return }
        lastLine = now
        Console.write(line.renderLogLine(done: done, total: total, elapsed: now.timeIntervalSince(start)) + "\n", to: .standardError)
    }
}

/// Redraws one stderr line at most ten times a second, from any worker thread.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let start: Date
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let line = BatchProgressLine()

    init(start: Date) { self.start = start }

    func update(done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        drawn = true
        let text = line.render(done: done, total: total, elapsed: now.timeIntervalSince(start))
        Console.write("\r\(text)\u{1B}[K", to: .standardError)
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { Console.write("\n", to: .standardError) }
    }
}
