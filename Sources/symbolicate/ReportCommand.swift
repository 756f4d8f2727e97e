import ArgumentParser
import Foundation
import SymbolicateBatch
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// `symbolicate REPORT [DEBUG_FILES…]`: symbolicate one crash report.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Symbolicate one crash report (the default subcommand).",
        discussion: """
            DEBUG_FILES are dSYM bundles, DWARF or Mach-O files, folders (searched recursively), \
            .xcarchive folders or .zip files. With none, the top level of the report's folder and \
            of the current directory is searched (dSYM bundles, .xcarchive/dSYMs, dSYMs folders, \
            zips named *dSYM*), and SYMBOLICATE_DSYM_PATH (colon-separated) recursively; one \
            stderr line says what was searched. Frames of Apple's own libraries that the report \
            left unnamed are named from system symbols, matched by UUID (see --system-symbols). \
            A debug file given first and a report after it \
            are read the right way round. The headline goes to the terminal (stdout when it is \
            one, else stderr), never into a file or pipe unless --headline. Images whose \
            debug file is missing or does not match are listed on stderr. With no debug file at \
            all the report is printed normalised (.ips rendered in Apple's text layout).
            """
    )

    @Argument(
        help:
            "The crash report or log, detected by content: .crash/.txt text, .ips, a MetricKit payload, sample or spindump output, an .xccrashpoint bundle (or a folder of them)."
    )
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

    @OptionGroup var system: SystemSymbolOptions

    @Flag(help: "Exit 1 when any app image could not be symbolicated (missing or mismatched dSYM).")
    var requireAll = false

    @Flag(help: "Explain the crash in plain words (meaning, evidence, likely causes, next steps) above the report.")
    var explain = false

    @Flag(help: "Put the headline in the output even when it is a file or a pipe (by default it goes to the terminal only).")
    var headline = false

    func run() async throws {
        var report = self.report
        var debugFiles = self.debugFiles
        // `symbolicate App.dSYM crash.crash`: a debug file where the report goes and a report
        // among the debug files is a swap, not two errors.
        if DebugFileDiscovery.looksLikeDebugFile(report),
            let swapped = debugFiles.firstIndex(where: {
                !DebugFileDiscovery.looksLikeDebugFile($0) && ReportSniffer.looksLikeReport(path: $0)
            })
        {
            Console.line(
                "note: \(report) is a debug file and \(debugFiles[swapped]) a crash report; reading them as `symbolicate \(debugFiles[swapped]) \(report)`"
            )
            (report, debugFiles[swapped]) = (debugFiles[swapped], report)
        }
        let implicit = debugFiles.isEmpty
        let systemSymbols = system.systemSymbols()
        let pipeline: ReportPipeline
        let index: DebugFileIndex
        do {
            index = try ReportPipeline.debugFiles(debugFiles, searchingNear: report)
            pipeline = ReportPipeline(
                debugFiles: index, options: .init(resymbolicate: resymbolicate), systemSymbols: systemSymbols)
        } catch {
            Console.error(error.description)
            throw Exit.invalidInput
        }
        let dsymPath = !DebugFileIndex.extraSearchFolders().isEmpty
        if implicit || dsymPath {
            Console.line(Self.searchedLine(index, implicit: implicit, dsymPath: dsymPath))
        }
        if let output, let input = OutputSafety.input(replacedBy: output, inputs: [report] + debugFiles + index.entries.map(\.path)) {
            Console.error("--output \(output) would replace the input \(input); choose another output file")
            throw Exit.usage
        }
        // Unreadable files met while searching implicitly are only worth a word when they
        // look like debug files; explicit inputs always get one.
        for problem in index.problems where !debugFiles.isEmpty || problem.lowercased().contains(".dsym") {
            Console.warning(problem)
        }

        let reports: [CrashReport]
        do {
            // A MetricKit payload holds several diagnostics: each is a report of its own.
            reports = try ReportPipeline.read(.file(report))
        } catch {
            Console.error(error.description)
            throw Exit.invalidInput
        }
        // The headline is for the person at the terminal: files and pipes get the report
        // in Apple's layout, which other tools parse, unless --headline asks for it.
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        let headlineInOutput = headline || (output == nil && stdoutIsTerminal)
        // Files never get escape codes: they are read by editors and other tools.
        let useColor = output == nil && color.enabled(forTerminalOutput: true)
        let presenter = Presenter(format: format.value, color: useColor, crashedOnly: crashedOnly, headline: headlineInOutput)
        var pieces: [String] = []
        var missingAppImage = false
        for parsed in reports {
            let processed = pipeline.process(parsed, diagnose: explain)
            let summary = processed.summary ?? SymbolicationSummary()
            for line in systemSymbols.takeMessages() { Console.line(line) }
            for warning in processed.report.warnings { Console.line(warning.description) }
            for diagnostic in summary.diagnostics { Console.warning(diagnostic.description) }
            if !debugFiles.isEmpty {
                for unused in UnusedDebugFile.find(index: index, summary: summary) { Console.warning(unused.description) }
            }
            missingAppImage = missingAppImage || summary.hasUnsymbolicatedAppImage
            if !headlineInOutput, format == .text || format == .ips {
                let text = Headline(report: processed.report).text + "\n"
                if output != nil && stdoutIsTerminal {
                    FileHandle.standardOutput.write(Data(text.utf8))
                } else {
                    FileHandle.standardError.write(Data(text.utf8))
                }
            }
            do {
                pieces.append(try processed.render(with: presenter, withDiagnosis: explain))
            } catch {
                Console.error(error.description)
                throw Exit.usage
            }
        }
        // Several reports: text formats one after the other, JSON as an array.
        let rendered = ReportPipeline.join(pieces, asJSONArray: format.value == .json)
        if let output {
            do { try writeAtomically(rendered, to: output) } catch {
                Console.error("cannot write \(output): \(error.localizedDescription)")
                throw Exit.cannotWrite
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if requireAll && missingAppImage { throw Exit.failed }
    }

    /// `searched 3 folders, 41 files for debug files (…): 2 found` — one line, so a search
    /// that found nothing is never silent and never a mystery.
    static func searchedLine(_ index: DebugFileIndex, implicit: Bool, dsymPath: Bool) -> String {
        var places: [String] = []
        if implicit { places.append("top level of the report's folder and the current directory") }
        if dsymPath { places.append("SYMBOLICATE_DSYM_PATH") }
        let n = index.searched
        let found = Set(index.entries.map(\.displayPath)).count
        return "searched \(n.folders) folder\(n.folders == 1 ? "" : "s"), \(n.files) file\(n.files == 1 ? "" : "s") "
            + "for debug files (\(places.joined(separator: ", "))): \(found) found"
    }
}
