import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateTestSupport
import Synchronization

@testable import SymbolicateAppStoreConnect

/// A stand-in for api.appstoreconnect.apple.com on loopback: the endpoints `fetch` uses, answering
/// in the shapes of the App Store Connect API's OpenAPI description (`AppStoreConnectSpec.openAPIVersion`:
/// JSON:API `data` / `links.next` / `meta.paging`, `BetaCrashLog.attributes.logText`, `DiagnosticLogs`,
/// `ErrorResponse.errors`), two items a page so every list takes several pages. Every request's
/// token is checked as Apple documents it (ES256 signature verified with the key's public half,
/// `kid`, `iss`, `aud`, `iat`/`exp` at most 20 minutes apart and not expired on `clock`); a
/// refused one gets Apple's 401 error JSON. What it served is counted, never timed.
final class FakeAppStoreConnect: Sendable {
    struct Build {
        var id: String
        var number: String
        var marketingVersion: String
        var uploaded: String
    }

    struct Submission {
        var id: String
        var created: String
        var build: String
        var logText: String?
    }

    struct Behaviour {
        /// Every token refused: the key was revoked.
        var revoked = false
        /// The first token refused once though valid (a token the server takes as expired).
        var refuseFirstToken = false
        /// Paths answered 429 (with this Retry-After) the first time they are asked.
        var rateLimitOnce: [String: String] = [:]
        /// Paths answered 500 the first time they are asked.
        var failOnce: Set<String> = []
        /// After this many requests, the shared clock moves 25 minutes on.
        var advanceClockAfter: Int?
    }

    struct Log {
        var paths: [String] = []
        var tokens: [String] = []
        var refusedTokens = 0
        var rateLimited = 0
    }

    static let appID = "1234567890"
    static let bundleID = "com.example.CrashApp"
    static let pageSize = 2

    let key: AppStoreConnectKey
    let publicKey: P256.Signing.PublicKey
    let clock: TestClock
    let builds: [Build]
    let submissions: [Submission]
    let signatures: [String: [(id: String, type: String)]]
    let diagnosticLogs: String
    private let behaviour: Mutex<Behaviour>
    private let served = Mutex(Log())

