import Foundation
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

@testable import SymbolicateBatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rules of a `batch` run, on the request: outputs never replace inputs, what a CI log
/// shows, and the exit status.
@Suite struct BatchRequestTests {
    static let reportsFolder = TestPaths.fixtures.appendingPathComponent("reports")

    static func copyReports(_ names: [String], to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: reportsFolder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    @Test func aJUnitFileOnAnInputIsAUsageErrorAndTheInputIsKept() throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try Self.copyReports(["swift-trap.crash"], to: inputs)
        let report = inputs.appendingPathComponent("swift-trap.crash").path
        let before = try Data(contentsOf: URL(fileURLWithPath: report))
        let request = BatchRequest(
            inputs: [inputs.path], debugFiles: [TestPaths.dsyms], outputFolder: root.appendingPathComponent("out").path, jobs: 1,
            junit: report)
        let response = request.run()
        #expect(response.status == .usage)
        guard case .failure(.outputReplacesInput(.junit, let output, let input))? = response.messages.last else {
            Issue.record("expected outputReplacesInput, got \(response.messages)")
            return
        }
        #expect(output == report && input == report)
        #expect(response.messages.last?.body.hasSuffix("; choose another file") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == before)
    }

    /// `summary.md` with `--language ja`: headings and column names from the catalogs (issue 39,
    /// finding 13); English stays as it was.
    @Test func theSummaryHeadingsFollowTheLanguage() throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try Self.copyReports(["swift-trap.crash", "null-deref.crash"], to: inputs)
        var headings: [String: String] = [:]
        for japanese in [false, true] {
            let out = root.appendingPathComponent(japanese ? "out-ja" : "out-en")
            let response = BatchRequest(
                inputs: [inputs.path], debugFiles: [TestPaths.dsyms], outputFolder: out.path, jobs: 1,
                language: japanese ? .japanese : .english
            ).run()
            #expect(response.status == .success, "\(response.messages)")
            let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
            let lines = summary.split(separator: "\n").filter { $0.hasPrefix("#") || ($0.hasPrefix("| ") && !$0.contains("---")) }
            headings[japanese ? "ja" : "en"] = lines.prefix(3).joined(separator: "\n")
        }
        #expect(headings["en"]?.hasPrefix("## Crash summary\n### Crashes\n| Count | Signature |") == true, "\(headings)")
        #expect(headings["ja"]?.hasPrefix("## クラッシュの概要\n### クラッシュ\n| 件数 | シグネチャ |") == true, "\(headings)")
    }

    @Test func aMissingDSYMPathIsAUsageError() {
        let response = BatchRequest(inputs: [Self.reportsFolder.path], debugFiles: ["/nonexistent/x.dSYM"], outputFolder: "/tmp/unused")
            .run()
        #expect(response.status == .usage)
        #expect(response.messages == [.failure(.debugFiles(.notFound(path: "/nonexistent/x.dSYM")))])
    }

    /// An empty folder is nothing to do, not bad input: CI's "no crash in this run" (issue 54),
    /// whatever `--fail-on` says; the summary is still written.
    @Test(arguments: [BatchFailurePolicy.never, .crash, .missingDSYM])
    func noReportsIsSaidAndExitsZeroAndTheSummaryIsWritten(failOn: BatchFailurePolicy) throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let out = root.appendingPathComponent("out")
        let response = BatchRequest(inputs: [empty.path], outputFolder: out.path, failOn: failOn).run()
        #expect(response.status == .success)
        #expect(response.messages.last == .noReports(inputs: [empty.path]))
        #expect(response.messages.last?.body == "no crash reports in \(empty.path): nothing to do")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.md").path))
    }

    /// Issue 54, finding 6: batch's output folder is not made through another user's link among
    /// the folders on the way (root only: a link is given to uid 4242).
    @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
    func theOutputFolderIsNotMadeThroughAnotherUsersLink() throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try Self.copyReports(["swift-trap.crash"], to: inputs)
        let target = root.appendingPathComponent("root-only").path
        #expect(mkdir(target, 0o700) == 0)
        let link = root.appendingPathComponent("shared").path
        #expect(symlink(target, link) == 0)
        #expect(lchown(link, 4242, 4242) == 0)
        let response = BatchRequest(inputs: [inputs.path], outputFolder: link + "/out", jobs: 1).run()
        #expect(response.status == .cannotWrite)
        #expect(response.messages.last?.body.contains("owned by another user (uid 4242): not followed") == true, "\(response.messages)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    /// A missing input is still a failure: nothing was read, and something was asked for.
    @Test func aMissingInputWithNoReportIsInvalidInput() throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let response = BatchRequest(
            inputs: [root.appendingPathComponent("missing").path], outputFolder: root.appendingPathComponent("out").path
        )
        .run()
        #expect(response.status == .invalidInput)
        #expect(response.messages.last == .failure(.noReadableReport))
    }

    @Test func failOnTripsAfterTheClosingLine() throws {
        let root = try TestPaths.temporaryDirectory("batch-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("in")
        try Self.copyReports(["swift-trap.crash", "null-deref.ips"], to: inputs)
        var request = BatchRequest(
            inputs: [inputs.path], debugFiles: [TestPaths.dsyms], outputFolder: root.appendingPathComponent("out").path,
            githubAnnotations: true, failOn: .never)
        request.jobs = 1
        let passing = request.run()
        #expect(passing.status == .success)
        #expect(passing.standardOutput?.contains("::error") == true)
        guard case .finished(let timing, let totals, _)? = passing.messages.last else {
            Issue.record("expected the closing line last, got \(passing.messages)")
            return
        }
        #expect(timing.jobs == 1 && totals.processed == 2)
        request.failOn = .crash
        let failing = request.run()
        #expect(failing.status == .failed)
        guard case .failOnTripped(.crash, _)? = failing.messages.last else {
            Issue.record("expected the --fail-on line last, got \(failing.messages)")
            return
        }
        #expect(failing.messages.last?.text(tool: "symbolicate").hasPrefix("symbolicate: --fail-on crash: ") == true)
    }

    /// A CI log shows three of each kind, then a count of the rest.
    @Test func theLogShowsThreeOfEachKind() {
        var summary = BatchSummary(results: [])
        summary.unreadable = (1...5).map { BatchSummary.Unreadable(input: "r\($0).crash", error: "empty file") }
        let lines = BatchRequest.logLines(summary)
        #expect(lines.count == 4)
        #expect(lines.last == .moreUnreadable(2))
        #expect(lines.last?.text(tool: "symbolicate") == "symbolicate: error: … and 2 more unreadable reports (summary.md)\n")
    }
}

