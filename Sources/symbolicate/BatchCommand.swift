import ArgumentParser
import Foundation
import SymbolicateBatch
import SymbolicateDiscovery
import SymbolicatePresentation
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// `symbolicate batch`: many reports at once, for CI.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Symbolicate many crash reports at once and summarise them for CI.",
        discussion: """
            INPUTS are report files, folders (searched recursively) and .zip files of reports; \
            formats are detected by content. Files met in folders and zips that do not look like \
            crash reports are skipped. Each report is written to the output folder under the same \
            relative name (a folder's reports keep their path below it, a zip's go below \
            ZIPNAME/); .ips becomes .crash text unless --format ips. Reruns replace files atomically; \
            inputs are never modified.

            Debug files are indexed once, each dSYM is opened once per run, and reports are \
            processed in parallel. The output folder also receives summary.md (crashes grouped \
            by signature — exception plus first app frame — largest group first; ready for \
            $GITHUB_STEP_SUMMARY) and summary.json. A progress bar is drawn on stderr when it is \
            a terminal.

            Exit codes: 0 done (and --fail-on did not trip); 1 the --fail-on policy tripped; \
            64 usage error (including a --dsyms path that does not exist); 65 no report could be \
            read at all; 73 the output folder, a summary file or the JUnit file cannot be written. One unreadable report is listed in the summary and does not stop the others.
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

    @Option(help: "Format of each output file: text (.ips → .crash), ips (.ips stays .ips; text reports stay text), json or markdown.")
    var format: OutputFormatArgument = .text

    @Option(name: [.short, .customLong("jobs")], help: "Reports processed in parallel (default: all cores).")
    var jobs: Int?

    @Option(help: "Also write a JUnit XML file: one failed test case per crash group, one errored per unreadable report.")
    var junit: String?

    @Flag(help: "Print a GitHub Actions ::error annotation per crash group on stdout, at the crashing source line.")
    var githubAnnotations = false

    @Option(help: "Build-time source folder to strip from paths in --github-annotations and --junit so they match the repository.")
    var sourceRoot: String?

    @Option(
        help:
            "When to exit 1: never, crash (any crash report), unsymbolicated (an app frame left without a name) or missing-dsym (an app image without a usable dSYM). Every policy but never also trips on an unreadable report."
    )
    var failOn: FailOnArgument = .never

    @Flag(help: "Also put each report's diagnosis above it in its output file (summary.md always has the diagnosis column).")
    var explain = false

    @Flag(help: "Also rewrite frames the OS already symbolicated.")
    var resymbolicate = false

    @OptionGroup var system: SystemSymbolOptions

    @Flag(help: "Do not draw the progress bar even when stderr is a terminal.")
    var noProgress = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--output \(output) exists and is not a folder")
        }
    }

    func run() throws {
        let started = Date()
        let index: DebugFileIndex
        do {
            index = try DebugFileIndex(inputs: debugFiles, searchFolders: DebugFileIndex.extraSearchFolders())
        } catch {
            Console.error(error.description)
            throw Exit.usage
        }
        for problem in index.problems { Console.warning(problem) }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            Console.error("cannot create \(output): \(error.localizedDescription)")
            throw Exit.cannotWrite
        }

        let inputSet = ReportInputSet(inputs: inputs, excluding: [output])
        defer { inputSet.removeTemporaryFiles() }
        // Inputs are never modified: the summaries and the JUnit file may not land on one.
        let inputGuard = OutputGuard(inputs: inputSet.reports.map(\.path) + debugFiles + index.entries.map(\.path))
        let folder = URL(fileURLWithPath: output)
        for (option, path) in [
            ("--output", folder.appendingPathComponent("summary.md").path),
            ("--output", folder.appendingPathComponent("summary.json").path),
        ] + (junit.map { [("--junit", $0)] } ?? []) {
            if let input = inputGuard.input(replacedBy: path) {
                Console.error(
                    "\(option) \(path) would replace the input \(input); choose another \(option == "--junit" ? "file" : "folder")")
                throw Exit.usage
            }
        }

        let systemSymbols = system.systemSymbols()
        let runner = BatchRunner(
            annotator: Annotator(index: index, options: .init(resymbolicate: resymbolicate), systemSymbols: systemSymbols),
            options: BatchOptions(
                outputDirectory: output, format: format.value,
                jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, explainInOutput: explain))
        let bar = (!noProgress && isatty(STDERR_FILENO) == 1) ? ProgressBar(start: Date()) : nil
        var progress: (@Sendable (Int, Int) -> Void)?
        if let bar {
            progress = { done, total in bar.update(done: done, total: total) }
        }
        // A report that kills the process (a trap, a segfault) still leaves a summary behind.
        let crashGuard = BatchCrashGuard { [inputSet] results in
            let summary = BatchSummary(results: results, inputProblems: inputSet.problems, skipped: inputSet.skipped)
            Console.error("symbolicate died mid-run; summary of what was done written to \(output)")
            try? writeSummaryFiles(summary)
        }
        let results = runner.run(inputSet.reports, progress: progress, crashGuard: crashGuard)
        bar?.finish()

        let summary = BatchSummary(results: results, inputProblems: inputSet.problems, skipped: inputSet.skipped)
        for line in systemSymbols.takeMessages(collapsingMissing: true) { Console.line(line) }
        // A CI log is read by people: a few lines, grouped; the rest is in the summary files.
        let shown = 3
        let unreadable = summary.unreadable
        for item in unreadable.prefix(shown) { Console.error("\(item.input): \(item.error)") }
        if unreadable.count > shown { Console.error("… and \(unreadable.count - shown) more unreadable reports (summary.md)") }
        let missingApp = summary.missingDebugFiles.filter(\.isAppImage)
        for missing in missingApp.prefix(shown) { Console.warning(missing.summaryLine) }
        if missingApp.count > shown {
            Console.warning("… and \(missingApp.count - shown) more app images without a usable dSYM (summary.md)")
        }
        var failed = false
        do {
            try writeSummaryFiles(summary)
        } catch {
            Console.error("cannot write the summary: \(error.localizedDescription)")
            failed = true
        }
        if githubAnnotations {
            FileHandle.standardOutput.write(Data(summary.renderGitHubAnnotations(sourceRoot: sourceRoot).utf8))
        }

        let seconds = Date().timeIntervalSince(started)
        let rate = seconds > 0 ? Double(summary.totals.processed) / seconds : 0
        let jobCount = runner.options.jobs
        let timing = String(format: "%.2f s (%.1f reports/s", seconds, rate)
        let groups = summary.totals.groups
        let summaryPath = URL(fileURLWithPath: output).appendingPathComponent("summary.md").path
        var message = "\(summary.totals.processed) of \(summary.totals.reports) reports processed in \(timing), "
        message += "\(jobCount) job\(jobCount == 1 ? "" : "s")), \(groups) crash signature\(groups == 1 ? "" : "s"), "
        message += "\(summary.totals.otherReports) other report\(summary.totals.otherReports == 1 ? "" : "s"), "
        if summary.totals.partialReports > 0 { message += "\(summary.totals.partialReports) partial, " }
        message += "\(summary.totals.unreadable) unreadable; summary in \(summaryPath)"
        Console.line(message)

        if summary.totals.processed == 0 {
            Console.error(summary.totals.reports == 0 ? "no crash reports found in the inputs" : "no report could be read")
            throw Exit.invalidInput
        }
        if failed { throw Exit.cannotWrite }
        if let violation = failOn.value.violation(in: summary) {
            Console.line("--fail-on \(failOn.rawValue): \(violation)")
            throw Exit.failed
        }
    }
}

extension BatchCommand {
    /// summary.md, summary.json and the JUnit file when asked for.
    func writeSummaryFiles(_ summary: BatchSummary) throws {
        try writeAtomically(summary.renderMarkdown(), to: URL(fileURLWithPath: output).appendingPathComponent("summary.md").path)
        try summary.writeJSON(to: URL(fileURLWithPath: output).appendingPathComponent("summary.json").path)
        if let junit { try writeAtomically(summary.renderJUnit(sourceRoot: sourceRoot), to: junit) }
    }
}

/// `--fail-on` values.
enum FailOnArgument: String, ExpressibleByArgument, CaseIterable {
    case never, crash, unsymbolicated
    case missingDSYM = "missing-dsym"
    var value: BatchFailurePolicy {
        switch self {
        case .never: return .never
        case .crash: return .crash
        case .unsymbolicated: return .unsymbolicated
        case .missingDSYM: return .missingDSYM
        }
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
        FileHandle.standardError.write(Data("\r\(text)\u{1B}[K".utf8))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
