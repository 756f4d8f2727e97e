import ArgumentParser
import Foundation
import SymbolicateCrashReport
import SymbolicateExplain

/// Output formats shared by explain and diagnosis output.
enum ExplainFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
}

/// `symbolicate explain TERM|REPORT`: a plain-language explanation of a term, or a
/// diagnosis of a whole report (without symbolicating it).
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a crash term (EXC_BAD_ACCESS, SIGABRT, 0x8badf00d…) or diagnose a report.",
        discussion: """
            If the argument names a readable file it is diagnosed as a crash report; otherwise it \
            is looked up as a term. Unknown terms exit with 1 and list near matches.
            """
    )

    @Argument(help: "A term (EXC_BAD_ACCESS, SIGABRT, 0x8badf00d, KERN_INVALID_ADDRESS, EXC_RESOURCE…) or a report file.")
    var subject: [String]

    @Option(help: "Output format: text, json or markdown.")
    var format: ExplainFormat = .text

    @Option(help: "Colour the text output: auto, always or never (NO_COLOR is honoured).")
    var color: ColorChoice = .auto

    private var useColor: Bool { color.enabled(forTerminalOutput: true) }

    func run() throws {
        let joined = subject.joined(separator: " ")
        if subject.count == 1, FileManager.default.fileExists(atPath: joined) {
            try diagnoseReport(at: joined)
            return
        }
        let explanation = KnowledgeBase.standard.explain(joined)
        let output: String
        switch format {
        case .text: output = explanation.renderText(color: useColor)
        case .json: output = explanation.renderJSON()
        case .markdown: output = explanation.renderMarkdown()
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        if !explanation.isKnown { throw Exit.failed }
    }

    private func diagnoseReport(at path: String) throws {
        let report: CrashReport
        do {
            report = try CrashReport.parse(contentsOf: path)
        } catch {
            Console.error("\(error)")
            throw Exit.invalidInput
        }
        let text = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
        let diagnosis = diagnose(report, reportText: text)
        let output: String
        switch format {
        case .text: output = diagnosis.renderText(color: useColor)
        case .json: output = diagnosis.renderJSON()
        case .markdown: output = diagnosis.renderMarkdown()
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
