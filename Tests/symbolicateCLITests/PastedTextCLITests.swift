import Foundation
import SymbolicateTestSupport
import Testing

/// Real device-log excerpts and crash services' issue text through the binary (issue 40): each
/// is read and explained (goldens under `Fixtures/expected/pasted/`, written by this tool with
/// `SYMBOLICATE_UPDATE_GOLDEN=1` and reviewed); a text with no crash fact exits 65.
@Suite struct PastedTextCLITests {
    static let fixtures = [
        "devicelog__fcitx5-ios_keyboard-jetsam_console.log",
        "devicelog__ssdpmenabler-19_launchd-sigkill_excerpt.log",
        "crashlytics__firebase-ios-sdk-10159_unrecognized-selector_excerpt.txt",
        "crashlytics__atinternet-apple-sdk-69_swift-bad-access.txt",
        "crashlytics__onesignal-ios-sdk-1409_export-header_excerpt.txt",
        "crashlytics__own-null-deref_made-here.txt",
        "sentry__sentry-cocoa-7861_deep-copy-bad-access_excerpt.txt",
        "hockeyapp__provenance-1090_main-line-17.txt",
    ]

    static func run(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments + ["--color", "never"], currentDirectory: TestPaths.packageRoot)
    }

    @Test(arguments: fixtures)
    func readAndExplained(_ name: String) throws {
        let input = "Fixtures/pasted/\(name)"
        let report = try Self.run([input, "Fixtures/dsyms"])
        #expect(report.status == 0, "\(name): \(report.stderr)")
        try Golden.check(report.stdout + "--- stderr ---\n" + report.stderr, against: "pasted/\(name).txt", what: "symbolicate \(name)")
        let explain = try Self.run(["explain", input])
        #expect(explain.status == 0, "\(name): \(explain.stderr)")
        // The two texts that state no exception or termination (HockeyApp's "No reason found.",
        // a Crashlytics excerpt of the threads only) say so; every other is explained from its facts.
        // A text whose one stack is all it has says where that stack stopped, and that nothing more is stated.
        let factless = name.hasPrefix("hockeyapp") || name.contains("onesignal")
        let saysNothingStated =
            explain.stdout.contains("Not enough information") || explain.stdout.contains("states no exception, signal or message")
        #expect(saysNothingStated == factless, "\(name) is explained from what it has")
        try Golden.check(explain.stdout, against: "pasted/\(name).explain.txt", what: "symbolicate explain \(name)")
    }

    @Test func aTextWithNoCrashFactExits65() throws {
        let folder = try TestPaths.temporaryDirectory("no-crash-fact")
        let file = folder.appendingPathComponent("notes.txt")
        try Data("Steps: open the app, tap Save.\nExpected: saved. Actual: the app closes.\n".utf8).write(to: file)
        let result = try Self.run([file.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("notes.txt"))
        #expect(result.stderr.contains("device log lines") && result.stderr.contains("Crashlytics/Sentry/HockeyApp"))
    }
}
