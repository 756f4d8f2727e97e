import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateCore
import SymbolicateServe
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server against what an attacker sends (issue 54, findings 4, 7, 9, 10, 15, 16, and the
/// server part of the new user's item 6), each on a real socket on loopback.
@Suite(.tags(.server)) struct HardeningTests {
    /// Past the sweep's grace: two hours ago.
    static func age(_ path: String) {
        let then = Int(Date().timeIntervalSince1970 - 2 * DebugFileStore.sweepGrace)
        let time = timeval(tv_sec: .init(then), tv_usec: 0)
        _ = [time, time].withUnsafeBufferPointer { utimes(path, $0.baseAddress) }
    }

    /// Two entries in the store at `folder`, its index closed when this returns.
    static func fill(_ folder: URL) throws {
        let store = try DebugFileStore(root: folder.path)
        try store.put(fileAt: Serve.crashAppDSYM + "/Contents/Resources/DWARF/CrashApp")
        try store.put(fileAt: TestPaths.dsyms + "/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit")
    }

    // MARK: DNS rebinding (finding 7)

    /// A page loaded as `http://evil.example:PORT/` after its name was rebound to 127.0.0.1
    /// sends `Host: evil.example:PORT` (and that `Origin`): refused on every path, by the
    /// connection guard (the server's own application) and by the router (behind a proxy).
    @Test func aHostNameOtherThanLoopbacksIsRefused() async throws {
        let server = try Serve.server { $0.limits.requestSeconds = 120 }
        let test: @Sendable (any ServeClient) async throws -> Void = { client in
            let port = try #require(client.port)
            for (method, path, extra) in [
                ("GET", "/", ""), ("GET", "/page.js", ""),
                (
                    "POST", "/v1/symbolicate",
                    "Origin: http://evil.example:\(port)\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\n"
                ),
            ] {
                let connection = try RawConnection(port: port)
                connection.send("\(method) \(path) HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\(extra)\r\n")
                if method == "POST" { connection.send("hello") }
                let (text, _) = await connection.readToClose()
                #expect(text.hasPrefix("HTTP/1.1 421"), "\(method) \(path): \(text)")
                #expect(text.contains("\"code\":\"host-not-allowed\""), "\(text)")
            }
            // Loopback's names, with the port or without, are this server's.
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST"] {
                let connection = try RawConnection(port: port)
                connection.send("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                let head = await connection.readHead()
                #expect(head.hasPrefix("HTTP/1.1 200"), "\(host): \(head)")
            }
        }
        // The server's own application (its connection guard), and its router alone.
        try await Serve.running(server, test)
        try await Serve.live(server, test)
        let metrics = server.metrics.render(hasStore: false)
        #expect(metrics.contains(#"symbolicate_refusals_total{reason="host"} 6"#), "\(metrics)")
    }

    @Test func anAllowedHostIsAnswered() async throws {
        let server = try Serve.server { $0.allowedHosts = ["Symbols.Example.com"] }
        try await Serve.running(server) { client in
            let port = try #require(client.port)
            for (host, status) in [("symbols.example.com:\(port)", "200"), ("symbols.example.com.", "200"), ("evil.example", "421")] {
                let connection = try RawConnection(port: port)
                connection.send("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                let head = await connection.readHead()
                #expect(head.hasPrefix("HTTP/1.1 \(status)"), "\(host): \(head)")
            }
        }
    }

    @Test func theFlagIsCheckedAndShownInHelp() throws {
        #expect(ServeRequest(host: "127.0.0.1").invalidArgument == nil)
        var request = ServeRequest()
        request.allowedHosts = ["a b"]
        #expect(request.invalidArgument?.contains("--allowed-host") == true)
        let help = try CLI.run(["serve", "--help"])
        #expect(help.stdout.contains("--allowed-host"))
    }

    // MARK: Refusals before the body (finding 9)

    /// Refused on its headers (no token, another token, a declared 10 GiB over the limit):
    /// answered at once and the connection closed, not one byte of the body read.
    @Test func aRefusalOnHeadersIsAnsweredAndClosedWithoutReadingTheBody() async throws {
        let store = try TestPaths.temporaryDirectory("serve-early-refusal")
        defer { try? FileManager.default.removeItem(at: store) }
        let server = try StoreRouteTests.server(store: store)
        let tenGiB = 10 << 30
        try await Serve.running(server) { client in
            let port = try #require(client.port)
            for (head, status) in [
                ("PUT /v1/debug-files HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(tenGiB)\r\n", "401"),
                ("PUT /v1/debug-files HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong\r\nContent-Length: \(tenGiB)\r\n", "401"),
                (
                    "PUT /v1/debug-files HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(StoreRouteTests.token)\r\nContent-Length: \(tenGiB)\r\n",
                    "413"
                ),
                ("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(tenGiB)\r\n", "413"),
            ] {
                let connection = try RawConnection(port: port)
                connection.send(head + "\r\nsome of the body")
                let (text, closed) = await connection.readToClose()
                #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text)")
                #expect(text.lowercased().contains("connection: close"), "\(text)")
                #expect(closed, "the server closed the connection")
            }
        }
    }

    /// Answered by a route before the body is in (a bad query, the place limit): the answer
    /// says `Connection: close` and the connection ends; the body is not read on and on.
    @Test func anAnswerBeforeTheBodyEndsTheConnection() async throws {
        let server = try Serve.server()
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("POST /v1/symbolicate?format=nonsense HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nIncident")
            let (text, closed) = await connection.readToClose()
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text)")
            #expect(text.lowercased().contains("connection: close"), "\(text)")
            #expect(closed)
        }
    }

    // MARK: Slow bodies (finding 10)

    /// Bodies a byte at a time hold no request's place: with every place's worth of them under
    /// way, a whole report is still answered.
    @Test func slowBodiesDoNotTakeTheRequestPlaces() async throws {
        let server = try Serve.server {
            $0.limits.concurrentRequests = 2
            // Far past the test's guards: only where a body's wait is counted matters.
            $0.limits.requestSeconds = 600
            $0.limits.bodySeconds = 600
        }
        let report = try Serve.report()
        try await Serve.running(server) { client in
            let port = try #require(client.port)
            var slow: [RawConnection] = []
            for _ in 0..<4 {
                let connection = try RawConnection(port: port)
                connection.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nI")
                slow.append(connection)
            }
            #expect(await Serve.eventually { server.bodiesBeingRead == 4 })
            #expect(server.requestsInProgress == 0)
            // A raw request with the connection's 180-second guard: the test client's fixed 20 s
            // read timeout is shorter than one symbolication takes on a loaded 2-core machine.
            let whole = try RawConnection(port: port)
            whole.send(
                "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(report.count)\r\n\r\n"
                    + String(decoding: report, as: UTF8.self))
            let (text, _) = await whole.readToClose()
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(300))")
            for connection in slow { connection.hangUp() }
        }
    }

    /// A body that keeps coming, but slower than the minimum rate, is cut off after the grace.
    @Test func aBodySlowerThanTheMinimumRateIsCutOff() async throws {
        let server = try Serve.server {
            $0.limits.bodyRateGrace = 1
            $0.limits.minimumBodyRate = 1000
            // Far past the test's guards: only the rate can end the body.
            $0.limits.bodySeconds = 60
            $0.limits.requestSeconds = 600
        }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nI")
            // A byte every 0.2 s, far below the rate, until the server answers (the guard: a minute).
            for _ in 0..<300 {
                try await Task.sleep(nanoseconds: 200_000_000)
                // Nothing more once answered: a byte to a closed socket would reset the
                // connection and lose the answer.
                if Self.hasAnswer(connection.fd) { break }
                Self.sendQuietly(connection.fd, "n")
            }
            let (text, closed) = await connection.readToClose()
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
            #expect(text.contains("slower than 1000 bytes a second"), "\(text)")
            #expect(closed)
            #expect(await Serve.eventually { server.bodiesBeingRead == 0 })
        }
    }

    /// Whether the server has sent something (or closed): a poll that does not wait.
    static func hasAnswer(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Sends without a SIGPIPE should the server have closed the connection already.
    static func sendQuietly(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        #if os(Linux)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        #endif
    }

    // MARK: Errors for web users (new user's item 6)

    /// Every error answer of the API: short, in the API's words (no `<stdin>:`), with a code,
    /// and without any path of the server's (its store, its debug files, its temporary folder).
    @Test func noErrorAnswerNamesAPathOfTheServer() async throws {
        let store = try TestPaths.temporaryDirectory("serve-error-paths")
        defer { try? FileManager.default.removeItem(at: store) }
        let server = try Serve.server(debugFiles: [TestPaths.dsyms]) {
            $0.storePath = store.path
            $0.token = StoreRouteTests.token
        }
        let original = try StoreRouteTests.dwarf
        let rebuilt = try StoreOpenFilesTests.rebuiltCrashApp()
        let authorized = StoreRouteTests.authorized
        let answers = try await Serve.routes(server) { client in
            var answers: [(String, Int, String)] = []
            func ask(_ label: String, _ uri: String, _ method: HTTPRequest.Method, headers: HTTPFields = [:], body: Data? = nil)
                async throws
            {
                let answer = try await client.execute(uri: uri, method: method, headers: headers, body: body.map(Serve.body)) { response in
                    (Int(response.status.code), String(buffer: response.body))
                }
                answers.append((label, answer.0, answer.1))
            }
            try await ask("store", "/v1/debug-files", .put, headers: authorized, body: original)
            try await ask("not a report", "/v1/symbolicate", .post, body: Data("hello, this is not a crash report\n".utf8))
            try await ask("empty", "/v1/symbolicate", .post, body: Data())
            try await ask("binary", "/v1/symbolicate", .post, body: Data([0, 1, 2, 3, 0xFF, 0xFE, 0, 0]))
            try await ask("cannot render", "/v1/symbolicate?format=ips", .post, body: try Serve.report("swift-trap.crash"))
            try await ask("format", "/v1/symbolicate?format=pdf", .post, body: try Serve.report())
            try await ask("accept", "/v1/symbolicate", .post, headers: [.accept: "image/png"], body: try Serve.report())
            try await ask("method", "/v1/symbolicate", .get)
            try await ask("route", "/v1/nothing", .get)
            try await ask("bad id", "/v1/debug-files/..%2F..%2Fetc", .get)
            try await ask("unknown id", "/v1/debug-files/00000000000000000000000000000000", .get)
            try await ask("no token", "/v1/debug-files", .put, body: original)
            try await ask("wrong token", "/v1/debug-files", .put, headers: [.authorization: "Bearer wrong"], body: original)
            try await ask("not a debug file", "/v1/debug-files", .put, headers: authorized, body: Data("not a debug file".utf8))
            try await ask("conflict", "/v1/debug-files", .put, headers: authorized, body: rebuilt)
            try await ask("delete unknown", "/v1/debug-files/00000000000000000000000000000001", .delete, headers: authorized)
            try await ask(
                "cross origin", "/v1/symbolicate", .post, headers: [.origin: "http://elsewhere.example"], body: try Serve.report())
            // And the answers that are no errors: symbolicated with the store and the debug files.
            for format in ["text", "json", "markdown"] {
                try await ask("ok \(format)", "/v1/symbolicate?explain=1&format=\(format)", .post, body: try Serve.report())
                try await ask(
                    "ok mismatch \(format)", "/v1/symbolicate?explain=1&format=\(format)", .post,
                    body: try Serve.report("uuid-mismatch.ips"))
            }
            try await ask("page", "/", .get)
            return answers
        }
        let serverPaths = [
            store.path, TestPaths.dsyms, TestPaths.fixtures.path, FileManager.default.temporaryDirectory.path,
            (FileManager.default.temporaryDirectory.path as NSString).resolvingSymlinksInPath,
        ]
        #expect(answers.count == 24)
        for (label, _, body) in answers {
            for path in serverPaths where path.count > 1 { #expect(!body.contains(path), "\(label): \(body)") }
        }
        for (label, status, body) in answers.dropFirst() where !label.hasPrefix("ok ") && label != "page" {
            #expect(status >= 400, "\(label): \(status) \(body)")
            #expect(!body.contains("<stdin>"), "\(label): \(body)")
            let error = try #require(Serve.apiError(ByteBuffer(string: body)), "\(label): \(body)")
            #expect(error.message.count <= 200, "\(label): \(error.message.count) characters: \(error.message)")
            #expect(body.contains("\"code\""), "\(label): \(body)")
        }
        let notAReport = try #require(answers.first { $0.0 == "not a report" })
        #expect(notAReport.2.contains("\"code\":\"not-a-report\""), "\(notAReport.2)")
    }

    // MARK: What a killed server left (finding 16) and a damaged index (finding 15)

    @Test func startingSweepsWhatAKilledServerLeftAndNothingLive() async throws {
        let store = try TestPaths.temporaryDirectory("serve-sweep")
        defer { try? FileManager.default.removeItem(at: store) }
        try DebugFileStore(root: store.path).put(fileAt: Serve.crashAppDSYM)
        let temporary = FileManager.default.temporaryDirectory.path
        let staleUpload = temporary + "/symbolicate-upload-\(UUID().uuidString)"
        let liveUpload = temporary + "/symbolicate-upload-\(UUID().uuidString)"
        let staleTemporary = store.path + "/4c/4c443b55553144a1e9455154cffd57/.symbolicate-0badf00d.tmp"
        let emptyEntry = store.path + "/ab/cdef"
        defer { for path in [staleUpload, liveUpload] { unlink(path) } }
        try FileManager.default.createDirectory(atPath: emptyEntry, withIntermediateDirectories: true)
        for path in [staleUpload, liveUpload, staleTemporary] { try Data("half an upload".utf8).write(to: URL(fileURLWithPath: path)) }
        for path in [staleUpload, staleTemporary, emptyEntry, store.path + "/ab"] { Self.age(path) }
        _ = try StoreRouteTests.server(store: store)
        // (Another test's server may sweep the upload first: each is waited for.)
        for path in [staleUpload, staleTemporary, emptyEntry] {
            #expect(await Serve.eventually { !FileManager.default.fileExists(atPath: path) }, "\(path)")
        }
        #expect(FileManager.default.fileExists(atPath: liveUpload), "an upload under way is left alone")
    }

    @Test func aServerOnADamagedIndexRebuildsItAndTakesUploads() async throws {
        let store = try TestPaths.temporaryDirectory("serve-damaged-index")
        try Self.fill(store)
        defer { try? FileManager.default.removeItem(at: store) }
        let index = store.appendingPathComponent(DebugFileStore.indexName)
        var bytes = try Data(contentsOf: index)
        for offset in 4096..<8192 { bytes[offset] = 0xA5 }
        try bytes.write(to: index)
        let server = try StoreRouteTests.server(store: store)
        #expect(server.store?.store.indexRecovery?.hasPrefix(index.path) == true)
        try await Serve.routes(server) { client in
            try await client.execute(
                uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(try StoreRouteTests.dwarf)
            ) { response in
                // The fixture store holds this file already: the same bytes, not a 500.
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
        }
        // `store --rebuild-index` on a damaged file: made again, said so.
        try bytes.write(to: index)
        let cli = try CLI.run(["store", "--rebuild-index", store.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(cli.stderr.contains("damaged"), "\(cli.stderr)")
        #expect(cli.stdout.contains("indexed 2 entries"), "\(cli.stdout)")
    }

    // MARK: Overlapping uploads (finding 4)

    /// One PUT over a socket of its own; the status code.
    static func put(_ body: Data, port: Int, query: String = "") async throws -> Int {
        let connection = try RawConnection(port: port)
        connection.send(
            "PUT /v1/debug-files\(query) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(StoreRouteTests.token)\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
        _ = body.withUnsafeBytes { write(connection.fd, $0.baseAddress, $0.count) }
        let head = await connection.readHead()
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Two servers on one store folder (its SQLite index shared), eight uploads at once:
    /// the same bytes are stored once (one 201, the others 200), and of two different files of
    /// one identity exactly one is stored (201) and the other refused (409).
    static func overlappingUploads(_ servers: [ServeServer]) async throws {
        let original = try StoreRouteTests.dwarf
        let rebuilt = try StoreOpenFilesTests.rebuiltCrashApp()
        try await Serve.running(servers[0]) { a in
            try await Serve.running(servers[1]) { b in
                let ports = [try #require(a.port), try #require(b.port)]
                let same = try await withThrowingTaskGroup(of: Int.self) { group in
                    for round in 0..<8 { group.addTask { try await Self.put(original, port: ports[round % 2]) } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(same.sorted() == [200, 200, 200, 200, 200, 200, 200, 201], "\(same)")
                // Removed (over a socket of its own: the test client's connection may have
                // been idle past the header timeout by now), then two different files at once.
                let removal = try RawConnection(port: ports[0])
                removal.send(
                    "DELETE /v1/debug-files/\(StoreRouteTests.crashAppUUID) HTTP/1.1\r\nHost: localhost\r\n"
                        + "Authorization: Bearer \(StoreRouteTests.token)\r\nConnection: close\r\n\r\n")
                #expect(await removal.readHead().hasPrefix("HTTP/1.1 204"))
                let different = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                    for round in 0..<8 {
                        group.addTask { (round % 2, try await Self.put(round % 2 == 0 ? original : rebuilt, port: ports[round / 2 % 2])) }
                    }
                    return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
                }
                #expect(different.filter { $0.1 == 201 }.count == 1, "\(different)")
                let winner = try #require(different.first { $0.1 == 201 }?.0)
                for (variant, status) in different where status != 201 {
                    #expect(status == (variant == winner ? 200 : 409), "\(different)")
                }
            }
        }
    }

    @Test func overlappingUploadsToTwoServersStoreOneFile() async throws {
        let store = try TestPaths.temporaryDirectory("serve-race")
        defer { try? FileManager.default.removeItem(at: store) }
        try await Self.overlappingUploads([try StoreRouteTests.server(store: store), try StoreRouteTests.server(store: store)])
    }
}
