import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicateTestSupport
import Testing

@testable import SymbolicatePipeline

/// One assembled run (issue 47, item 3): the debug-file index is built once from the request's
/// inputs, Xcode's dSYMs added to it; the diagnosis is decided once, in no language.
@Suite struct RunAssemblyTests {
    static let archive = "Library/Developer/Xcode/Archives/2026-11-27/CrashApp.xcarchive/dSYMs"

    /// The report with CrashKit's dSYM beside it (found near the report) and CrashApp's only in
    /// an Xcode archive under `$HOME`: before, finding the second rebuilt the whole index.
    @Test func xcodeDSYMsJoinTheOneIndex() throws {
        let root = try TestPaths.temporaryDirectory("run-assembly")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        let home = root.appendingPathComponent("home")
        let work = root.appendingPathComponent("work")
        let dsyms = home.appendingPathComponent(Self.archive)
        try files.createDirectory(at: dsyms, withIntermediateDirectories: true)
        try files.createDirectory(at: work, withIntermediateDirectories: true)
        let fixtures = URL(fileURLWithPath: TestPaths.dsyms)
        try files.copyItem(at: fixtures.appendingPathComponent("CrashApp.app.dSYM"), to: dsyms.appendingPathComponent("CrashApp.app.dSYM"))
        try files.copyItem(
            at: fixtures.appendingPathComponent("CrashKit.framework.dSYM"), to: work.appendingPathComponent("CrashKit.framework.dSYM"))
        let report = work.appendingPathComponent("swift-trap.ips")
        try files.copyItem(at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips"), to: report)

        var request = ReportRequest(report: .file(report.path))
        request.xcodeDSYMs = XcodeDSYMSearch(home: home.path, cacheFolder: nil, mdfind: nil)
        let response = request.run()
        #expect(response.status == .success, "\(response.messages)")
        #expect(response.debugFileIndexBuilds == 1)
        let summary = try #require(response.reports.first?.summary)
        #expect(summary.debugFiles["CrashApp"]?.hasSuffix("CrashApp.xcarchive/dSYMs/CrashApp.app.dSYM") == true, "\(summary.debugFiles)")
        #expect(summary.debugFiles["CrashKit"]?.hasSuffix("work/CrashKit.framework.dSYM") == true, "\(summary.debugFiles)")
        #expect(summary.appFramesSymbolicated == summary.appFrames)

        // The same output as both dSYMs named on the command line.
        let named = ReportRequest(
            report: .file(report.path),
            debugFiles: [
                dsyms.appendingPathComponent("CrashApp.app.dSYM").path, work.appendingPathComponent("CrashKit.framework.dSYM").path,
            ]
        ).run()
        #expect(named.debugFileIndexBuilds == 1)
        #expect(named.standardOutput == response.standardOutput)
    }

    /// `explain` and `report --explain` build their index the same one way.
    @Test func explainAssemblesOnce() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path
        let response = ExplainRequest(subject: .report(.file(report), debugFiles: [TestPaths.dsyms])).run()
        #expect(response.status == .success)
        #expect(response.debugFileIndexBuilds == 1)
        #expect(response.reports.first?.decision != nil)
    }

    static var reports: [String] {
        let folder = TestPaths.fixtures.appendingPathComponent("reports")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".crash") || $0.hasSuffix(".ips") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The pipeline's decision is language-free: English and Japanese runs decide the same,
    /// only their words differ, and wording a decision again gives what a run in that language gives.
    @Test(arguments: reports)
    func decisionIsTheSameInEveryLanguage(_ path: String) throws {
        let pipeline = ReportPipeline()
        let english = try #require(try pipeline.run(.file(path), diagnose: true, language: .english).first)
        let japanese = try #require(try pipeline.run(.file(path), diagnose: true, language: .japanese).first)
        let decision = try #require(english.decision)
        #expect(japanese.decision == decision)
        #expect(english.diagnosis?.category == japanese.diagnosis?.category)
        #expect(japanese.diagnosis?.language == .japanese)
        #expect(english.diagnosis(in: .japanese)?.renderJSON() == japanese.diagnosis?.renderJSON())
    }
}
