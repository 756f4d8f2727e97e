import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Real Xcode console and LLDB texts from public issues (`Fixtures/debugger/real/`, origins in
/// Fixtures/README.md): each is read, its facts land in the model's typed fields, and `report
/// --explain --headline` gives the golden under `Fixtures/expected/debugger/` (warnings first,
/// as the terminal shows them). A text with crash facts but no frames is read, marked partial and
/// explained from what it has.
@Suite struct DebuggerOutputExamplesTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        /// Which reader takes it.
        var reader: String
        var exceptionType: String?
        var uncaught: UncaughtException?
        var runtimeError: SwiftRuntimeError?
        /// Frames across every backtrace.
        var frames: Int
        var partial: Bool
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(
            name: "etabard-cordova-pdfreader-2", reader: "LLDB", exceptionType: "SIGABRT",
            uncaught: UncaughtException(
                language: .objectiveC, name: "NSInvalidArgumentException",
                reason: "*** -[NSPlaceholderString initWithFormat:locale:arguments:]: nil argument"),
            frames: 32, partial: true),
        Example(name: "solvespace-96", reader: "LLDB", exceptionType: "EXC_BAD_ACCESS", frames: 8, partial: true),
        Example(name: "swiftlang-llvm-project-4299", reader: "LLDB", exceptionType: "SIGABRT", frames: 4, partial: true),
        Example(name: "flutter-braintree-109", reader: "LLDB", exceptionType: "EXC_BAD_ACCESS", frames: 1, partial: true),
        Example(
            name: "nova286-bstext-17", reader: "Console",
            runtimeError: SwiftRuntimeError(
                kind: "Fatal error", message: "Unexpectedly found nil while unwrapping an Optional value", file: "BSText/BSTextView.swift",
                line: 1147), frames: 0, partial: true),
        Example(
            name: "appcenter-sdk-apple-1797", reader: "Console",
            uncaught: UncaughtException(
                language: .objectiveC, name: "NSInvalidArgumentException",
                reason: "-[__NSDictionaryM cordovaSettingForKey:]: unrecognized selector sent to instance 0x600003ea6ae0"),
            frames: 0, partial: true),
        Example(
            name: "radiant-player-mac-97", reader: "Console",
            uncaught: UncaughtException(language: .objectiveC, name: "NSInvalidArgumentException", reason: "data parameter is nil"),
            frames: 0, partial: true),
        Example(name: "pgoanalyzer-3", reader: "Console", exceptionType: "EXC_BAD_ACCESS", frames: 0, partial: true),
    ]

    static func path(_ name: String) -> String {
        TestPaths.fixtures.appendingPathComponent("debugger/real/\(name).txt").path
    }

    @Test(arguments: examples)
    func eachExampleIsReadIntoTypedFacts(_ example: Example) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(example.name)))
        let reports = try CrashReport.parseAll(data: data, path: example.name)
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.exception?.type == example.exceptionType)
        #expect(report.exception?.uncaught == example.uncaught)
        #expect(report.exception?.runtimeError == example.runtimeError)
        #expect(report.allBacktraces.map(\.frames.count).reduce(0, +) == example.frames)
        #expect(!report.completeness.isComplete == example.partial)
        #expect(report.warnings.contains { $0.kind == .partialReport } == example.partial)
        // Every line is kept: the text output is the input when nothing is symbolicated (without
        // the backslash escapes of a text that went through Markdown).
        let input = String(decoding: data, as: UTF8.self)
        let document = TextDocument(text: input, hasBOM: false)
        let expected = MarkdownText.unescaped(document).map { String(decoding: $0.bytes(), as: UTF8.self) } ?? input
        #expect(report.textOutput() == expected)
        _ = example.reader
    }

    @Test(arguments: examples)
    func eachExampleIsExplained(_ example: Example) throws {
        let response = ReportRequest(report: .file(Self.path(example.name)), searchesNearReport: false, explain: true, headline: true).run()
        #expect(response.status == .success)
        let messages = response.messages.map { $0.text(tool: "symbolicate") }.joined()
        let output = messages + "----\n" + (response.standardOutput ?? "")
        try Golden.check(output.replacingOccurrences(of: TestPaths.fixtures.path + "/", with: ""), against: "debugger/\(example.name).txt")
        // Explained from what the text has, not given up on.
        #expect(response.reports.first?.diagnosis != nil)
        #expect(!output.contains("Not enough information in the report"), "\(example.name)")
    }
}
