import Foundation
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Device log lines and crash services' text through the library's requests (issue 40): read,
/// marked partial, explained from what they have; a text with no crash fact exits 65.
@Suite struct PastedTextTests {
    static func path(_ name: String) -> String {
        TestPaths.fixtures.appendingPathComponent("pasted/\(name)").path
    }

    static func explain(_ name: String) throws -> String {
        let response = ExplainRequest(subject: .report(.file(path(name)), debugFiles: [])).run()
        #expect(response.status == .success, "\(name)")
        return try #require(response.standardOutput)
    }

    @Test func aJetsamLogIsExplainedAsAJetsamKill() throws {
        let text = try Self.explain("devicelog__fcitx5-ios_keyboard-jetsam_console.log")
        #expect(text.contains("keyboard"))
        #expect(text.contains("per-process"))
        #expect(text.contains("Log line 4"))
        #expect(text.contains("77 MB"))
        #expect(text.contains("device log lines"))
    }

    @Test func aLaunchdExitIsExplainedAsAKill() throws {
        let text = try Self.explain("devicelog__ssdpmenabler-19_launchd-sigkill_excerpt.log")
        #expect(text.contains("SIGKILL"))
        #expect(text.contains("Log line 1"))
    }

    @Test func aWatchdogLineIsExplainedAsAWatchdogKill() throws {
        let line =
            "SpringBoard[58] <Error>: [FBSceneManager] <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: application<com.example.MyApp>:1234 exhausted real (wall clock) time allowance of 10.00 seconds>\n"
        let response = ExplainRequest(subject: .report(.bytes(Data(line.utf8), name: "watchdog.log"), debugFiles: [])).run()
        #expect(response.status == .success)
        let text = try #require(response.standardOutput)
        #expect(text.contains("0x8badf00d") || text.contains("watchdog"))
        #expect(text.contains("scene-update"))
        #expect(text.contains("10.00"))
    }

    @Test func crashlyticsTextIsReadAndMarkedPartial() throws {
        let name = "crashlytics__firebase-ios-sdk-10159_unrecognized-selector_excerpt.txt"
        let response = ReportRequest(report: .file(Self.path(name)), debugFiles: []).run()
        #expect(response.status == .success)
        let report = try #require(response.reports.first?.report)
        #expect(!report.completeness.isComplete)
        let messages = response.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(messages.contains("kept as printed"))
        let explained = try Self.explain(name)
        #expect(explained.contains("NSInvalidArgumentException"))
        #expect(explained.contains("unrecognized selector"))
    }

    @Test func sentryTextIsExplainedFromItsException() throws {
        let text = try Self.explain("sentry__sentry-cocoa-7861_deep-copy-bad-access_excerpt.txt")
        #expect(text.contains("EXC_BAD_ACCESS"))
        #expect(text.contains("KERN_MEMORY_ERROR"))
    }

    /// A Crashlytics stack of the fixture crash, its app frames given as image offsets with the
    /// image's UUID, symbolicates to the frames the `.crash` of the same crash gets.
    @Test func crashlyticsFramesWithUUIDsAreSymbolicatedLikeTheReport() throws {
        let crash = ReportRequest(
            report: .file(TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash").path), debugFiles: [TestPaths.dsyms]
        ).run()
        let pasted = ReportRequest(report: .file(Self.path("crashlytics__own-null-deref_made-here.txt")), debugFiles: [TestPaths.dsyms])
            .run()
        #expect(pasted.status == .success)
        let expected = try #require(crash.reports.first?.report.crashedThread?.frames.prefix(5)).map { $0.symbolication ?? [] }
        let got = try #require(pasted.reports.first?.report.crashedThread?.frames.prefix(5)).map { $0.symbolication ?? [] }
        #expect(!expected.isEmpty && expected.allSatisfy { !$0.isEmpty })
        #expect(got == expected)
    }

    @Test func aTextWithoutACrashFactExits65NamingWhatWasLookedFor() throws {
        let text = "Hi! The app keeps closing on my iPhone since the update.\nCould you have a look?\n"
        let response = ReportRequest(report: .bytes(Data(text.utf8), name: "mail.txt"), debugFiles: []).run()
        #expect(response.status == .invalidInput)
        let messages = response.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(messages.contains("mail.txt"))
        #expect(messages.contains("device log lines") && messages.contains("Crashlytics") && messages.contains("Apple crash text"))
    }
}