    init(key: AppStoreConnectKey, publicKey: P256.Signing.PublicKey, clock: TestClock, behaviour: Behaviour = Behaviour()) throws {
        self.key = key
        self.publicKey = publicKey
        self.clock = clock
        self.behaviour = Mutex(behaviour)
        let crash = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash"), encoding: .utf8)
        diagnosticLogs = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("app-store-connect/crashapp.diagnostic-logs.json"), encoding: .utf8)
        builds = [
            Build(id: "build-7", number: "7", marketingVersion: "2.4", uploaded: "2026-03-02T09:00:00.000+00:00"),
            Build(id: "build-6", number: "6", marketingVersion: "2.3", uploaded: "2026-02-20T09:00:00.000+00:00"),
        ]
        submissions = (1...5).reversed().map { day in
            Submission(
                id: "crash-\(day)", created: "2026-03-0\(day)T10:00:00.000Z", build: day == 1 ? "build-6" : "build-7",
                logText: day == 4 ? nil : crash)
        }
        signatures = ["build-7": [("hang-signature-1", "HANGS"), ("disk-write-signature-1", "DISK_WRITES")], "build-6": []]
    }

    var log: Log { served.withLock { $0 } }

    /// Runs `body` with the server listening on a loopback port; its base URL is handed over.
    func running<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let application = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await application.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port ?? 0)")
        }
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/v1/apps") { request, _ in
            self.answer(request) { query in
                let items =
                    query["filter[bundleId]"] == Self.bundleID ? [Self.resource("apps", Self.appID, ["bundleId": Self.bundleID])] : []
                return self.page(items, request: request, query: query)
            }
        }
        router.get("/v1/builds") { request, _ in
            self.answer(request) { query in
                guard query["filter[app]"] == Self.appID else {
                    return self.error(404, "NOT_FOUND", "The specified resource does not exist")
                }
                let wanted = query["filter[preReleaseVersion.version]"]
                let items = self.builds.filter { wanted == nil || $0.marketingVersion == wanted }.map {
                    Self.resource("builds", $0.id, ["version": $0.number, "uploadedDate": $0.uploaded])
                }
                return self.page(items, request: request, query: query)
            }
        }
        router.get("/v1/apps/:id/betaFeedbackCrashSubmissions") { request, context in
            self.answer(request) { query in
                guard context.parameters.get("id") == Self.appID else {
                    return self.error(404, "NOT_FOUND", "The specified resource does not exist")
                }
                guard query["sort"] == "-createdDate" else { return self.error(400, "PARAMETER_ERROR.INVALID", "sort expected") }
                let builds = query["filter[build]"].map { Set($0.split(separator: ",").map(String.init)) }
                let items = self.submissions.filter { builds?.contains($0.build) ?? true }.map {
                    Self.resource(
                        "betaFeedbackCrashSubmissions", $0.id,
                        ["createdDate": $0.created, "deviceModel": "iPhone17,1", "osVersion": "26.0", "comment": "it crashed"])
                }
                return self.page(items, request: request, query: query)
            }
        }
        router.get("/v1/betaFeedbackCrashSubmissions/:id/crashLog") { request, context in
            self.answer(request) { _ in
                guard let submission = self.submissions.first(where: { $0.id == context.parameters.get("id") }) else {
                    return self.error(404, "NOT_FOUND", "The specified resource does not exist")
                }
                var attributes: [String: Any] = [:]
                if let text = submission.logText { attributes["logText"] = text }
                return self.json([
                    "data": Self.resource("betaCrashLogs", "log-" + submission.id, attributes), "links": ["self": request.uri.path],
                ])
            }
        }
        router.get("/v1/builds/:id/diagnosticSignatures") { request, context in
            self.answer(request) { query in
                guard let list = self.signatures[context.parameters.get("id") ?? ""] else {
                    return self.error(404, "NOT_FOUND", "The specified resource does not exist")
                }
                let items = list.map {
                    Self.resource("diagnosticSignatures", $0.id, ["diagnosticType": $0.type, "signature": "main thread", "weight": 0.5])
                }
                return self.page(items, request: request, query: query)
            }
        }
        router.get("/v1/diagnosticSignatures/:id/logs") { request, _ in
            self.answer(request) { _ in
                guard request.headers[.accept]?.contains("application/vnd.apple.diagnostic-logs+json") == true else {
                    return self.error(406, "NOT_ACCEPTABLE", "accept application/vnd.apple.diagnostic-logs+json")
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/vnd.apple.diagnostic-logs+json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: self.diagnosticLogs)))
            }
        }
        return router
    }

    // MARK: - Answers

    /// Checks the token and the behaviour's failures, then answers with `body`.
    private func answer(_ request: Request, _ body: ([String: String]) -> Response) -> Response {
        let path = request.uri.path
        let count = served.withLock { log -> Int in
            log.paths.append(request.uri.string)
            return log.paths.count
        }
        defer {
            if let after = behaviour.withLock({ $0.advanceClockAfter }), count == after { clock.advance(25 * 60) }
        }
        let token = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if let token { served.withLock { $0.tokens.append(token) } }
        let refuse = behaviour.withLock { b -> Bool in
            if b.revoked { return true }
            if b.refuseFirstToken {
                b.refuseFirstToken = false
                return true
            }
            return false
        }
        guard let token, verify(token), !refuse else {
            served.withLock { $0.refusedTokens += 1 }
            return error(
                401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                detail: "Provide a properly configured and signed bearer token, and make sure that it has not expired.")
        }
        if let after = behaviour.withLock({ b -> String? in b.rateLimitOnce.removeValue(forKey: path) }) {
            served.withLock { $0.rateLimited += 1 }
            var response = error(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.")
            response.headers[.retryAfter] = after
            return response
        }
        if behaviour.withLock({ $0.failOnce.remove(path) != nil }) {
            return error(500, "UNEXPECTED_ERROR", "An unexpected error occurred on the server side.")
        }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            query[String(name).removingPercentEncoding ?? String(name)] = String(value).removingPercentEncoding ?? String(value)
        }
        if let limit = query["limit"], (Int(limit) ?? 0) > 200 || (Int(limit) ?? 0) < 1 {
            return error(400, "PARAMETER_ERROR.INVALID", "limit must be between 1 and 200")
        }
        return body(query)
    }

    /// The token as Apple checks it: signature with the key's public half, header and claims.
    func verify(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
            let signatureData = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return false }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT", header["kid"] as? String == key.keyID,
            claims["iss"] as? String == key.issuerID, claims["aud"] as? String == "appstoreconnect-v1",
            let issued = claims["iat"] as? Int, let expires = claims["exp"] as? Int
        else { return false }
        let now = Int(clock.now().timeIntervalSince1970)
        return expires > issued && expires - issued <= 20 * 60 && expires > now && issued <= now + 60
    }

    private func page(_ items: [[String: Any]], request: Request, query: [String: String]) -> Response {
        let start = Int(query["cursor"] ?? "0") ?? 0
        let slice = Array(items.dropFirst(start).prefix(Self.pageSize))
        var links: [String: Any] = ["self": request.uri.string]
        if start + Self.pageSize < items.count {
            // The query as sent, its cursor replaced.
            let kept = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("cursor=") }
            let query = (kept + ["cursor=\(start + Self.pageSize)"]).joined(separator: "&")
            let authority = request.head.authority ?? "127.0.0.1"
            links["next"] = "http://\(authority)\(request.uri.path)?\(query)"
        }
        return json(["data": slice, "links": links, "meta": ["paging": ["total": items.count, "limit": Self.pageSize]]])
    }

    static func resource(_ type: String, _ id: String, _ attributes: [String: Any]) -> [String: Any] {
        ["type": type, "id": id, "attributes": attributes, "links": ["self": "/v1/\(type)/\(id)"]]
    }

    private func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Apple's `ErrorResponse`.
    private func error(_ status: Int, _ code: String, _ title: String, detail: String? = nil) -> Response {
        json(
            ["errors": [["id": UUID().uuidString, "status": String(status), "code": code, "title": title, "detail": detail ?? title]]],
            status: HTTPResponse.Status(code: status))
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

/// The time both the client and the server read: tests move it on instead of waiting.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    /// Follows the real time (a test of the real binary, which signs by the system clock: a
    /// frozen server clock would take a token signed a minute later on a busy machine as issued
    /// in the future).
    private let live: Bool

    init(_ start: Date = Date(timeIntervalSince1970: 1_772_000_000)) {
        current = Mutex(start)
        live = false
    }

    /// The system's clock.
    init(live: Void) {
        current = Mutex(Date())
        self.live = true
    }

    func now() -> Date { live ? Date() : current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
