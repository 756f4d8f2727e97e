import Foundation
import SymbolicateTestSupport
import Testing

/// `-` for a report: `pbpaste | symbolicate - App.dSYM`, `explain -`, `batch -` read the
/// report from standard input and give what the same report named as a file gives.
@Suite(.tags(.launchesBinary)) struct StandardInputCLITests {
    static let reports = ["reports/swift-trap.ips", "reports/swift-trap.crash", "reports/null-deref.ips"]

    static func text(_ fixture: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent(fixture), encoding: .utf8)
    }

    @Test(arguments: reports, ["text", "json", "markdown"])
    func reportFromStandardInputIsTheFilesOutput(fixture: String, format: String) throws {
        let file = try CLI.run(
            ["Fixtures/\(fixture)", "Fixtures/dsyms", "--format", format, "--explain"], currentDirectory: TestPaths.packageRoot)
        let piped = try CLI.run(
            ["-", "Fixtures/dsyms", "--format", format, "--explain"], stdin: try Self.text(fixture), currentDirectory: TestPaths.packageRoot
        )
        #expect(file.status == 0)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stdout.isEmpty)
        // JSON names its source; everything else is the same bytes.
        let named = file.stdout.replacingOccurrences(of: "\"path\" : \"Fixtures/\(fixture)\"", with: "\"path\" : \"<stdin>\"")
        #expect(format != "json" || named != file.stdout, "the JSON names the report's path")
        #expect(piped.stdout == named)
    }

    @Test func symbolicatedFrameComesFromThePipedReport() throws {
        let piped = try CLI.run(
            ["-", "Fixtures/dsyms/CrashApp.app.dSYM"], stdin: try Self.text("reports/swift-trap.ips"),
            currentDirectory: TestPaths.packageRoot)
        #expect(piped.status == 0)
        #expect(piped.stdout.contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"))
    }

    @Test func errorsNameStandardInput() throws {
        let result = try CLI.run(["-"], stdin: "garbage\n", currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.contains("symbolicate: error: <stdin>: not a crash report"), "\(result.stderr)")
        let empty = try CLI.run(["-"], stdin: "", currentDirectory: TestPaths.packageRoot)
        #expect(empty.status == 65)
        #expect(empty.stderr.contains("<stdin>"), "\(empty.stderr)")
    }

    @Test func explainReadsStandardInput() throws {
        let file = try CLI.run(["explain", "Fixtures/reports/swift-trap.ips", "Fixtures/dsyms"], currentDirectory: TestPaths.packageRoot)
        let piped = try CLI.run(
            ["explain", "-", "Fixtures/dsyms"], stdin: try Self.text("reports/swift-trap.ips"), currentDirectory: TestPaths.packageRoot)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("Diagnosis: Swift runtime error"))
        #expect(piped.stdout == file.stdout)
    }

    @Test func batchReadsStandardInput() throws {
        let folder = try TestPaths.temporaryDirectory("batch-stdin")
        defer { try? FileManager.default.removeItem(at: folder) }
        let piped = try CLI.run(
            ["batch", "-", "--dsyms", "Fixtures/dsyms", "-o", folder.path], stdin: try Self.text("reports/swift-trap.ips"),
            currentDirectory: TestPaths.packageRoot)
        #expect(piped.status == 0, "\(piped.stderr)")
        let single = try CLI.run(["Fixtures/reports/swift-trap.ips", "Fixtures/dsyms"], currentDirectory: TestPaths.packageRoot)
        let written = try String(contentsOf: folder.appendingPathComponent("stdin.crash"), encoding: .utf8)
        #expect(written == single.stdout)
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("stdin.crash"))
    }

    @Test func batchNamesAnUnreadablePipedReport() throws {
        let folder = try TestPaths.temporaryDirectory("batch-stdin-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["batch", "-", "-o", folder.path], stdin: "garbage\n", currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 65)
        // Batch names reports relative to their input, as in the summaries.
        #expect(result.stderr.contains("error: stdin.crash: not a crash report"), "\(result.stderr)")
    }
}
