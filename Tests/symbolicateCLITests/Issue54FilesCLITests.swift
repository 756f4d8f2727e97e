import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 54, the CLI side of the files slice, with the real binary: a zip piped into `batch -`
/// (finding 14), and the new user's findings on `--require-all`, empty folders, a zip given to
/// the report command and progress in a CI log.
@Suite(.tags(.launchesBinary)) struct Issue54FilesCLITests {
    static func zip(_ names: [String], to zip: URL) throws {
        let tool = try #require(["/usr/bin/zip", "/bin/zip"].first { FileManager.default.isExecutableFile(atPath: $0) }, "zip is needed")
        let result = try ExternalTool.result(
            tool, ["-q", zip.path] + names, currentDirectory: TestPaths.fixtures.appendingPathComponent("reports"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The zip goes to a private file as it arrives (it was held in memory whole, 6.2 GB for
    /// 3 GiB piped) and is read from there: the same answer as the zip named on the command
    /// line, and no temporary file left behind.
    @Test func aZipPipedIntoBatchIsSpooledAndRemoved() throws {
        let root = try TestPaths.temporaryDirectory("issue54-stdin-zip")
        defer { try? FileManager.default.removeItem(at: root) }
        let zip = root.appendingPathComponent("reports.zip")
        try Self.zip(["swift-trap.ips", "null-deref.crash"], to: zip)
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let out = root.appendingPathComponent("out")
        let result = try CLI.run(
            ["-c", "exec \"$0\" batch - --dsyms Fixtures/dsyms -o \"$1\" < \"$2\"", CLI.binary.path, out.path, zip.path],
            environment: ["TMPDIR": tmp.path], currentDirectory: TestPaths.packageRoot, executable: URL(fileURLWithPath: "/bin/bash"),
            timeout: 300)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        let named = root.appendingPathComponent("named")
        let direct = try CLI.run(
            ["batch", zip.path, "--dsyms", "Fixtures/dsyms", "-o", named.path], currentDirectory: TestPaths.packageRoot)
        #expect(direct.status == 0, "\(direct.stderr)")
        for name in ["swift-trap.crash", "null-deref.crash"] {
            let piped = try String(contentsOf: out.appendingPathComponent("stdin/\(name)"), encoding: .utf8)
            let given = try String(contentsOf: named.appendingPathComponent("reports/\(name)"), encoding: .utf8)
            #expect(piped == given, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "a temporary file was left behind")
    }

    /// `--require-all` failed with no line of its own for a mismatched dSYM: one line per image
    /// now, which and why.
    @Test func requireAllSaysWhichImageAndWhy() throws {
        let result = try CLI.run(
            ["Fixtures/reports/uuid-mismatch.crash", "Fixtures/dsyms", "--require-all"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("--require-all:") }
        #expect(lines.count == 1, "\(result.stderr)")
        let line = String(lines.first ?? "")
        #expect(line.contains("CrashApp A1B2C3D4-E5F6-3A7B-8C9D-0E1F2A3B4C5D"), "\(line)")
        #expect(line.contains("is of another build (UUID 4C4C443B-5555-3144-A1E9-455154CFFD57)"), "\(line)")
    }

    /// An empty folder is nothing to do, said as such, exit 0 (it was exit 65).
    @Test func batchOverAnEmptyFolderSaysSoAndExitsZero() throws {
        let root = try TestPaths.temporaryDirectory("issue54-empty")
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = root.appendingPathComponent("crashes")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try CLI.run(["batch", empty.path, "-o", root.appendingPathComponent("out").path, "--fail-on", "crash"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no crash reports in \(empty.path): nothing to do"), "\(result.stderr)")
    }

    /// A zip of reports given to the report command now says that `batch` reads it.
    @Test func aZipGivenToTheReportCommandPointsToBatch() throws {
        let root = try TestPaths.temporaryDirectory("issue54-zip-report")
        defer { try? FileManager.default.removeItem(at: root) }
        let zip = root.appendingPathComponent("crashes.zip")
        try Self.zip(["swift-trap.ips"], to: zip)
        let result = try CLI.run([zip.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("symbolicate batch"), "\(result.stderr)")
    }

    /// With stderr no terminal (a CI log) batch said nothing until the end: a progress line now
    /// (at the first report, then every few seconds), none with `--quiet`.
    @Test func batchWritesProgressLinesToALogUnlessQuiet() throws {
        let root = try TestPaths.temporaryDirectory("issue54-progress")
        defer { try? FileManager.default.removeItem(at: root) }
        let arguments = ["batch", "Fixtures/reports", "--dsyms", "Fixtures/dsyms", "--jobs", "1"]
        let logged = try CLI.run(arguments + ["-o", root.appendingPathComponent("a").path], currentDirectory: TestPaths.packageRoot)
        #expect(logged.status == 0, "\(logged.stderr)")
        let progress = logged.stderr.split(separator: "\n").filter { $0.hasPrefix("batch: ") && $0.contains(" reports (") }
        #expect(progress.first?.hasPrefix("batch: 1 of ") == true, "\(logged.stderr)")
        #expect(!logged.stderr.contains("\r"), "no bar redrawn in a log")
        let quiet = try CLI.run(
            arguments + ["--quiet", "-o", root.appendingPathComponent("b").path], currentDirectory: TestPaths.packageRoot)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("batch: 1 of "), "\(quiet.stderr)")
    }
}
