import ArgumentParser
import Foundation
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation

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
            all the report is printed normalised (.ips rendered in Apple's text layout). \
            REPORT - reads the report from standard input (pbpaste | symbolicate - App.dSYM); \
            name its debug files, as no folder is searched for them.
            """
    )

    @Argument(
        help:
            "The crash report or log, detected by content: .crash/.txt text, .ips (also cut), a KSCrash report, a Sentry event (or envelope), a PLCrashReporter .plcrash, a MetricKit payload or single diagnostic, sample or spindump output, Xcode console or LLDB output (with image list to symbolicate), device log lines (jetsam, RunningBoard/FrontBoard, watchdog, exited due to signal), Crashlytics/Sentry/HockeyApp issue text, an .xccrashpoint bundle (or a folder of them); - reads it from standard input."
    )
    var report: String

    @Argument(help: "dSYM bundles, DWARF files, folders, .xcarchive or .zip files.")
    var debugFiles: [String] = []

    @OptionGroup var format: FormatOption<ReportCommand>

    @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically) instead of stdout.")
    var output: String?

    @OptionGroup var color: ColorOption<ReportCommand>

    @Flag(help: "Print only the headline and the crashed thread.")
    var crashedOnly = false

    @OptionGroup var symbolication: ResymbolicateFlag

    @OptionGroup var system: SystemSymbolOptions

    @OptionGroup var objectPaths: ObjectPathMapOption

    @OptionGroup var symbolSources: SymbolSourceOptions

    @Flag(
        name: [.short, .long],
        help: "Say on stderr where each image's debug information came from (a debug file, a symbol server, the cache) and each download.")
    var verbose = false

    @Flag(
        help:
            "Exit 1 when any app image could not be symbolicated (missing or mismatched dSYM), when app frames match no image of the report, or when a partial report has no app frame to check."
    )
    var requireAll = false

    @OptionGroup var explain: ExplainFlag<ReportCommand>

    @OptionGroup var scrub: ScrubFlag

    @OptionGroup var language: LanguageOption

    @OptionGroup var source: SourceContextOption

    @OptionGroup var sourceDiscovery: SourceDiscoveryFlag

    @Flag(help: "Put the headline in the output even when it is a file or a pipe (by default it goes to the terminal only).")
    var headline = false

    func run() async throws {
        var request = ReportRequest(
            report: report == StandardInput.argument ? .standardInput() : .file(report), debugFiles: debugFiles,
            searchFolders: DebugFileIndex.extraSearchFolders(),
            resymbolicate: symbolication.resymbolicate, explain: explain.explain, requireAll: requireAll, format: format.format,
            color: color.color, crashedOnly: crashedOnly, headline: headline, destination: output.map { .file($0) } ?? .standardOutput,
            terminal: .current, systemSymbols: system.systemSymbols(), language: language.resolved)
        request.remoteDebugFiles = try symbolSources.sources(verbose: verbose)
        request.verbose = verbose
        request.scrub = scrub.scrub
        request.objectPathMap = objectPaths.objectPathMap
        request.zipCache = symbolSources.zipCache()
        request.xcodeDSYMs = XcodeDSYMSearch(environment: ProcessInfo.processInfo.environment)
        request.sourceContext = try source.provider(discovery: sourceDiscovery)
        if output == nil { request.standardOutputSink = Console.standardOutputSink }
        let response = request.run()
        try Console.finish(response.messages, standardOutput: response.standardOutput, status: response.status)
    }
}

extension ReportCommand: FormatHelp, ColorHelp, ExplainHelp {
    static let formatHelp = "Output format: text, ips (the input's own JSON layout: .ips, KSCrash or Sentry), json or markdown."
    static let colorHelp = "Colour the crashed thread and app frames: auto, always or never (NO_COLOR is honoured)."
    static let explainHelp = "Explain the crash in plain words (meaning, evidence, likely causes, next steps) above the report."
}
