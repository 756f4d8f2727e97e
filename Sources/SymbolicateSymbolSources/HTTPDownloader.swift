import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads one URL into a file with async-http-client's event-loop API, waited for from the
/// calling thread (the pipeline is synchronous; no Swift-concurrency thread is ever blocked).
///
/// Limits are enforced while the bytes arrive: a declared or actual size over the limit stops
/// the transfer; the whole request (connect, head, body) has one deadline; redirects are
/// followed here (at most 5), so headers meant for one host never reach another.
final class HTTPDownloader: Sendable {
    private let client: HTTPClient
    let timeout: TimeInterval
    /// How long a connection may take to open, for the client and the probe alike.
    let connectTimeout: TimeInterval
    let maximumSize: UInt64

    init(timeout: TimeInterval, maximumSize: UInt64) {
        self.timeout = timeout
        connectTimeout = min(timeout, 10)
        self.maximumSize = maximumSize
        let seconds = Int64(max(1, timeout.rounded(.up)))
        // The client keeps retrying a refused connection until the connect timeout; the probe
        // before the first request (`reachability(of:)`) answers a refusal at once, and the
        // timeout, short, bounds a server that never answers.
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(Int64(connectTimeout * 1000)), read: .seconds(seconds)),
            decompression: .disabled)
        configuration.httpVersion = .automatic
        // NIOPosix's sockets on every platform: on Darwin the default group would be
        // Network.framework's (NIOTS), a different path from the one the timeouts were tuned on.
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    deinit { try? client.syncShutdown() }

    /// How one request ended.
    enum Outcome: Sendable, Equatable {
        /// 2xx: the body is in the file, `bytes` long.
        case downloaded(bytes: UInt64)
        /// A status other than 2xx (after redirects).
        case status(Int)
        /// No answer to use: connection refused, timeout, a body cut short, over the size limit.
        /// `reachable` is false when the server could not be reached at all (no point asking it again this run).
        case failed(String, reachable: Bool)
    }

    /// GETs `url` into `destination` (created or truncated), following redirects.
    /// - Parameters:
    ///   - url: what to fetch.
    ///   - destination: the file the body goes to.
    ///   - headersFor: the headers for a host name (each redirect asks again).
    ///   - progress: called with (bytes so far, expected total) from the event loop.
    /// - Returns: how the request ended.
    func download(
        _ url: String, to destination: String, headersFor: @Sendable (String) -> [(String, String)],
        progress: (@Sendable (UInt64, UInt64?) -> Void)? = nil
    ) -> Outcome {
        var current = url
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        for _ in 0...5 {
            if let unreachable = reachability(of: current) { return unreachable }
            let outcome = once(
                current, to: destination, headers: headersFor(Self.host(current) ?? ""), deadline: deadline, progress: progress)
            switch outcome {
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString,
                    next.lowercased().hasPrefix("http://") || next.lowercased().hasPrefix("https://")
                else { return .failed("a redirect to \"\(location)\", which is not an http(s) URL", reachable: true) }
                // Never from https down to http.
                if current.lowercased().hasPrefix("https://") && next.lowercased().hasPrefix("http://") {
                    return .failed("a redirect from https to http (\(Self.withoutQuery(next))), refused", reachable: true)
                }
                current = next
            case .done(let result):
                return result
            }
        }
        return .failed("more than 5 redirects", reachable: true)
    }

    /// Each host and port probed once (`ConnectProbe`); nil when the server takes connections.
    private let probeLock = NSLock()
    nonisolated(unsafe) private var probed: [String: ConnectProbe.Answer] = [:]
    nonisolated(unsafe) private var counted = Counts()

    /// What this downloader did, counted (tests check these instead of timing a run): probes run
    /// (one per host and port) and HTTP requests handed to the client.
    struct Counts: Sendable, Equatable {
        var probes = 0
        var requests = 0
    }

    var counts: Counts { probeLock.withLock { counted } }

    private func reachability(of url: String) -> Outcome? {
        guard let parsed = URL(string: url), let host = parsed.host else { return nil }
        let port = parsed.port ?? (parsed.scheme?.lowercased() == "https" ? 443 : 80)
        let key = "\(host.lowercased()):\(port)"
        let known = probeLock.withLock { probed[key] }
        let answer = known ?? ConnectProbe.probe(host: host, port: port, timeout: connectTimeout)
        if known == nil {
            probeLock.withLock {
                probed[key] = answer
                counted.probes += 1
            }
        }
        switch answer {
        case .open: return nil
        case .refused(let why): return .failed("cannot connect (\(why))", reachable: false)
        case .silent: return .failed("connection timed out", reachable: false)
        }
    }

    private enum Step {
        case redirect(String)
        case done(Outcome)
    }

    private func once(
        _ url: String, to destination: String, headers: [(String, String)], deadline: NIODeadline,
        progress: (@Sendable (UInt64, UInt64?) -> Void)?
    ) -> Step {
        var request: HTTPClient.Request
        do { request = try HTTPClient.Request(url: url, method: .GET) } catch {
            return .done(.failed("not a URL async-http-client accepts (\(error))", reachable: false))
        }
        request.headers.add(name: "User-Agent", value: "symbolicate")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let delegate: FileDelegate
        do { delegate = try FileDelegate(path: destination, maximumSize: maximumSize, progress: progress) } catch {
            return .done(.failed("cannot write \(destination): \(error)", reachable: true))
        }
        probeLock.withLock { counted.requests += 1 }
        let task = client.execute(request: request, delegate: delegate, deadline: deadline)
        // The deadline above covers the request; this one also bounds a body that trickles in.
        let watchdog = task.futureResult.eventLoop.scheduleTask(deadline: deadline + .seconds(1)) { task.cancel() }
        defer { watchdog.cancel() }
        do {
            let answer = try task.futureResult.wait()
            if (300..<400).contains(answer.status), let location = answer.location { return .redirect(location) }
            guard (200..<300).contains(answer.status) else { return .done(.status(answer.status)) }
            return .done(.downloaded(bytes: answer.bytes))
        } catch let error as FileDelegate.Failure {
            return .done(.failed(error.description, reachable: true))
        } catch {
            return .done(Self.describe(error))
        }
    }

    /// The answer to a POST: its status, its body (to `maximumSize`) and `Retry-After` in seconds.
    enum PostOutcome: Sendable, Equatable {
        case answered(status: Int, body: Data, retryAfter: TimeInterval?)
        /// No answer: `reachable` false when nothing took the connection.
        case failed(String, reachable: Bool)
    }

    /// POSTs `body` to `url` (no redirect followed: a body is not sent on to another host). The
    /// host is probed before each call, never remembered: an upload's retries ask again.
    func post(_ url: String, body: Data, headers: [(String, String)]) -> PostOutcome {
        if let parsed = URL(string: url), let host = parsed.host {
            let port = parsed.port ?? (parsed.scheme?.lowercased() == "https" ? 443 : 80)
            switch ConnectProbe.probe(host: host, port: port, timeout: connectTimeout) {
            case .open: break
            case .refused(let why): return .failed("cannot connect (\(why))", reachable: false)
            case .silent: return .failed("connection timed out", reachable: false)
            }
        }
        var request: HTTPClient.Request
        do { request = try HTTPClient.Request(url: url, method: .POST, body: .data(body)) } catch {
            return .failed("not a URL async-http-client accepts (\(error))", reachable: false)
        }
        request.headers.add(name: "User-Agent", value: "symbolicate")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        probeLock.withLock { counted.requests += 1 }
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        do {
            let response = try client.execute(request: request, deadline: deadline).wait()
            var answer = response.body ?? ByteBuffer()
            let kept = min(answer.readableBytes, Int(clamping: maximumSize))
            let data = Data(answer.readBytes(length: kept) ?? [])
            let retryAfter = response.headers.first(name: "Retry-After").flatMap(TimeInterval.init)
            return .answered(status: Int(response.status.code), body: data, retryAfter: retryAfter)
        } catch {
            switch Self.describe(error) {
            case .failed(let why, let reachable): return .failed(why, reachable: reachable)
            default: return .failed("\(error)", reachable: true)
            }
        }
    }

    /// Errors in words a user acts on, and whether the server was reachable at all.
    static func describe(_ error: any Error) -> Outcome {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .cancelled:
                return .failed("no complete answer within the time limit", reachable: false)
            case .connectTimeout:
                return .failed("connection timed out", reachable: false)
            case .remoteConnectionClosed:
                return .failed("the connection closed before the whole file arrived", reachable: true)
            default:
                break
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("refused") {
            return .failed("cannot connect (connection refused)", reachable: false)
        }
        if text.contains("connectTimeout") || text.contains("NIOConnectionError") || text.contains("unresolved") {
            return .failed("cannot connect (\(Self.short(text)))", reachable: false)
        }
        if text.contains("uncleanShutdown") || text.contains("truncated") || text.contains("invalidEOF") || text.contains("unexpected time")
        {
            return .failed("the connection closed before the whole file arrived", reachable: true)
        }
        return .failed(Self.short(text), reachable: true)
    }

    private static func short(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    static func host(_ url: String) -> String? { URL(string: url)?.host?.lowercased() }

    /// The URL without its query and fragment: what messages show (a query may hold a token).
    static func withoutQuery(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? url
    }
}

