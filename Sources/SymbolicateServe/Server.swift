import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicateInbox
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSymbolStore

/// `symbolicate serve`: the page (`GET /`) and the HTTP API (`POST /v1/symbolicate`, the
/// debug-file store, `/healthz`, `/metrics`), documented in `Documentation/openapi.yaml`.
package struct ServeServer: Sendable {
    package let configuration: ServeConfiguration
    package let symbolicator: Symbolicator
    package let metrics: ServeMetrics
    /// The debug-file store (`--store`), nil without one.
    package let store: ServeStore?
    /// The crash inbox (`--inbox`), nil without one.
    package let inbox: ServeInbox?
    let admission: Admission
    /// Bodies being received (before admission).
    let bodyReaders: Admission
    let workers: WorkerPool
    let connections: ConnectionCounts
    /// The `Host` names answered to.
    let hostNames: HostNames
    /// The time limits' timers still pending (each request's is cancelled when it ends).
    package let pendingTimers = PendingTimers()
    let logger: Logger
    /// Called with the request's stop flag before each stage of a symbolication (the tests'
    /// way to hold a request under way until it is given up on).
    package var stageHook: (@Sendable (StopFlag) -> Void)?
    /// Awaited before a request's body is read (the tests' way to make a handler start late,
    /// as on a busy machine).
    package var receiveHook: (@Sendable () async -> Void)?

    /// Opens the store and checks the debug files; throws what stops the server from starting.
    package init(configuration: ServeConfiguration, logger: Logger = Logger(label: "symbolicate.serve")) throws {
        self.configuration = configuration
        self.logger = logger
        metrics = ServeMetrics()
        store = try configuration.storePath.map { path throws(DebugFileStoreError) in
            try ServeStore(root: path, indexURL: configuration.storeIndex)
        }
        // Never a silent walk of the folders for want of an index: the log says which file and why.
        if let recovery = store?.store.indexRecovery { logger.warning("store index rebuilt", metadata: ["reason": "\(recovery)"]) }
        if let problem = store?.store.indexProblem {
            logger.warning("store index unusable; the store's folders are read instead", metadata: ["reason": "\(problem)"])
        }
        let inbox = try configuration.inbox.map { location throws(InboxError) in
            try ServeInbox(location: location, keepReportDays: configuration.keepReportDays)
        }
        self.inbox = inbox
        if let inbox, inbox.keepReportDays != nil {
            // Reports past --keep-reports go at start, then hourly with the reports that arrive.
            DispatchQueue.global(qos: .utility).async { [logger] in
                do { _ = try inbox.prune() } catch {
                    logger.error("crash inbox: old reports not removed", metadata: ["reason": "\(error)"])
                }
            }
        }
        symbolicator = Symbolicator(
            debugFiles: configuration.debugFiles, store: store, metrics: metrics, sourceContext: configuration.sourceContext,
            objectPathMap: configuration.objectPathMap)
        try symbolicator.validate()
        admission = Admission(limit: configuration.limits.concurrentRequests)
        bodyReaders = Admission(limit: configuration.limits.bodiesRead)
        workers = WorkerPool(width: configuration.limits.workers)
        hostNames = HostNames(listeningOn: configuration.host, allowed: configuration.allowedHosts)
        connections = ConnectionCounts(limit: configuration.limits.connections, perClient: configuration.limits.connectionsPerClient)
        // What a killed server left (temporary files, empty entry folders, upload files) swept,
        // and the store's size measured once, on a thread of its own: a large store takes
        // seconds to walk, and `/metrics` never walks it.
        if let store {
            DispatchQueue.global(qos: .utility).async { [metrics, logger] in
                let swept = store.store.sweep() + ServeStore.sweepUploads()
                if !swept.isEmpty { logger.notice("removed what an earlier run left", metadata: ["paths": "\(swept.count)"]) }
                let figures = store.figures()
                metrics.storeMeasured(bytes: figures.bytes, entries: figures.entries)
            }
        }
    }

    /// Connections open now (every server of this process's tests has its own count).
    package var openConnections: Int { connections.open }

    /// Requests admitted now (their body in, being worked on).
    package var requestsInProgress: Int { admission.inUse }

    /// Request bodies being received now (not yet admitted).
    package var bodiesBeingRead: Int { bodyReaders.inUse }

    /// The routes, behind the access log.
    package func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(AccessLog(logger: logger, metrics: metrics))
        router.middlewares.add(APIErrors<BasicRequestContext>())
        router.middlewares.add(OriginCheck(metrics: metrics, hostNames: hostNames))
        router.get("/") { _, _ in Self.asset(PageAssets.html, type: "text/html; charset=utf-8") }
        router.get("/page.css") { _, _ in Self.asset(PageAssets.css, type: "text/css; charset=utf-8") }
        router.get("/page.js") { _, _ in Self.asset(PageAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/inbox") { _, _ in Self.asset(InboxPage.html, type: "text/html; charset=utf-8") }
        router.get("/inbox.css") { _, _ in Self.asset(InboxPage.css, type: "text/css; charset=utf-8") }
        router.get("/inbox.js") { _, _ in Self.asset(InboxPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/metrics") { _, _ in
            Self.text(metrics.render(hasStore: store != nil), type: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.post("/v1/symbolicate") { request, _ in try await symbolicate(request) }
        addStoreRoutes(to: router)
        addInboxRoutes(to: router)
        Self.allow([.post], at: "/v1/symbolicate", in: router)
        Self.allow([.put], at: "/v1/debug-files", in: router)
        Self.allow([.get, .delete], at: "/v1/debug-files/:id", in: router)
        return router
    }

    /// The other methods on an API path: 405 with `Allow`, never a 404 that says the path is unknown.
    static func allow(_ allowed: [HTTPRequest.Method], at path: RouterPath, in router: Router<BasicRequestContext>) {
        let others: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        for method in others where !allowed.contains(method) && !(method == .head && allowed.contains(.get)) {
            router.on(path, method: method) { request, _ -> Response in
                throw HTTPError(
                    .methodNotAllowed, headers: [.allow: allow], message: "\(request.method.rawValue) is not allowed here; use \(allow)")
            }
        }
    }

    /// The application on the configured address.
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let limits = configuration.limits
        let (connections, metrics) = (self.connections, self.metrics)
        let decide: ConnectionGuard.Decision = { [self] head in refusalBeforeBody(head) }
        return Application(
            router: router(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ConnectionGuard(limits: limits, counts: connections, decide: decide, refused: { metrics.refused($0) })
                    ])),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "symbolicate"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then finishes the requests under way and returns.
    package func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(onServerRunning: onServerRunning).runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    // MARK: POST /v1/symbolicate

    func symbolicate(_ request: Request) async throws -> Response {
        let chosen = try Self.format(of: request)
        var call = SymbolicateCall(body: Data())
        call.format = chosen
        call.explain = try Self.flag("explain", in: request)
        call.headline = try Self.flag("headline", in: request)
        call.resymbolicate = try Self.flag("resymbolicate", in: request)
        call.language = try Self.language(of: request)
        let options = call
        let hook = stageHook
        let limit = configuration.limits.reportBytes
        return try await limited(bodyLimit: limit, request: request, receive: { try await Self.collect($0, limit: limit, pace: $1) }) {
            body in
            var call = options
            call.body = body
            // A request given up on (past the time limit) is cancelled: its work stops at the
            // next stage and frees its worker for the requests waiting.
            let stop = StopFlag()
            let answer = await withTaskCancellationHandler {
                await workers.run { [symbolicator, call] in
                    symbolicator.run(
                        call,
                        shouldStop: {
                            hook?(stop)
                            return stop.isSet
                        })
                }
            } onCancel: {
                stop.stop()
            }
            return Self.response(answer, format: chosen)
        }
    }

    /// What a request is refused with on its headers alone, before any of its body is read (a
    /// host name not answered to, a cross-origin request, an upload without the token, a body
    /// over its limit); nil: it goes on.
    func refusalBeforeBody(_ head: HTTPRequest) -> EarlyRefusal? {
        if let refusal = hostNames.refusal(head.authority) {
            return EarlyRefusal(status: .misdirectedRequest, message: refusal, reason: "host")
        }
        let path = head.path.map { whole in String(whole.prefix { $0 != "?" }) } ?? ""
        guard path.hasPrefix("/v1/") else { return nil }
        if let refusal = CrossOrigin.refusal(head.headerFields, authority: head.authority) {
            return EarlyRefusal(status: .forbidden, message: refusal, reason: "origin")
        }
        let limit: Int
        switch (head.method, path) {
        case (.post, "/v1/symbolicate"): limit = configuration.limits.reportBytes
        case (.post, "/v1/reports"):
            if let refusal = tokenRefusal(head.headerFields[.authorization]) {
                return EarlyRefusal(status: refusal.status, message: refusal.body ?? "", headers: refusal.headers, reason: "token")
            }
            if inbox == nil { return EarlyRefusal(status: .notFound, message: "this server keeps no crash inbox", reason: "inbox") }
            limit = configuration.limits.reportBytes
        case (.put, "/v1/debug-files"):
            if let refusal = tokenRefusal(head.headerFields[.authorization]) {
                return EarlyRefusal(status: refusal.status, message: refusal.body ?? "", headers: refusal.headers, reason: "token")
            }
            if store == nil { return EarlyRefusal(status: .notFound, message: "this server has no store", reason: "store") }
            limit = configuration.limits.uploadBytes
        default: return nil
        }
        if let declared = head.headerFields[.contentLength].flatMap(Int.init), declared > limit {
            return EarlyRefusal(status: .contentTooLarge, message: "the body is \(declared) bytes; the limit is \(limit)", reason: "body")
        }
        return nil
    }

    /// The body limit, the time limit and admission around one piece of work on a body: the
    /// body is received first (`receive`, under the time limit and the minimum rate, counted
    /// among the bodies being read, never holding a request's place), then the request is
    /// admitted and `work` runs on what was received. Slow bodies therefore never take the
    /// places of requests ready to be worked on. `discard` disposes of a received body that is
    /// not worked on (refused for want of a place, or past the time limit).
    func limited<Body: Sendable>(
        bodyLimit: Int, request: Request, receive: @escaping @Sendable (RequestBody, BodyPace) async throws -> Body,
        discard: @escaping @Sendable (Body) -> Void = { _ in }, _ work: @escaping @Sendable (Body) async throws -> Response
    ) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > bodyLimit {
            metrics.refused("body")
            throw HTTPError(.contentTooLarge, message: "the body is \(declared) bytes; the limit is \(bodyLimit)")
        }
        await receiveHook?()
        guard bodyReaders.enter() else {
            metrics.refused("concurrency")
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "1"], message: "the server is receiving too many requests; try again shortly")
        }
        let started = ContinuousClock.now
        let seconds = configuration.limits.requestSeconds
        let pace = BodyPace(minimumRate: configuration.limits.minimumBodyRate, grace: configuration.limits.bodyRateGrace)
        let body: Body
        do {
            body = try await withCancellingDeadline(seconds: seconds, pending: pendingTimers, discard: discard) {
                try await receive(request.body, pace)
            }
        } catch {
            bodyReaders.leave()
            throw refusal(for: error, seconds: seconds)
        }
        bodyReaders.leave()
        guard admission.enter() else {
            discard(body)
            metrics.refused("concurrency")
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "1"],
                message: "\(admission.limit) requests are being served; try again shortly")
        }
        let elapsed = ContinuousClock.now - started
        let left = seconds - (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        do {
            return try await withDeadline(seconds: left, pending: pendingTimers) { [admission] in
                defer { admission.leave() }
                return try await work(body)
            }
        } catch {
            throw refusal(for: error, seconds: seconds)
        }
    }

    /// A report body, whole, in memory (at most `limit` bytes).
    static func collect(_ body: RequestBody, limit: Int, pace: BodyPace) async throws -> Data {
        var collected = Data()
        for try await chunk in body {
            guard collected.count + chunk.readableBytes <= limit else {
                throw HTTPError(.contentTooLarge, message: "the body is over the \(limit)-byte limit")
            }
            collected.append(contentsOf: chunk.readableBytesView)
            try pace.received(chunk.readableBytes)
        }
        return collected
    }

    /// The HTTP answer to a limit that tripped (other errors pass through).
    private func refusal(for error: any Error, seconds: Double) -> any Error {
        if error is TimedOut {
            metrics.refused("time")
            return HTTPError(.gatewayTimeout, message: "the request took longer than the \(seconds)-second limit")
        }
        if let error = error as? any HTTPResponseError, error.status == .contentTooLarge {
            metrics.refused("body")
        }
        return error
    }

    /// `?format=` first, else the best type `Accept` takes; text by default.
    static func format(of request: Request) throws -> OutputFormat {
        if let asked = request.uri.queryParameters["format"] {
            guard let format = OutputFormat(rawValue: String(asked)) else {
                throw HTTPError(.badRequest, message: "format must be text, ips, json or markdown")
            }
            return format
        }
        guard let accept = request.headers[.accept], !accept.isEmpty else { return .text }
        if let format = MediaRanges(accept).best(of: formatTypes) { return format }
        throw HTTPError(.notAcceptable, message: "answers are text/plain, application/json, text/markdown or application/x-ips")
    }

    static let formatTypes: [(type: String, format: OutputFormat)] = [
        ("text/plain", .text), ("application/json", .json), ("text/markdown", .markdown), ("application/x-ips", .ips),
    ]

    static func contentType(of format: OutputFormat) -> String {
        switch format {
        case .text: return "text/plain; charset=utf-8"
        case .json: return "application/json; charset=utf-8"
        case .markdown: return "text/markdown; charset=utf-8"
        case .ips: return "application/x-ips; charset=utf-8"
        }
    }

    /// `?explain=1`: 1/true/yes or 0/false/no; anything else is a 400, never a guess.
    static func flag(_ name: String, in request: Request) throws -> Bool {
        guard let value = request.uri.queryParameters[Substring(name)] else { return false }
        switch value.lowercased() {
        case "", "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw HTTPError(.badRequest, message: "\(name) takes 1 or 0")
        }
    }

    /// `?language=` one of `Language`'s codes, else `Accept-Language`, else English.
    static func language(of request: Request) throws -> Language {
        if let asked = request.uri.queryParameters["language"] {
            guard let language = Language(rawValue: String(asked)) else {
                throw HTTPError(.badRequest, message: "language must be \(Language.choices)")
            }
            return language
        }
        return request.headers[.acceptLanguage].flatMap(Language.resolve(acceptLanguage:)) ?? .english
    }

    /// The CLI's standard output with 200; else the failure as the API's JSON error, with the
    /// status of whose fault it is: 422 for a body that is not a report or cannot be given in
    /// the format asked, 5xx for what went wrong on the server (its debug files, a request
    /// given up on).
    package static func response(_ answer: SymbolicateAnswer, format: OutputFormat) -> Response {
        var headers = HTTPFields()
        headers.set(custom: "Symbolicate-Exit-Status", to: String(answer.status.rawValue))
        if let output = answer.output, answer.status == .success || answer.status == .failed {
            headers[.contentType] = contentType(of: format)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: output)))
        }
        // The failure alone (not the headline or warnings said with it), in the API's words:
        // short, without the CLI's `<stdin>:` and without any path of the server's.
        switch answer.failure {
        case .unreadableReport(let error)?:
            return APIErrorBody.response(
                status: .unprocessableContent, message: reportProblem(error), code: reportCode(error.kind), headers: headers)
        case .cannotRender?:
            return APIErrorBody.response(
                status: .unprocessableContent,
                message:
                    "this report cannot be given as \(format.rawValue): only an .ips report with a JSON body (or a KSCrash or Sentry report) can; ask for text, json or markdown",
                code: .cannotRender, headers: headers)
        case .stopped?:
            return APIErrorBody.response(status: .gatewayTimeout, message: "the request was given up on", headers: headers)
        default:
            // The server's debug files or its own failure: the details (paths) are the
            // server's, never the client's.
            return APIErrorBody.response(
                status: .internalServerError, message: "the server could not symbolicate this report: its debug files could not be read",
                headers: headers)
        }
    }

    /// Longest message of an API error about a report.
    static let messageLimit = 200

    /// What is wrong with a report body, as a web user reads it: the place in the body (line,
    /// JSON path) and the first sentence of the reason, at most `messageLimit` characters.
    static func reportProblem(_ error: CrashReportError) -> String {
        var reason = error.message
        // The first sentence or clause: the rest is the CLI's advice about files and flags.
        for separator in [". ", "; ", ": try ", " (tried"] {
            if let range = reason.range(of: separator), reason.distance(from: reason.startIndex, to: range.lowerBound) >= 20 {
                reason = String(reason[..<range.lowerBound])
            }
        }
        var place: [String] = []
        if let line = error.line { place.append("line \(line)") }
        if let jsonPath = error.jsonPath { place.append("at \(jsonPath)") }
        var text = place.isEmpty ? reason : place.joined(separator: ", ") + ": " + reason
        text = text.replacingOccurrences(of: StandardInput.displayName, with: "the report")
        if text.count > messageLimit { text = String(text.prefix(messageLimit - 1)) + "…" }
        return text
    }

    static func reportCode(_ kind: CrashReportError.Kind) -> APIErrorCode {
        switch kind {
        case .empty: return .emptyReport
        case .tooLarge: return .tooLarge
        case .binary, .damaged: return .binaryReport
        case .truncated: return .truncatedReport
        case .invalidJSON: return .invalidJSON
        case .unreadable, .headerWithoutBody, .notACrashReport: return .notAReport
        }
    }

    static func text(_ text: String, type: String = "text/plain; charset=utf-8") -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A page asset: served from the binary, never cached across versions, and allowed to load
    /// nothing from elsewhere.
    static func asset(_ text: String, type: String) -> Response {
        var headers: HTTPFields = [
            .contentType: type, .cacheControl: "no-cache",
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
        ]
        headers.set(custom: "X-Content-Type-Options", to: "nosniff")
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// An `Accept` header's media ranges with their q-values.
struct MediaRanges {
    var ranges: [(type: String, quality: Double)] = []

    init(_ header: String) {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = pieces.first, !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1
            }
            ranges.append((type, quality))
        }
    }

    /// The offered value the client likes most (the offer order breaks ties; `*/*` and
    /// `text/*` take the first offer they cover).
    func best<T>(of offers: [(type: String, format: T)]) -> T? {
        var chosen: (quality: Double, format: T)?
        for offer in offers {
            let quality = ranges.filter { range in
                range.type == offer.type || range.type == "*/*"
                    || (range.type.hasSuffix("/*") && offer.type.hasPrefix(range.type.dropLast()))
            }.map(\.quality).max()
            if let quality, quality > 0, quality > (chosen?.quality ?? 0) { chosen = (quality, offer.format) }
        }
        return chosen?.format
    }
}

