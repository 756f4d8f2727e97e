import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Issue 40's "done when" for MetricKit and cut `.ips`: one fixture crash given as an `.ips`, a
/// MetricKit payload and a single MetricKit diagnostic without addresses symbolicates to the same
/// frame lines, through the library's request types; each new shape has a golden.
@Suite struct MetricKitFormsTests {
    static let forms = TestPaths.fixtures.appendingPathComponent("metrickit")
    static let swiftTrapIPS = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path

    static func run(_ path: String) -> ReportResponse {
        ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms], headline: true).run()
    }

    /// The crashed thread's frame lines without the address column (`0 CrashApp <rest>`): the
    /// `.ips` prints runtime addresses, a diagnostic without addresses the offsets.
    static func crashedFrameLines(_ output: String) -> [String] {
        var lines: [String] = []
        var inCrashed = false
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Thread "), line.contains(" Crashed") {
                inCrashed = true
                continue
            }
            guard inCrashed else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            let parts = line.split(maxSplits: 3, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 4, parts[2].hasPrefix("0x") else {
                lines.append(String(line))
                continue
            }
            lines.append("\(parts[0]) \(parts[1]) \(parts[3])")
        }
        return lines
    }

    @Test func ipsPayloadAndSingleDiagnosticSymbolicateToTheSameFrameLines() throws {
        let ips = Self.run(Self.swiftTrapIPS)
        let payload = Self.run(Self.forms.appendingPathComponent("swift-trap.metrickit-payload.json").path)
        let single = Self.run(Self.forms.appendingPathComponent("swift-trap.metrickit-diagnostic.json").path)
        for response in [ips, payload, single] { #expect(response.status == .success, "\(response.messages)") }
        // The frames the debug files name (CrashApp, CrashKit): the .ips also carries the OS's names
        // for system frames, which MetricKit does not, so those lines are not compared.
        let appLines = { (r: ReportResponse) in
            Self.crashedFrameLines(r.standardOutput ?? "").filter { $0.contains(" CrashApp ") || $0.contains(" CrashKit ") }
        }
        let expected = appLines(ips)
        #expect(expected.count > 10)
        // The app's frames are symbolicated in the .ips (Swift, inlined levels, CrashKit's C).
        #expect(expected.contains { $0.contains("Fuga.init(json:) + 4 (Profile.swift:38) [inlined]") })
        #expect(appLines(payload) == expected)
        #expect(appLines(single) == expected)
        #expect(Self.crashedFrameLines(single.standardOutput ?? "").count == Self.crashedFrameLines(ips.standardOutput ?? "").count)
        // And in the model: the same symbolicated levels, frame for frame.
        let levels = { (r: ReportResponse) in r.reports.first?.report.crashedThread?.frames.map(\.symbolication) }
        #expect(levels(payload) == levels(ips))
        #expect(levels(single) == levels(ips))
        #expect(levels(ips)?.contains { $0 != nil } == true)
        for response in [payload, single] {
            #expect(!(response.standardOutput ?? "").contains("_mh_execute_header"))
            #expect(response.reports.first?.summary?.appFramesSymbolicated == ips.reports.first?.summary?.appFramesSymbolicated)
        }
    }

    /// The old reading printed `0x0 _mh_execute_header + 0` for every frame without `address`.
    @Test func framesWithoutAddressAreNotAddressZero() throws {
        let single = Self.run(Self.forms.appendingPathComponent("swift-trap.metrickit-diagnostic.json").path)
        let text = single.standardOutput ?? ""
        #expect(!text.contains("_mh_execute_header"))
        // Unnamed system frames read as their image + offset.
        #expect(text.contains("UIKitCore + 1752628"), "\(text)")
        #expect(!text.contains("0x0 + "))
        let frames = single.reports.first?.report.crashedThread?.frames ?? []
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { $0.address != 0 })
    }

    @Test func aSingleDiagnosticIsExplainedLikeTheReport() throws {
        let ips = ExplainRequest(subject: .report(.file(Self.swiftTrapIPS), debugFiles: [TestPaths.dsyms])).run()
        let single = ExplainRequest(
            subject: .report(
                .file(Self.forms.appendingPathComponent("swift-trap.metrickit-diagnostic.json").path), debugFiles: [TestPaths.dsyms])
        ).run()
        let objc = ExplainRequest(
            subject: .report(
                .file(Self.forms.appendingPathComponent("objc-exception.metrickit-diagnostic.json").path), debugFiles: [TestPaths.dsyms])
        ).run()
        let ipsCategory = try #require(ips.reports.first?.diagnosis?.category)
        #expect(single.reports.first?.diagnosis?.category == ipsCategory)
        // From its exception type, signal and termination reason (typed, from the JSON).
        let objcIPS = ExplainRequest(
            subject: .report(
                .file(TestPaths.fixtures.appendingPathComponent("reports/objc-exception.ips").path), debugFiles: [TestPaths.dsyms])
        ).run()
        #expect(objc.reports.first?.diagnosis?.category == objcIPS.reports.first?.diagnosis?.category)
    }

    /// One golden per new shape.
    @Test(arguments: [
        "swift-trap.metrickit-payload.json", "swift-trap.metrickit-diagnostic.json", "objc-exception.metrickit-diagnostic.json",
        "crashapp-hang.metrickit-diagnostic.json", "crashapp-cpu-exception.metrickit-diagnostic.json",
        "crashapp-disk-write-exception.metrickit-diagnostic.json", "crashapp-app-launch.metrickit-diagnostic.json",
        "swift-trap.cut.ips",
    ])
    func golden(_ file: String) throws {
        let response = Self.run(Self.forms.appendingPathComponent(file).path)
        #expect(response.status == .success, "\(response.messages)")
        let shown = (response.standardOutput ?? "").replacingOccurrences(of: TestPaths.fixtures.path, with: "Fixtures")
        try Golden.check(shown, against: "metrickit/\(file).txt", what: "symbolicate \(file)")
    }

    @Test func aCutIPSSaysItIsPartial() throws {
        let response = Self.run(Self.forms.appendingPathComponent("swift-trap.cut.ips").path)
        #expect(response.status == .success)
        let report = try #require(response.reports.first?.report)
        #expect(!report.completeness.isComplete)
        let warnings = response.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(warnings.contains("partial report: JSON body is cut at threads[0].frames[3].imageOffset"), "\(warnings)")
    }
}