/// Streams a response body into a file, counting bytes against the limit.
private final class FileDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Answer: Sendable {
        var status: Int
        var location: String?
        var bytes: UInt64
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private let path: String
    private let maximumSize: UInt64
    private let progress: (@Sendable (UInt64, UInt64?) -> Void)?
    // Touched only from the request's event loop, one callback at a time.
    private var status = 0
    private var location: String?
    private var expected: UInt64?
    private var received: UInt64 = 0
    private var closed = false

    init(path: String, maximumSize: UInt64, progress: (@Sendable (UInt64, UInt64?) -> Void)?) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        self.path = path
        self.maximumSize = maximumSize
        self.progress = progress
    }

    deinit { closeFile() }

    private func closeFile() {
        if !closed {
            closed = true
            close(fd)
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = Int(head.status.code)
        location = head.headers.first(name: "Location")
        if (200..<300).contains(status), let length = head.headers.first(name: "Content-Length").flatMap(UInt64.init) {
            expected = length
            if length > maximumSize {
                return task.eventLoop.makeFailedFuture(
                    Failure(description: "the file is \(length) bytes, over the \(maximumSize)-byte limit (SYMBOLICATE_MAX_DOWNLOAD_MIB)"))
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        // Bodies of errors and redirects are not kept.
        guard (200..<300).contains(status) else { return task.eventLoop.makeSucceededVoidFuture() }
        received &+= UInt64(buffer.readableBytes)
        if received > maximumSize {
            return task.eventLoop.makeFailedFuture(
                Failure(description: "the file grew past the \(maximumSize)-byte limit (SYMBOLICATE_MAX_DOWNLOAD_MIB)"))
        }
        let written = buffer.withUnsafeReadableBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let n = write(fd, base + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        guard written else {
            return task.eventLoop.makeFailedFuture(Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))"))
        }
        progress?(received, expected)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Answer>, _ error: any Error) {
        closeFile()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        closeFile()
        if (200..<300).contains(status), let expected, received != expected {
            throw Failure(description: "the connection closed after \(received) of \(expected) bytes")
        }
        if (200..<300).contains(status) { progress?(received, received) }
        return Answer(status: status, location: location, bytes: received)
    }
}
