import Foundation
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Open connections, in all and by client address: past `limits.connections` or
/// `limits.connectionsPerClient`, a new connection's request is answered 503 and the
/// connection closed, so one client cannot take every place.
final class ConnectionCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var byClient: [String: Int] = [:]
    let limit: Int
    let perClient: Int

    init(limit: Int, perClient: Int) {
        self.limit = limit
        self.perClient = perClient
    }

    /// Counts a new connection; why it is one too many, or nil.
    func open(client: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        total += 1
        byClient[client, default: 0] += 1
        if total > limit { return "the server has \(limit) connections open; try again shortly" }
        if let mine = byClient[client], mine > perClient {
            return "\(perClient) connections from your address are open; close one or try again shortly"
        }
        return nil
    }

    func close(client: String) {
        lock.lock()
        defer { lock.unlock() }
        total -= 1
        let left = (byClient[client] ?? 1) - 1
        byClient[client] = left > 0 ? left : nil
    }

    /// Connections open now.
    var open: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}

/// A request refused before its body is read: by the connection limits, or when it asked
/// `Expect: 100-continue` and its headers already say it will be refused (no token, too large).
struct EarlyRefusal: Sendable {
    var status: HTTPResponse.Status
    var message: String
    var headers: HTTPFields = [:]
    /// The `refused` metric's reason.
    var reason: String
}

