import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 41's fixtures (`Fixtures/panics/`, written by its `make.py`) through the real binary:
/// `explain` in English and Japanese, and the JSON form, held to `Fixtures/expected/explain/`.
/// The JSON carries the stable ID of what matched (`matched`), so a team can group by it.
@Suite struct Issue41GoldenTests {
    static let reports = [
        "rust-bounds-check.ips", "rust-ffi-unwrap.crash", "broadcast-upload-memory.crash", "kernel-panic-watchdog.ips",
        "kernel-panic-kext.panic",
    ]

    @Test(arguments: reports)
    func explainMatchesGoldenInEnglishAndJapanese(_ name: String) throws {
        let path = "Fixtures/panics/\(name)"
        for language in ["en", "ja"] {
            let result = try CLI.run(["explain", path, "--language", language], currentDirectory: TestPaths.packageRoot)
            #expect(result.status == 0, "\(result.stderr)")
            try Golden.check(
                result.stdout, against: "explain/\(name).\(language).txt", what: "`symbolicate explain \(path) --language \(language)`")
        }
    }

    static let matched: [(report: String, catalogue: String, id: String, subject: String)] = [
        ("rust-bounds-check.ips", "rust-panic", "index-out-of-bounds", "core::panicking::panic_bounds_check"),
        ("rust-ffi-unwrap.crash", "rust-panic", "panic-cannot-unwind", "core::panicking::panic_cannot_unwind"),
        ("broadcast-upload-memory.crash", "memory-limit", "extension/broadcast-upload", "RideBroadcast.appex"),
        ("kernel-panic-watchdog.ips", "kernel-panic", "watchdog-timeout", "WindowServer"),
        ("kernel-panic-kext.panic", "kernel-panic", "third-party-kext", "com.example.driver.FancyUSB"),
    ]

    @Test(arguments: matched.indices)
    func jsonCarriesTheMatchedID(_ index: Int) throws {
        let row = Self.matched[index]
        let result = try CLI.run(["explain", "Fixtures/panics/\(row.report)", "--format", "json"], currentDirectory: TestPaths.packageRoot)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let matched = try #require(object["matched"] as? [String: Any])
        #expect(matched["catalogue"] as? String == row.catalogue)
        #expect(matched["id"] as? String == row.id)
        #expect(matched["subject"] as? String == row.subject)
        // The same ID in every language.
        let japanese = try CLI.run(
            ["explain", "Fixtures/panics/\(row.report)", "--format", "json", "--language", "ja"], currentDirectory: TestPaths.packageRoot)
        let japaneseObject = try #require(try JSONSerialization.jsonObject(with: Data(japanese.stdout.utf8)) as? [String: Any])
        #expect((japaneseObject["matched"] as? [String: Any])?["id"] as? String == row.id)
        if index == 0 {
            try Golden.check(
                result.stdout, against: "explain/\(row.report).json", what: "`symbolicate explain \(row.report) --format json`")
        }
    }
}
