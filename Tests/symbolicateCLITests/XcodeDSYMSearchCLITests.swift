import Foundation
import SymbolicateTestSupport
import Testing

/// dSYMs found where Xcode leaves them with no dSYM argument: an Archives layout and a
/// DerivedData layout under `$HOME` (a temporary folder here) hold the fixture dSYMs; the
/// first run walks them, the second answers from the index in the user cache folder, and a
/// moved bundle is noticed and found again.
@Suite(.tags(.launchesBinary)) struct XcodeDSYMSearchCLITests {
    static let archive = "Library/Developer/Xcode/Archives/2026-11-27/CrashApp 27-11-2026, 10.00.xcarchive"
    static let derived = "Library/Developer/Xcode/DerivedData/CrashApp-bxkqzwhd/Build/Products/Release-iphoneos"

    static func layout() throws -> (home: URL, work: URL, report: String) {
        let root = try TestPaths.temporaryDirectory("xcode-dsyms")
        let home = root.appendingPathComponent("home")
        let work = root.appendingPathComponent("work")
        let files = FileManager.default
        try files.createDirectory(at: work, withIntermediateDirectories: true)
        let dsyms = home.appendingPathComponent(archive + "/dSYMs")
        let products = home.appendingPathComponent(derived)
        try files.createDirectory(at: dsyms, withIntermediateDirectories: true)
        try files.createDirectory(at: products, withIntermediateDirectories: true)
        let fixtures = URL(fileURLWithPath: TestPaths.dsyms)
        try files.copyItem(at: fixtures.appendingPathComponent("CrashApp.app.dSYM"), to: dsyms.appendingPathComponent("CrashApp.app.dSYM"))
        try files.copyItem(
            at: fixtures.appendingPathComponent("CrashKit.framework.dSYM"), to: products.appendingPathComponent("CrashKit.framework.dSYM"))
        // A dSYM of another app beside them: read and indexed, not used.
        try files.copyItem(at: fixtures.appendingPathComponent("MacApp.app.dSYM"), to: products.appendingPathComponent("MacApp.app.dSYM"))
        let report = work.appendingPathComponent("swift-trap.ips")
        try files.copyItem(at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips"), to: report)
        return (home, work, report.path)
    }

    static func run(_ report: String, home: URL, work: URL) throws -> CLIResult {
        try CLI.run(
            ["--color", "never", report],
            environment: ["HOME": home.path, "XDG_CACHE_HOME": "", "SYMBOLICATE_DSYM_PATH": ""], currentDirectory: work)
    }

    @Test func archivesAndDerivedDataWithNoArgumentThenTheIndex() throws {
        let (home, work, report) = try Self.layout()
        defer { try? FileManager.default.removeItem(at: home.deletingLastPathComponent()) }
        let first = try Self.run(report, home: home, work: work)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("JSONScanner.field(_:key:)"), "\(first.stderr)")
        #expect(first.stdout.contains("Profile.swift:28"))
        let lines = first.stderr.split(separator: "\n")
        // One line per place searched: the CrashApp dSYM in Archives, CrashKit's in DerivedData.
        #expect(
            lines.contains { $0.contains("searched ~/Library/Developer/Xcode/Archives") && $0.contains("1 dSYM, 1 matching") },
            "\(first.stderr)")
        #expect(
            lines.contains { $0.contains("searched ~/Library/Developer/Xcode/DerivedData") && $0.contains("2 dSYMs, 1 matching") },
            "\(first.stderr)")
        #expect(!first.stderr.contains("in the index of Xcode's dSYMs"))
        #if os(macOS)
            let index = home.appendingPathComponent("Library/Caches/symbolicate/xcode-dsyms.json")
        #else
            let index = home.appendingPathComponent(".cache/symbolicate/xcode-dsyms.json")
        #endif
        #expect(FileManager.default.fileExists(atPath: index.path))

        // The second run reads the index and walks no folder.
        let second = try Self.run(report, home: home, work: work)
        #expect(second.stdout == first.stdout)
        #expect(second.stderr.contains("found 2 UUIDs in the index of Xcode's dSYMs"), "\(second.stderr)")
        #expect(!second.stderr.contains("searched ~/Library/Developer/Xcode"), "\(second.stderr)")

        // Moved: the index entry is checked, found wrong, and the folders searched again.
        let old = home.appendingPathComponent(Self.archive + "/dSYMs/CrashApp.app.dSYM")
        let moved = home.appendingPathComponent("Library/Developer/Xcode/Archives/2026-11-28/CrashApp 2.xcarchive/dSYMs")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: old, to: moved.appendingPathComponent("CrashApp.app.dSYM"))
        let third = try Self.run(report, home: home, work: work)
        #expect(third.stdout == first.stdout, "\(third.stderr)")
        #expect(third.stderr.contains("which is gone or holds another build now"), "\(third.stderr)")
        #expect(third.stderr.contains("found 1 UUID in the index"), "\(third.stderr)")
        #expect(third.stderr.contains("searched ~/Library/Developer/Xcode/Archives"), "\(third.stderr)")
        // And the index learnt the new place.
        let fourth = try Self.run(report, home: home, work: work)
        #expect(fourth.stderr.contains("found 2 UUIDs in the index"), "\(fourth.stderr)")
        #expect(!fourth.stderr.contains("searched ~/Library/Developer/Xcode"), "\(fourth.stderr)")
    }

    /// A dSYM argument means no search of Xcode's folders.
    @Test func anArgumentSearchesNoXcodeFolder() throws {
        let (home, work, report) = try Self.layout()
        defer { try? FileManager.default.removeItem(at: home.deletingLastPathComponent()) }
        let result = try CLI.run(
            ["--color", "never", report, TestPaths.dsyms], environment: ["HOME": home.path, "XDG_CACHE_HOME": ""], currentDirectory: work)
        #expect(result.status == 0)
        #expect(!result.stderr.contains("Xcode"), "\(result.stderr)")
    }
}
