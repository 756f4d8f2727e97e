import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `symbolicate batch --upload` against a real `symbolicate serve --inbox` on loopback: every
/// report read reaches the inbox once, each outcome is in summary.json, and what was not sent
/// is named and fails the run (a wrong token is not retried; a server that is away is, a
/// bounded number of times).
@Suite(.serialized, .tags(.launchesBinary)) struct BatchUploadCLITests {
    /// Three different crashes from the fixture build.
    static let reports = ["reports/swift-trap.ips", "reports/null-deref.crash", "reports/objc-exception.ips"]
    static let token = "upload-token-for-the-test"

    /// A folder holding copies of `reports` (batch reads a folder as CI hands it one).
    static func inputs(_ label: String, _ names: [String] = reports) throws -> URL {
        let folder = try TestPaths.temporaryDirectory("upload-\(label)").appendingPathComponent("crashes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: TestPaths.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent((name as NSString).lastPathComponent)
            )
        }
        return folder
    }

    struct Summary: Decodable {
        struct Upload: Decodable {
            var status: String
            var group: String?
            var attempts: Int
            var error: String?
        }
        struct Report: Decodable {
            var input: String
            var upload: Upload?
        }
        struct Totals: Decodable {
            struct Uploads: Decodable {
                var stored: Int
                var alreadyStored: Int
                var failed: Int
                var newGroups: Int
            }
            var uploads: Uploads?
        }
        var reports: [Report]
        var totals: Totals
    }

    static func summary(_ folder: URL) throws -> Summary {
        try JSONDecoder().decode(Summary.self, from: Data(contentsOf: folder.appendingPathComponent("summary.json")))
    }

    @Test func everyReportReachesTheInboxOnce() throws {
        let server = try InboxServer(token: Self.token)
        defer { server.stop() }
        let inputs = try Self.inputs("once")
        let out = inputs.deletingLastPathComponent().appendingPathComponent("out")
        let arguments = [
            "batch", inputs.path, "--dsyms", TestPaths.dsyms, "-o", out.path, "--upload", server.url, "--token", Self.token, "--quiet",
        ]
        let first = try CLI.run(arguments, timeout: 300)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.contains("uploaded to \(server.url)/v1/reports: 3 stored, 0 already there, 3 in new groups, 0 not sent"),
            "\(first.stderr)")
        let summary = try Self.summary(out)
        #expect(summary.reports.count == 3)
        #expect(summary.reports.allSatisfy { $0.upload?.status == "stored" && $0.upload?.attempts == 1 })
        #expect(Set(summary.reports.compactMap(\.upload?.group)).count == 3)
        #expect(summary.totals.uploads?.stored == 3)
        #expect(
            try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8).contains(
                "3 sent to the crash inbox (3 new there)"))
        // What the inbox lists is what batch said it stored.
        let groups = try server.groups()
        #expect(groups.total == 3)
        #expect(Set(groups.ids) == Set(summary.reports.compactMap(\.upload?.group)))

        // The token from the environment, as CI sets it; the same reports again are counted once.
        let again = try CLI.run(
            Array(arguments.dropLast(3)) + ["--quiet"], environment: ["SYMBOLICATE_SERVE_TOKEN": Self.token], timeout: 300)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 stored, 3 already there, 0 not sent"), "\(again.stderr)")
        #expect(try Self.summary(out).reports.allSatisfy { $0.upload?.status == "already-stored" })
        #expect(try server.groups().counts == groups.counts)
    }

    @Test func aRefusedUploadIsNamedNotRetriedAndFailsTheRun() throws {
        let server = try InboxServer(token: Self.token)
        defer { server.stop() }
        let inputs = try Self.inputs("refused", Array(Self.reports.prefix(2)))
        let out = inputs.deletingLastPathComponent().appendingPathComponent("out")
        let run = try CLI.run(
            ["batch", inputs.path, "--dsyms", TestPaths.dsyms, "-o", out.path, "--upload", server.url, "--token", "wrong", "--quiet"],
            timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("null-deref.crash: not sent to the inbox: \(server.url)/v1/reports answered 401"), "\(run.stderr)")
        #expect(run.stderr.contains("0 stored, 0 already there, 2 not sent"), "\(run.stderr)")
        #expect(!run.stderr.contains("wrong"), "the token is never shown")
        let summary = try Self.summary(out)
        #expect(summary.reports.allSatisfy { $0.upload?.status == "failed" && $0.upload?.attempts == 1 })
        // The reports themselves were still symbolicated and written.
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("null-deref.crash").path))
        #expect(try server.groups().total == 0)
    }

    /// Nothing listens: each of the first three reports is tried three times, the fourth not at
    /// all, and every one is named as not sent.
    @Test func aServerThatIsAwayIsTriedABoundedNumberOfTimes() throws {
        let port = try DebuginfodProcess.freePort()
        let inputs = try Self.inputs("away", Self.reports + ["reports/watchdog.crash"])
        let out = inputs.deletingLastPathComponent().appendingPathComponent("out")
        let run = try CLI.run(
            [
                "batch", inputs.path, "--dsyms", TestPaths.dsyms, "-o", out.path, "--upload", "http://127.0.0.1:\(port)", "-j", "1",
                "--quiet",
            ],
            timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("not sent to the inbox: cannot connect"), "\(run.stderr)")
        #expect(run.stderr.contains("… and 1 more reports not sent to the inbox (summary.json)"), "\(run.stderr)")
        let summary = try Self.summary(out)
        #expect(summary.reports.map { $0.upload?.attempts } == [3, 3, 3, 0])
        #expect(summary.reports.last?.upload?.error?.contains("not tried") == true)
        #expect(summary.totals.uploads?.failed == 4)
    }

    @Test func anUploadURLIsCheckedBeforeAnythingRuns() throws {
        let inputs = try Self.inputs("url", Array(Self.reports.prefix(1)))
        let out = inputs.deletingLastPathComponent().appendingPathComponent("out")
        let run = try CLI.run(["batch", inputs.path, "-o", out.path, "--upload", "ftp://example.com/inbox"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--upload ftp://example.com/inbox: not an http:// or https:// URL"), "\(run.stderr)")
        let tokenAlone = try CLI.run(["batch", inputs.path, "-o", out.path, "--token", "x"])
        #expect(tokenAlone.status == 64, "\(tokenAlone.stderr)")
    }
}

/// A real `symbolicate serve --inbox` (SQLite, a folder of its own) on a port of its choosing.
final class InboxServer: @unchecked Sendable {
    let process = Process()
    let errors = Pipe()
    let folder: URL
    var port = 0
    var url: String { "http://127.0.0.1:\(port)" }

    init(token: String) throws {
        folder = try TestPaths.temporaryDirectory("upload-server")
        process.executableURL = CLI.binary
        process.arguments = [
            "serve", "--port", "0", "--store", folder.appendingPathComponent("store").path, "--debug-files", TestPaths.dsyms,
            "--inbox", folder.appendingPathComponent("inbox.sqlite").path,
        ]
        process.environment = CLI.environment(["SYMBOLICATE_SERVE_TOKEN": token])
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // "symbolicate serve: listening on http://127.0.0.1:PORT/ (open it in a browser)"
        var text = ""
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, !text.contains("(open it in a browser)") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        if let line = text.split(separator: "\n").first(where: { $0.contains("listening on http://") }),
            let range = line.range(of: #":(\d+)/"#, options: .regularExpression)
        {
            port = Int(line[range].dropFirst().dropLast()) ?? 0
        }
        guard port > 0 else {
            stop()
            throw FixtureError("serve --inbox did not start: \(text)")
        }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `GET /v1/groups`: the groups' ids and counts.
    func groups() throws -> (total: Int, ids: [String], counts: [Int]) {
        struct Page: Decodable {
            struct Summary: Decodable {
                struct Group: Decodable { var id: String }
                var group: Group
                var count: Int
            }
            var groups: [Summary]
            var total: Int
        }
        let body = try get("/v1/groups?per_page=200")
        let page = try JSONDecoder().decode(Page.self, from: body)
        return (page.total, page.groups.map(\.group.id), page.groups.map(\.count))
    }

    /// One GET on loopback (no curl needed); the body of a 200.
    func get(_ path: String) throws -> Data {
        let done = DispatchSemaphore(value: 0)
        let box = AnswerBox()
        let request = URLRequest(
            url: try #require(URL(string: url + path)), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.set(status: (response as? HTTPURLResponse)?.statusCode, body: data)
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 60)
        let (status, body) = box.get()
        guard status == 200, let body else { throw FixtureError("GET \(path): status \(status.map(String.init) ?? "none")") }
        return body
    }
}

private final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int?
    private var body: Data?

    func set(status: Int?, body: Data?) { lock.withLock { (self.status, self.body) = (status, body) } }
    func get() -> (Int?, Data?) { lock.withLock { (status, body) } }
}
