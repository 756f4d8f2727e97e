import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 54: a pasted `Fatal error:` line was explained with evidence under `Exception Message`
/// and `Application Specific Information`, fields the paste does not have. Over every text
/// fixture (made reports, the real corpus, abort paths, logs, pasted issue texts, console and
/// LLDB output), each evidence line that cites a field of the report by its name cites one the
/// input prints, a line number cites a line holding the quote, and pasted frames are never
/// given a thread number. JSON inputs are left out: the tool itself prints their fields in
/// Apple's text layout, under the names explain cites.
@Suite struct CitedFieldTests {
    static let inputs: [String] = {
        var paths = FixtureReports.all
        for folder in ["pasted", "debugger", "debugger/real"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.appendingPathComponent(folder).path)) ?? []
            paths += names.sorted().filter { $0.hasSuffix(".txt") || $0.hasSuffix(".log") }.map { "\(folder)/\($0)" }
        }
        return paths
    }()

    /// The input's lines, blanks at the start of each removed; nil for JSON and unreadable inputs.
    static func textLines(_ path: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: TestPaths.fixtures.appendingPathComponent(path).path),
            let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
        else { return nil }
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return nil }
        return text.components(separatedBy: "\n").map { String($0.drop { $0 == " " || $0 == "\t" }) }
    }

    /// Whether the input prints a field named `label`: a line starting (after blanks) with
    /// `label:`, or with `label` and a space (`Thread 3 Crashed:` for `Thread 3`).
    static func prints(_ label: String, in lines: [String]) -> Bool {
        lines.contains { $0.hasPrefix(label + ":") || $0.hasPrefix(label + " ") }
    }

    @Test(arguments: inputs)
    func everyEvidenceFieldIsInTheInput(_ path: String) throws {
        guard let lines = Self.textLines(path) else { return }
        let report: CrashReport
        do {
            report = try CrashReport.parse(contentsOf: TestPaths.fixtures.appendingPathComponent(path).path)
        } catch {
            return  // not a report: nothing is explained
        }
        let pasted = report.pastedThread != nil
        for evidence in Diagnostician(report: report, base: KnowledgeBase.standard).decide().evidence {
            let quote = evidence.quote.english
            switch evidence.field {
            case .verbatim(let label):
                // A field of the report, quoted by its name.
                #expect(
                    Self.prints(label, in: lines),
                    "\(path): evidence cites \"\(label)\", which the input does not print (quote: \(quote.prefix(80)))")
            case .catalog(.fieldInputLine, let values):
                let line = values["line"].flatMap { Int($0.english) } ?? 0
                #expect(lines.indices.contains(line - 1) && lines[line - 1].contains(quote), "\(path): line \(line) does not hold \(quote)")
            case .catalog(.fieldThreadFrame, _):
                #expect(!pasted, "\(path): frames pasted without their thread's title cited by a thread number")
            default:
                break  // facts the rules derived (the crashed thread, a fault address), said as such
            }
        }
    }
}
