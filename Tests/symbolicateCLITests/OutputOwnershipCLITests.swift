import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 38, findings 10 and 12, with the real binary: outputs never go through another
/// user's symlink, a replaced output keeps its mode, batch never creates anything inside an
/// input bundle before refusing its output folder there, and never replaces a file of its
/// output folder that an earlier batch did not write.
@Suite(.tags(.launchesBinary)) struct OutputOwnershipCLITests {
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips")
    static let isRoot = geteuid() == 0

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// A 0600 secret in a 0700 folder of `root` and, at `name` (a path below `root`), a link to
    /// it owned by another user.
    static func plant(_ name: String, in root: URL) throws -> (secret: String, link: String) {
        let privateFolder = root.appendingPathComponent("private").path
        _ = mkdir(privateFolder, 0o700)
        let secret = privateFolder + "/secret"
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(chmod(secret, 0o600) == 0)
        let link = root.appendingPathComponent(name).path
        #expect(symlink(secret, link) == 0)
        #expect(lchown(link, 4242, 4343) == 0)
        return (secret, link)
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func outputThroughAnotherUsersLinkIsRefused() throws {
        let root = try TestPaths.temporaryDirectory("ownership")
        defer { try? FileManager.default.removeItem(at: root) }
        let (secret, link) = try Self.plant("out.crash", in: root)
        let result = try CLI.run(["report", Self.report.path, TestPaths.dsyms, "-o", link])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("owned by another user (uid 4242): not followed"), "\(result.stderr)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "secret\n")
        #expect(Self.mode(secret) == 0o600)
    }

    @Test func replacedOutputKeepsItsMode() throws {
        let root = try TestPaths.temporaryDirectory("ownership")
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out.crash").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: output))
        #expect(chmod(output, 0o600) == 0)
        let result = try CLI.run(["report", Self.report.path, TestPaths.dsyms, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("Thread 0 Crashed"))
        #expect(Self.mode(output) == 0o600)
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func batchSummaryThroughAnotherUsersLinkIsRefused() throws {
        let root = try TestPaths.temporaryDirectory("ownership")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (secret, _) = try Self.plant("out/summary.md", in: root)
        let result = try CLI.run(["batch", Self.report.path, "--dsyms", TestPaths.dsyms, "--output", out.path, "--no-progress"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("owned by another user"), "\(result.stderr)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "secret\n")
    }

    /// Finding 12: with the bundle found through SYMBOLICATE_DSYM_PATH (not named), the output
    /// folder inside it was created, then refused: empty folders were left in the bundle.
    @Test func batchOutputInsideASearchedBundleIsRefusedBeforeAnythingIsMade() throws {
        let root = try TestPaths.temporaryDirectory("ownership")
        defer { try? FileManager.default.removeItem(at: root) }
        let source = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM")
        let bundle = root.appendingPathComponent("CrashApp.app.dSYM")
        try FileManager.default.copyItem(at: source, to: bundle)
        let before = try FileManager.default.subpathsOfDirectory(atPath: bundle.path).sorted()
        let out = bundle.appendingPathComponent("Contents/out/deeper")
        let result = try CLI.run(
            ["batch", Self.report.path, "--output", out.path, "--no-progress"], environment: ["SYMBOLICATE_DSYM_PATH": root.path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("would replace the input"), "\(result.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: bundle.path).sorted() == before)
    }

    /// Finding 12: a file already in the output folder under a report's output name, which no
    /// earlier batch wrote, was replaced. It is kept now, and the report says why; outputs an
    /// earlier batch wrote (listed in its summary.json) are replaced by a rerun.
    @Test func batchKeepsAFileItDidNotWrite() throws {
        let root = try TestPaths.temporaryDirectory("ownership")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent("swift-trap.crash")
        try Data("my notes\n".utf8).write(to: mine)
        let arguments = ["batch", Self.report.path, "--dsyms", TestPaths.dsyms, "--output", out.path, "--no-progress"]
        let first = try CLI.run(arguments)
        #expect(try String(contentsOf: mine, encoding: .utf8) == "my notes\n")
        #expect(first.stderr.contains("is already there and no earlier batch wrote it"), "\(first.stderr)")
        #expect(first.status != 0, "\(first.stderr)")

        // Moved away: the batch writes it, and a rerun replaces its own output.
        try FileManager.default.removeItem(at: mine)
        let second = try CLI.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        let written = try String(contentsOf: mine, encoding: .utf8)
        #expect(written.contains("Thread 0 Crashed"))
        let third = try CLI.run(arguments)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == written)
    }
}
