import Foundation
import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Where the shared corpus and the package fixtures live (same convention as the parser tests).
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/reports")
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
}

/// Parses a report file and diagnoses it the way the CLI does (model + original text).
func diagnoseFile(_ url: URL) throws -> (CrashReport, Diagnosis) {
    let report = try CrashReport.parse(contentsOf: url.path)
    let text = try String(contentsOf: url, encoding: .utf8)
    return (report, diagnose(report, reportText: text))
}

/// Parses in-memory report text.
func diagnoseText(_ text: String) throws -> Diagnosis {
    let report = try CrashReport.parse(data: Data(text.utf8), path: "synthetic.crash")
    return diagnose(report, reportText: text)
}

extension Diagnosis {
    /// `field: quote` lines, what the renderers print as evidence.
    var evidenceLines: [String] { evidence.map { "\($0.field): \($0.quote)" } }

    func hasEvidence(_ fragment: String) -> Bool { evidenceLines.contains { $0.contains(fragment) } }
}
