import Foundation
import GRDB
import SymbolicateCore

/// The store's index in an SQLite file kept with the files (`<store>/index.sqlite`), through
/// GRDB. Write-ahead logging lets several processes on one machine share it: readers never
/// wait, writers take turns (each waits up to `busyTimeout` for another's transaction).
///
/// One row per identity, keyed by its lowercase hex, so a lookup is one primary-key read
/// however many entries the store holds; the least-recently-used order has its own index.
package final class SQLiteStoreIndex: StoreIndex {
    package let location: String
    private let database: DatabasePool

    /// The schema this code reads and writes (`PRAGMA user_version`).
    static let schemaVersion = 1

    /// Opens (creating it when absent) the index file at `path`.
    /// - Throws: when the file cannot be opened or created, or holds another schema.
    package init(path: String, busyTimeout: TimeInterval = 30) throws(StoreIndexError) {
        location = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "symbolicate.store-index"
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            try database.write { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                if version > Self.schemaVersion {
                    throw StoreIndexError(
                        location: path, message: "has schema version \(version); this symbolicate reads version \(Self.schemaVersion)")
                }
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS entries (
                            id TEXT PRIMARY KEY NOT NULL,
                            kind TEXT NOT NULL,
                            format TEXT NOT NULL,
                            architecture TEXT NOT NULL,
                            name TEXT NOT NULL,
                            size INTEGER NOT NULL,
                            footprint INTEGER NOT NULL,
                            has_dwarf INTEGER NOT NULL,
                            stored_at REAL NOT NULL,
                            origin TEXT,
                            digest TEXT NOT NULL,
                            last_used REAL NOT NULL
                        ) WITHOUT ROWID;
                        CREATE INDEX IF NOT EXISTS entries_by_last_use ON entries(last_used);
                        -- The count and bytes, kept by triggers in each change's transaction, so
                        -- the store's figures cost one row however many entries there are.
                        CREATE TABLE IF NOT EXISTS totals (
                            one INTEGER PRIMARY KEY CHECK (one = 0),
                            entries INTEGER NOT NULL,
                            bytes INTEGER NOT NULL
                        );
                        INSERT OR IGNORE INTO totals (one, entries, bytes) VALUES (0, 0, 0);
                        CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries BEGIN
                            UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.footprint WHERE one = 0;
                        END;
                        CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries BEGIN
                            UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.footprint WHERE one = 0;
                        END;
                        CREATE TRIGGER IF NOT EXISTS entries_changed AFTER UPDATE OF footprint ON entries BEGIN
                            UPDATE totals SET bytes = bytes - OLD.footprint + NEW.footprint WHERE one = 0;
                        END;
                        PRAGMA user_version = \(Self.schemaVersion);
                        """)
            }
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(
                location: path, message: "cannot open the index: \(Self.describe(error))", isDamage: Self.isDamage(error))
        }
    }

    /// What SQLite's own check finds wrong with the file (`PRAGMA quick_check`: every page
    /// and row read), or nil when it is whole. Reads the whole file: asked at a server's start
    /// and before a rebuild, not on every open.
    package func damage() -> String? {
        do {
            let findings = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
            return findings == ["ok"] ? nil : findings.joined(separator: "; ")
        } catch {
            return Self.describe(error)
        }
    }

    /// Closes the file (before it is renamed into place or aside).
    package func close() {
        try? database.close()
    }

    /// Whether an error says the file is damaged rather than out of reach.
    static func isDamage(_ error: any Error) -> Bool {
        guard let database = error as? DatabaseError else { return false }
        return [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(database.resultCode)
    }

    package func record(for id: DebugID) throws(StoreIndexError) -> StoreIndexRecord? {
        try reading { db in
            try Row.fetchOne(db, sql: "SELECT * FROM entries WHERE id = ?", arguments: [id.hexString]).flatMap(Self.record(from:))
        }
    }

    package func put(_ record: StoreIndexRecord, checking change: (_ current: StoreIndexRecord?) throws -> Void) throws {
        // An immediate transaction: the write lock (of every process on the file) is taken
        // before the entry is read, so no other writer changes it between the read and the write.
        try changing { db in
            let current = try Row.fetchOne(db, sql: "SELECT * FROM entries WHERE id = ?", arguments: [record.id.hexString])
                .flatMap(Self.record(from:))
            try db.execute(
                sql: """
                    \(Self.upsert)
                    """,
                arguments: Self.arguments(of: record))
            try change(current)
        }
    }

    package func remove(_ id: DebugID, during change: () throws -> Bool) throws -> Bool {
        var removed = false
        try changing { db in
            try db.execute(sql: "DELETE FROM entries WHERE id = ?", arguments: [id.hexString])
            let hadRow = db.changesCount > 0
            removed = try change() || hadRow
        }
        return removed
    }

    package func markUsed(_ id: DebugID, at date: Date) throws(StoreIndexError) {
        do {
            try database.write { db in
                try db.execute(
                    sql: "UPDATE entries SET last_used = ? WHERE id = ?", arguments: [date.timeIntervalSince1970, id.hexString])
            }
        } catch {
            throw StoreIndexError(location: location, message: "cannot record a use: \(Self.describe(error))")
        }
    }

    package func records() throws(StoreIndexError) -> [StoreIndexRecord] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM entries ORDER BY last_used, id").compactMap(Self.record(from:))
        }
    }

    package func figures() throws(StoreIndexError) -> (entries: Int, bytes: UInt64) {
        try reading { db in
            let row = try Row.fetchOne(db, sql: "SELECT entries AS n, bytes FROM totals WHERE one = 0")
            let count = row.flatMap { Int.fromDatabaseValue($0["n"] as DatabaseValue) } ?? 0
            let bytes = row.flatMap { Int64.fromDatabaseValue($0["bytes"] as DatabaseValue) } ?? 0
            return (count, UInt64(clamping: bytes))
        }
    }

    package func replaceAll(with records: [StoreIndexRecord]) throws(StoreIndexError) {
        do {
            try changing { db in
                try db.execute(sql: "DELETE FROM entries")
                let insert = try db.makeStatement(
                    sql: """
                        \(Self.upsert)
                        """)
                for record in records { try insert.execute(arguments: Self.arguments(of: record)) }
            }
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot rebuild: \(Self.describe(error))")
        }
    }

    /// Adds many entries in one transaction (a benchmark's fill, a rebuild's batch).
    package func insert(_ records: [StoreIndexRecord]) throws(StoreIndexError) {
        do {
            try changing { db in
                let insert = try db.makeStatement(
                    sql: """
                        \(Self.upsert)
                        """)
                for record in records { try insert.execute(arguments: Self.arguments(of: record)) }
            }
        } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot add entries: \(Self.describe(error))")
        }
    }

    // MARK: Helpers

    /// Adds a row or changes the one of the same identity: an upsert, whose update fires the
    /// totals' trigger (`INSERT OR REPLACE` deletes without firing one).
    private static let upsert = """
        INSERT INTO entries
            (id, kind, format, architecture, name, size, footprint, has_dwarf, stored_at, origin, digest, last_used)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET
            kind = excluded.kind, format = excluded.format, architecture = excluded.architecture, name = excluded.name,
            size = excluded.size, footprint = excluded.footprint, has_dwarf = excluded.has_dwarf,
            stored_at = excluded.stored_at, origin = excluded.origin, digest = excluded.digest, last_used = excluded.last_used
        """

    /// One immediate transaction: taken before anything is read, so two processes changing
    /// one entry take turns instead of failing on a lock upgrade.
    private func changing(_ body: (Database) throws -> Void) throws {
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try body(db)
                return .commit
            }
        }
    }

    private func reading<T>(_ body: (Database) throws -> T) throws(StoreIndexError) -> T {
        do { return try database.read(body) } catch let error as StoreIndexError {
            throw error
        } catch {
            throw StoreIndexError(location: location, message: "cannot read the index: \(Self.describe(error))")
        }
    }

    private static func arguments(of record: StoreIndexRecord) -> StatementArguments {
        [
            record.id.hexString, record.id.kind == .uuid ? "uuid" : "build-id", record.format, record.architecture, record.name,
            Int64(clamping: record.size), Int64(clamping: record.footprint), record.hasDWARF ? 1 : 0,
            record.storedAt.timeIntervalSince1970, record.origin, record.digest, record.lastUsed.timeIntervalSince1970,
        ]
    }

    /// A row as a record; nil for a row this code cannot read (a value of the wrong type
    /// written by hand), which is then as good as absent.
    private static func record(from row: Row) -> StoreIndexRecord? {
        func text(_ column: String) -> String? { String.fromDatabaseValue(row[column] as DatabaseValue) }
        func integer(_ column: String) -> Int64? { Int64.fromDatabaseValue(row[column] as DatabaseValue) }
        func real(_ column: String) -> Double? { Double.fromDatabaseValue(row[column] as DatabaseValue) }
        guard let hex = text("id"), let kind = text("kind"),
            let id = kind == "uuid" ? DebugID(uuid: hex) : DebugID(buildID: hex),
            let format = text("format"), let architecture = text("architecture"), let name = text("name"),
            let size = integer("size"), let footprint = integer("footprint"), let hasDWARF = integer("has_dwarf"),
            let storedAt = real("stored_at"), let digest = text("digest"), let lastUsed = real("last_used")
        else { return nil }
        return StoreIndexRecord(
            id: id, format: format, architecture: architecture, name: name, size: UInt64(clamping: size),
            footprint: UInt64(clamping: footprint), hasDWARF: hasDWARF != 0, storedAt: Date(timeIntervalSince1970: storedAt),
            origin: text("origin"), digest: digest, lastUsed: Date(timeIntervalSince1970: lastUsed))
    }

    static func describe(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "\(database.resultCode)" }
        return "\(error)"
    }
}