/// Every error of the API as one JSON shape (`APIErrorBody`): Hummingbird's own (no such
/// route, a bad request line), the routes' refusals, and anything else as a 500 that names no
/// detail of the server.
struct APIErrors<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return APIErrorBody.response(status: error.status, message: error.body ?? "", headers: error.headers)
        } catch let error as any HTTPResponseError {
            return APIErrorBody.response(status: error.status, message: "", headers: [:])
        } catch {
            return APIErrorBody.response(status: .internalServerError, message: "the server could not answer this request", headers: [:])
        }
    }
}

/// Requests to a host name the server does not answer to are refused (`HostNames`, 421), on
/// every path: the page too. Browsers' cross-origin requests to the API are refused: a page elsewhere could otherwise
/// send a report (a "simple request", `text/plain`, needs no preflight) to the server on
/// loopback. A request with an `Origin` that is not this server's own is refused, and a
/// `text/plain` body without a token is taken only from this server's own page.
struct OriginCheck<Context: RequestContext>: RouterMiddleware {
    let metrics: ServeMetrics
    let hostNames: HostNames

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = hostNames.refusal(request.head.authority) {
            metrics.refused("host")
            throw HTTPError(.misdirectedRequest, message: refusal)
        }
        if request.uri.path.hasPrefix("/v1/"), let refusal = CrossOrigin.refusal(request.headers, authority: request.head.authority) {
            metrics.refused("origin")
            throw HTTPError(.forbidden, message: refusal)
        }
        return try await next(request, context)
    }
}