/// Issue 38, finding 12: `batch -` read standard input without a limit (`cat /dev/zero |
/// symbolicate batch -` filled memory). A report piped in now has a report file's limit, a zip
/// the run's unpack limit; at most one byte past it is read, and the input is refused.
@Suite struct BatchStandardInputLimitTests {
    /// A sparse file of `size` zero bytes (no disk used), opened for reading.
    static func sparse(_ size: Int, in root: URL) throws -> FileHandle {
        let path = root.appendingPathComponent("big").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.seek(toOffset: 0)
        return handle
    }

    @Test func aReportPipedInIsReadToOneBytePastTheLimit() throws {
        let root = try TestPaths.temporaryDirectory("batch-stdin")
        defer { try? FileManager.default.removeItem(at: root) }
        let handle = try Self.sparse(80 << 20, in: root)
        defer { try? handle.close() }
        let inputs = ReportInputSet(inputs: ["-"], standardInput: { handle })
        defer { inputs.removeTemporaryFiles() }
        #expect(try handle.offset() == (64 << 20) + 1)  // a report file's limit, 64 MiB, and one byte
        #expect(inputs.reports.isEmpty)
        #expect(inputs.problems.count == 1)
    }

    @Test func aZipPipedInHasTheUnpackLimit() throws {
        let root = try TestPaths.temporaryDirectory("batch-stdin")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("piped.zip").path
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 5000)).write(to: URL(fileURLWithPath: path))
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let inputs = ReportInputSet(inputs: ["-"], standardInput: { handle }, zipLimit: 1000)
        defer { inputs.removeTemporaryFiles() }
        #expect(inputs.reports.isEmpty)
        #expect(inputs.problems.map(\.message) == ["more than 1000 bytes piped in, over the 1000-byte limit for a zip of reports"])
    }

    @Test func overTheLimitTheInputIsRefusedWithAMessage() throws {
        let root = try TestPaths.temporaryDirectory("batch-stdin")
        defer { try? FileManager.default.removeItem(at: root) }
        let handle = try Self.sparse(80 << 20, in: root)
        defer { try? handle.close() }
        var request = BatchRequest(inputs: ["-"], outputFolder: root.appendingPathComponent("out").path, jobs: 1)
        request.standardInput = { handle }
        let response = request.run()
        #expect(response.status == .invalidInput)
        let problem = response.summary?.unreadable.first
        #expect(problem?.input == "<stdin>")
        #expect(
            problem?.error == "more than 67108864 bytes piped in, over the 67108864-byte limit for a crash report",
            "\(String(describing: problem))")
    }
}
