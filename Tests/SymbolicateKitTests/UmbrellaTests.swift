import Foundation
import SymbolicateKit
import SymbolicateTestSupport
import Testing

/// A program that imports only `SymbolicateKit` can run a report and read what came back: the request, its
/// response, the model and the symbolication summary all reach it through the one module.
@Suite struct UmbrellaTests {
    @Test func aReportRunsThroughTheUmbrellaModuleAlone() throws {
        let fixture = try #require(FixtureManifest.reports.first { $0.file == "reports/swift-trap.ips" })
        let dsyms = TestPaths.fixtures.appendingPathComponent("dsyms").path
        let request = ReportRequest(report: .file(fixture.path), debugFiles: [dsyms], searchesNearReport: false, format: .json)
        let response = request.run()
        #expect(response.status == .success)
        let report = try #require(response.reports.first)
        #expect(report.report.crashedThread?.index == fixture.crashedThread)
        let expected = try #require(fixture.crashedThreadAppFrames.first { $0.crashingFrame }?.expected?.last?.function)
        let frame = try #require(report.report.crashedThread?.frames.first)
        #expect(frame.symbolication?.last?.function == expected)
        #expect(report.summary?.diagnostics.isEmpty == true)
    }
}
