import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// `POST /v1/symbolicate` answers with the CLI's bytes: the real `symbolicate -` binary given
/// the same report and debug files is the reference.
@Suite(.tags(.server)) struct SymbolicateRouteTests {
    static let cases: [(report: String, query: String, cli: [String])] = [
        ("swift-trap.ips", "", []),
        ("swift-trap.ips", "?format=json", ["--format", "json"]),
        ("swift-trap.ips", "?format=markdown&explain=1", ["--format", "markdown", "--explain"]),
        ("swift-trap.ips", "?format=ips", ["--format", "ips"]),
        ("swift-trap.crash", "?explain=1", ["--explain"]),
        ("null-deref.ips", "?explain=1&language=ja", ["--explain", "--language", "ja"]),
        ("objc-exception.crash", "?headline=1", ["--headline"]),
        ("watchdog.ips", "?format=json&explain=1", ["--format", "json", "--explain"]),
        // A MetricKit payload: one report per diagnostic, a JSON array in JSON.
        ("../logs/crashapp-metrickit.json", "", []),
        ("../logs/crashapp-metrickit.json", "?format=json", ["--format", "json"]),
    ]

    @Test(arguments: 0..<cases.count)
    func bodyGivesTheCLIsBytes(index: Int) async throws {
        let (report, query, flags) = Self.cases[index]
        let data = try Serve.report(report)
        let cli = try CLI.run(
            ["-", TestPaths.dsyms] + flags, stdin: String(decoding: data, as: UTF8.self), currentDirectory: TestPaths.packageRoot)
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(!cli.stdout.isEmpty)
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate\(query)", method: .post, body: Serve.body(data)) { response in
                #expect(response.status == .ok)
                // The same bytes, but for the debug files' folder: the server names them by
                // their file names only (issue 54, item 6).
                #expect(String(buffer: response.body) == cli.stdout.replacingOccurrences(of: TestPaths.dsyms + "/", with: ""))
                #expect(response.headers[custom: "Symbolicate-Exit-Status"] == "0")
            }
        }
    }

    @Test func theFrameIsSymbolicated() async throws {
        let server = try Serve.server(debugFiles: [Serve.crashAppDSYM])
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(String(buffer: response.body).contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"))
            }
        }
    }

    @Test(arguments: [
        ("application/json", "application/json; charset=utf-8"), ("text/markdown", "text/markdown; charset=utf-8"),
        ("text/plain", "text/plain; charset=utf-8"), ("*/*", "text/plain; charset=utf-8"),
        ("text/markdown;q=0.5, application/json", "application/json; charset=utf-8"),
    ])
    func acceptChoosesTheFormat(accept: String, type: String) async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(
                uri: "/v1/symbolicate", method: .post, headers: [.accept: accept], body: Serve.body(try Serve.report())
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
            }
        }
    }

    @Test(arguments: [
        ("/v1/symbolicate?format=pdf", "text/plain", 400), ("/v1/symbolicate?explain=maybe", "text/plain", 400),
        ("/v1/symbolicate?language=xx", "text/plain", 400), ("/v1/symbolicate", "image/png", 406),
    ])
    func badQueriesAreRefused(uri: String, accept: String, status: Int) async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: uri, method: .post, headers: [.accept: accept], body: Serve.body(try Serve.report())) {
                response in
                #expect(response.status.code == status)
            }
        }
    }

    @Test func acceptLanguageChoosesJapanese() async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(
                uri: "/v1/symbolicate?explain=1", method: .post, headers: [.acceptLanguage: "ja-JP,ja;q=0.9,en;q=0.8"],
                body: Serve.body(try Serve.report())
            ) { response in
                #expect(String(buffer: response.body).hasPrefix("診断"))
            }
        }
    }

    /// The CLI's reason in short, for people on the page or the API: no `<stdin>:`, none of
    /// the CLI's advice about files and flags, at most 200 characters (issue 54, item 6).
    @Test func aBodyThatIsNotAReportIs422WithTheCLIsReasonInShort() async throws {
        let cli = try CLI.run(["-"], stdin: "garbage\n")
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: ByteBuffer(string: "garbage\n")) { response in
                #expect(response.status == .unprocessableContent)
                let message = try #require(Serve.apiError(response.body)?.message)
                #expect(!message.contains("<stdin>"), "\(message)")
                #expect(message.count <= 200, "\(message)")
                #expect(cli.stderr.contains(String(message.prefix(40))), "\(message) / \(cli.stderr)")
                #expect(String(buffer: response.body).contains("\"code\":\"not-a-report\""))
                #expect(response.headers[custom: "Symbolicate-Exit-Status"] == "65")
            }
        }
    }

    @Test func healthAndMetrics() async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok\n")
            }
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(try Serve.report()))
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"symbolicate_http_requests_total{route="/v1/symbolicate",status="200"} 1"#))
                #expect(text.contains("symbolicate_reports_total 1"))
                // CrashApp and CrashKit both have a dSYM in Fixtures/dsyms.
                #expect(text.contains("symbolicate_debug_file_lookups_total 2"))
                #expect(text.contains("symbolicate_http_request_duration_seconds_count 2"))
            }
        }
    }

    @Test func thePageAndItsAssetsComeFromTheBinary() async throws {
        let server = try Serve.server()
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains(#"<textarea id="report""#))
                #expect(!html.contains("http://") && !html.contains("https://"), "nothing is loaded from elsewhere")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            }
            for asset in ["/page.css", "/page.js"] {
                try await client.execute(uri: asset, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.body.readableBytes > 500)
                }
            }
        }
    }
}
