import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport

@testable import SymbolicateExplain

/// Parses a report file and diagnoses it the way the CLI does (model + original text).
func diagnoseFile(_ url: URL) throws -> (CrashReport, Diagnosis) {
    let report = try CrashReport.parse(contentsOf: url.path)
    return (report, diagnose(report))
}

/// Diagnoses a real crash text of the measuring corpus (`Fixtures/crashtexts/PART/NNNN-kind.txt`).
func diagnoseCrashText(_ relative: String) throws -> (CrashReport, Diagnosis) {
    try diagnoseFile(TestPaths.fixtures.appendingPathComponent("crashtexts/" + relative))
}

/// Reads a text as if pasted into a file (`pasted.txt`), without diagnosing it.
func readPasted(_ text: String) throws -> CrashReport {
    try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
}

/// Parses in-memory report text.
func diagnoseText(_ text: String) throws -> Diagnosis {
    let report = try CrashReport.parse(data: Data(text.utf8), path: "synthetic.crash")
    return diagnose(report)
}

extension Diagnosis {
    /// `field: quote` lines, what the renderers print as evidence.
    var evidenceLines: [String] { evidence.map { "\($0.field): \($0.quote)" } }

    func hasEvidence(_ fragment: String) -> Bool { evidenceLines.contains { $0.contains(fragment) } }

    /// What the diagnosis says of the crash, as the crash-text measure reads it: the headline, and
    /// each cause's words and frames (evidence quotes are the input's, not what is said of it).
    var said: String { ([headline] + causes.flatMap { [$0.text] + ($0.frames ?? []) }).joined(separator: "\n") }
}

/// Capture groups of the first match of `pattern` (nil for groups that did not take part): the
/// regular expressions the rules used before their hand-written scanners (`MessageScan`), kept
/// here as the oracle the scanners are compared with, on short texts only.
func firstMatch(_ pattern: String, in text: String) -> [String?]? {
    guard let regex = try? Regex(pattern).anchorsMatchLineEndings(), let match = try? regex.firstMatch(in: text) else { return nil }
    let output = match.output
    return (1..<max(output.count, 1)).map { group in output[group].substring.map(String.init) }
}
