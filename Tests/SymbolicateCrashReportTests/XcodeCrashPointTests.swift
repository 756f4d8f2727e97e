import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Xcode Organizer exports (`.xccrashpoint`), on the committed `Fixtures/logs/CrashApp.xccrashpoint`
/// (two of the fixture reports under Filter_1 and Filter_2) and on bundles made here.
@Suite struct XcodeCrashPointTests {
    static let logsFolder = TestPaths.fixtures.appendingPathComponent("logs").path
    static let bundle = logsFolder + "/CrashApp.xccrashpoint"
    static let expectedLogs = [
        "Filters/Filter_1/DistributionInfos/all/Logs/2022-08-04_01-11-01.0000_+0200-8d3f1a.crash",
        "Filters/Filter_2/DistributionInfos/all/Logs/2022-08-04_01-11-01.0000_+0200-2b7c90.crash",
    ]

    @Test func bundleListsItsLogsInFilterOrder() throws {
        let logs = try #require(XcodeCrashPoint.logs(at: Self.bundle))
        #expect(logs.map(\.displayPath) == Self.expectedLogs.map { Self.bundle + "/" + $0 })
        #expect(logs.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
    }

    @Test func folderOfBundlesListsEveryBundlesLogs() throws {
        let logs = try #require(XcodeCrashPoint.logs(at: Self.logsFolder))
        #expect(logs.map(\.displayPath) == Self.expectedLogs.map { Self.bundle + "/" + $0 })
    }

    @Test func otherPathsAreNotCrashPoints() {
        #expect(XcodeCrashPoint.logs(at: TestPaths.fixtures.appendingPathComponent("reports").path) == nil)
        #expect(XcodeCrashPoint.logs(at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path) == nil)
        #expect(XcodeCrashPoint.logs(at: "/nonexistent/X.xccrashpoint") == nil)
    }

    @Test func readAllGivesEveryLogAsAReport() throws {
        let reports = try CrashReport.readAll(at: Self.bundle)
        #expect(reports.map(\.path) == Self.expectedLogs.map { Self.bundle + "/" + $0 })
        #expect(reports.map { $0.exception?.type } == ["EXC_BREAKPOINT", "EXC_BAD_ACCESS"])
        #expect(reports.allSatisfy { $0.kind == .crash && $0.completeness.isComplete })
        // A plain report file is still one report.
        let single = try CrashReport.readAll(at: TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips").path)
        #expect(single.count == 1)
    }

    /// Numeric filter order, an unreadable log skipped with a warning, an empty bundle refused.
    @Test func madeBundles() throws {
        let work = try TestPaths.temporaryDirectory("xccrashpoint")
        defer { try? FileManager.default.removeItem(at: work) }
        let bundle = work.appendingPathComponent("Made.xccrashpoint")
        let source = TestPaths.fixtures.appendingPathComponent("reports/watchdog.crash")
        for filter in ["Filter_10", "Filter_2"] {
            let logs = bundle.appendingPathComponent("Filters/\(filter)/DistributionInfos/all/Logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: logs.appendingPathComponent("a.crash"))
        }
        let broken = bundle.appendingPathComponent("Filters/Filter_3/DistributionInfos/all/Logs")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data().write(to: broken.appendingPathComponent("empty.crash"))

        let logs = try #require(XcodeCrashPoint.logs(at: bundle.path))
        #expect(logs.map { $0.displayPath.components(separatedBy: "/Filters/")[1].prefix(9) } == ["Filter_2/", "Filter_3/", "Filter_10"])
        let reports = try CrashReport.readAll(at: bundle.path)
        #expect(reports.count == 2)
        #expect(
            reports[0].warnings.contains {
                $0.message == "log skipped: file is empty" && $0.path.hasSuffix("Filter_3/DistributionInfos/all/Logs/empty.crash")
            })

        let empty = work.appendingPathComponent("Empty.xccrashpoint")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent("Filters"), withIntermediateDirectories: true)
        let error = try #require(#expect(throws: CrashReportError.self) { try CrashReport.readAll(at: empty.path) })
        #expect(error.kind == .notACrashReport)
        #expect(error.message.contains("without any log"))
    }
}
