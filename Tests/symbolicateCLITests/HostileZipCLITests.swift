import Foundation
import SymbolicateTestSupport
import Testing

/// Hostile zips end to end: bad entries are skipped and named (zip and entry), the good
/// ones processed, nothing is written outside the private temporary folder, and that
/// folder is gone when the run ends.
@Suite(.tags(.launchesBinary)) struct HostileZipCLITests {
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips")
    static let dsyms = TestPaths.fixtures.appendingPathComponent("dsyms").path

    /// A private TMPDIR per test, so "nothing left behind" is checkable.
    static func contents(of folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    @Test func batchZipWithBadEntriesProcessesTheGoodOnes() throws {
        let root = try TestPaths.temporaryDirectory("hostile-zip")
        defer { try? FileManager.default.removeItem(at: root) }
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let good = try Data(contentsOf: Self.report)
        let zip = root.appendingPathComponent("inbox/reports.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try StoredZip([
            .init("../../escaped.ips", good),
            .init("locked.ips", good, flags: 1),
            .init("packed.ips", good, method: 12),
            .init("logs/a.ips", good),
            .init("logs/a.ips", good),
            .init("logs/b.ips", good),
        ]).write(to: zip)
        let out = root.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch", zip.path, "--dsyms", Self.dsyms, "--output", out.path],
            environment: ["TMPDIR": tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("reports/logs/a.crash").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("reports/logs/b.crash").path))
        let summary = try String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8)
        for (entry, word) in [
            ("../../escaped.ips", "escapes"), ("locked.ips", "encrypted"), ("packed.ips", "bzip2"),
            ("logs/a.ips", "duplicate"),
        ] {
            #expect(summary.contains("reports.zip!\(entry)"), "\(entry) not named in the summary")
            #expect(summary.contains(word), "\(word) missing from the summary")
        }
        #expect(result.stderr.contains("reports.zip!"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped.ips").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: zip.deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("escaped.ips").path))
        #expect(Self.contents(of: tmp).isEmpty, "left in TMPDIR: \(Self.contents(of: tmp))")
    }

    @Test func dsymZipWithAnEncryptedEntryIsNamed() throws {
        let root = try TestPaths.temporaryDirectory("hostile-zip")
        defer { try? FileManager.default.removeItem(at: root) }
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let dwarf = "CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp"
        let zip = root.appendingPathComponent("appDsyms.zip")
        try StoredZip([.init(dwarf, try Data(contentsOf: URL(fileURLWithPath: "\(Self.dsyms)/\(dwarf)")), flags: 1)]).write(to: zip)
        let crash = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let result = try CLI.run([crash, zip.path], environment: ["TMPDIR": tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("appDsyms.zip: entry '\(dwarf)': is encrypted"), "\(result.stderr)")
        #expect(Self.contents(of: tmp).isEmpty, "left in TMPDIR: \(Self.contents(of: tmp))")
    }
}
