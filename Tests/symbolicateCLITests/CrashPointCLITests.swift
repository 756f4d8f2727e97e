import Foundation
import SymbolicateTestSupport
import Testing

/// Xcode Organizer exports end to end: `Fixtures/logs/CrashApp.xccrashpoint` holds unchanged
/// copies of `reports/swift-trap.crash` (Filter_1) and `reports/null-deref.crash` (Filter_2),
/// so every log must come out exactly as its report's golden (which is tied to llvm-symbolizer
/// by `GoldenTests.goldenFramesAgreeWithOracle`).
@Suite(.tags(.launchesBinary)) struct CrashPointCLITests {
    static let bundle = "Fixtures/logs/CrashApp.xccrashpoint"

    static func golden(_ name: String) throws -> String {
        try Golden.text("\(name)")
    }

    @Test(arguments: [bundle, "Fixtures/logs"])
    func everyLogIsSymbolicatedAsItsReport(_ input: String) throws {
        let result = try CLI.run([input, "Fixtures/dsyms", "--color", "never", "--headline"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Self.golden("swift-trap.crash.txt") + "\n" + Self.golden("null-deref.crash.txt")
        #expect(result.stdout == expected)
    }

    @Test func jsonIsOneEntryPerLog() throws {
        let result = try CLI.run([Self.bundle, "Fixtures/dsyms", "--format", "json"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let paths = list.compactMap { ($0["report"] as? [String: Any])?["path"] as? String }
        #expect(paths.count == 2)
        #expect(paths.allSatisfy { $0.hasPrefix(Self.bundle + "/Filters/") && $0.contains("/DistributionInfos/all/Logs/") })
    }

    @Test func explainDiagnosesEveryLog() throws {
        let result = try CLI.run(["explain", Self.bundle, "Fixtures/dsyms"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Diagnosis: ").count - 1 == 2)
        #expect(result.stdout.contains("Unexpectedly found nil while unwrapping an Optional value"))
        #expect(result.stdout.contains("EXC_BAD_ACCESS"))
    }

    @Test func batchTakesTheBundle() throws {
        let work = try TestPaths.temporaryDirectory("batch-xccrashpoint")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch", Self.bundle, "--dsyms", "Fixtures/dsyms", "--output", out.path, "--no-progress"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let logs = [
            "Filters/Filter_1/DistributionInfos/all/Logs/2022-08-04_01-11-01.0000_+0200-8d3f1a.crash": "swift-trap.crash",
            "Filters/Filter_2/DistributionInfos/all/Logs/2022-08-04_01-11-01.0000_+0200-2b7c90.crash": "null-deref.crash",
        ]
        for (log, report) in logs {
            let text = try String(contentsOf: out.appendingPathComponent(log), encoding: .utf8)
            // Batch files carry no headline: the golden without its first two lines.
            let golden = try Self.golden("\(report).txt").split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
            #expect(text == String(golden[2]), "\(log)")
        }
        // PointInfo.json is metadata, not a report.
        #expect(result.stderr.contains("2 crash signatures"), "\(result.stderr)")
    }
}