/// The rule `OriginCheck` and the `Expect: 100-continue` answer share.
enum CrossOrigin {
    /// Why a request with these headers is refused, or nil. The server's own origin is the
    /// scheme and the host the request was sent to (`authority`: HTTP/1's `Host`).
    static func refusal(_ headers: HTTPFields, authority: String?) -> String? {
        let hosts = Set([authority].compactMap { $0?.lowercased() })
        let own = hosts.flatMap { ["http://" + $0, "https://" + $0] }
        if let origin = headers[.origin]?.lowercased() {
            return own.contains(origin)
                ? nil
                : "cross-origin requests to the API are refused (Origin: \(origin)); use this server's own page or a client that is not a browser"
        }
        if headers[custom: "Sec-Fetch-Site"]?.lowercased() == "cross-site" {
            return "cross-origin requests to the API are refused (Sec-Fetch-Site: cross-site)"
        }
        let type = headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if type == "text/plain", headers[.authorization] == nil {
            return "a text/plain body without a token is refused unless it comes from this server's own page; send application/octet-stream"
        }
        return nil
    }
}

/// One structured log line per request (method, path, status, duration, bytes), and the
/// request counters and latency histogram of `/metrics`.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status.code, started: started, bytes: response.body.contentLength)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context: context, status: status, started: started, bytes: nil)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, started: ContinuousClock.Instant, bytes: Int?) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let route = context.coreContext.endpointPath.value ?? "unmatched"
        metrics.request(route: route, status: status, seconds: seconds)
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "route": "\(route)", "status": "\(status)",
            "duration_ms": "\(String(format: "%.2f", seconds * 1000))",
        ]
        if let bytes { metadata["response_bytes"] = "\(bytes)" }
        if let length = request.headers[.contentLength] { metadata["request_bytes"] = "\(length)" }
        logger.info("request", metadata: metadata)
    }
}

extension HTTPFields {
    /// Sets a field HTTPTypes has no constant for (`Symbolicate-Exit-Status`); names are
    /// literals of this file, always valid tokens.
    package mutating func set(custom name: String, to value: String) {
        if let field = Element.Name(name) { self[field] = value }
    }

    /// A field HTTPTypes has no constant for.
    package subscript(custom name: String) -> String? {
        Element.Name(name).flatMap { self[$0] }
    }
}
