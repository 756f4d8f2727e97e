import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicatePipeline
import SymbolicateServe
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// The API's rules around the work: a request given up on stops, browsers elsewhere are
/// refused, every error has one JSON shape and the status of whose fault it is.
@Suite struct APITests {
    /// A request past its time limit is answered 504 and its work stops at the next stage:
    /// the only worker is free for the next request. The hook holds the first request at its
    /// first stage until it is given up on (a test hook standing for a slow report), so the
    /// first request always reaches the limit and the second never waits for the first.
    @Test func aRequestGivenUpOnStopsAndFreesItsWorker() async throws {
        // The limit is the second request's whole budget too (it really symbolicates and
        // explains): generous, so a busy machine cannot turn its 200 into a 504 (CI saw a
        // request wait 20 s for a scheduled task under the whole suite's load).
        var configured = try Serve.server {
            $0.limits.workers = 1
            $0.limits.requestSeconds = 60
        }
        let stages = Tally()
        configured.stageHook = { stop in
            let key = "\(ObjectIdentifier(stop))"
            if stages.add(key) == 1 && stages.add("requests") == 1 {
                // Hang guard only: the flag is set when the request is given up on.
                let deadline = Date().addingTimeInterval(240)
                while !stop.isSet && Date() < deadline { usleep(5000) }
                stages.add("held:" + key)
            }
        }
        let server = configured
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate?explain=1", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(response.status == .gatewayTimeout)
                #expect(Serve.apiError(response.body)?.status == 504)
            }
            #expect(await Serve.eventually { server.metrics.render(hasStore: false).contains("symbolicate_abandoned_total 1") })
            try await client.execute(uri: "/v1/symbolicate?explain=1", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(response.status == .ok)
            }
        }
        // The first request's work saw one stage (where it was held) and went no further.
        let text = server.metrics.render(hasStore: false)
        #expect(text.contains("symbolicate_abandoned_total 1"), "\(text)")
        #expect(text.contains("symbolicate_reports_total 1"), "only the second request was symbolicated: \(text)")
    }

    /// Issue 54, finding 11: the work stops inside a stage too, not only between stages (a
    /// report of a million frames, or of 66,000 images, is one long symbolication). The hook
    /// runs at every poll; it holds the first request at its 12th, which only a poll before
    /// each image and frame reaches (a run has some six between its stages). Once the request
    /// is given up on, its polls stop within two (the symbolication's next, then the run's),
    /// while a whole run of the same report polls many more times.
    @Test func aRequestGivenUpOnStopsInsideSymbolication() async throws {
        var configured = try Serve.server {
            $0.limits.workers = 1
            $0.limits.requestSeconds = 60
        }
        let polls = PollLog()
        let holdAt = 12
        configured.stageHook = { stop in
            let (request, count) = polls.poll(stop)
            if request == 0 && count == holdAt {
                // Hang guard only: the flag is set when the request is given up on.
                let deadline = Date().addingTimeInterval(240)
                while !stop.isSet && Date() < deadline { usleep(5000) }
            }
        }
        let server = configured
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate?explain=1", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(response.status == .gatewayTimeout)
            }
            #expect(await Serve.eventually { server.metrics.render(hasStore: false).contains("symbolicate_abandoned_total 1") })
            try await client.execute(uri: "/v1/symbolicate?explain=1", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(response.status == .ok)
            }
        }
        let given = polls.count(request: 0)
        let whole = polls.count(request: 1)
        #expect(given >= holdAt && given <= holdAt + 2, "the request given up on polled \(given) times")
        #expect(whole > holdAt + 2, "a whole run polled \(whole) times")
    }

    @Test(arguments: [
        // (Origin, Content-Type, Sec-Fetch-Site, Authorization, status)
        ("http://evil.example", "application/octet-stream", "", "", 403),
        ("null", "text/plain", "", "", 403),
        ("", "text/plain", "", "", 403),
        ("", "text/plain;charset=UTF-8", "", "", 403),
        ("", "application/octet-stream", "cross-site", "", 403),
        // This server's own page, and clients that are not browsers.
        ("http://localhost", "text/plain", "", "", 200),
        ("http://localhost", "application/octet-stream", "same-origin", "", 200),
        ("", "application/x-www-form-urlencoded", "", "", 200),
        ("", "", "", "", 200),
        ("", "text/plain", "", "Bearer anything", 200),
    ])
    func crossOriginRequestsAreRefused(origin: String, type: String, site: String, authorization: String, status: Int) async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            // The test client sends to "localhost": this server's own origin is http://localhost.
            var headers: HTTPFields = [:]
            if !origin.isEmpty { headers[.origin] = origin }
            if !type.isEmpty { headers[.contentType] = type }
            if !site.isEmpty { headers.set(custom: "Sec-Fetch-Site", to: site) }
            if !authorization.isEmpty { headers[.authorization] = authorization }
            try await client.execute(uri: "/v1/symbolicate", method: .post, headers: headers, body: Serve.body(try Serve.report())) {
                response in
                #expect(response.status.code == status, "\(String(buffer: response.body))")
                if status == 403 { #expect(Serve.apiError(response.body)?.message.contains("refused") == true) }
            }
            // The page itself is served to anyone.
            try await client.execute(uri: "/", method: .get, headers: headers) { response in #expect(response.status == .ok) }
        }
    }

    @Test(arguments: [
        ("/v1/symbolicate", HTTPRequest.Method.get, "POST"), ("/v1/symbolicate", .put, "POST"), ("/v1/debug-files", .get, "PUT"),
        ("/v1/debug-files/4C4C443B-5555-3144-A1E9-455154CFFD57", .post, "GET, DELETE"),
    ])
    func otherMethodsAre405WithAllow(path: String, method: HTTPRequest.Method, allow: String) async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: path, method: method) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == allow)
                #expect(Serve.apiError(response.body)?.status == 405)
            }
        }
    }

    /// Every error of the API, from Hummingbird, a route or the pipeline, is one JSON shape.
    @Test func everyErrorIsOneJSONShape() async throws {
        let server = try Serve.server { $0.limits.reportBytes = 100_000 }
        try await Serve.routes(server) { client in
            let cases: [(String, HTTPRequest.Method, HTTPFields, ByteBuffer, Int)] = [
                ("/v1/nothing-here", .get, [:], ByteBuffer(), 404),
                ("/v1/symbolicate?format=pdf", .post, [:], Serve.body(try Serve.report()), 400),
                ("/v1/symbolicate", .post, [.accept: "image/png"], Serve.body(try Serve.report()), 406),
                ("/v1/symbolicate", .post, [:], ByteBuffer(string: "not a crash report at all"), 422),
                ("/v1/symbolicate", .post, [:], ByteBuffer(repeating: 0x41, count: 100_001), 413),
                ("/v1/debug-files/zz", .get, [:], ByteBuffer(), 404),
            ]
            for (uri, method, headers, body, status) in cases {
                try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                    #expect(response.status.code == status, "\(uri)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                    let error = Serve.apiError(response.body)
                    #expect(error?.status == status, "\(uri): \(String(buffer: response.body))")
                    #expect(error?.message.isEmpty == false, "\(uri)")
                }
            }
        }
    }

    /// A report that cannot be given in the format asked is the client's (422), worded for the
    /// API (no CLI flag); the server's own failures are 5xx.
    @Test func whoseFaultDecidesTheStatus() {
        let notAReport = SymbolicateAnswer(
            output: nil, messages: ["symbolicate: error: <stdin>: not a crash report\n"], status: .invalidInput,
            failure: .unreadableReport(.init(kind: .notACrashReport, path: "<stdin>", message: "not a crash report")))
        #expect(ServeServer.response(notAReport, format: .text).status == .unprocessableContent)
        let debugFiles = SymbolicateAnswer(
            output: nil, messages: ["symbolicate: error: /srv/gone.dSYM: no such file or folder\n"], status: .invalidInput,
            failure: .debugFiles(.notFound(path: "/srv/gone.dSYM")))
        #expect(ServeServer.response(debugFiles, format: .text).status == .internalServerError)
    }

    /// `/metrics` reads counters: what another instance stores meanwhile is not walked for.
    @Test func metricsNeverWalkTheStore() async throws {
        let folder = try TestPaths.temporaryDirectory("serve-metrics-store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try StoreRouteTests.server(store: folder)
        #expect(await Serve.eventually { server.metrics.render(hasStore: true).contains("symbolicate_store_entries_at_start 0") })
        // Another instance stores a file.
        try DebugFileStore(root: folder.path).put(fileAt: Serve.crashAppDSYM, origin: "elsewhere")
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("symbolicate_store_entries_at_start 0"), "\(text)")
                #expect(text.contains("symbolicate_store_files_stored_total 0"), "\(text)")
                #expect(!text.contains("symbolicate_store_entries 1"), "\(text)")
            }
        }
    }
}

/// The polls of each request, numbered in the order requests first poll (each request's
/// `StopFlag` is kept, so no two requests share an identity).
final class PollLog: @unchecked Sendable {
    private let lock = NSLock()
    private var flags: [StopFlag] = []
    private var counts: [Int] = []

    /// The request's number and how many times it has polled, this one included.
    func poll(_ flag: StopFlag) -> (request: Int, count: Int) {
        lock.lock()
        defer { lock.unlock() }
        let request =
            flags.firstIndex { $0 === flag }
            ?? {
                flags.append(flag)
                counts.append(0)
                return flags.count - 1
            }()
        counts[request] += 1
        return (request, counts[request])
    }

    func count(request: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts.indices.contains(request) ? counts[request] : 0
    }
}
