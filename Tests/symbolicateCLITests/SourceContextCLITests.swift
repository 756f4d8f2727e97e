import Foundation
import SymbolicateTestSupport
import Testing

/// `--source-root` through the real binary: the lines of a checkout next to the frames, and the
/// flags that only go with it refused without it.
@Suite("--source-root (CLI)")
struct SourceContextCLITests {
    @Test func linesFromAFolderWithoutGit() throws {
        let folder = try TestPaths.temporaryDirectory("source-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("CrashApp")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("src/CrashApp/Profile.swift"), to: app.appendingPathComponent("Profile.swift"))
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        // No git work tree above it either (a TMPDIR inside the clone, as the Mac-shaped lane's, is one).
        let result = try CLI.run(
            [report, TestPaths.dsyms, "--source-root", folder.path, "--context", "1"],
            environment: ["GIT_CEILING_DIRECTORIES": folder.deletingLastPathComponent().path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("> 28 |         return value!"))
        #expect(result.stdout.contains("  27 |         let value = field(bytes, key: key)"))
        #expect(!result.stdout.contains("  26 |"))
        #expect(result.stdout.contains("not a git work tree"))
        // Files the checkout lacks are said once each, with the first path tried.
        #expect(result.stdout.components(separatedBy: "Not in the checkout: /src/CrashApp/main.c").count <= 2)
        let json = try CLI.run([report, TestPaths.dsyms, "--source-root", folder.path, "--format", "json"])
        #expect(json.stdout.contains("\"sourceContext\""))
    }

    @Test func companionsNeedTheRoot() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        for flags in [["--commit", "abc"], ["--context", "2"], ["--tag-pattern", "v{version}"], ["--source-path-map", "/a=b"]] {
            let result = try CLI.run([report] + flags)
            #expect(result.status == 64, "\(flags): \(result.stderr)")
            #expect(result.stderr.contains("--source-root"))
        }
        #expect(try CLI.run([report, "--source-root", "/nonexistent/checkout"]).status == 64)
        #expect(try CLI.run([report, "--source-root", "/tmp", "--source-path-map", "nonsense"]).status == 64)
    }

    /// A git repository in a temporary folder holding the fixture app's `Profile.swift` (or not).
    static func repository(_ label: String, holdingTheApp: Bool) throws -> URL {
        let folder = try TestPaths.temporaryDirectory("source-cli-\(label)")
        let app = folder.appendingPathComponent(holdingTheApp ? "CrashApp" : "Other")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("src/CrashApp/Profile.swift"),
            to: app.appendingPathComponent(holdingTheApp ? "Profile.swift" : "Other.swift"))
        let environment = [
            "GIT_AUTHOR_NAME": "Ada Example", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada Example",
            "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        ]
        for arguments in [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "Sources"]] {
            let done = try CLI.run(
                ["git"] + arguments, environment: environment, currentDirectory: folder, executable: URL(fileURLWithPath: "/usr/bin/env"))
            try #require(done.status == 0, "git \(arguments): \(done.stderr)")
        }
        return folder
    }

    @Test("without --source-root, the current directory's work tree gives the lines when it holds a frame's file")
    func theCurrentWorkTreeIsFound() throws {
        let checkout = try Self.repository("found", holdingTheApp: true)
        defer { try? FileManager.default.removeItem(at: checkout) }
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        // From a folder inside the work tree, as a developer in their app's repository.
        let inside = checkout.appendingPathComponent("CrashApp/Sub")
        let found = try CLI.run(
            [report, TestPaths.dsyms, "--commit", "HEAD"], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: inside)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("> 28 |         return value!"), "\(found.stdout.prefix(800))")
        #expect(found.stdout.contains("last changed in"), "\(found.stdout.prefix(800))")
        let explained = try CLI.run(
            ["explain", report, TestPaths.dsyms], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: inside)
        #expect(explained.stdout.contains("the line reads: return value!"), "\(explained.stdout)")
        // --no-source-root turns it off; so does SYMBOLICATE_SOURCE_ROOT=none.
        let off = try CLI.run(
            [report, TestPaths.dsyms, "--no-source-root"], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: inside)
        #expect(off.status == 0)
        #expect(!off.stdout.contains("Source ("))
        let none = try CLI.run([report, TestPaths.dsyms], environment: ["SYMBOLICATE_SOURCE_ROOT": "none"], currentDirectory: inside)
        #expect(!none.stdout.contains("Source ("))
        #expect(try CLI.run([report, "--no-source-root", "--source-root", checkout.path]).status == 64)
        #expect(try CLI.run(["batch", report, "--no-source-root", "--source-root", checkout.path]).status == 64)
        #expect(try CLI.run(["explain", report, "--no-source-root", "--source-root", checkout.path]).status == 64)
        // The variable names a checkout for a run started anywhere.
        let named = try CLI.run([report, TestPaths.dsyms], environment: ["SYMBOLICATE_SOURCE_ROOT": checkout.path])
        #expect(named.stdout.contains("> 28 |         return value!"))
    }

    @Test("a work tree that holds none of the frames' files adds nothing, not even 'not in the checkout'")
    func anUnrelatedWorkTreeIsSilent() throws {
        let checkout = try Self.repository("unrelated", holdingTheApp: false)
        defer { try? FileManager.default.removeItem(at: checkout) }
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let result = try CLI.run([report, TestPaths.dsyms], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: checkout)
        let plain = try CLI.run([report, TestPaths.dsyms])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == plain.stdout)
        #expect(!result.stdout.contains("Not in the checkout"))
        // The companions are taken with a work tree to apply them to.
        let context = try CLI.run(
            [report, TestPaths.dsyms, "--context", "1"], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: checkout)
        #expect(context.status == 0, "\(context.stderr)")
    }

    /// Issue 54 met the source context: a thread of 200,000 app frames with no file of their own
    /// (no dSYM) was walked frame by frame with the rest of the thread copied at each step, so a
    /// run in a work tree took minutes. The walk is now linear. (A hang guard, not a timing.)
    @Test func aLongAppThreadWithoutFilesIsWalkedOnce() throws {
        let folder = try TestPaths.temporaryDirectory("source-cli-long")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("long.ips")
        try Data(IPSMemoryCLITests.report(threads: 1, framesPerThread: 200_000).utf8).write(to: report)
        let result = try CLI.run(
            [report.path, "--source-root", folder.path, "--context", "0", "-o", folder.appendingPathComponent("out.txt").path],
            timeout: 600)
        #expect(!result.timedOut)
        #expect(result.status <= 1, "\(result.stderr)")
    }
}
