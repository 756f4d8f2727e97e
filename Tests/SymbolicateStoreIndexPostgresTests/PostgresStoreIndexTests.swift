import Foundation
import SymbolicateCore
import SymbolicateStoreIndex
import SymbolicateStoreIndexPostgres
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database the tests use: `SYMBOLICATE_TEST_POSTGRES_URL`, set by `scripts/with-postgres.sh`
/// (which `make test` runs the suite under, starting a throwaway PostgreSQL on loopback). A plain
/// `swift test` has none, and the tests that need it are skipped, saying so.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped: Comment = "SYMBOLICATE_TEST_POSTGRES_URL is not set (make test sets it: scripts/with-postgres.sh)"

    /// The URL with a schema of its own for one test (several tests run at once), `name` and
    /// this process's id making it unique.
    static func url(schema name: String) throws -> String {
        let base = try #require(url)
        return base + (base.contains("?") ? "&" : "?") + "schema=t\(ProcessInfo.processInfo.processIdentifier)_\(name)"
    }
}

/// The store's PostgreSQL index: the URL it is given, and against a real PostgreSQL the same
/// behaviour as the SQLite index — rows by identity, the transaction around the store's change,
/// the least-recently-used order, figures kept by the trigger, a rebuild, and two connections
/// (two servers) seeing each other's changes.
@Suite struct PostgresStoreIndexTests {
    struct Failure: Error {}

    static func record(_ n: UInt8, lastUsed: TimeInterval = 1000, kind: DebugID.Kind = .uuid) throws -> StoreIndexRecord {
        let bytes = [UInt8](repeating: n, count: 16)
        let id = try #require(kind == .uuid ? DebugID(uuidBytes: bytes) : DebugID(buildIDBytes: bytes + [n, n, n, n]))
        return StoreIndexRecord(
            id: id, format: "mach-o", architecture: "arm64", name: "App\(n)", size: 100 * UInt64(n), footprint: 100 * UInt64(n) + 10,
            hasDWARF: n % 2 == 0, storedAt: Date(timeIntervalSince1970: 500.25), origin: n == 1 ? nil : "upload",
            digest: String(repeating: "ab", count: 32), lastUsed: Date(timeIntervalSince1970: lastUsed))
    }

    // MARK: - The URL (no server needed)

