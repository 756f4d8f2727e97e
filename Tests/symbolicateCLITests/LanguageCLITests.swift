import Foundation
import SymbolicateTestSupport
import Testing

/// `--language` and the locale end to end through the real binary: Japanese goldens for every
/// fixture report (and the logs), the JSON and Markdown forms, `report --explain`, batch
/// summaries; English unchanged.
@Suite(.tags(.launchesBinary)) struct LanguageCLITests {
    /// A Japanese locale and nothing that outranks it, as a developer's shell in Japan has.
    static let japaneseLocale = ["SYMBOLICATE_LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"]

    /// Every fixture report and log the package ships, relative to the package root.
    static var reports: [String] {
        var paths: [String] = []
        for folder in ["reports", "logs"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.appendingPathComponent(folder).path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") && name != "manifest.json" && !name.hasSuffix(".xccrashpoint") {
                paths.append("Fixtures/\(folder)/\(name)")
            }
        }
        return paths
    }

    @Test func thereAreReports() {
        #expect(Self.reports.count >= 19)
    }

    @Test(arguments: reports)
    func japaneseDiagnosisMatchesGolden(_ report: String) throws {
        let result = try CLI.run(
            ["explain", report, "Fixtures/dsyms"], environment: Self.japaneseLocale, currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let name = (report as NSString).lastPathComponent
        guard let expected = try Golden.expected("ja/\(name).txt", output: result.stdout) else { return }
        #expect(
            result.stdout == expected,
            "`LANG=ja_JP.UTF-8 symbolicate explain \(report) Fixtures/dsyms` differs from Fixtures/expected/ja/\(name).txt")
    }

    /// The flag wins over the environment both ways; English is the default.
    @Test func flagOverridesEnvironment() throws {
        let report = "Fixtures/reports/watchdog.ips"
        let english = try CLI.run(["explain", report], currentDirectory: TestPaths.packageRoot).stdout
        let japanese = try CLI.run(["explain", report], environment: Self.japaneseLocale, currentDirectory: TestPaths.packageRoot).stdout
        #expect(english.hasPrefix("Diagnosis: Watchdog timeout"))
        #expect(japanese.hasPrefix("診断: ウォッチドッグのタイムアウト"))
        let forcedEnglish = try CLI.run(
            ["explain", report, "--language", "en"], environment: Self.japaneseLocale, currentDirectory: TestPaths.packageRoot)
        #expect(forcedEnglish.stdout == english)
        let forcedJapanese = try CLI.run(["explain", report, "--language", "ja"], currentDirectory: TestPaths.packageRoot)
        #expect(forcedJapanese.stdout == japanese)
        let viaVariable = try CLI.run(
            ["explain", report], environment: ["SYMBOLICATE_LANGUAGE": "ja", "LANG": "en_US.UTF-8"], currentDirectory: TestPaths.packageRoot
        )
        #expect(viaVariable.stdout == japanese)
    }

    @Test func unknownLanguageIsAUsageError() throws {
        let result = try CLI.run(["explain", "SIGABRT", "--language", "fr"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--language"))
    }

    /// JSON keeps its keys and category, says its language, and its texts follow it.
    @Test func jsonCarriesTheLanguage() throws {
        let result = try CLI.run(
            ["explain", "Fixtures/reports/swift-trap.ips", "Fixtures/dsyms", "--format", "json", "--language", "ja"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["language"] as? String == "ja")
        #expect(object["category"] as? String == "swiftRuntimeError")
        #expect((object["headline"] as? String)?.hasPrefix("Swift ランタイムエラー") == true)
        let english = try CLI.run(
            ["explain", "Fixtures/reports/swift-trap.ips", "Fixtures/dsyms", "--format", "json"], currentDirectory: TestPaths.packageRoot)
        let englishObject = try #require(try JSONSerialization.jsonObject(with: Data(english.stdout.utf8)) as? [String: Any])
        #expect(Set(englishObject.keys) == Set(object.keys))
        #expect(englishObject["language"] as? String == "en")
        guard let expected = try Golden.expected("ja/swift-trap.ips.json", output: result.stdout) else { return }
        #expect(result.stdout == expected)
    }

    @Test func markdownAndTermsInJapanese() throws {
        let markdown = try CLI.run(
            ["explain", "Fixtures/reports/null-deref.crash", "Fixtures/dsyms", "--format", "markdown", "--language", "ja"],
            currentDirectory: TestPaths.packageRoot)
        if let expected = try Golden.expected("ja/null-deref.crash.md", output: markdown.stdout) {
            #expect(markdown.stdout == expected)
        }
        let term = try CLI.run(["explain", "EXC_BAD_ACCESS", "--language", "ja"])
        #expect(term.stdout.hasPrefix("EXC_BAD_ACCESS — 不正なメモリアクセス（") || term.stdout.hasPrefix("EXC_BAD_ACCESS — 不正なメモリアクセス ("))
        let unknown = try CLI.run(["explain", "EXC_BAD_ACESS", "--language", "ja"])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("ナレッジベースにありません"))
    }

    /// `report --explain`: the diagnosis above follows the language; the report stays in
    /// Apple's layout (its English labels and frames, byte for byte as without --explain).
    @Test func reportStaysInApplesLayout() throws {
        let arguments = ["Fixtures/reports/swift-trap.ips", "Fixtures/dsyms", "--color", "never"]
        let plain = try CLI.run(arguments, currentDirectory: TestPaths.packageRoot).stdout
        let explained = try CLI.run(arguments + ["--explain", "--language", "ja"], currentDirectory: TestPaths.packageRoot).stdout
        #expect(explained.hasPrefix("診断: "))
        #expect(explained.hasSuffix(plain))
        if let expected = try Golden.expected("ja/swift-trap.ips.explain.txt", output: explained) {
            #expect(explained == expected)
        }
    }

    /// Batch summaries carry the diagnosis in the run's language.
    @Test func batchSummaryInJapanese() throws {
        let work = try TestPaths.temporaryDirectory("batch-ja")
        let result = try CLI.run(
            [
                "batch", "Fixtures/reports/watchdog.ips", "--dsyms", "Fixtures/dsyms", "--output", work.path, "--no-progress", "--language",
                "ja",
            ],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try String(contentsOf: work.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("ウォッチドッグのタイムアウト"))
    }
}
