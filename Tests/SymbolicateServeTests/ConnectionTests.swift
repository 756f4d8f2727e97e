import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// What slow and greedy clients cannot do to a real server on loopback: hold a connection
/// with slow headers, an idle connection or a stalled body, take every connection, or make an
/// upload send its body before it is refused. Time limits are made short with the flags'
/// settings; what is checked is what the server did (closed, answered), never how long it took.
@Suite struct ConnectionTests {
    @Test func slowHeadersAre408AndTheConnectionIsClosed() async throws {
        let server = try Serve.server { $0.limits.headerSeconds = 0.5 }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            // The request line and one header, and never the blank line that ends them.
            connection.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\n")
            let (text, closed) = await connection.readToClose()
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
            #expect(text.contains(#""status":408"#))
        }
    }

    @Test func aConnectionThatSendsNothingIsClosed() async throws {
        let server = try Serve.server { $0.limits.headerSeconds = 0.5 }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            #expect(await connection.readToClose().closed)
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosed() async throws {
        let server = try Serve.server { $0.limits.idleSeconds = 0.5 }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let (text, closed) = await connection.readToClose()
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
            #expect(text.hasSuffix("ok\n"))
            #expect(closed)
        }
    }

    /// A body that stops coming holds its place only until the body timeout: then the
    /// connection is closed and the next request is served.
    @Test func aStalledBodyIsCutOffAndItsPlaceFreed() async throws {
        let server = try Serve.server {
            $0.limits.concurrentRequests = 1
            $0.limits.bodySeconds = 0.5
            // Far past the test's guards: only the body timeout can free the place.
            $0.limits.requestSeconds = 600
        }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nIncident")
            // A byte now and then keeps the body coming until it is being read (on a busy
            // machine its handler may start late)…
            let trickle = Gate()
            DispatchQueue.global().async {
                while !trickle.isOpen {
                    connection.send(" ")
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            #expect(await Serve.eventually { server.bodiesBeingRead == 1 })
            // …then stops coming.
            trickle.open()
            #expect(await connection.readToClose().closed)
            // …and gives its place back once its body's end is known to be missing.
            #expect(await Serve.eventually { server.bodiesBeingRead == 0 })
            // On a connection of its own: the test client's pooled one may have been closed by
            // the server's idle timer while a busy machine ran the wait above.
            let next = try RawConnection(port: try #require(client.port))
            let report = try Serve.report()
            next.send(
                "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(report.count)\r\n\r\n"
                    + String(decoding: report, as: UTF8.self))
            let (answer, _) = await next.readToClose()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        }
    }

    /// A server too busy to start a request's handler stops reading its body (the bytes wait
    /// in its buffers and the socket's): that wait is the server's, not the client's, and never
    /// cuts off a body the client has sent whole.
    @Test func aHandlerThatStartsLateDoesNotCutOffABodySentWhole() async throws {
        let gate = Gate()
        var server = try Serve.server {
            $0.limits.bodySeconds = 0.5
            $0.limits.requestSeconds = 600
        }
        server.receiveHook = { await gate.waitUntilOpen() }
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            // Far more than the server takes in before its handler reads (so it stops asking).
            let report = try Serve.report() + Data(repeating: UInt8(ascii: "\n"), count: 400_000)
            let head = "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(report.count)\r\n\r\n"
            // Sent from a thread of its own: the write waits while the server is not reading.
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                connection.send(head + String(decoding: report, as: UTF8.self))
                sent.signal()
            }
            // Held past several body timeouts before its handler starts.
            try await Task.sleep(nanoseconds: 2_000_000_000)
            gate.open()
            let (answer, _) = await connection.readToClose()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
            sent.wait()
        }
    }

    @Test(arguments: [(2, 8, "the server has 2 connections open"), (8, 2, "2 connections from your address are open")])
    func pastTheConnectionLimitsIs503(total: Int, perClient: Int, message: String) async throws {
        let server = try Serve.server {
            $0.limits.connections = total
            $0.limits.connectionsPerClient = perClient
        }
        try await Serve.running(server) { client in
            let port = try #require(client.port)
            // The test client's own connection, from 127.0.0.1 too, is the first.
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
            #expect(server.openConnections == 1)
            let holding = try RawConnection(port: port)
            #expect(await Serve.eventually { server.openConnections == 2 })
            let refused = try RawConnection(port: port)
            refused.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let (text, closed) = await refused.readToClose()
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text)")
            #expect(text.contains(message), "\(text)")
            #expect(closed)
            // Once one is closed, a new connection is served.
            holding.hangUp()
            #expect(await Serve.eventually { server.openConnections == 1 })
            let next = try RawConnection(port: port)
            next.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(await next.readHead().hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        let store = try TestPaths.temporaryDirectory("serve-expect")
        defer { try? FileManager.default.removeItem(at: store) }
        let body = try StoreRouteTests.dwarf
        let server = try StoreRouteTests.server(store: store) { $0.limits.uploadBytes = body.count }
        try await Serve.running(server) { client in
            let port = try #require(client.port)
            let head = { (authorization: String, length: Int) in
                "PUT /v1/debug-files HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\n" + authorization
                    + "\r\n"
            }
            let authorized = "Authorization: Bearer \(StoreRouteTests.token)\r\n"
            // Accepted: 100 Continue, then the body, then 201.
            let upload = try RawConnection(port: port)
            upload.send(head(authorized, body.count))
            let interim = await upload.readHead()
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue"), "\(interim)")
            _ = body.withUnsafeBytes { write(upload.fd, $0.baseAddress, $0.count) }
            let final = await upload.readHead()
            #expect(final.hasPrefix("HTTP/1.1 201"), "\(final)")
            // Refused before any byte of the body: no token, another token, too large.
            for (authorization, length, status) in [
                ("", body.count, "401"), ("Authorization: Bearer wrong\r\n", body.count, "401"), (authorized, body.count + 1, "413"),
            ] {
                let refused = try RawConnection(port: port)
                refused.send(head(authorization, length))
                let (text, closed) = await refused.readToClose()
                #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text)")
                #expect(!text.contains("100 Continue"))
                #expect(closed)
            }
        }
    }

    @Test func expectContinueOnAReportToo() async throws {
        let report = try Serve.report()
        let server = try Serve.server()
        try await Serve.running(server) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(
                "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(report.count)\r\nExpect: 100-continue\r\n\r\n")
            #expect(await connection.readHead().hasPrefix("HTTP/1.1 100 Continue"))
            _ = report.withUnsafeBytes { write(connection.fd, $0.baseAddress, $0.count) }
            #expect(await connection.readHead().hasPrefix("HTTP/1.1 200"))
        }
    }
}

/// Opened once by the test; until then `waitUntilOpen` waits.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false

    func open() { lock.withLock { opened = true } }

    var isOpen: Bool { lock.withLock { opened } }

    func waitUntilOpen() async {
        while !isOpen { try? await Task.sleep(nanoseconds: 10_000_000) }
    }
}