    @Test func theURLIsReadAndShownWithoutItsPassword() throws {
        let url = try PostgresIndexURL("postgres://ci:s%40cret@db.example:6543/symbols?schema=team_a&sslmode=require", environment: [:])
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.user == "ci")
        #expect(url.password == "s@cret")
        #expect(url.database == "symbols")
        #expect(url.schema == "team_a")
        #expect(url.tls == .require)
        #expect(url.location == "postgres://ci@db.example:6543/symbols?schema=team_a&sslmode=require")
        #expect(!url.location.contains("cret"))
        // The password from PGPASSWORD when the URL has none; port 5432 and TLS when offered by default.
        let plain = try PostgresIndexURL("postgresql://ci@127.0.0.1/symbols", environment: ["PGPASSWORD": "from-env"])
        #expect(plain.password == "from-env")
        #expect(plain.port == 5432)
        #expect(plain.tls == .prefer)
        #expect(plain.location == "postgres://ci@127.0.0.1:5432/symbols")
    }

    @Test(
        "a URL that names no usable index is refused, saying why and never showing the password",
        arguments: [
            ("sqlite:///tmp/index.sqlite", "not a PostgreSQL URL"),
            ("postgres://:pw@host/db", "names no user"),
            ("postgres://ci:pw@host", "names no database"),
            ("postgres://ci:pw@host/db?schema=Team-A", "schema must be"),
            ("postgres://ci:pw@host/db?schema=x;drop", "schema must be"),
            ("postgres://ci:pw@host/db?sslmode=verify-full", "sslmode is"),
            ("postgres://ci:pw@host/db?pool=3", "unknown option pool"),
        ])
    func badURLs(_ text: String, _ why: String) {
        #expect {
            _ = try PostgresIndexURL(text, environment: [:])
        } throws: { error in
            guard let error = error as? StoreIndexError else { return false }
            return error.message.contains(why) && !error.description.contains("pw")
        }
    }

    @Test func aServerThatIsNotThereIsAnErrorNamingTheIndex() throws {
        // A loopback port nothing listens on: connection refused at once.
        let listener = socket(AF_INET, Int32(SOCK_STREAM_VALUE), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port = withUnsafeMutablePointer(to: &address) { pointer -> Int in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(listener, $0, length) == 0, getsockname(listener, $0, &length) == 0 else { return 0 }
                return Int(UInt16(bigEndian: pointer.pointee.sin_port))
            }
        }
        close(listener)
        try #require(port > 0)
        #expect {
            _ = try PostgresStoreIndex(url: "postgres://ci:pw@127.0.0.1:\(port)/symbols?sslmode=disable", environment: [:], timeout: 20)
        } throws: { error in
            guard let error = error as? StoreIndexError else { return false }
            return error.location == "postgres://ci@127.0.0.1:\(port)/symbols?sslmode=disable" && !error.description.contains("pw")
        }
    }

    // MARK: - Against a real PostgreSQL

    @Test(.enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
    func aRowIsReadBackAsItWasWritten() throws {
        let index = try PostgresStoreIndex(url: try TestDatabase.url(schema: "readback"))
        for n: UInt8 in [1, 2] {
            let record = try Self.record(n)
            try index.put(record, during: {})
            #expect(try index.record(for: record.id) == record)
        }
        let buildID = try Self.record(3, kind: .buildID)
        try index.put(buildID, during: {})
        #expect(try index.record(for: buildID.id) == buildID)
        #expect(try index.record(for: #require(DebugID(uuidBytes: [UInt8](repeating: 9, count: 16)))) == nil)
        // Put again: the row changes, no second row.
        var changed = try Self.record(2)
        changed.name = "Renamed"
        changed.footprint = 5
        try index.put(changed, during: {})
        #expect(try index.record(for: changed.id) == changed)
        #expect(try index.figures().entries == 3)
    }

    @Test(.enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
    func aChangeThatFailsLeavesTheIndexAsItWas() throws {
        let index = try PostgresStoreIndex(url: try TestDatabase.url(schema: "rollback"))
        let old = try Self.record(4)
        try index.put(old, during: {})
        var new = old
        new.digest = String(repeating: "cd", count: 32)
        // The change's own error comes back as it is; the row is as it was.
        #expect(throws: Failure.self) { try index.put(new, during: { throw Failure() }) }
        #expect(try index.record(for: old.id) == old)
        #expect(throws: Failure.self) { _ = try index.remove(old.id, during: { throw Failure() }) }
        #expect(try index.record(for: old.id) == old)
        #expect(try index.figures().entries == 1)
        #expect(try index.figures().bytes == old.footprint)
        #expect(try index.remove(old.id, during: { true }))
        #expect(try index.record(for: old.id) == nil)
        #expect(try !index.remove(old.id, during: { false }))
        #expect(try index.figures().entries == 0)
        #expect(try index.figures().bytes == 0)
    }

    @Test(.enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
    func recordsComeLeastRecentlyUsedFirstAndFiguresAddUp() throws {
        let index = try PostgresStoreIndex(url: try TestDatabase.url(schema: "order"))
        let records = try [(UInt8(5), 300.0), (6, 100), (7, 200)].map { try Self.record($0.0, lastUsed: $0.1) }
        for record in records { try index.put(record, during: {}) }
        #expect(try index.records().map(\.name) == ["App6", "App7", "App5"])
        try index.markUsed(records[1].id, at: Date(timeIntervalSince1970: 400))
        #expect(try index.records().map(\.name) == ["App7", "App5", "App6"])
        let figures = try index.figures()
        #expect(figures.entries == 3)
        #expect(figures.bytes == records.reduce(0) { $0 + $1.footprint })
    }

    @Test(.enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
    func aRebuildReplacesEveryRowAndBatchesPastAThousand() throws {
        let index = try PostgresStoreIndex(url: try TestDatabase.url(schema: "rebuild"))
        try index.put(try Self.record(1), during: {})
        // 2,500 rows: three statements of the batched insert.
        let many = try (0..<2_500).map { n -> StoreIndexRecord in
            var record = try Self.record(UInt8(n % 200 + 1), lastUsed: Double(n))
            record.id = try #require(DebugID(uuid: String(format: "%08x-0000-4000-8000-%012x", n, n)))
            record.origin = n % 3 == 0 ? nil : "upload \(n)"
            return record
        }
        try index.replaceAll(with: many)
        #expect(try index.figures().entries == 2_500)
        #expect(try index.figures().bytes == many.reduce(0) { $0 + $1.footprint })
        #expect(try index.record(for: try Self.record(1).id) == nil)
        let back = try index.records()
        #expect(back.count == 2_500)
        #expect(back.first == many.first)
        #expect(back.last == many.last)
        #expect(try index.record(for: many[1234].id) == many[1234])
    }

    /// Two servers, two connections to one database: what one writes, the other reads at once.
    @Test(.enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
    func twoConnectionsSeeEachOthersChanges() throws {
        let url = try TestDatabase.url(schema: "shared")
        let first = try PostgresStoreIndex(url: url)
        let second = try PostgresStoreIndex(url: url)
        let record = try Self.record(8)
        try first.put(record, during: {})
        #expect(try second.record(for: record.id) == record)
        #expect(try second.figures().entries == 1)
        #expect(try second.remove(record.id, during: { true }))
        #expect(try first.record(for: record.id) == nil)
        #expect(try first.figures().entries == 0)
        #expect(try first.figures().bytes == 0)
        // While one holds a change open, the other's change of the same row waits for it.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? first.put(
                record,
                during: {
                    entered.signal()
                    release.wait()
                })
            done.signal()
        }.start()
        entered.wait()
        var changed = record
        changed.name = "Second"
        let renamed = changed
        let secondDone = DispatchSemaphore(value: 0)
        Thread {
            try? second.put(renamed, during: {})
            secondDone.signal()
        }.start()
        release.signal()
        done.wait()
        secondDone.wait()
        // The second put ran after the first committed: its row is the one kept.
        #expect(try first.record(for: record.id)?.name == "Second")
        #expect(try first.figures().entries == 1)
    }
}

/// `SOCK_STREAM` as an `Int32` on every platform (Glibc imports it as an enum).
#if canImport(Glibc)
    private let SOCK_STREAM_VALUE = Int32(SOCK_STREAM.rawValue)
#else
    private let SOCK_STREAM_VALUE = SOCK_STREAM
#endif
