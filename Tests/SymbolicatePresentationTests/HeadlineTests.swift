import Foundation
import SymbolicateCrashReport
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

/// The headline of each fixture report, before symbolication, against the facts the fixture script recorded
/// from the binaries (Fixtures/reports/manifest.json): the crashed thread, the exception, and the first app
/// frame's image and offset in it.
@Suite struct HeadlineTests {
    @Test(arguments: FixtureManifest.reports)
    func namesTheCrashedThreadAndTheFirstAppFrame(_ fixture: FixtureManifest.Report) throws {
        let report = try CrashReport.parse(contentsOf: fixture.path)
        let headline = Headline(report: report)
        #expect(headline.thread == fixture.crashedThread)
        #expect(headline.exception?.hasPrefix(fixture.exceptionType) == true, "\(headline.exception ?? "nil")")
        let appImages = Set(fixture.appImages.map(\.name))
        guard let first = fixture.crashedThreadAppFrames.filter({ appImages.contains($0.image) }).min(by: { $0.frameIndex < $1.frameIndex })
        else { return }
        #expect(headline.image == first.image)
        #expect(headline.imageOffset == first.imageOffset)
        #expect(headline.text.hasPrefix("Crashed: Thread \(fixture.crashedThread)"), "\(headline.text)")
    }

    @Test func aReportWithoutThreadsSaysHowTheProcessEnded() throws {
        let text = """
            Incident Identifier: 6A1C47D3-7C2D-4E4B-9D8D-2D5B6C1E9F01
            Process:             MyApp [412]
            Identifier:          com.example.MyApp
            OS Version:          iPhone OS 17.5 (21F79)
            Exception Type:      EXC_CRASH (SIGKILL)
            Termination Reason:  FRONTBOARD 2343432205
            <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression>

            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "watchdog.crash")
        let headline = Headline(report: report)
        #expect(headline.thread == nil)
        // Text reports print the code in decimal; the headline says it in hex as Apple documents it.
        #expect(headline.exception?.contains("0x8badf00d") == true, "\(headline.exception ?? "nil")")
    }
}
