import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26, the faults an adversarial pass over the release binary found, each through the
/// real binary: outputs inside an input bundle, special files in a batch folder, zips of
/// entries that cannot be reports, NUL bytes in a text report, `-j1`.
@Suite(.tags(.launchesBinary)) struct AdversarialInputCLITests {
    static let dsyms = TestPaths.fixtures.appendingPathComponent("dsyms").path
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash")

    /// A copy of the fixture dSYM bundle, so a test that fails cannot damage the fixture.
    static func bundleCopy(in root: URL) throws -> URL {
        let bundle = root.appendingPathComponent("CrashApp.app.dSYM")
        try FileManager.default.copyItem(atPath: "\(dsyms)/CrashApp.app.dSYM", toPath: bundle.path)
        return bundle
    }

    /// Fault 3: `-o App.dSYM/Contents/Info.plist` replaced a file inside an input bundle (only
    /// the DWARF file itself was refused). Any path inside an input bundle is refused, given
    /// explicitly or found by the implicit search, with the input check's message.
    @Test func outputInsideAnInputBundleIsRefused() throws {
        let root = try TestPaths.temporaryDirectory("adversarial")
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = try Self.bundleCopy(in: root)
        let plist = bundle.appendingPathComponent("Contents/Info.plist")
        let before = try Data(contentsOf: plist)
        let fresh = bundle.appendingPathComponent("Contents/Resources/new.crash")
        for output in [plist.path, fresh.path, bundle.appendingPathComponent("Contents/../Contents/Info.plist").path] {
            let result = try CLI.run([Self.report.path, bundle.path, "-o", output])
            #expect(result.status == 64, "\(output): \(result.stderr)")
            #expect(result.stderr.contains("would replace the input \(bundle.path)"), "\(result.stderr)")
        }
        // Found by the implicit search next to the report rather than named.
        let report = root.appendingPathComponent("swift-trap.crash")
        try FileManager.default.copyItem(at: Self.report, to: report)
        let implicit = try CLI.run([report.path, "-o", plist.path])
        #expect(implicit.status == 64, "\(implicit.stderr)")
        #expect(implicit.stderr.contains("would replace the input"), "\(implicit.stderr)")
        #expect(try Data(contentsOf: plist) == before)
        #expect(!FileManager.default.fileExists(atPath: fresh.path))

        // Batch: the output folder inside a --dsyms bundle is refused before it is created.
        let out = bundle.appendingPathComponent("Contents/out")
        let batch = try CLI.run(["batch", Self.report.path, "--dsyms", bundle.path, "--output", out.path])
        #expect(batch.status == 64, "\(batch.stderr)")
        #expect(batch.stderr.contains("--output \(out.path) would replace the input \(bundle.path)"), "\(batch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// Fault 4: a FIFO inside a batch folder was in neither `skipped` nor `unreadable`. Every
    /// file met is accounted for; special files and dangling links with a reason, never opened.
    @Test func specialFilesInABatchFolderAreSkippedWithAReason() throws {
        let root = try TestPaths.temporaryDirectory("adversarial")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.report, to: inputs.appendingPathComponent("a.crash"))
        #expect(mkfifo(inputs.appendingPathComponent("pipe.crash").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            at: inputs.appendingPathComponent("dangling.crash"), withDestinationURL: root.appendingPathComponent("nowhere"))
        try "just a note\n".write(to: inputs.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out")
        let result = try CLI.run(["batch", inputs.path, "--dsyms", Self.dsyms, "--output", out.path, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try BatchSummaryJSON.read(from: out)
        #expect(summary.totals.processed == 1)
        let pipe = "\(inputs.path)/pipe.crash", dangling = "\(inputs.path)/dangling.crash", notes = "\(inputs.path)/notes.txt"
        #expect(Set(summary.skipped) == [pipe, dangling, notes])
        #expect(summary.skippedReasons[pipe]?.contains("a FIFO") == true, "\(summary.skippedReasons)")
        #expect(summary.skippedReasons[dangling]?.contains("link to nothing") == true, "\(summary.skippedReasons)")
        #expect(summary.totals.skipped == 3)
    }

    /// Fault 7: a zip of many one-byte entries was unpacked entry by entry before each was
    /// skipped. Entries that cannot be reports (too small, or named as images and binaries)
    /// are passed over from the central directory, listed with the reason, never unpacked.
    @Test func zipEntriesThatCannotBeReportsAreNotUnpacked() throws {
        let root = try TestPaths.temporaryDirectory("adversarial")
        defer { try? FileManager.default.removeItem(at: root) }
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let report = try Data(contentsOf: Self.report)
        let tiny = (0..<2000).map { StoredZip.Entry("t/\($0).ips", Data([0x7B])) }
        let zip = root.appendingPathComponent("mixed.zip")
        try StoredZip(
            [.init("r/a.crash", report), .init("r/shot.png", report)] + tiny
        ).write(to: zip)
        let out = root.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch", zip.path, "--dsyms", Self.dsyms, "--output", out.path, "--no-progress"], environment: ["TMPDIR": tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try BatchSummaryJSON.read(from: out)
        #expect(summary.totals.processed == 1)
        #expect(summary.totals.skipped == 2001)
        #expect(summary.skippedReasons["\(zip.path)!t/17.ips"] == "1 byte: too small to be a crash report; not unpacked")
        #expect(summary.skippedReasons["\(zip.path)!r/shot.png"] == "a .png file, not a crash report; not unpacked")
        #expect(summary.unreadable.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).isEmpty)
    }

    /// Fault 9: one NUL byte anywhere rejected a text report as binary, alone or in a batch
    /// folder; `-j1` (make's spelling) was refused while `-j 1` worked.
    @Test func aNulByteIsAWarningAndJobsJoinedIsAccepted() throws {
        let root = try TestPaths.temporaryDirectory("adversarial")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var text = try String(contentsOf: Self.report, encoding: .utf8)
        let at = try #require(text.range(of: "\nBinary Images:"))
        text.insert("\u{0}", at: at.lowerBound)
        let damaged = inputs.appendingPathComponent("nul.crash")
        try Data(text.utf8).write(to: damaged)
        let line = text[..<at.lowerBound].filter { $0 == "\n" }.count + 1

        let single = try CLI.run([damaged.path, Self.dsyms])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stderr.contains("nul.crash:\(line): warning: line holds a NUL byte"), "\(single.stderr)")
        #expect(single.stdout.contains("CrashApp"))

        let out = root.appendingPathComponent("out")
        let batch = try CLI.run(["batch", inputs.path, "--dsyms", Self.dsyms, "--output", out.path, "-j1", "--no-progress"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let summary = try BatchSummaryJSON.read(from: out)
        #expect(summary.totals.processed == 1)
        #expect(summary.skipped.isEmpty && summary.unreadable.isEmpty)
    }
}
