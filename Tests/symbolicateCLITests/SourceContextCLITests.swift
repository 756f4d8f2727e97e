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
}
