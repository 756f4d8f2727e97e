import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// The crash inbox over HTTP: `POST /v1/reports` (token), `GET /v1/groups` with filters and
/// pages, `GET /v1/groups/{id}`, `POST /v1/groups/{id}/state` (token), the read token, a report
/// symbolicated again when its dSYM is uploaded, and two servers sharing one PostgreSQL inbox.
@Suite(.tags(.server)) struct InboxRouteTests {
    static let token = "upload-token"
    static let readToken = "read-token"
    static let authorized: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"]

    /// A server with a store and an inbox in a new folder.
    static func server(
        _ label: String, debugFiles: [String] = [TestPaths.dsyms], inbox: String? = nil,
        _ adjust: (inout ServeConfiguration) -> Void = { _ in }
    ) throws -> ServeServer {
        let folder = try TestPaths.temporaryDirectory("serve-inbox-\(label)")
        return try Serve.server(debugFiles: debugFiles) {
            $0.storePath = folder.appendingPathComponent("store").path
            $0.inbox = inbox ?? folder.appendingPathComponent("inbox.sqlite").path
            $0.token = token
            adjust(&$0)
        }
    }

    /// A fixture text report as another launch of another version states it: its version line
    /// and incident identifier changed (a new body), the crash the same.
    static func report(_ name: String, version: String = "1.0 (1)", launch: Int = 0) throws -> Data {
        var text = String(decoding: try Serve.report(name), as: UTF8.self)
        text = text.replacingOccurrences(of: "Version:             1.0 (1)", with: "Version:             \(version)")
        text = text.replacingOccurrences(
            of: "FE3A2502-0D66-43A3-A3C6-10A3BBB7F8F4", with: String(format: "FE3A2502-0D66-43A3-A3C6-%012X", launch))
        return Data(text.utf8)
    }

    struct Outcome: Decodable {
        var report: String
        var group: String
        var stored: Bool
        var newGroup: Bool
        var regression: Bool
    }
    struct Answer: Decodable { var reports: [Outcome] }
    struct Page: Decodable {
        struct Summary: Decodable {
            struct Group: Decodable {
                var id: String
                var state: String
                var count: Int
            }
            var group: Group
            var count: Int
        }
        var groups: [Summary]
        var total: Int
        var page: Int
    }

    static func post(_ client: any ServeClient, _ body: Data) async throws -> (HTTPResponse.Status, Answer?) {
        try await client.execute(uri: "/v1/reports", method: .post, headers: authorized, body: Serve.body(body)) { response in
            (response.status, try? JSONDecoder().decode(Answer.self, from: Data(buffer: response.body)))
        }
    }

    static func groups(_ client: any ServeClient, _ query: String = "", headers: HTTPFields = [:]) async throws -> Page? {
        try await client.execute(uri: "/v1/groups" + query, method: .get, headers: headers) { response in
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            return try? JSONDecoder().decode(Page.self, from: Data(buffer: response.body))
        }
    }

    @Test func reportsAreGroupedResolvedAndReopenedByALaterVersion() async throws {
        let server = try Self.server("states")
        try await Serve.routes(server) { client in
            let (status, answer) = try await Self.post(client, try Self.report("swift-trap.crash"))
            #expect(status == .created)
            let first = try #require(answer?.reports.first)
            #expect(first.stored && first.newGroup)
            // The same body again: stored once.
            let (again, repeated) = try await Self.post(client, try Self.report("swift-trap.crash"))
            #expect(again == .ok)
            #expect(repeated?.reports.first?.stored == false)
            // The .ips of the same crash and another launch: one group.
            #expect(try await Self.post(client, try Serve.report("swift-trap.ips")).1?.reports.first?.group == first.group)
            #expect(try await Self.post(client, try Self.report("null-deref.crash")).1?.reports.first?.group != first.group)

            let page = try #require(try await Self.groups(client))
            #expect(page.total == 2)
            #expect(page.groups.first?.group.id == first.group)
            #expect(page.groups.first?.count == 2)

            try await client.execute(uri: "/v1/groups/\(first.group)?language=ja", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("\"category\" : \"swiftRuntimeError\""), "\(text.prefix(400))")
                #expect(text.contains("\"language\" : \"ja\""))
                #expect(text.contains("JSONScanner.field"))
            }
            let resolve = Data(#"{"state": "resolved", "version": "1.1 (2)"}"#.utf8)
            try await client.execute(
                uri: "/v1/groups/\(first.group)/state", method: .post, headers: Self.authorized, body: Serve.body(resolve)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"state\" : \"resolved\""))
            }
            #expect(try await Self.groups(client, "?state=resolved")?.total == 1)
            // 1.1 is the fixed version: still resolved. 1.2 reopens it.
            #expect(
                try await Self.post(client, try Self.report("swift-trap.crash", version: "1.1 (2)", launch: 1)).1?.reports.first?.regression
                    == false)
            let later = try await Self.post(client, try Self.report("swift-trap.crash", version: "1.2 (3)", launch: 2))
            #expect(later.1?.reports.first?.regression == true)
            #expect(try await Self.groups(client, "?version=1.2&state=regressed")?.groups.map(\.group.id) == [first.group])
            // The release gate's question: new in 1.2? Nothing: the crash is older.
            #expect(try await Self.groups(client, "?version=1.2&state=new")?.total == 0)
            #expect(try await Self.groups(client, "?version=1.0&state=new")?.total == 2)
        }
    }

    /// Answers are kept until the inbox changes, whoever changes it: a second server on the
    /// same inbox file ingests and resolves, and the first one's next answers show it.
    @Test func aKeptAnswerGivesWayToAnotherServersChange() async throws {
        let folder = try TestPaths.temporaryDirectory("serve-inbox-kept")
        let file = folder.appendingPathComponent("inbox.sqlite").path
        let first = try Self.server("kept-a", inbox: file)
        let second = try Self.server("kept-b", inbox: file)
        try await Serve.routes(first) { a in
            try await Serve.routes(second) { b in
                let crash = try #require(try await Self.post(a, try Self.report("swift-trap.crash")).1?.reports.first)
                #expect(try await Self.groups(a)?.total == 1)
                #expect(try await Self.groups(a)?.total == 1)
                #expect(try await Self.post(b, try Self.report("null-deref.crash")).0 == .created)
                #expect(try await Self.groups(a)?.total == 2)
                let detail = { (client: any ServeClient) async throws -> String in
                    try await client.execute(uri: "/v1/groups/\(crash.group)", method: .get) { String(buffer: $0.body) }
                }
                #expect(try await detail(a).contains("\"state\" : \"open\""))
                let resolve = Data(#"{"state": "resolved", "version": "1.1 (2)"}"#.utf8)
                try await b.execute(
                    uri: "/v1/groups/\(crash.group)/state", method: .post, headers: Self.authorized, body: Serve.body(resolve)
                ) { #expect($0.status == .ok) }
                #expect(try await detail(a).contains("\"state\" : \"resolved\""))
                #expect(try await Self.groups(a, "?state=resolved")?.groups.map(\.group.id) == [crash.group])
                #expect(try await Self.groups(a)?.groups.first(where: { $0.group.id == crash.group })?.group.state == "resolved")
            }
        }
    }

    @Test func changesNeedTheTokenAndReadingTheReadToken() async throws {
        let server = try Self.server("tokens") { $0.readToken = Self.readToken }
        try await Serve.routes(server) { client in
            let body = Serve.body(try Serve.report("swift-trap.ips"))
            for headers: HTTPFields in [
                [.contentType: "application/octet-stream"], [.authorization: "Bearer wrong", .contentType: "application/octet-stream"],
            ] {
                try await client.execute(uri: "/v1/reports", method: .post, headers: headers, body: body) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            #expect(try await Self.post(client, try Serve.report("swift-trap.ips")).0 == .created)
            try await client.execute(uri: "/v1/groups", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(Serve.apiError(response.body)?.message.contains("SYMBOLICATE_SERVE_READ_TOKEN") == true)
            }
            #expect(try await Self.groups(client, headers: [.authorization: "Bearer \(Self.readToken)"])?.total == 1)
            #expect(try await Self.groups(client, headers: [.authorization: "Bearer \(Self.token)"])?.total == 1)
            let id = try #require(try await Self.groups(client, headers: [.authorization: "Bearer \(Self.token)"])?.groups.first?.group.id)
            // The read token does not change states.
            try await client.execute(
                uri: "/v1/groups/\(id)/state", method: .post, headers: [.authorization: "Bearer \(Self.readToken)"],
                body: Serve.body(Data(#"{"state": "ignored"}"#.utf8))
            ) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test func badQueriesAreRefusedSayingWhy() async throws {
        let server = try Self.server("queries")
        try await Serve.routes(server) { client in
            for (query, words) in [
                ("?state=new", "add version="), ("?state=fixed", "state is one of"), ("?page=0", "page is 1 or more"),
                ("?per_page=5000", "per_page is 1…200"),
            ] {
                try await client.execute(uri: "/v1/groups" + query, method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(Serve.apiError(response.body)?.message.contains(words) == true, "\(query)")
                }
            }
            for id in ["..%2F..%2Fetc", "zzzzzzzzzzzzzzzz"] {
                try await client.execute(uri: "/v1/groups/\(id)", method: .get) { response in #expect(response.status == .badRequest) }
            }
            try await client.execute(uri: "/v1/groups/0123456789abcdef", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(
                uri: "/v1/groups/0123456789abcdef/state", method: .post, headers: Self.authorized,
                body: Serve.body(Data(#"{"state": "resolved"}"#.utf8))
            ) { response in
                #expect(response.status == .badRequest)
                #expect(Serve.apiError(response.body)?.message.contains("version") == true)
            }
            try await client.execute(
                uri: "/v1/reports", method: .post, headers: Self.authorized, body: Serve.body(Data("not a report".utf8))
            ) {
                response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }

    @Test func aServerWithoutAnInboxSaysSo() async throws {
        let server = try Serve.server { $0.token = Self.token }
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/reports", method: .post, headers: Self.authorized, body: Serve.body(try Serve.report())) {
                response in
                #expect(response.status == .notFound)
                #expect(Serve.apiError(response.body)?.message.contains("--inbox") == true)
            }
            try await client.execute(uri: "/v1/groups", method: .get) { response in #expect(response.status == .notFound) }
        }
    }

    /// A report sent before its dSYM groups by image offset; the dSYM's upload symbolicates it
    /// again and it joins the crash's group.
    @Test func aReportBeforeItsDSYMJoinsItsCrashWhenTheDSYMIsUploaded() async throws {
        let server = try Self.server(
            "late-dsym", debugFiles: [TestPaths.fixtures.appendingPathComponent("dsyms/CrashKit.framework.dSYM").path])
        try await Serve.routes(server) { client in
            let early = try #require(try await Self.post(client, try Self.report("null-deref.crash")).1?.reports.first)
            let before = try #require(try await Self.groups(client))
            #expect(before.total == 1)
            let dwarf = try Data(contentsOf: URL(fileURLWithPath: Serve.crashAppDSYM + "/Contents/Resources/DWARF/CrashApp"))
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(dwarf)) { response in
                #expect(response.status == .created)
                #expect(String(buffer: response.body).contains("\"resymbolicated\" : 1"), "\(String(buffer: response.body))")
            }
            // Now grouped with the symbolicated crash: the .ips of it, symbolicated at once, joins.
            let after = try #require(try await Self.groups(client))
            #expect(after.total == 1)
            let moved = try #require(after.groups.first?.group.id)
            #expect(moved != early.group)
            #expect(try await Self.post(client, try Serve.report("null-deref.ips")).1?.reports.first?.group == moved)
        }
    }

    /// Two servers on one PostgreSQL inbox, given the same 24 reports at once (each twice):
    /// every report stored once, every group's count exact.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_POSTGRES_URL"] == nil, "SYMBOLICATE_TEST_POSTGRES_URL is not set"))
    func twoServersIngestingAtOnceIntoOnePostgreSQLLoseAndDuplicateNothing() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_POSTGRES_URL"])
        let url = base + (base.contains("?") ? "&" : "?") + "schema=serveinbox\(ProcessInfo.processInfo.processIdentifier)"
        let first = try Self.server("pg-a", inbox: url)
        let second = try Self.server("pg-b", inbox: url)
        var bodies: [Data] = []
        for launch in 0..<6 {
            for name in ["swift-trap.crash", "null-deref.crash", "objc-exception.crash", "watchdog.crash"] {
                bodies.append(try Self.report(name, version: "1.\(launch % 2) (\(launch))", launch: launch))
            }
        }
        let all = bodies
        try await Serve.live(first) { a in
            try await Serve.live(second) { b in
                let stored = try await withThrowingTaskGroup(of: [String].self) { group in
                    for (client, order) in [(a, all), (b, all.reversed()), (a, all.reversed()), (b, all)] {
                        group.addTask {
                            var stored: [String] = []
                            for body in order {
                                let (status, answer) = try await Self.post(client, body)
                                #expect(status == .created || status == .ok)
                                stored += (answer?.reports ?? []).filter(\.stored).map(\.report)
                            }
                            return stored
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(stored.count == all.count)
                #expect(Set(stored).count == all.count)
                let page = try #require(try await Self.groups(a))
                #expect(page.total == 4)
                #expect(page.groups.map(\.count) == [6, 6, 6, 6])
            }
        }
    }
}
