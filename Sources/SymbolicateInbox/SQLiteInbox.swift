import Foundation
import GRDB
import SymbolicateCore

/// The crash inbox in an SQLite file (GRDB), the embedded default: `inbox.sqlite` beside the
/// store. Write-ahead logging lets readers go on while a report is written; each ingest is one
/// immediate transaction (the write lock taken before anything is read), so two processes on
/// one file take turns deciding a report's group instead of both creating it.
package final class SQLiteInbox: InboxStore {
    package let location: String
    private let database: DatabasePool
    /// Schema 3's per-version counts and generation are kept (false only for a test's older file).
    private let keepsVersionCounts: Bool

    /// Opens (creating it when absent) the inbox file at `path` and brings its schema to
    /// `schemaVersion` (a test stops earlier to make an old file).
    /// - Throws: when the file cannot be opened or created, or holds a newer schema.
    package init(path: String, busyTimeout: TimeInterval = 30, schemaVersion: Int = InboxSchema.version) throws(InboxError) {
        location = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "symbolicate.inbox"
        var opened = schemaVersion
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    opened = max(found, schemaVersion)
                    if found > InboxSchema.version {
                        throw InboxError(
                            location: path, message: "has schema version \(found); this symbolicate reads version \(InboxSchema.version)")
                    }
                    guard found < schemaVersion else { return .commit }
                    for version in (found + 1)...schemaVersion {
                        for statement in InboxSchema.migration(to: version, .sqlite) { try db.execute(sql: statement) }
                    }
                    try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
                    return .commit
                }
            }
        } catch let error as InboxError {
            throw error
        } catch {
            throw InboxError(location: path, message: "cannot open the inbox: \(Self.describe(error))")
        }
        keepsVersionCounts = opened >= 3
    }

    /// The schema version the file has.
    package func schemaVersion() throws(InboxError) -> Int {
        try reading { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    package func close() { try? database.close() }

    /// Each group's count per version: schema 3's table, or summed from the finer rows in an older file.
    private var versionCounts: String {
        keepsVersionCounts
            ? "inbox_version_counts"
            : "(SELECT group_id, version, MIN(marketing) AS marketing, SUM(count) AS count FROM inbox_counts GROUP BY group_id, version)"
    }

    package func generation() throws(InboxError) -> Int64 {
        guard keepsVersionCounts else { return 0 }
        return try reading { db in try Int64.fetchOne(db, sql: "SELECT value FROM inbox_generation WHERE one = 0") ?? 0 }
    }

    // MARK: InboxStore

    package func ingest(_ report: InboxReport, body: Data) throws(InboxError) -> IngestOutcome {
        try changing("cannot store report \(report.id)") { db in
            try InboxRules.ingest(report, body: body, in: SQLiteTransaction(db: db, keepsVersionCounts: keepsVersionCounts))
        }
    }

    package func replace(_ report: InboxReport) throws(InboxError) -> IngestOutcome {
        try changing("cannot store report \(report.id) again") { db in
            try InboxRules.replace(report, in: SQLiteTransaction(db: db, keepsVersionCounts: keepsVersionCounts))
        }
    }

    package func groups(_ query: GroupQuery) throws(InboxError) -> GroupPage {
        try reading { db in
            let (sql, arguments) = Self.listing(query, versionCounts: versionCounts)
            let perPage = max(1, min(query.perPage, GroupQuery.largestPage))
            let offset = (max(1, query.page) - 1) * perPage
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "\(sql) ORDER BY n DESC, g.id LIMIT ? OFFSET ?", arguments: arguments + [perPage, offset])
            var summaries = try rows.map { row in GroupSummary(group: try Self.group(from: row), count: row["n"], versions: []) }
            if !summaries.isEmpty {
                let ids = summaries.map(\.group.id)
                let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
                var perGroup: [String: [String: Int]] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT group_id, version, count AS n FROM \(versionCounts) WHERE group_id IN (\(marks))",
                    arguments: StatementArguments(ids))
                {
                    let n: Int = row["n"]
                    if n > 0 { perGroup[row["group_id"], default: [:]][row["version"]] = n }
                }
                for i in summaries.indices { summaries[i].versions = InboxSchema.sortedVersions(perGroup[summaries[i].group.id] ?? [:]) }
            }
            return GroupPage(groups: summaries, page: max(1, query.page), perPage: perPage, total: total)
        }
    }

    /// The list's query (without order and page): each group with its count under the filters as `n`.
    static func listing(_ query: GroupQuery, versionCounts: String) -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        let byCounts = query.version != nil || query.os != nil
        let versionColumn = query.version.flatMap { AppVersion($0)?.build } != nil ? "version" : "marketing"
        let version = query.version.flatMap { AppVersion($0) }
        let versionText = version.map { $0.build == nil ? $0.version : $0.description } ?? ""
        switch query.filter {
        case .new?:
            conditions.append(versionColumn == "version" ? "g.first_version = ?" : "g.first_marketing = ?")
            arguments += [versionText]
        case let filter?:
            conditions.append("g.state = ?")
            arguments += [filter.rawValue]
        case nil: break
        }
        if byCounts {
            var countConditions: [String] = []
            var countArguments: StatementArguments = []
            if query.version != nil {
                countConditions.append("c.\(versionColumn) = ?")
                countArguments += [versionText]
            }
            if let os = query.os {
                countConditions.append("c.os = ?")
                countArguments += [os]
            }
            let whereText = (countConditions + conditions).joined(separator: " AND ")
            // A version alone is summed from the per-version counts, an OS from the finer rows.
            let counts = query.os == nil ? versionCounts : "inbox_counts"
            return (
                "SELECT \(prefixed), SUM(c.count) AS n FROM \(counts) c JOIN inbox_groups g ON g.id = c.group_id WHERE \(whereText) GROUP BY g.id HAVING SUM(c.count) > 0",
                countArguments + arguments
            )
        }
        let whereText = (["g.count > 0"] + conditions).joined(separator: " AND ")
        return ("SELECT \(prefixed), g.count AS n FROM inbox_groups g WHERE \(whereText)", arguments)
    }

    private static let prefixed = InboxSchema.groupColumns.split(separator: ",").map {
        "g." + $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: ", ")

    package func group(id: String) throws(InboxError) -> GroupDetail? {
        try reading { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.prefixed) FROM inbox_groups g WHERE g.id = ?", arguments: [id])
            else { return nil }
            let group = try Self.group(from: row)
            var versions: [String: Int] = [:], systems: [String: Int] = [:], devices: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT version, os, device, count FROM inbox_counts WHERE group_id = ?", arguments: [id])
            {
                let n: Int = row["count"]
                guard n > 0 else { continue }
                versions[row["version"], default: 0] += n
                systems[row["os"], default: 0] += n
                devices[row["device"], default: 0] += n
            }
            let examples = try String.fetchAll(
                db, sql: "SELECT detail FROM inbox_reports WHERE group_id = ? ORDER BY seen_at DESC, id LIMIT 10", arguments: [id]
            ).map { try InboxSchema.value(InboxReport.self, json: $0) }
            let newest = try String.fetchOne(db, sql: "SELECT detail FROM inbox_reports WHERE id = ?", arguments: [group.newestReport])
                .map { try InboxSchema.value(InboxReport.self, json: $0) }
            return GroupDetail(
                group: group, versions: InboxSchema.sortedVersions(versions), systems: InboxSchema.sortedByCount(systems),
                devices: InboxSchema.sortedByCount(devices), newest: newest ?? examples.first, examples: examples)
        }
    }

    package func change(_ id: String, to change: StateChange) throws(InboxError) -> InboxGroup? {
        try changing("cannot change group \(id)") { db in
            let transaction = SQLiteTransaction(db: db, keepsVersionCounts: keepsVersionCounts)
            guard var group = try transaction.group(id) else { return nil }
            group.apply(change)
            try transaction.save(group, isNew: false)
            return group
        }
    }

    package func awaiting(_ ids: [DebugID]) throws(InboxError) -> [(report: String, body: Data)] {
        guard !ids.isEmpty else { return [] }
        return try reading { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT r.id, r.body FROM inbox_awaiting a JOIN inbox_reports r ON r.id = a.report_id
                    WHERE a.debug_id IN (\(marks)) ORDER BY r.id
                    """,
                arguments: StatementArguments(ids.map(\.hexString))
            ).map { row -> (report: String, body: Data) in (report: row["id"], body: row["body"]) }
        }
    }

    package func body(of report: String) throws(InboxError) -> Data? {
        try reading { db in try Data.fetchOne(db, sql: "SELECT body FROM inbox_reports WHERE id = ?", arguments: [report]) }
    }

    package func removeReports(receivedBefore date: Date) throws(InboxError) -> Int {
        try changing("cannot remove old reports") { db in
            try db.execute(
                sql: "DELETE FROM inbox_awaiting WHERE report_id IN (SELECT id FROM inbox_reports WHERE received_at < ?)",
                arguments: [date.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM inbox_reports WHERE received_at < ?", arguments: [date.timeIntervalSince1970])
            return db.changesCount
        }
    }

    // MARK: Helpers

    static func group(from row: Row) throws -> InboxGroup {
        try InboxSchema.group(
            id: row["id"], kind: row["kind"], exception: row["exception"], app: row["app"], function: row["function"], file: row["file"],
            via: row["via"], neighbours: row["neighbours"], state: row["state"], resolvedIn: row["resolved_in"],
            regressedIn: row["regressed_in"], firstSeen: row["first_seen"], lastSeen: row["last_seen"],
            firstVersion: row["first_version"], lastVersion: row["last_version"], count: row["count"],
            newestReport: row["newest_report"], decision: row["decision"])
    }

    private func changing<T>(_ what: String, _ body: (Database) throws -> T) throws(InboxError) -> T {
        do {
            var result: T?
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    if keepsVersionCounts { try db.execute(sql: "UPDATE inbox_generation SET value = value + 1 WHERE one = 0") }
                    return .commit
                }
            }
            guard let result else { throw InboxError(location: location, message: "\(what): no answer") }
            return result
        } catch let error as InboxError {
            throw error
        } catch {
            throw InboxError(location: location, message: "\(what): \(Self.describe(error))")
        }
    }

    private func reading<T>(_ body: (Database) throws -> T) throws(InboxError) -> T {
        do { return try database.read(body) } catch let error as InboxError {
            throw error
        } catch {
            throw InboxError(location: location, message: "cannot read the inbox: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "\(database.resultCode)" }
        return "\(error)"
    }
}

/// One immediate transaction's reads and writes.
struct SQLiteTransaction: InboxTransaction {
    let db: Database
    let keepsVersionCounts: Bool

    func hasReport(_ id: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT group_id FROM inbox_reports WHERE id = ?", arguments: [id])
    }

    func groupID(forKey key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT group_id FROM inbox_group_keys WHERE key = ?", arguments: [key])
    }

    func group(_ id: String) throws -> InboxGroup? {
        try Row.fetchOne(db, sql: "SELECT \(InboxSchema.groupColumns) FROM inbox_groups WHERE id = ?", arguments: [id])
            .map(SQLiteInbox.group(from:))
    }

    func save(_ group: InboxGroup, isNew: Bool) throws {
        let key = group.key
        try db.execute(
            sql: """
                INSERT INTO inbox_groups (\(InboxSchema.groupColumns), first_marketing)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    state = excluded.state, resolved_in = excluded.resolved_in, regressed_in = excluded.regressed_in,
                    first_seen = excluded.first_seen, last_seen = excluded.last_seen, first_version = excluded.first_version,
                    first_marketing = excluded.first_marketing, last_version = excluded.last_version, count = excluded.count,
                    newest_report = excluded.newest_report, decision = excluded.decision
                """,
            arguments: [
                group.id, key.kind, key.exception, key.app, key.function, key.file, key.via, try InboxSchema.json(key.neighbours),
                group.state.rawValue, group.resolvedIn?.description, group.regressedIn?.description,
                group.firstSeen.timeIntervalSince1970, group.lastSeen.timeIntervalSince1970, group.firstVersion?.description,
                group.lastVersion?.description, group.count, group.newestReport, try group.decision.map(InboxSchema.json),
                group.firstVersion?.version,
            ])
    }

    func addKey(_ key: String, group: String) throws {
        try db.execute(sql: "INSERT INTO inbox_group_keys (key, group_id) VALUES (?, ?) ON CONFLICT DO NOTHING", arguments: [key, group])
    }

    func insert(_ report: InboxReport, group: String, body: Data) throws {
        try db.execute(
            sql: """
                INSERT INTO inbox_reports (id, group_id, seen_at, received_at, version, os, device, body, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                report.id, group, report.seenAt.timeIntervalSince1970, report.receivedAt.timeIntervalSince1970,
                report.version?.description ?? "", report.os ?? "", report.device ?? "", body, try InboxSchema.json(report),
            ])
        for id in report.awaiting {
            try db.execute(
                sql: "INSERT INTO inbox_awaiting (debug_id, report_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [id.hexString, report.id])
        }
    }

    func deleteReport(_ id: String) throws -> StoredReportRow? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT group_id, version, os, device, seen_at, received_at, body FROM inbox_reports WHERE id = ?",
                arguments: [id])
        else { return nil }
        try db.execute(sql: "DELETE FROM inbox_awaiting WHERE report_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM inbox_reports WHERE id = ?", arguments: [id])
        return StoredReportRow(
            group: row["group_id"], version: row["version"], os: row["os"], device: row["device"],
            seenAt: Date(timeIntervalSince1970: row["seen_at"]), receivedAt: Date(timeIntervalSince1970: row["received_at"]),
            body: row["body"])
    }

    func count(group: String, version: String, os: String, device: String, by delta: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO inbox_counts (group_id, version, marketing, os, device, count) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(group_id, version, os, device) DO UPDATE SET count = count + excluded.count
                """,
            arguments: [group, version, AppVersion(version)?.version ?? "", os, device, delta])
        guard keepsVersionCounts else { return }
        try db.execute(
            sql: """
                INSERT INTO inbox_version_counts (group_id, version, marketing, count) VALUES (?, ?, ?, ?)
                ON CONFLICT(group_id, version) DO UPDATE SET count = count + excluded.count
                """,
            arguments: [group, version, AppVersion(version)?.version ?? "", delta])
    }

    func versionCounts(inGroup id: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let sql =
            keepsVersionCounts
            ? "SELECT version, count FROM inbox_version_counts WHERE group_id = ? AND count > 0"
            : "SELECT version, SUM(count) AS count FROM inbox_counts WHERE group_id = ? GROUP BY version HAVING SUM(count) > 0"
        for row in try Row.fetchAll(db, sql: sql, arguments: [id]) {
            counts[row["version"]] = row["count"]
        }
        return counts
    }

    func stored(inGroup id: String) throws -> (newest: InboxReport, earliest: Date)? {
        guard
            let detail = try String.fetchOne(
                db, sql: "SELECT detail FROM inbox_reports WHERE group_id = ? ORDER BY seen_at DESC, id LIMIT 1", arguments: [id]),
            let earliest = try Double.fetchOne(db, sql: "SELECT MIN(seen_at) FROM inbox_reports WHERE group_id = ?", arguments: [id])
        else { return nil }
        return (try InboxSchema.value(InboxReport.self, json: detail), Date(timeIntervalSince1970: earliest))
    }
}

extension InboxGroup {
    mutating func apply(_ change: StateChange) {
        switch change {
        case .open:
            state = .open
            resolvedIn = nil
            regressedIn = nil
        case .resolved(let version):
            state = .resolved
            resolvedIn = version
            regressedIn = nil
        case .ignored:
            state = .ignored
        }
    }
}
