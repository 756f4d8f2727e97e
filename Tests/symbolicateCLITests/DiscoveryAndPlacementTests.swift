import Foundation
import SymbolicateTestSupport
import Testing

/// Where the report command looks for debug files when none are named, what it says about
/// debug files that do not fit, and where the headline goes (issue 17, items 1, 4 and 5).
@Suite(.tags(.launchesBinary)) struct DiscoveryAndPlacementTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-h8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func copyFixture(_ relative: String, to folder: URL, as name: String? = nil) throws {
        let source = TestPaths.fixtures.appendingPathComponent(relative)
        let target = folder.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: target)
    }

    // MARK: Discovery

    /// From `/` the implicit search lists two folders' top levels and stops: it used to walk
    /// the whole file system (minutes, killed by the user). Counted, not timed (issue 39): two
    /// folders listed, and exactly the entries of their top levels looked at.
    @Test func noDebugFilesFromTheRootIsQuickAndSaysWhatWasSearched() throws {
        let reports = TestPaths.fixtures.appendingPathComponent("reports")
        let result = try CLI.run([reports.appendingPathComponent("null-deref.crash").path], currentDirectory: URL(fileURLWithPath: "/"))
        #expect(result.status == 0, "\(result.stderr)")
        let topLevel = try [reports.path, "/"].map {
            try FileManager.default.contentsOfDirectory(atPath: $0).filter { !$0.hasPrefix(".") }.count
        }
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("searched ") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("searched 2 folders, \(topLevel.reduce(0, +)) files") == true, "\(topLevel) \(result.stderr)")
    }

    /// Only the top level and Xcode's `*.xcarchive/dSYMs` are looked at: a dSYM buried in a
    /// sub-folder of the current directory is not found, one in an archive is.
    @Test func implicitSearchIsTopLevelPlusArchives() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copyFixture("reports/null-deref.crash", to: folder.appendingPathComponent("reports"))
        let cwd = folder.appendingPathComponent("work")
        try Self.copyFixture("dsyms/CrashApp.app.dSYM", to: cwd.appendingPathComponent("deep/down/inside"))
        try Self.copyFixture("dsyms/CrashKit.framework.dSYM", to: cwd.appendingPathComponent("Build.xcarchive/dSYMs"))
        let report = folder.appendingPathComponent("reports/null-deref.crash").path
        let result = try CLI.run([report], currentDirectory: cwd)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no dSYM for CrashApp"), "the buried dSYM must not be found: \(result.stderr)")
        #expect(!result.stderr.contains("no dSYM for CrashKit"), "the archive's dSYM must be found: \(result.stderr)")
        #expect(result.stderr.contains("searched 3 folders"), "report folder, cwd, archive dSYMs: \(result.stderr)")
        #expect(result.stderr.contains(": 1 found"), "\(result.stderr)")
    }

    /// `SYMBOLICATE_DSYM_PATH` is where the user keeps dSYMs: it is searched recursively.
    @Test func dsymPathIsSearchedRecursively() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copyFixture("dsyms/CrashApp.app.dSYM", to: folder.appendingPathComponent("a/b"))
        try Self.copyFixture("dsyms/CrashKit.framework.dSYM", to: folder.appendingPathComponent("c"))
        let report = TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash").path
        let result = try CLI.run(
            [report, "--require-all"], environment: ["SYMBOLICATE_DSYM_PATH": folder.path],
            currentDirectory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("SYMBOLICATE_DSYM_PATH"), "\(result.stderr)")
        #expect(result.stderr.contains(": 2 found"), "\(result.stderr)")
    }

    /// An unrelated dSYM is described by what it holds, beside what the report needs.
    @Test func unrelatedDebugFileShowsItsIdentity() throws {
        let result = try CLI.run(
            ["Fixtures/reports/null-deref.crash", "Fixtures/dsyms/MacApp.app.dSYM"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("MacApp.app.dSYM was not used") })
        #expect(
            line.contains(
                "it holds MacApp <4C4C44E9-5555-3144-A121-B971AA1071A6> x86_64, MacApp <4C4C44A0-5555-3144-A158-AF459A33CC4C> arm64"))
        #expect(line.contains("the report needs CrashApp <4C4C443B-5555-3144-A1E9-455154CFFD57> arm64"))
    }

    // MARK: Exit codes

    @Test func unwritableBatchOutputIsExit73() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file where the output folder's parent should be: the folder cannot be created.
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try CLI.run(
            ["batch", "Fixtures/reports/null-deref.crash", "--dsyms", "Fixtures/dsyms", "-o", blocker.path + "/out"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 73, "\(result.stderr)")
    }

    // MARK: Headline placement

    static let nullDerefHeadline = "Crashed: Thread 0 (main) in ca_record_body at Records.c:43 — EXC_BAD_ACCESS (SIGSEGV)"

    /// Piped stdout gets the report in Apple's layout; the headline goes to stderr.
    @Test func pipedOutputHasNoHeadline() throws {
        let result = try CLI.run(
            ["Fixtures/reports/null-deref.crash", "Fixtures/dsyms", "--color", "never"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        #expect(!result.stdout.contains("Crashed: Thread"))
        #expect(result.stderr.contains(Self.nullDerefHeadline + "\n"))
    }
}
