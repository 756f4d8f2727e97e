import Foundation
import SymbolicateTestSupport
import Testing

/// The report command as a user runs it: exit codes, stderr diagnostics, atomic `-o`, colour
/// rules and the implicit search for debug files.
@Suite(.tags(.launchesBinary)) struct ReportCommandTests {
    @Test func mismatchedUUIDIsReportedAndRequireAllExitsOne() throws {
        let args = ["Fixtures/reports/uuid-mismatch.crash", "Fixtures/dsyms"]
        let lenient = try CLI.run(args, currentDirectory: TestPaths.packageRoot)
        #expect(lenient.status == 0)
        #expect(
            lenient.stderr.contains(
                "dSYM Fixtures/dsyms/CrashApp.app.dSYM has UUID 4C4C443B-5555-3144-A1E9-455154CFFD57 but the report expects A1B2C3D4-E5F6-3A7B-8C9D-0E1F2A3B4C5D for CrashApp"
            ))
        let strict = try CLI.run(args + ["--require-all"], currentDirectory: TestPaths.packageRoot)
        #expect(strict.status == 1)
        #expect(strict.stdout == lenient.stdout, "the report is still printed")
    }

    @Test func requireAllPassesWhenEverythingMatches() throws {
        let result = try CLI.run(
            ["Fixtures/reports/null-deref.ips", "Fixtures/dsyms", "--require-all"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        // Nothing but the headline, which goes to the terminal (stderr, as stdout is a pipe).
        #expect(
            result.stderr.split(separator: "\n").map(String.init) == [
                "Crashed: Thread 0 (main) in ca_record_body at Records.c:43 — EXC_BAD_ACCESS (SIGSEGV)"
            ])
    }

    @Test func outputFileIsWrittenAndInputUntouched() throws {
        let folder = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = TestPaths.fixtures.appendingPathComponent("reports/watchdog.crash")
        let before = try Data(contentsOf: input)
        let target = folder.appendingPathComponent("out.crash")
        try Data("old contents".utf8).write(to: target)
        let result = try CLI.run(
            [input.path, "Fixtures/dsyms", "-o", target.path, "--color", "always"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let written = try String(contentsOf: target, encoding: .utf8)
        // The file is the report in Apple's layout; the headline went to the terminal (stderr here).
        #expect(!written.contains("Crashed: Thread"))
        #expect(
            result.stderr.contains(
                "Crashed: Thread 0 (main) in ca_wait_for_migration at Records.c:69 — EXC_CRASH (SIGKILL), FRONTBOARD 0x8badf00d\n"))
        #expect(!written.contains("\u{1B}["), "no colour codes in files")
        #expect(try Data(contentsOf: input) == before)
        // Nothing but the output is left in the folder (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.crash"])
    }

    @Test func garbageInputExits65NamingTheFile() throws {
        let folder = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("crashlog-1234.txt")
        try Data([0x00, 0xFF, 0x13, 0x37, 0x00, 0x42]).write(to: bad)
        let result = try CLI.run([bad.path, "Fixtures/dsyms"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.contains(bad.path))
    }

    @Test(arguments: [("Fixtures/reports", "is a folder"), ("Fixtures/reports/nope.crash", "no such file")])
    func unusableReportPathExits65(path: String, message: String) throws {
        let result = try CLI.run([path], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path): \(message)"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try CLI.run(["Fixtures/reports/swift-trap.crash", "--no-such-flag"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 64)
    }

    @Test func debugFilesAreFoundNextToTheReport() throws {
        let folder = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash"),
            to: folder.appendingPathComponent("null-deref.crash"))
        for bundle in ["CrashApp.app.dSYM", "CrashKit.framework.dSYM"] {
            try FileManager.default.copyItem(
                at: TestPaths.fixtures.appendingPathComponent("dsyms/\(bundle)"),
                to: folder.appendingPathComponent(bundle))
        }
        let elsewhere = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let result = try CLI.run([folder.appendingPathComponent("null-deref.crash").path, "--require-all"], currentDirectory: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Crashed: Thread 0 (main) in ca_record_body at Records.c:"))
    }

    @Test func dsymPathEnvironmentIsSearched() throws {
        let elsewhere = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let report = TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips").path
        let result = try CLI.run(
            [report, "--require-all"],
            environment: ["SYMBOLICATE_DSYM_PATH": "/nonexistent:" + TestPaths.fixtures.appendingPathComponent("dsyms").path],
            currentDirectory: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: [
        (["--color", "always"], [String: String](), true),
        (["--color", "never"], [:], false),
        (["--color", "auto"], [:], false),  // stdout is a pipe here
        (["--color", "always"], ["NO_COLOR": "1"], true),  // an explicit choice wins
    ])
    func colourRules(arguments: [String], environment: [String: String], coloured: Bool) throws {
        let result = try CLI.run(
            ["Fixtures/reports/swift-trap.ips", "Fixtures/dsyms"] + arguments,
            environment: environment, currentDirectory: TestPaths.packageRoot)
        #expect(result.stdout.contains("\u{1B}[") == coloured)
    }

    /// Feeding our own output back changes nothing, with or without `--resymbolicate`: printed
    /// inline chains are kept rather than expanded twice, and the top frame stays a PC even
    /// though inline lines shifted its index.
    @Test(arguments: ["swift-trap.ips", "objc-exception.crash"])
    func symbolicatedOutputIsAFixedPoint(report: String) throws {
        let folder = try TestPaths.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.crash")
        let run1 = try CLI.run(["Fixtures/reports/\(report)", "Fixtures/dsyms", "-o", first.path], currentDirectory: TestPaths.packageRoot)
        #expect(run1.status == 0)
        let written = try String(contentsOf: first, encoding: .utf8)
        for extra in [[], ["--resymbolicate"]] {
            let run2 = try CLI.run([first.path, "Fixtures/dsyms", "--color", "never"] + extra, currentDirectory: TestPaths.packageRoot)
            #expect(run2.status == 0)
            #expect(run2.stdout == written, "\(report) \(extra)")
        }
    }

    @Test func crashedOnlyShowsOneThread() throws {
        let result = try CLI.run(
            ["Fixtures/reports/macapp-x86_64.ips", "Fixtures/dsyms", "--crashed-only", "--color", "never"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Thread 1 Crashed:"))
        #expect(!result.stdout.contains("Thread 0"))
        #expect(!result.stdout.contains("Binary Images"))
    }
}
