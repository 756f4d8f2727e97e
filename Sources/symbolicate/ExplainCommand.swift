import ArgumentParser
import Foundation
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicateSystemSymbols

/// Output formats of `explain`.
enum ExplainFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
}

/// `symbolicate explain TERM` and `symbolicate explain REPORT [DEBUG_FILES…]`: a plain-language
/// explanation of a term, or a diagnosis of a whole report (without printing the report).
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a crash term (EXC_BAD_ACCESS, SIGABRT, 0x8badf00d…) or diagnose a report.",
        discussion: """
            If the first argument names an existing file it is diagnosed as a crash report; any \
            further arguments are debug files (dSYMs, folders, .xcarchive, .zip) used to \
            symbolicate it first, which lets the diagnosis read inlined frames such as \
            'Swift runtime failure: …'. Otherwise all arguments form one term to look up \
            (e.g. 'KERN_INVALID_ADDRESS at 0x10', 'Namespace SPRINGBOARD, Code 0x8badf00d'). \
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

    @OptionGroup var system: SystemSymbolOptions

    @Option(help: "Colour the text output: auto, always or never (NO_COLOR is honoured).")
    var color: ColorChoice = .auto

    private var useColor: Bool { color.enabled(forTerminalOutput: true) }

    func validate() throws {
        if subject.isEmpty { throw ValidationError("Give a term to explain or a crash report to diagnose.") }
    }

    func run() throws {
        if let first = subject.first, FileManager.default.fileExists(atPath: first) {
            try diagnoseReport(at: first, debugFiles: Array(subject.dropFirst()))
            return
        }
        let explanation = KnowledgeBase.standard.explain(subject.joined(separator: " "))
        FileHandle.standardOutput.write(Data(render(explanation).utf8))
        if !explanation.isKnown { throw Exit.failed }
    }

    private func diagnoseReport(at path: String, debugFiles: [String]) throws {
        let processed: [ProcessedReport]
        do {
            // A MetricKit payload holds several diagnostics: each is diagnosed.
            let reports = try ReportPipeline.read(.file(path))
            // A cut report is diagnosed from what it has; say what it lacks.
            for report in reports {
                for warning in report.warnings where warning.message.hasPrefix("partial report") { Console.line(warning.description) }
            }
            // Symbolicating first lets the diagnosis read inlined trap frames.
            // System frames named from system symbols read as functions, not offsets.
            let systemSymbols = system.systemSymbols()
            let index = try ReportPipeline.debugFiles(debugFiles, searchPath: false)
            for problem in index.problems { Console.warning(problem) }
            let pipeline = ReportPipeline(debugFiles: index, systemSymbols: systemSymbols)
            processed = reports.map { pipeline.process($0, diagnose: true) }
            for line in systemSymbols.takeMessages() { Console.line(line) }
            if !debugFiles.isEmpty {
                for diagnostic in processed.flatMap({ $0.summary?.diagnostics ?? [] }) { Console.warning(diagnostic.description) }
            }
        } catch {
            Console.error("\(error)")
            throw Exit.invalidInput
        }
        let diagnoses = processed.compactMap(\.diagnosis)
        FileHandle.standardOutput.write(Data(ReportPipeline.join(diagnoses.map(render), asJSONArray: format == .json).utf8))
    }

    /// A term explanation or a diagnosis in the chosen format.
    private func render(_ value: some ExplainRenderable) -> String {
        switch format {
        case .text: return value.renderText(color: useColor)
        case .json: return value.renderJSON()
        case .markdown: return value.renderMarkdown()
        }
    }
}
