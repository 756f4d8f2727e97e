import ArgumentParser
import SymbolicatePipeline

/// `symbolicate explain TERM` and `symbolicate explain REPORT [DEBUG_FILES…]`: a plain-language
/// explanation of a term, or a diagnosis of a whole report (without printing the report).
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a crash term (EXC_BAD_ACCESS, SIGABRT, 0x8badf00d…) or diagnose a report.",
        discussion: """
            If the first argument names an existing file (or is -, standard input) it is \
            diagnosed as a crash report; any \
            further arguments are debug files (dSYMs, folders, .xcarchive, .zip) used to \
            symbolicate it first, which lets the diagnosis read inlined frames such as \
            'Swift runtime failure: …'. Otherwise all arguments form one term to look up \
            (e.g. 'KERN_INVALID_ADDRESS at 0x10', 'Namespace SPRINGBOARD, Code 0x8badf00d'). \
            A term is at most 200 words (give a longer text as a file). \
            Unknown terms print near matches and exit with 1.
            """
    )

    @Argument(
        help:
            "A term (EXC_BAD_ACCESS, SIGABRT, 0x8badf00d, KERN_INVALID_ADDRESS, EXC_RESOURCE…), or a report file followed by optional debug files."
    )
    var subject: [String]

    @Option(help: "Output format: text, json or markdown.")
    var format: ExplainFormat = .text

    @OptionGroup var color: ColorOption<ExplainCommand>

    @OptionGroup var language: LanguageOption

    @OptionGroup var system: SystemSymbolOptions

    @OptionGroup var symbolSources: SymbolSourceOptions

    @OptionGroup var scrub: ScrubFlag
    @OptionGroup var source: SourceContextOption

    @OptionGroup var sourceDiscovery: SourceDiscoveryFlag

    @OptionGroup var objectPaths: ObjectPathMapOption

    func validate() throws {
        if subject.isEmpty { throw ValidationError("Give a term to explain or a crash report to diagnose.") }
    }

    func run() throws {
        var request = ExplainRequest(
            subject: ExplainRequest.subject(arguments: subject), format: format, color: color.color, terminal: .current,
            systemSymbols: system.systemSymbols(), language: language.resolved)
        request.remoteDebugFiles = try symbolSources.sources()
        request.zipCache = symbolSources.zipCache()
        request.scrub = scrub.scrub
        request.sourceContext = try source.provider(discovery: sourceDiscovery)
        request.objectPathMap = objectPaths.objectPathMap
        let response = request.run()
        try Console.finish(response.messages, standardOutput: response.standardOutput, status: response.status)
    }
}

extension ExplainCommand: ColorHelp {
    static let colorHelp = "Colour the text output: auto, always or never (NO_COLOR is honoured)."
}
