import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SymbolicateServe
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fixtures and helpers shared by the server's tests.
enum Serve {
    static let swiftTrap = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips")
    static let crashAppDSYM = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM").path

    static func report(_ name: String = "swift-trap.ips") throws -> Data {
        try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/\(name)"))
    }

    /// A server over the committed dSYMs, configured by `adjust`.
    static func server(debugFiles: [String] = [TestPaths.dsyms], _ adjust: (inout ServeConfiguration) -> Void = { _ in }) throws
        -> ServeServer
    {
        var configuration = ServeConfiguration()
        configuration.port = 0
        configuration.debugFiles = debugFiles
        // The clock's limits far out of reach: a loaded 2-core machine running the whole suite
        // can leave a server's tasks unscheduled for tens of seconds, and a test meets a limit
        // only where it sets one itself (`adjust`), as the tests of each limit do.
        configuration.limits.requestSeconds = 600
        configuration.limits.headerSeconds = 300
        configuration.limits.bodySeconds = 300
        configuration.limits.idleSeconds = 300
        configuration.limits.bodyRateGrace = 300
        adjust(&configuration)
        // Refusals are what these tests provoke: their log lines would only be noise.
        var logger = Logger(label: "symbolicate.serve.test")
        logger.logLevel = .critical
        return try ServeServer(configuration: configuration, logger: logger)
    }

    /// Runs `test` against the server in process (no socket).
    static func routes<T>(_ server: ServeServer, _ test: @Sendable (any ServeClient) async throws -> T) async throws -> T {
        try await Application(router: server.router()).test(.router) { client in try await test(RouterClient(base: client)) }
    }

    /// Runs `test` against the server listening on a loopback port.
    static func live<T: Sendable>(_ server: ServeServer, _ test: @escaping @Sendable (any ServeClient) async throws -> T) async throws -> T
    {
        let (ports, port) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) })
        return try await onLoopback(application, ports, test)
    }

    /// Runs `test` against the server's own application on a loopback port: its connection
    /// guard (timeouts, connection limits, `Expect: 100-continue`) included.
    static func running<T: Sendable>(_ server: ServeServer, _ test: @escaping @Sendable (any ServeClient) async throws -> T) async throws
        -> T
    {
        let (ports, port) = AsyncStream<Int>.makeStream()
        return try await onLoopback(server.application(onServerRunning: { port.yield($0) }), ports, test)
    }

    /// Serves `application` until `test` returns, with one client connection whose read
    /// timeout is only a guard against a hang: HummingbirdTesting's own live client gives up
    /// after 20 s without a byte, which a loaded 2-core machine running the whole suite exceeds.
    private static func onLoopback<T: Sendable>(
        _ application: some ApplicationProtocol, _ ports: AsyncStream<Int>, _ test: @escaping @Sendable (any ServeClient) async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await application.runService(gracefulShutdownSignals: [])
                return nil
            }
            var listening = ports.makeAsyncIterator()
            guard let port = await listening.next(), port > 0 else {
                group.cancelAll()
                throw LoopbackError.notListening
            }
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(180)))
            client.connect()
            do {
                let value = try await test(LiveClient(client: client, port: port))
                try? await client.shutdown()
                group.cancelAll()
                return value
            } catch {
                try? await client.shutdown()
                group.cancelAll()
                throw error
            }
        }
    }

    enum LoopbackError: Error { case notListening }

    static func body(_ data: Data) -> ByteBuffer { ByteBuffer(bytes: data) }

    /// Waits until `condition` holds, checking every 10 ms; false when it still does not after
    /// `guardSeconds` (a guard against a hang, never the assertion itself).
    static func eventually(guardSeconds: Double = 60, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(guardSeconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }

    /// The JSON error body every API error has: its message and status.
    static func apiError(_ body: ByteBuffer) -> (message: String, status: Int)? {
        struct Shape: Decodable {
            struct Detail: Decodable {
                var message: String
                var status: Int
            }

            var error: Detail
        }
        guard let shape = try? JSONDecoder().decode(Shape.self, from: Data(buffer: body)) else { return nil }
        return (shape.error.message, shape.error.status)
    }
}

/// A count shared with a server's hooks.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    @discardableResult
    func add(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        counts[key, default: 0] += 1
        return counts[key] ?? 0
    }

    func count(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[key] ?? 0
    }
}

/// A socket listening on a loopback port chosen by the system: a port in use.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        fd = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }
}

/// A client that speaks HTTP/1.1 by hand over a socket, for what a well-behaved client never
/// does: stop sending half-way through a body.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, streamSocketType, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // A guard against a hang, never a limit on the server: a machine running the whole
        // suite at once can take well over 20 s to answer one symbolication.
        var timeout = timeval(tv_sec: 180, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Ends the connection from this side (the descriptor is closed by `deinit`).
    func hangUp() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends all of `text` (never a SIGPIPE, should the server have closed the connection).
    func send(_ text: String) {
        HardeningTests.sendQuietly(fd, text)
    }

    /// Everything the server sends until it closes the connection, and whether it did close it
    /// (false: the 180-second receive guard ran out first).
    func readToClose() async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) }
                    if count == 0 { return continuation.resume(returning: (String(decoding: received, as: UTF8.self), true)) }
                    if count < 0 {
                        // A reset is a close too; a timeout is not.
                        let closed = errno == ECONNRESET
                        return continuation.resume(returning: (String(decoding: received, as: UTF8.self), closed))
                    }
                    received += buffer[0..<count]
                }
            }
        }
    }

    /// The status line and headers the server sends (or what came before it closed). The
    /// blocking reads run on a thread of their own: on the cooperative pool they could take the
    /// threads the in-process server needs to answer.
    func readHead() async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.readHeadBlocking()) }
        }
    }

    private func readHeadBlocking() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += buffer[0..<count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// A response as every server test reads it, whether it came through a socket or not.
struct ServeResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer
}

/// A client of the server under test: in process (the router) or on a loopback port.
protocol ServeClient: Sendable {
    func send(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServeResponse
    /// The loopback port, for tests that open raw connections; nil in process.
    var port: Int? { get }
}

extension ServeClient {
    /// Sends a request and hands its response to `testCallback`, as HummingbirdTesting's clients do.
    @discardableResult func execute<Return>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback: @escaping (ServeResponse) async throws -> Return = { $0 }
    ) async throws -> Return {
        try await testCallback(try await send(uri: uri, method: method, headers: headers, body: body))
    }
}

/// The router's in-process client.
struct RouterClient: ServeClient {
    let base: any TestClientProtocol
    var port: Int? { base.port }

    func send(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServeResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        return ServeResponse(status: response.status, headers: response.headers, body: response.body)
    }
}

/// One kept-alive connection to the server on loopback.
struct LiveClient: ServeClient {
    let client: TestClient
    let port: Int?

    func send(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServeResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(
            TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
        return ServeResponse(status: response.head.status, headers: response.head.headerFields, body: response.body ?? ByteBuffer())
    }
}
