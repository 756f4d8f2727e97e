import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate batch` over inputs that are not plain complete crash reports: cut reports,
/// call graphs and MetricKit payloads (issue 11), with the real binary and the fixture dSYMs.
@Suite(.tags(.launchesBinary)) struct BatchInputKindsTests {
    typealias Summary = BatchSummaryJSON

    static func runBatch(_ inputs: [String], extra: [String] = [], in work: URL) throws -> (CLIResult, Summary, URL) {
        let out = work.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch"] + inputs + ["--dsyms", TestPaths.dsyms, "--output", out.path, "--no-progress"] + extra,
            currentDirectory: work)
        let data = try Data(contentsOf: out.appendingPathComponent("summary.json"))
        return (result, try JSONDecoder().decode(Summary.self, from: data), out)
    }

    /// `swift-trap.crash` cut right after its crashed thread, as pasted into an issue.
    static func cutAfterCrashedThread(_ name: String) throws -> String {
        let text = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/\(name)"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Thread ") && $0.hasSuffix(" Crashed:") })
        let end = try #require(lines[start...].firstIndex { $0.isEmpty })
        lines.removeSubrange(end...)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func partialReportsAreCountedApartFromCrashes() throws {
        let work = try TestPaths.temporaryDirectory("batch-partial")
        defer { try? FileManager.default.removeItem(at: work) }
        let inputs = work.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for name in ["swift-trap.crash", "null-deref.crash"] {
            try FileManager.default.copyItem(
                at: TestPaths.fixtures.appendingPathComponent("reports/\(name)"),
                to: inputs.appendingPathComponent(name))
        }
        try Self.cutAfterCrashedThread("swift-trap.crash").write(
            to: inputs.appendingPathComponent("pasted.crash"), atomically: true, encoding: .utf8)

        let (result, summary, out) = try Self.runBatch([inputs.path], extra: ["--github-annotations"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(summary.totals.processed == 3)
        #expect(summary.totals.partialReports == 1 && summary.totals.partialGroups == 1)
        #expect(summary.totals.groups == 2, "the cut copy must not be a crash group")
        #expect(summary.groups.allSatisfy { !$0.reports.contains { $0.hasSuffix("pasted.crash") } })
        let partial = try #require(summary.partialGroups.first)
        #expect(partial.reports == ["pasted.crash"])
        #expect(partial.kind == "crash")
        #expect(partial.missing == "report ends inside Thread 0; no Binary Images section")
        // Same signature as the complete report: it names the same crash, just unverified.
        #expect(summary.groups.contains { $0.signature == partial.signature })
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }.count == 2)
        let markdown = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.contains("1 partial (cut or pasted)"))
        #expect(markdown.contains("### Partial reports"))
        #expect(markdown.contains("2 crashes in 2 groups"))
        // The cut report is still symbolicated, marked unverified.
        let text = try String(contentsOf: out.appendingPathComponent("pasted.crash"), encoding: .utf8)
        #expect(text.contains("Fuga.init(json:) + 4 (Profile.swift:38) [inlined] [unverified]"))

        // Alone, it does not trip --fail-on crash: it is not counted as a crash.
        let alone = work.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: inputs.appendingPathComponent("pasted.crash"), to: alone.appendingPathComponent("pasted.crash"))
        try FileManager.default.removeItem(at: out)
        let (again, _, _) = try Self.runBatch([alone.path], extra: ["--fail-on", "crash"], in: work)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    /// Every diagnostic of a payload is a report of the summary; the payload's output file
    /// holds them all, in Apple's text layout (`.txt`, not `.json`, in text mode).
    @Test func everyMetricKitDiagnosticIsProcessed() throws {
        let work = try TestPaths.temporaryDirectory("batch-metrickit")
        defer { try? FileManager.default.removeItem(at: work) }
        let payload = TestPaths.fixtures.appendingPathComponent("logs/crashapp-metrickit.json").path
        let (result, summary, out) = try Self.runBatch([payload], extra: ["--github-annotations"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        let places = [
            "crashDiagnostics[0]", "crashDiagnostics[1]", "hangDiagnostics[0]", "cpuExceptionDiagnostics[0]",
            "diskWriteExceptionDiagnostics[0]", "appLaunchDiagnostics[0]",
        ]
        #expect(summary.reports.map(\.input) == places.map { "crashapp-metrickit.json (\($0))" })
        #expect(
            summary.reports.map(\.kind) == [
                "metrickit-crash", "metrickit-crash", "metrickit-hang", "metrickit-cpu-exception",
                "metrickit-disk-write-exception", "metrickit-app-launch",
            ])
        #expect(summary.totals.processed == 6 && summary.totals.groups == 2 && summary.totals.otherReports == 4)
        #expect(summary.reports.allSatisfy { $0.output == "crashapp-metrickit.txt" })
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }.count == 2)
        let text = try String(contentsOf: out.appendingPathComponent("crashapp-metrickit.txt"), encoding: .utf8)
        #expect(places.allSatisfy { text.contains("MetricKit Diagnostic: \($0.split(separator: "[").first ?? "") (\($0))") })
        // Symbolicated: the oracle's frames of the crash and of the disk-write stacks.
        #expect(text.contains("closure #1 in ProfileLoader.load(from:length:) + 84 (Profile.swift:60)"))
        #expect(text.contains("-[CAProfileStore loadProfileNamed:] + 72 (ProfileStore.m:54)"))
    }

    @Test func callGraphsAndMetricKitPayloadsAreBatchInputs() throws {
        let work = try TestPaths.temporaryDirectory("batch-logs")
        defer { try? FileManager.default.removeItem(at: work) }
        let (result, summary, out) = try Self.runBatch([TestPaths.fixtures.appendingPathComponent("logs").path], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        let inputs = Set(summary.reports.map(\.input))
        for name in LogManifest.logs.map(\.name) {
            #expect(
                inputs.contains { $0.hasSuffix(name) || $0.contains(name + " (") }, "\(name) was not processed: skipped \(summary.skipped)")
        }
        // manifest.json and PointInfo.json are not reports.
        #expect(Set(summary.skipped.map { URL(fileURLWithPath: $0).lastPathComponent }) == ["manifest.json", "PointInfo.json"])
        #expect(summary.otherGroups.contains { $0.kind == "sample" })
        #expect(summary.otherGroups.contains { $0.kind == "hang" })
        // The sample output is written back symbolicated in place.
        let sample = try String(contentsOf: out.appendingPathComponent("macapp-sample.txt"), encoding: .utf8)
        #expect(sample.contains("1530 mac_average  (in MacApp) + 3  [0x10c5f25f3]  main.c:32"))
    }
}