/// One per connection, between the HTTP decoder and the server: the time limits of a
/// connection (a request's headers, each wait within its body, the wait for the next
/// request), the connection limits, the refusals decided on headers alone, and the answer to
/// `Expect: 100-continue`. A request answered before its body is in is answered with
/// `Connection: close` and the connection closed: the body is never read (a refused 10 GiB
/// upload costs nothing, and a client sending a byte now and then holds nothing).
///
/// The headers of a request must all have come `headerSeconds` after the connection opened;
/// once the server asks for more of a body, the client has `bodySeconds` to send it; after a
/// response the next request's headers must have come within `idleSeconds`. Past any of these
/// the connection is closed (408 first when no request is under way): slow clients cannot hold
/// places for ever. The body's wait runs only while the server is asking (a `read` is on its
/// way to the socket): a busy server that has stopped reading, its handler not yet started,
/// never blames the client for the bytes it has not asked for.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What the server decides for a request that expects `100 Continue`: nil continues.
    typealias Decision = @Sendable (HTTPRequest) -> EarlyRefusal?

    private let limits: ServeLimits
    private let counts: ConnectionCounts
    private let decide: Decision
    private let refused: @Sendable (String) -> Void
    private var client = ""
    private var tooMany: String?
    private var timer: Scheduled<Void>?
    /// Requests whose headers came and whose response has not ended.
    private var unanswered = 0
    private var readingBody = false
    /// A refusal is being sent: the rest of what the client sends is dropped.
    private var refusing = false
    /// The answer was sent before the request's body was in: the connection ends with it.
    private var closeAfterAnswer = false

    init(limits: ServeLimits, counts: ConnectionCounts, decide: @escaping Decision, refused: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.counts = counts
        self.decide = decide
        self.refused = refused
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let client = context.channel.remoteAddress?.ipAddress ?? "unknown"
        self.client = client
        tooMany = counts.open(client: client)
        let counts = self.counts
        context.channel.closeFuture.whenComplete { _ in counts.close(client: client) }
        arm(context, seconds: limits.headerSeconds, reason: "header-timeout")
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            disarm()
            if let tooMany {
                refused("connections")
                return refuse(context, EarlyRefusal(status: .serviceUnavailable, message: tooMany, headers: [.retryAfter: "1"], reason: ""))
            }
            // Refused on its headers alone (another host name or origin, no token, a body over
            // its limit): answered and closed at once, its body never read.
            if let refusal = decide(head) {
                refused(refusal.reason)
                return refuse(context, refusal)
            }
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            unanswered += 1
            readingBody = true
        case .body:
            // What was asked for came; the next `read` starts the wait again.
            if readingBody { disarm() }
        case .end:
            readingBody = false
            disarm()
            if unanswered == 0 { arm(context, seconds: limits.idleSeconds, reason: nil) }
        }
        context.fireChannelRead(data)
    }

    /// The server asks for more bytes: while a body is under way, the client's wait starts
    /// (unless it already runs: asking twice gives no more time).
    func read(context: ChannelHandlerContext) {
        if readingBody, !refusing, timer == nil { arm(context, seconds: limits.bodySeconds, reason: "body-timeout") }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where readingBody && response.status.kind != .informational:
            // Answered before its body is in (a refusal of the route: 503, 400, 401…): the rest
            // of the body is not read, the connection is closed once the answer is out.
            response.headerFields[.connection] = "close"
            closeAfterAnswer = true
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end:
            unanswered = max(0, unanswered - 1)
            if closeAfterAnswer {
                refusing = true
                disarm()
                let written = context.eventLoop.makePromise(of: Void.self)
                if let promise { written.futureResult.cascade(to: promise) }
                context.writeAndFlush(data, promise: written)
                end(context, after: written.futureResult)
                return
            }
            if unanswered == 0, !readingBody { arm(context, seconds: limits.idleSeconds, reason: nil) }
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Answers with the refusal and ends the connection (the body, if any, is never read).
    private func refuse(_ context: ChannelHandlerContext, _ refusal: EarlyRefusal) {
        refusing = true
        disarm()
        var headers = refusal.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.connection] = "close"
        let body = ByteBuffer(string: APIErrorBody.json(status: refusal.status, message: refusal.message))
        headers[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: refusal.status, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        end(context, after: written.futureResult)
    }

    /// How long a connection ended after an answer still takes (and drops) what the client sends.
    static let lingerSeconds: Int64 = 1

    /// Ends the connection once the answer is out: its output first (the client reads the
    /// answer and then the end), the rest `lingerSeconds` later, what the client sends meanwhile
    /// dropped. Closing at once with the client's bytes unread resets the connection, and a
    /// reset can lose the answer on its way.
    private func end(_ context: ChannelHandlerContext, after written: EventLoopFuture<Void>) {
        written.assumeIsolated().whenComplete { [self] _ in
            let output = context.eventLoop.makePromise(of: Void.self)
            context.close(mode: .output, promise: output)
            output.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
            disarm()
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(Self.lingerSeconds)) {
                context.close(promise: nil)
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    /// Closes the connection after `seconds` unless disarmed first; `reason` nil is the idle
    /// wait (no answer, the client simply opens a new connection).
    private func arm(_ context: ChannelHandlerContext, seconds: Double, reason: String?) {
        disarm()
        let nanoseconds = Int64(min(max(0, seconds), 1e6) * 1e9)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [self] in
            timer = nil
            guard let reason else {
                context.close(promise: nil)
                return
            }
            refused(reason)
            if unanswered == 0 && reason == "header-timeout" {
                refuse(
                    context,
                    EarlyRefusal(
                        status: .requestTimeout, message: "the request's headers did not come within \(Self.seconds(seconds))",
                        reason: reason))
            } else {
                context.close(promise: nil)
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }
}

/// What went wrong, for programs: the `code` of every API error body. Most follow from the
/// status; a body that is not a report says which way it is not one.
enum APIErrorCode: String, Sendable, CaseIterable {
    case badRequest = "bad-request"
    case tokenNeeded = "token-needed"
    case forbidden
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case notAcceptable = "not-acceptable"
    case slowRequest = "slow-request"
    case conflict
    case tooLarge = "too-large"
    case hostNotAllowed = "host-not-allowed"
    case notAReport = "not-a-report"
    case emptyReport = "empty-report"
    case binaryReport = "binary-report"
    case truncatedReport = "truncated-report"
    case invalidJSON = "invalid-json"
    case cannotRender = "cannot-render"
    case notStored = "not-stored"
    case serverError = "server-error"
    case busy
    case timeout
    case other

    /// The code a status alone says.
    init(status: HTTPResponse.Status) {
        switch status.code {
        case 400: self = .badRequest
        case 401: self = .tokenNeeded
        case 403: self = .forbidden
        case 404: self = .notFound
        case 405: self = .methodNotAllowed
        case 406: self = .notAcceptable
        case 408: self = .slowRequest
        case 409: self = .conflict
        case 413: self = .tooLarge
        case 421: self = .hostNotAllowed
        case 422: self = .notStored
        case 503: self = .busy
        case 504: self = .timeout
        case 500...599: self = .serverError
        default: self = .other
        }
    }
}

/// The one shape of every API error body: `{"error": {"code": "too-large", "message": "…",
/// "status": 413}}` (Hummingbird's own errors say `{"error": {"message": "…"}}`; the code and
/// status are added). Messages are for people using the API or the page: short, and never a
/// path of the server's.
enum APIErrorBody {
    struct Shape: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var status: Int
        }

        var error: Detail
    }

    static func json(status: HTTPResponse.Status, message: String, code: APIErrorCode? = nil) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let shape = Shape(
            error: .init(
                code: (code ?? APIErrorCode(status: status)).rawValue, message: trimmed.isEmpty ? status.reasonPhrase : trimmed,
                status: status.code))
        guard let data = try? encoder.encode(shape) else { return "{\"error\":{\"status\":\(status.code)}}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The error as a response, with `headers` (`Allow`, `Retry-After`, …).
    static func response(status: HTTPResponse.Status, message: String, code: APIErrorCode? = nil, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: json(status: status, message: message, code: code))))
    }
}
