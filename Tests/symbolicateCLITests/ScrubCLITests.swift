import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate scrub` and `--scrub` through the real binary: outputs, the summary, refusals.
@Suite(.tags(.launchesBinary)) struct ScrubCLITests {
    /// A corpus report bundled in Fixtures/corpus (Fixtures/README.md names its source).
    static let report = Corpus.bundled("driverpay__nsexception-leb_iphone18-4_ios26-3.ips").path

    @Test func scrubWritesAtomicallyAndSaysWhatItReplaced() throws {
        let folder = try TestPaths.temporaryDirectory("scrub-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("shareable.ips").path
        let json = folder.appendingPathComponent("scrubbed.json").path
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.report))
        let result = try CLI.run(["scrub", Self.report, "-o", out, "--report-json", json])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("symbolicate: note: replaced "))
        #expect(result.stderr.contains("incident 1 (2×)"))
        let scrubbed = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!scrubbed.contains("713FBBDB-6C20-4FC1-A78F-3421FE7D01A7"))
        #expect(!scrubbed.contains("69FDCCFC-4206-4466-9CE4-6F22B5B243F4"))
        #expect(scrubbed.contains("7f3ca6c5-2deb-39c4-a8f4-de905efe0e39"), "the app's UUID is kept")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.report)) == before, "the input is never changed")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect((report["replacements"] as? Int ?? 0) > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["scrubbed.json", "shareable.ips"])
    }

    @Test func scrubRefusesToReplaceItsInputAndNamesAMissingFile() throws {
        let folder = try TestPaths.temporaryDirectory("scrub-cli-refuse")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("a.ips").path
        try FileManager.default.copyItem(atPath: Self.report, toPath: copy)
        let refused = try CLI.run(["scrub", copy, "-o", copy])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--in-place"))
        let missing = try CLI.run(["scrub", folder.appendingPathComponent("none.ips").path])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("none.ips"))
        let both = try CLI.run(["scrub", copy, "-o", "x", "--in-place"])
        #expect(both.status == 64)
    }

    @Test func scrubOptionOnReportOutput() throws {
        let plain = try CLI.run([Self.report, "--format", "json"])
        let scrubbed = try CLI.run([Self.report, "--format", "json", "--scrub"])
        #expect(plain.status == 0 && scrubbed.status == 0)
        #expect(plain.stdout.contains("713FBBDB-6C20-4FC1-A78F-3421FE7D01A7"))
        #expect(!scrubbed.stdout.contains("713FBBDB-6C20-4FC1-A78F-3421FE7D01A7"))
        #expect(scrubbed.stdout.contains("incident-1"))
        #expect(try JSONSerialization.jsonObject(with: Data(scrubbed.stdout.utf8)) is [String: Any])
    }
}
