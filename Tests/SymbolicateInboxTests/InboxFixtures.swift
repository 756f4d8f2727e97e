import Foundation
import SymbolicateCore
import SymbolicateInbox
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Real reports made into inbox reports the way the server makes them: symbolicated with the
/// fixture dSYMs (or none), diagnosed, keyed.
enum InboxFixtures {
    /// A report below `Fixtures/` as uploaded: its bytes and what the pipeline makes of them.
    static func reports(
        _ path: String, debugFiles: [String] = [TestPaths.dsyms], receivedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
    )
        throws -> (body: Data, reports: [InboxReport])
    {
        let body = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(path))
        return (body, process(body, name: path, debugFiles: debugFiles, receivedAt: receivedAt))
    }

    static func process(_ body: Data, name: String, debugFiles: [String], receivedAt: Date) -> [InboxReport] {
        let response = ReportRequest(
            report: .bytes(body, name: name), debugFiles: debugFiles, searchesNearReport: false, explain: true, format: .json
        ).run()
        return InboxIntake.reports(from: response.reports, body: body, receivedAt: receivedAt)
    }

    /// One labelled report of `Fixtures/inbox-groups/labels.json`.
    struct Label: Decodable, Sendable {
        var report: String
        var crash: String
        var build: String
    }

    static let labels: [Label] = {
        let url = TestPaths.fixtures.appendingPathComponent("inbox-groups/labels.json")
        return (try? JSONDecoder().decode([Label].self, from: Data(contentsOf: url))) ?? []
    }()

    /// The same report as stated by another version and device, a copy with its own content
    /// hash (a different body): how one crash repeats across a team's releases.
    static func variant(_ report: InboxReport, version: String, os: String? = nil, device: String? = nil, n: Int, at: Date? = nil)
        -> InboxReport
    {
        var copy = report
        copy.id = SHA256Text.hex("\(report.id)/\(version)/\(n)")
        copy.version = AppVersion(version)
        if let os { copy.os = os }
        if let device { copy.device = device }
        if let at {
            copy.seenAt = at
            copy.receivedAt = at
        }
        return copy
    }

    /// A fresh folder for one test's files.
    static func folder(_ label: String) throws -> URL { try TestPaths.temporaryDirectory("inbox-\(label)") }
}

/// SHA-256 of a text (ids for made variants).
enum SHA256Text {
    static func hex(_ text: String) -> String { InboxIntake.id(of: Data(text.utf8)) }
}

/// The database the PostgreSQL tests use: `SYMBOLICATE_TEST_POSTGRES_URL`, set by
/// `scripts/with-postgres.sh` (`make test`); without it those tests are skipped, saying so.
enum InboxTestDatabase {
    static let url = ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped: Comment = "SYMBOLICATE_TEST_POSTGRES_URL is not set (make test sets it: scripts/with-postgres.sh)"

    /// The URL with a schema of its own for one test.
    static func url(schema name: String) throws -> String {
        let base = try #require(url)
        return base + (base.contains("?") ? "&" : "?")
            + "schema=inbox\(ProcessInfo.processInfo.processIdentifier)_\(name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined().lowercased())"
    }
}

/// Which database a parameterised test runs on.
enum InboxDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// The database `store` is on (made for the test `name`) opened once more, at the current
    /// schema: another server on it, or the same after an upgrade.
    func reopen(_ store: any InboxStore, name: String) throws -> any InboxStore {
        switch self {
        case .sqlite: return try SQLiteInbox(path: store.location)
        case .postgres: return try PostgresInbox(url: InboxTestDatabase.url(schema: name))
        }
    }

    /// A new, empty inbox of this kind for the test `name`; nil when PostgreSQL is not offered.
    func open(_ name: String, schemaVersion: Int? = nil) throws -> (any InboxStore)? {
        switch self {
        case .sqlite:
            let path = try InboxFixtures.folder(name).appendingPathComponent("inbox.sqlite").path
            return try SQLiteInbox(path: path, schemaVersion: schemaVersion ?? inboxSchemaVersion)
        case .postgres:
            guard InboxTestDatabase.url != nil else { return nil }
            return try PostgresInbox(url: InboxTestDatabase.url(schema: name), schemaVersion: schemaVersion ?? inboxSchemaVersion)
        }
    }
}
