import Foundation
import SymbolicateCrashReport

@testable import SymbolicateExplain

/// Parses a report file and diagnoses it the way the CLI does (model + original text).
func diagnoseFile(_ url: URL) throws -> (CrashReport, Diagnosis) {
    let report = try CrashReport.parse(contentsOf: url.path)
    return (report, diagnose(report))
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
}
