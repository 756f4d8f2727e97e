import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// One rule for "the app's line" (issue 37): the headline (and with it batch grouping and CI
/// annotations) and explain name the same frame, function and file:line, on every fixture
/// report, symbolicated with the fixtures' dSYMs and as read.
@Suite struct AppLineAgreementTests {
    static let reports = FixtureReports.all

    static let index: DebugFileIndex? = try? ReportPipeline.debugFiles([TestPaths.dsyms], searchPath: false)

    @Test func thereAreReports() {
        #expect(Self.reports.count >= 40)
    }

    @Test(arguments: reports)
    func headlineAndExplainNameTheSameFrame(_ path: String) throws {
        let source = ReportSource.file(TestPaths.fixtures.appendingPathComponent(path).path)
        let read = try ReportPipeline.read(source)
        let symbolicated = try ReportPipeline(debugFiles: try #require(Self.index)).run(source, diagnose: false).map(\.report)
        for report in read + symbolicated where report.kindSummary == nil {
            let headline = Headline(report: report)
            guard let line = report.crashedAppLine, let thread = report.crashedThread else {
                // No frame in the app's code: explain names none, and the headline names the top
                // frame, never an app frame.
                if let thread = report.crashedThread, let top = thread.frames.first {
                    #expect(report.image(for: top)?.isAppOwned != true || headline.function == nil, "\(path)")
                }
                continue
            }
            #expect(headline.thread == thread.index, "\(path)")
            #expect(headline.function == line.function, "\(path): headline \(headline.function ?? "-") vs explain \(line.function ?? "-")")
            #expect(headline.location == line.location, "\(path): headline \(headline.location ?? "-") vs explain \(line.location ?? "-")")
            #expect(report.firstAppFrame?.index == thread.frames[line.position].index)
        }
    }

    /// A frame of the app's image whose innermost level is a C++ standard header (`vector`):
    /// both name the app's own function and line, not the header.
    @Test func libraryHeaderLevelsGiveWayToTheAppsLine() throws {
        let text = """
            Process:               App [100]
            Path:                  /private/var/containers/Bundle/Application/X/App.app/App
            Code Type:             ARM-64 (Native)
            Exception Type:  EXC_CRASH (SIGABRT)
            Triggered by Thread:  0

            Thread 0 Crashed:
            0   App                           0x0000000100000100 0x100000000 + 256

            Binary Images:
            0x100000000 - 0x100007fff App arm64  <c0ffee00c0ffee00c0ffee00c0ffee00> /private/var/containers/Bundle/Application/X/App.app/App

            """
        var report = try ReportPipeline.readFirst(.bytes(Data(text.utf8), name: "synthetic.crash"))
        report.threads[0].frames[0].symbolication = [
            SymbolicatedFrame(
                function: "std::__1::vector<int>::at(unsigned long)", offsetInFunction: 4,
                file: "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/include/c++/v1/vector",
                line: 1500, isInlined: true),
            SymbolicatedFrame(function: "Store.load()", offsetInFunction: 40, file: "/src/App/Store.swift", line: 42, isInlined: false),
        ]
        let headline = Headline(report: report)
        #expect(headline.function == "Store.load()")
        #expect(headline.location == "Store.swift:42")
        #expect(report.crashedAppLine?.location == "Store.swift:42")
    }
}
