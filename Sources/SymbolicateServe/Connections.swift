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
/// request), the connection limits, and the answer to `Expect: 100-continue`.
///
/// The headers of a request must all have come `headerSeconds` after the connection opened;
/// between two pieces of a body no more than `bodySeconds` may pass; after a response the next
/// request's headers must have come within `idleSeconds`. Past any of these the connection is
/// closed (408 first when no request is under way): slow clients cannot hold places for ever.
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
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                if let refusal = decide(head) {
                    refused(refusal.reason)
                    return refuse(context, refusal)
                }
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            unanswered += 1
            readingBody = true
            arm(context, seconds: limits.bodySeconds, reason: "body-timeout")
        case .body:
            if readingBody { arm(context, seconds: limits.bodySeconds, reason: "body-timeout") }
        case .end:
            readingBody = false
            disarm()
            if unanswered == 0 { arm(context, seconds: limits.idleSeconds, reason: nil) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, !readingBody { arm(context, seconds: limits.idleSeconds, reason: nil) }
        }
        context.write(data, promise: promise)
    }

    /// Answers with the refusal and closes the connection (the body, if any, is never read).
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
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    /// Closes the connection after `seconds` unless disarmed first; `reason` nil is the idle
    /// wait (no answer, the client simply opens a new connection). Each piece of a body starts
    /// the body's wait over.
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

/// The one shape of every API error body: `{"error": {"message": "…", "status": 404}}`
/// (Hummingbird's own errors say `{"error": {"message": "…"}}`; the status is added).
enum APIErrorBody {
    struct Shape: Encodable {
        struct Detail: Encodable {
            var message: String
            var status: Int
        }

        var error: Detail
    }

    static func json(status: HTTPResponse.Status, message: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let shape = Shape(error: .init(message: trimmed.isEmpty ? status.reasonPhrase : trimmed, status: status.code))
        guard let data = try? encoder.encode(shape) else { return "{\"error\":{\"status\":\(status.code)}}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The error as a response, with `headers` (`Allow`, `Retry-After`, …).
    static func response(status: HTTPResponse.Status, message: String, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json(status: status, message: message))))
    }
}
