import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SymbolicateCore
import SymbolicateStoreIndex

/// The store's index in PostgreSQL (postgres-nio), for several `serve` instances on several
/// machines that share one store folder (`serve --store-index postgres://…`): each looks
/// identities up in the one database, and an entry's row changes in the same transaction as
/// its files' rename, so what one instance stores or removes the others see on their next
/// lookup.
///
/// The same rows as `SQLiteStoreIndex` (one per identity, keyed by its lowercase hex, the
/// least-recently-used order indexed, count and bytes kept by a trigger in each change's
/// transaction), in tables `symbolicate_store_entries` and `symbolicate_store_totals` of the
/// URL's schema (`?schema=`; default: the connection's search path). One database (or schema)
/// per store.
///
/// The store's calls are synchronous (they run on the server's worker threads, beside file
/// I/O): each waits for its query on one connection with its own event-loop thread, never one
/// of the server's, so a call made from anywhere cannot deadlock on the loop that would answer
/// it. A call waits at most `timeout` (the connection is then dropped and made again on the
/// next call). Calls of one process take turns on the connection.
package final class PostgresStoreIndex: StoreIndex, @unchecked Sendable {
    package let location: String
    private let url: PostgresIndexURL
    private let timeout: TimeInterval
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    /// Held for each call: one connection, one transaction at a time.
    private let lock = NSLock()
    private var connection: PostgresConnection?

    /// The schema this code reads and writes.
    static let schemaVersion = 1

    /// Connects and makes the tables when they are absent.
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=disable|prefer|require]`.
    ///   - environment: where `PGPASSWORD` is read when the URL has no password.
    ///   - timeout: the longest a call waits for the database.
    /// - Throws: when the URL cannot be read, the database cannot be reached, or holds a newer schema.
    package convenience init(
        url: String, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 30
    ) throws(StoreIndexError) {
        try self.init(url: try PostgresIndexURL(url, environment: environment), timeout: timeout)
    }

    package init(url: PostgresIndexURL, timeout: TimeInterval = 30) throws(StoreIndexError) {
        self.url = url
        location = url.location
        self.timeout = timeout
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = Logger(label: "symbolicate.store-index.postgres")
        logger.logLevel = .critical
        self.logger = logger
        do {
            try createSchema()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection and stops its thread, without waiting (the last reference may go
    /// on any thread, an event loop's included).
    private func close() {
        lock.lock()
        let open = connection
        connection = nil
        lock.unlock()
        if let open { Self.closeSoon(open) }
        group.shutdownGracefully(queue: .global()) { _ in }
    }

    // MARK: StoreIndex

    package func record(for id: DebugID) throws(StoreIndexError) -> StoreIndexRecord? {
        try calling("cannot read the index") { connection in
            let rows = try self.rows(
                connection, "SELECT \(unescaped: Self.columns) FROM \(unescaped: self.entries) WHERE id = \(id.hexString)")
            return try rows.first.flatMap(Self.record(from:))
        }
    }

    package func put(_ record: StoreIndexRecord, checking change: (_ current: StoreIndexRecord?) throws -> Void) throws {
        try changing("cannot record \(record.id)") { connection in
            // The identity's lock, held to the transaction's end: every instance putting the
            // same identity waits here, so each reads what the one before it wrote (a row
            // lock cannot do this for an identity without a row yet).
            let (group, key) = Self.lockKeys(of: record.id)
            try self.run(connection, "SELECT pg_advisory_xact_lock(\(group), \(key))")
            let current = try self.rows(
                connection, "SELECT \(unescaped: Self.columns) FROM \(unescaped: self.entries) WHERE id = \(record.id.hexString)"
            ).first.flatMap(Self.record(from:))
            try self.run(connection, self.upsert(record))
            try change(current)
        }
    }

    /// The advisory lock of an identity: a key of the store's own (the two-key form, apart from
    /// the schema's one-key lock) and 32 bits of the identity (two sharing them only take turns).
    static func lockKeys(of id: DebugID) -> (group: Int32, key: Int32) {
        var hash: UInt32 = 2_166_136_261
        for byte in id.hexString.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return (0x5359_4D42, Int32(bitPattern: hash))
    }

    package func remove(_ id: DebugID, during change: () throws -> Bool) throws -> Bool {
        var removed = false
        try changing("cannot remove \(id)") { connection in
            let result = try self.wait(
                connection.query("DELETE FROM \(unescaped: self.entries) WHERE id = \(id.hexString)", logger: self.logger))
            let hadRow = (result.metadata.rows ?? 0) > 0
            removed = try change() || hadRow
        }
        return removed
    }

    package func markUsed(_ id: DebugID, at date: Date) throws(StoreIndexError) {
        try calling("cannot record a use") { connection in
            try self.run(
                connection, "UPDATE \(unescaped: self.entries) SET last_used = \(date.timeIntervalSince1970) WHERE id = \(id.hexString)")
        }
    }

    package func records() throws(StoreIndexError) -> [StoreIndexRecord] {
        try calling("cannot read the index") { connection in
            try self.rows(connection, "SELECT \(unescaped: Self.columns) FROM \(unescaped: self.entries) ORDER BY last_used, id")
                .compactMap(Self.record(from:))
        }
    }

    package func figures() throws(StoreIndexError) -> (entries: Int, bytes: UInt64) {
        try calling("cannot read the index") { connection in
            guard let row = try self.rows(connection, "SELECT entries, bytes FROM \(unescaped: self.totals) WHERE one = 0").first else {
                return (0, 0)
            }
            let cells = row.makeRandomAccess()
            return (Int(try cells[0].decode(Int64.self)), UInt64(clamping: try cells[1].decode(Int64.self)))
        }
    }

    package func replaceAll(with records: [StoreIndexRecord]) throws(StoreIndexError) {
        do {
            try changing("cannot rebuild") { connection in
                // TRUNCATE fires no row trigger: the totals start again from zero with it.
                try self.run(connection, "TRUNCATE \(unescaped: self.entries)")
                try self.run(connection, "UPDATE \(unescaped: self.totals) SET entries = 0, bytes = 0 WHERE one = 0")
                try self.insert(records, on: connection)
            }
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot rebuild: \(Self.describe(error))")
        }
    }

    /// Adds many entries in one transaction (a benchmark's fill).
    package func insert(_ records: [StoreIndexRecord]) throws(StoreIndexError) {
        do {
            try changing("cannot add entries") { connection in try self.insert(records, on: connection) }
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot add entries: \(Self.describe(error))")
        }
    }

    // MARK: SQL

    private var prefix: String { url.schema.map { "\($0)." } ?? "" }
    private var entries: String { prefix + "symbolicate_store_entries" }
    private var totals: String { prefix + "symbolicate_store_totals" }
    private var meta: String { prefix + "symbolicate_store_meta" }

    private static let columns = "id, kind, format, architecture, name, size, footprint, has_dwarf, stored_at, origin, digest, last_used"

    /// Makes the tables, the totals' trigger and the schema's version once, under an advisory
    /// lock so that instances starting together do not race on `CREATE … IF NOT EXISTS`.
    private func createSchema() throws(StoreIndexError) {
        do {
            try makeTables()
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot make the index's tables: \(Self.describe(error))")
        }
    }

    private func makeTables() throws {
        let triggerFunction = prefix + "symbolicate_store_count"
        try changing("cannot make the index's tables") { connection in
            try self.run(connection, "SELECT pg_advisory_xact_lock(\(Int64(0x5359_4D42_5354)))")
            if let schema = self.url.schema { try self.run(connection, "CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)") }
            try self.run(
                connection,
                "CREATE TABLE IF NOT EXISTS \(unescaped: self.meta) (one INTEGER PRIMARY KEY CHECK (one = 0), version INTEGER NOT NULL)")
            try self.run(
                connection, "INSERT INTO \(unescaped: self.meta) (one, version) VALUES (0, \(Self.schemaVersion)) ON CONFLICT DO NOTHING")
            if let row = try self.rows(connection, "SELECT version FROM \(unescaped: self.meta) WHERE one = 0").first {
                let version = try row.makeRandomAccess()[0].decode(Int.self)
                if version > Self.schemaVersion {
                    throw StoreIndexError(
                        location: self.location,
                        message: "has schema version \(version); this symbolicate reads version \(Self.schemaVersion)")
                }
            }
            try self.run(
                connection,
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: self.entries) (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    format TEXT NOT NULL,
                    architecture TEXT NOT NULL,
                    name TEXT NOT NULL,
                    size BIGINT NOT NULL,
                    footprint BIGINT NOT NULL,
                    has_dwarf BOOLEAN NOT NULL,
                    stored_at DOUBLE PRECISION NOT NULL,
                    origin TEXT,
                    digest TEXT NOT NULL,
                    last_used DOUBLE PRECISION NOT NULL
                )
                """)
            try self.run(
                connection, "CREATE INDEX IF NOT EXISTS symbolicate_store_entries_by_last_use ON \(unescaped: self.entries) (last_used)")
            try self.run(
                connection,
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: self.totals) (
                    one INTEGER PRIMARY KEY CHECK (one = 0), entries BIGINT NOT NULL, bytes BIGINT NOT NULL)
                """)
            try self.run(connection, "INSERT INTO \(unescaped: self.totals) (one, entries, bytes) VALUES (0, 0, 0) ON CONFLICT DO NOTHING")
            // The count and bytes, changed in each change's transaction: the store's figures
            // cost one row however many entries there are.
            try self.run(
                connection,
                """
                CREATE OR REPLACE FUNCTION \(unescaped: triggerFunction)() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE \(unescaped: self.totals) SET entries = entries + 1, bytes = bytes + NEW.footprint WHERE one = 0;
                    ELSIF TG_OP = 'DELETE' THEN
                        UPDATE \(unescaped: self.totals) SET entries = entries - 1, bytes = bytes - OLD.footprint WHERE one = 0;
                    ELSE
                        UPDATE \(unescaped: self.totals) SET bytes = bytes - OLD.footprint + NEW.footprint WHERE one = 0;
                    END IF;
                    RETURN NULL;
                END
                $$
                """)
            // Made once: replacing it would lock the table against the other servers' changes.
            let trigger = try self.rows(
                connection,
                "SELECT 1 FROM pg_trigger WHERE tgname = 'symbolicate_store_counted' AND tgrelid = to_regclass(\(self.entries))")
            guard trigger.isEmpty else { return }
            try self.run(
                connection,
                """
                CREATE TRIGGER symbolicate_store_counted AFTER INSERT OR DELETE OR UPDATE OF footprint ON \(unescaped: self.entries)
                FOR EACH ROW EXECUTE FUNCTION \(unescaped: triggerFunction)()
                """)
        }
    }

    /// Adds a row or changes the one of the same identity.
    private func upsert(_ record: StoreIndexRecord) -> PostgresQuery {
        """
        INSERT INTO \(unescaped: entries) (\(unescaped: Self.columns))
        VALUES (\(record.id.hexString), \(Self.kind(of: record.id)), \(record.format), \(record.architecture), \(record.name),
            \(Int64(clamping: record.size)), \(Int64(clamping: record.footprint)), \(record.hasDWARF),
            \(record.storedAt.timeIntervalSince1970), \(record.origin), \(record.digest), \(record.lastUsed.timeIntervalSince1970))
        ON CONFLICT (id) DO UPDATE SET
            kind = excluded.kind, format = excluded.format, architecture = excluded.architecture, name = excluded.name,
            size = excluded.size, footprint = excluded.footprint, has_dwarf = excluded.has_dwarf,
            stored_at = excluded.stored_at, origin = excluded.origin, digest = excluded.digest, last_used = excluded.last_used
        """
    }

    /// Many rows per statement (arrays unnested), a thousand at a time.
    private func insert(_ records: [StoreIndexRecord], on connection: PostgresConnection) throws {
        var start = records.startIndex
        while start < records.endIndex {
            let batch = records[start..<min(start + 1_000, records.endIndex)]
            start = batch.endIndex
            let ids = batch.map(\.id.hexString), kinds = batch.map { Self.kind(of: $0.id) }
            let formats = batch.map(\.format), architectures = batch.map(\.architecture), names = batch.map(\.name)
            let sizes = batch.map { Int64(clamping: $0.size) }, footprints = batch.map { Int64(clamping: $0.footprint) }
            let dwarf = batch.map(\.hasDWARF), stored = batch.map(\.storedAt.timeIntervalSince1970)
            let hasOrigin = batch.map { $0.origin != nil }, origins = batch.map { $0.origin ?? "" }
            let digests = batch.map(\.digest), used = batch.map(\.lastUsed.timeIntervalSince1970)
            try run(
                connection,
                """
                INSERT INTO \(unescaped: entries) (\(unescaped: Self.columns))
                SELECT i, k, f, a, n, s, fp, d, st, CASE WHEN ho THEN o END, dg, lu
                FROM unnest(\(ids)::text[], \(kinds)::text[], \(formats)::text[], \(architectures)::text[], \(names)::text[],
                    \(sizes)::bigint[], \(footprints)::bigint[], \(dwarf)::boolean[], \(stored)::double precision[],
                    \(hasOrigin)::boolean[], \(origins)::text[], \(digests)::text[], \(used)::double precision[])
                    AS t(i, k, f, a, n, s, fp, d, st, ho, o, dg, lu)
                ON CONFLICT (id) DO UPDATE SET
                    kind = excluded.kind, format = excluded.format, architecture = excluded.architecture, name = excluded.name,
                    size = excluded.size, footprint = excluded.footprint, has_dwarf = excluded.has_dwarf,
                    stored_at = excluded.stored_at, origin = excluded.origin, digest = excluded.digest, last_used = excluded.last_used
                """)
        }
    }

    private static func kind(of id: DebugID) -> String { id.kind == .uuid ? "uuid" : "build-id" }

    /// A row as a record; nil for an identity this code cannot read (a value written by hand),
    /// which is then as good as absent. A column of another type is an error (the call's).
    private static func record(from row: PostgresRow) throws -> StoreIndexRecord? {
        let cells = row.makeRandomAccess()
        guard cells.count == 12 else { return nil }
        let hex = try cells[0].decode(String.self), kind = try cells[1].decode(String.self)
        guard let id = kind == "uuid" ? DebugID(uuid: hex) : DebugID(buildID: hex) else { return nil }
        return StoreIndexRecord(
            id: id, format: try cells[2].decode(String.self), architecture: try cells[3].decode(String.self),
            name: try cells[4].decode(String.self), size: UInt64(clamping: try cells[5].decode(Int64.self)),
            footprint: UInt64(clamping: try cells[6].decode(Int64.self)), hasDWARF: try cells[7].decode(Bool.self),
            storedAt: Date(timeIntervalSince1970: try cells[8].decode(Double.self)), origin: try cells[9].decode(String?.self),
            digest: try cells[10].decode(String.self), lastUsed: Date(timeIntervalSince1970: try cells[11].decode(Double.self)))
    }

    // MARK: Calls

    /// One call on the connection (made first when there is none), its failures as `StoreIndexError`.
    private func calling<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws(StoreIndexError) -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(try connected())
        } catch let error as StoreIndexError {
            throw error
        } catch {
            dropIfBroken(error)
            throw StoreIndexError(location: location, message: "\(what): \(Self.describe(error))")
        }
    }

    /// One transaction: `body` (which may change files) runs between `BEGIN` and `COMMIT`; when
    /// it throws, the transaction is rolled back and its error rethrown as it is.
    private func changing(_ what: String, _ body: (PostgresConnection) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        let connection: PostgresConnection
        do {
            connection = try connected()
            try run(connection, "BEGIN")
        } catch {
            dropIfBroken(error)
            throw StoreIndexError(location: location, message: "\(what): \(Self.describe(error))")
        }
        do {
            try body(connection)
        } catch {
            do { try run(connection, "ROLLBACK") } catch { dropIfBroken(error) }
            if error is StoreIndexError || !(error is PSQLError || error is PostgresWait.Unanswered) { throw error }
            dropIfBroken(error)
            throw StoreIndexError(location: location, message: "\(what): \(Self.describe(error))")
        }
        do {
            try run(connection, "COMMIT")
        } catch {
            dropIfBroken(error)
            throw StoreIndexError(location: location, message: "\(what): \(Self.describe(error))")
        }
    }

    /// The open connection, or a new one. Called with `lock` held.
    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        let made = try PostgresWait.connect(url, on: group.next(), timeout: timeout, id: 1, logger: logger)
        connection = made
        return made
    }

    /// Forgets the connection after an error that may have left it unusable (no answer in
    /// time, the connection lost); the next call connects again. Called with `lock` held.
    private func dropIfBroken(_ error: any Error) {
        if let error = error as? PSQLError, error.code == .server { return }
        if let broken = connection {
            connection = nil
            Self.closeSoon(broken)
        }
    }

    /// Starts closing a connection without waiting for it; the connection is kept until it is
    /// closed (postgres-nio asserts that none goes away open).
    private static func closeSoon(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func run(_ connection: PostgresConnection, _ query: PostgresQuery) throws {
        _ = try wait(connection.query(query, logger: logger))
    }

    private func rows(_ connection: PostgresConnection, _ query: PostgresQuery) throws -> [PostgresRow] {
        Array(try wait(connection.query(query, logger: logger)).rows)
    }

    /// Waits for a future on this thread (never one of `group`'s: nothing here runs on it).
    private func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        try PostgresWait.result(of: future, timeout: timeout)
    }

    static func describe(_ error: any Error) -> String { PostgresWait.describe(error) }
}
