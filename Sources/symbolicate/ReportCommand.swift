import ArgumentParser
import Foundation
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicateKit

/// `symbolicate REPORT [DEBUG_FILES…]`: symbolicate one crash report.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Symbolicate one crash report (the default subcommand).",
        discussion: """
            DEBUG_FILES are dSYM bundles, DWARF or Mach-O files, folders (searched recursively), \
            .xcarchive folders or .zip files. With none, the report's folder, the current \
            directory and SYMBOLICATE_DSYM_PATH (colon-separated) are searched. Images whose \
            debug file is missing or does not match are listed on stderr. With no debug file at \
            all the report is printed normalised (.ips rendered in Apple's text layout).
            """
    )

    @Argument(help: "The crash report: .crash/.txt text or .ips JSON, detected by content.")
    var report: String

    @Argument(help: "dSYM bundles, DWARF files, folders, .xcarchive or .zip files.")
    var debugFiles: [String] = []

    @Option(help: "Output format: text, ips (.ips input only), json or markdown.")
    var format: OutputFormatArgument = .text

    @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically) instead of stdout.")
    var output: String?

    @Option(help: "Colour the crashed thread and app frames: auto, always or never (NO_COLOR is honoured).")
    var color: ColorChoice = .auto

    @Flag(help: "Print only the headline and the crashed thread.")
    var crashedOnly = false

    @Flag(help: "Also rewrite frames the OS already symbolicated.")
    var resymbolicate = false

    @Flag(help: "Exit 1 when any app image could not be symbolicated (missing or mismatched dSYM).")
    var requireAll = false

    @Flag(help: "Explain the crash in plain words (meaning, evidence, likely causes, next steps) above the report.")
    var explain = false

    func run() async throws {
        let index: DebugFileIndex
        do {
            index = try DebugFileIndex(
                inputs: debugFiles,
                searchFolders: debugFiles.isEmpty
                    ? DebugFileIndex.defaultSearchFolders(forReport: report)
                    : DebugFileIndex.extraSearchFolders())
        } catch {
            Console.error(error.description)
            throw Exit.invalidInput
        }
        // Unreadable files met while searching implicitly are only worth a word when they
        // look like debug files; explicit inputs always get one.
        for problem in index.problems where !debugFiles.isEmpty || problem.lowercased().contains(".dsym") {
            Console.warning(problem)
        }

        let annotator = Annotator(index: index, options: .init(resymbolicate: resymbolicate))
        let data: Data
        var parsed: CrashReport
        do {
            data = try CrashReport.read(contentsOf: report)
            parsed = try CrashReport.parse(data: data, path: report)
        } catch {
            Console.error(error.description)
            throw Exit.invalidInput
        }
        let summary = annotator.annotate(&parsed)
        for warning in parsed.warnings { Console.line(warning.description) }
        for diagnostic in summary.diagnostics { Console.warning(diagnostic.description) }

        // Files never get escape codes: they are read by editors and other tools.
        let useColor = output == nil && color.enabled(forTerminalOutput: true)
        var presenter = Presenter(format: format.value, color: useColor, crashedOnly: crashedOnly)
        if explain {
            // The diagnosis reads the symbolicated frames, so it runs after the annotator.
            presenter.diagnosis = diagnose(parsed, reportText: String(decoding: data, as: UTF8.self))
        }
        let rendered: String
        do {
            rendered = try presenter.render(parsed, summary: summary)
        } catch {
            Console.error(error.description)
            throw Exit.usage
        }
        if let output {
            do { try writeAtomically(rendered, to: output) } catch {
                Console.error("cannot write \(output): \(error.localizedDescription)")
                throw Exit.failed
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if requireAll && summary.hasUnsymbolicatedAppImage { throw Exit.failed }
    }
}
