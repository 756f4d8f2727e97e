import Foundation
import Hummingbird
import Logging
import SymbolicateDiscovery
import SymbolicateExplain
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
    let admission: Admission
    let workers: WorkerPool
    let logger: Logger

    /// Opens the store and checks the debug files; throws what stops the server from starting.
    package init(configuration: ServeConfiguration, logger: Logger = Logger(label: "symbolicate.serve")) throws {
        self.configuration = configuration
        self.logger = logger
        metrics = ServeMetrics()
        store = try configuration.storePath.map { path throws(DebugFileStoreError) in try ServeStore(root: path) }
        symbolicator = Symbolicator(debugFiles: configuration.debugFiles, store: store, metrics: metrics)
        try symbolicator.validate()
        admission = Admission(limit: configuration.limits.concurrentRequests)
        workers = WorkerPool(width: configuration.limits.workers)
    }

    /// The routes, behind the access log.
    package func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(AccessLog(logger: logger, metrics: metrics))
        router.get("/") { _, _ in Self.asset(PageAssets.html, type: "text/html; charset=utf-8") }
        router.get("/page.css") { _, _ in Self.asset(PageAssets.css, type: "text/css; charset=utf-8") }
        router.get("/page.js") { _, _ in Self.asset(PageAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/metrics") { _, _ in
            let figures = store?.figures()
            return Self.text(
                metrics.render(storeBytes: figures?.bytes, storeEntries: figures?.entries), type: "text/plain; version=0.0.4; charset=utf-8"
            )
        }
        router.post("/v1/symbolicate") { request, _ in try await symbolicate(request) }
        addStoreRoutes(to: router)
        return router
    }

    /// The application on the configured address.
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: router(),
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
        return try await limited(bodyLimit: configuration.limits.reportBytes, request: request) { body in
            var call = options
            call.body = body
            let answer = await workers.run { [symbolicator, call] in symbolicator.run(call) }
            return Self.response(answer, format: chosen)
        }
    }

    /// Admission, the body limit and the time limit around one piece of work on a body. With
    /// `collect: false` the work reads the body itself (an upload, streamed to a file) and is
    /// waited for when the time limit cancels it.
    func limited(
        bodyLimit: Int, request: Request, collect: Bool = true, _ work: @escaping @Sendable (Data) async throws -> Response
    ) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > bodyLimit {
            metrics.refused("body")
            throw HTTPError(.contentTooLarge, message: "the body is \(declared) bytes; the limit is \(bodyLimit)\n")
        }
        guard admission.enter() else {
            metrics.refused("concurrency")
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "1"],
                message: "\(admission.limit) requests are being served; try again shortly\n")
        }
        let started = ContinuousClock.now
        let seconds = configuration.limits.requestSeconds
        guard collect else {
            defer { admission.leave() }
            do { return try await withCancellingDeadline(seconds: seconds) { try await work(Data()) } } catch {
                throw refusal(for: error, seconds: seconds)
            }
        }
        let body: ByteBuffer
        do {
            body = try await withCancellingDeadline(seconds: seconds) { try await request.body.collect(upTo: bodyLimit) }
        } catch {
            admission.leave()
            throw refusal(for: error, seconds: seconds)
        }
        let left = seconds - Double((ContinuousClock.now - started).components.seconds)
        do {
            return try await withDeadline(seconds: left) { [admission] in
                defer { admission.leave() }
                return try await work(Data(buffer: body))
            }
        } catch {
            throw refusal(for: error, seconds: seconds)
        }
    }

    /// The HTTP answer to a limit that tripped (other errors pass through).
    private func refusal(for error: any Error, seconds: Double) -> any Error {
        if error is TimedOut {
            metrics.refused("time")
            return HTTPError(.gatewayTimeout, message: "the request took longer than the \(seconds)-second limit\n")
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
                throw HTTPError(.badRequest, message: "format must be text, ips, json or markdown\n")
            }
            return format
        }
        guard let accept = request.headers[.accept], !accept.isEmpty else { return .text }
        if let format = MediaRanges(accept).best(of: formatTypes) { return format }
        throw HTTPError(.notAcceptable, message: "answers are text/plain, application/json, text/markdown or application/x-ips\n")
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
        default: throw HTTPError(.badRequest, message: "\(name) takes 1 or 0\n")
        }
    }

    /// `?language=en|ja`, else `Accept-Language`, else English.
    static func language(of request: Request) throws -> Language {
        if let asked = request.uri.queryParameters["language"] {
            guard let language = Language(rawValue: String(asked)) else {
                throw HTTPError(.badRequest, message: "language must be en or ja\n")
            }
            return language
        }
        return request.headers[.acceptLanguage].flatMap(Language.resolve(acceptLanguage:)) ?? .english
    }

    /// The CLI's standard output with 200; what its standard error said with the status that
    /// fits the exit code (422 for a body that is not a report).
    static func response(_ answer: SymbolicateAnswer, format: OutputFormat) -> Response {
        var headers = HTTPFields()
        headers.set(custom: "Symbolicate-Exit-Status", to: String(answer.status.rawValue))
        if let output = answer.output, answer.status == .success || answer.status == .failed {
            headers[.contentType] = contentType(of: format)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: output)))
        }
        headers[.contentType] = "text/plain; charset=utf-8"
        let status: HTTPResponse.Status =
            answer.status == .invalidInput ? .unprocessableContent : answer.status == .usage ? .badRequest : .internalServerError
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.messages.joined())))
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
    mutating func set(custom name: String, to value: String) {
        if let field = Element.Name(name) { self[field] = value }
    }

    /// A field HTTPTypes has no constant for.
    package subscript(custom name: String) -> String? {
        Element.Name(name).flatMap { self[$0] }
    }
}
