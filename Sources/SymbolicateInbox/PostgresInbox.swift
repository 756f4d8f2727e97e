import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SymbolicateCore
import SymbolicateStoreIndexPostgres

/// The crash inbox in PostgreSQL, for several `serve` instances sharing one inbox
/// (`--inbox postgres://…`), tables `inbox_*` in the URL's schema.
///
/// Each ingest is one transaction that first takes the advisory locks of the report's group
/// keys (in one order, so two never wait on each other) and reads the group's row `FOR
/// UPDATE`: two instances given reports of one group take turns, each reading what the other
/// wrote, so nothing is lost or counted twice. Calls wait on a connection with an event-loop
/// thread of its own (never a server's), one call at a time per process, as the store's
/// PostgreSQL index does.
package final class PostgresInbox: InboxStore, @unchecked Sendable {
    package let location: String
    private let url: PostgresIndexURL
    private let timeout: TimeInterval
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var prefix: String { url.schema.map { "\($0)." } ?? "" }
    /// Schema 3's per-version counts and generation are kept (false only for a test's older schema).
    private(set) var keepsVersionCounts = true

    /// Connects and brings the schema to `schemaVersion` (a test stops earlier to make an old one).
    /// - Throws: when the URL cannot be read, the database cannot be reached, or holds a newer schema.
    package convenience init(
        url: String, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 30,
        schemaVersion: Int = InboxSchema.version
    ) throws(InboxError) {
        let parsed: PostgresIndexURL
        do { parsed = try PostgresIndexURL(url, environment: environment) } catch {
            throw InboxError(location: "postgres URL", message: error.message)
        }
        try self.init(url: parsed, timeout: timeout, schemaVersion: schemaVersion)
    }

    package init(url: PostgresIndexURL, timeout: TimeInterval = 30, schemaVersion: Int = InboxSchema.version) throws(InboxError) {
        self.url = url
        location = url.location
        self.timeout = timeout
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = Logger(label: "symbolicate.inbox.postgres")
        logger.logLevel = .critical
        self.logger = logger
        do {
            try migrate(to: schemaVersion)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func close() {
        lock.lock()
        let open = connection
        connection = nil
        lock.unlock()
        if let open {
            let closing: EventLoopFuture<Void> = open.close()
            closing.whenComplete { _ in withExtendedLifetime(open) {} }
        }
        group.shutdownGracefully(queue: .global()) { _ in }
    }

    /// The schema version the database has.
    package func schemaVersion() throws(InboxError) -> Int {
        try changing("cannot read the schema version") { connection in
            try self.version(connection)
        }
    }

    private func version(_ connection: PostgresConnection) throws -> Int {
        guard let row = try rows(connection, "SELECT version FROM \(unescaped: prefix)inbox_meta WHERE one = 0").first else { return 0 }
        return try row.makeRandomAccess()[0].decode(Int.self)
    }

    /// Migrations under one advisory lock, so instances starting together take turns.
    private func migrate(to target: Int) throws(InboxError) {
        try changing("cannot make the inbox's tables") { connection in
            try self.run(connection, "SELECT pg_advisory_xact_lock(\(Int64(0x5359_4D49_4E42)))")
            if let schema = self.url.schema { try self.run(connection, "CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)") }
            try self.run(
                connection,
                "CREATE TABLE IF NOT EXISTS \(unescaped: self.prefix)inbox_meta (one INTEGER PRIMARY KEY CHECK (one = 0), version INTEGER NOT NULL)"
            )
            let found = try self.version(connection)
            self.keepsVersionCounts = max(found, target) >= 3
            if found > InboxSchema.version {
                throw InboxError(
                    location: self.location,
                    message: "has schema version \(found); this symbolicate reads version \(InboxSchema.version)")
            }
            guard found < target else { return }
            for version in (found + 1)...target {
                for statement in InboxSchema.migration(to: version, .postgres, prefix: self.prefix) {
                    try self.run(connection, PostgresQuery(unsafeSQL: statement))
                }
            }
            try self.run(
                connection,
                """
                INSERT INTO \(unescaped: self.prefix)inbox_meta (one, version) VALUES (0, \(target))
                ON CONFLICT (one) DO UPDATE SET version = excluded.version
                """)
        }
    }

    // MARK: InboxStore

    package func generation() throws(InboxError) -> Int64 {
        guard keepsVersionCounts else { return 0 }
        return try calling("cannot read the inbox") { connection in
            try self.rows(
                connection, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM \(unescaped: self.prefix)inbox_generation"
            ).first?.decode(Int64.self) ?? 0
        }
    }

    package func ingest(_ report: InboxReport, body: Data) throws(InboxError) -> IngestOutcome {
        try changing("cannot store report \(report.id)", moves: true) { connection in
            try self.lockKeys(report.key.lookupIDs, connection)
            return try InboxRules.ingest(
                report, body: body, in: PostgresTransaction(inbox: self, connection: connection, keepsVersionCounts: keepsVersionCounts))
        }
    }

    package func replace(_ report: InboxReport) throws(InboxError) -> IngestOutcome {
        try changing("cannot store report \(report.id) again", moves: true) { connection in
            try self.lockKeys(report.key.lookupIDs, connection)
            return try InboxRules.replace(
                report, in: PostgresTransaction(inbox: self, connection: connection, keepsVersionCounts: keepsVersionCounts))
        }
    }

    /// The advisory locks of these keys, held to the transaction's end, taken in sorted order.
    private func lockKeys(_ keys: [String], _ connection: PostgresConnection) throws {
        for key in Set(keys).sorted() {
            var hash: UInt32 = 2_166_136_261
            for byte in key.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            try run(connection, "SELECT pg_advisory_xact_lock(\(Int32(0x494E_4258)), \(Int32(bitPattern: hash)))")
        }
    }

    package func groups(_ query: GroupQuery) throws(InboxError) -> GroupPage {
        try calling("cannot read the inbox") { connection in
            let perPage = max(1, min(query.perPage, GroupQuery.largestPage))
            let offset = (max(1, query.page) - 1) * perPage
            var counting = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 4)
            counting.appendLiteral("SELECT COUNT(*) FROM (")
            self.listing(query, into: &counting)
            counting.appendLiteral(") AS listed")
            let total = try self.rows(connection, PostgresQuery(stringInterpolation: counting)).first?.decode(Int.self) ?? 0
            var list = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 6)
            self.listing(query, into: &list)
            list.appendLiteral(" ORDER BY n DESC, g.id LIMIT ")
            list.appendInterpolation(perPage)
            list.appendLiteral(" OFFSET ")
            list.appendInterpolation(offset)
            var summaries = try self.rows(connection, PostgresQuery(stringInterpolation: list)).map { row in
                let cells = row.makeRandomAccess()
                return GroupSummary(group: try Self.group(cells), count: try cells[18].decode(Int.self), versions: [])
            }
            if !summaries.isEmpty {
                let ids = summaries.map(\.group.id)
                var perGroup: [String: [String: Int]] = [:]
                for row in try self.rows(
                    connection,
                    "SELECT group_id, version, count::bigint FROM \(unescaped: self.versionCounts) AS v WHERE group_id = ANY(\(ids))"
                ) {
                    let (group, version, n) = try row.decode((String, String, Int).self)
                    if n > 0 { perGroup[group, default: [:]][version] = n }
                }
                for i in summaries.indices { summaries[i].versions = InboxSchema.sortedVersions(perGroup[summaries[i].group.id] ?? [:]) }
            }
            return GroupPage(groups: summaries, page: max(1, query.page), perPage: perPage, total: total)
        }
    }

    /// The list's query (without order and page): the group's columns, then its count under
    /// the filters as `n`.
    private func listing(_ query: GroupQuery, into sql: inout PostgresQuery.StringInterpolation) {
        let version = query.version.flatMap { AppVersion($0) }
        let versionColumn = version?.build != nil ? "version" : "marketing"
        let versionText = version.map { $0.build == nil ? $0.version : $0.description } ?? ""
        var conditions: [(String, String)] = []
        switch query.filter {
        case .new?: conditions.append((versionColumn == "version" ? "g.first_version = " : "g.first_marketing = ", versionText))
        case let filter?: conditions.append(("g.state = ", filter.rawValue))
        case nil: break
        }
        if query.version != nil || query.os != nil {
            // A version alone is summed from the per-version counts, an OS from the finer rows.
            let counts = query.os == nil ? versionCounts : "\(prefix)inbox_counts"
            sql.appendLiteral(
                "SELECT \(Self.prefixed), SUM(c.count)::bigint AS n FROM \(counts) c JOIN \(prefix)inbox_groups g ON g.id = c.group_id WHERE TRUE"
            )
            if query.version != nil { conditions.append(("c.\(versionColumn) = ", versionText)) }
            if let os = query.os { conditions.append(("c.os = ", os)) }
            Self.append(conditions, to: &sql)
            sql.appendLiteral(" GROUP BY g.id HAVING SUM(c.count) > 0")
        } else {
            sql.appendLiteral("SELECT \(Self.prefixed), g.count AS n FROM \(prefix)inbox_groups g WHERE g.count > 0")
            Self.append(conditions, to: &sql)
        }
    }

    /// Each group's count per version: schema 3's table, or summed from the finer rows in an older schema.
    private var versionCounts: String {
        keepsVersionCounts
            ? "\(prefix)inbox_version_counts"
            : "(SELECT group_id, version, MIN(marketing) AS marketing, SUM(count) AS count FROM \(prefix)inbox_counts GROUP BY group_id, version)"
    }

    private static func append(_ conditions: [(String, String)], to sql: inout PostgresQuery.StringInterpolation) {
        for (text, value) in conditions {
            sql.appendLiteral(" AND " + text)
            sql.appendInterpolation(value)
        }
    }

    private static let prefixed = InboxSchema.groupColumns.split(separator: ",").map {
        "g." + $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: ", ")

    package func group(id: String) throws(InboxError) -> GroupDetail? {
        try calling("cannot read the inbox") { connection in
            guard
                let row = try self.rows(
                    connection, "SELECT \(unescaped: Self.prefixed) FROM \(unescaped: self.prefix)inbox_groups g WHERE g.id = \(id)"
                ).first
            else { return nil }
            let group = try Self.group(row.makeRandomAccess())
            var versions: [String: Int] = [:], systems: [String: Int] = [:], devices: [String: Int] = [:]
            for row in try self.rows(
                connection, "SELECT version, os, device, count FROM \(unescaped: self.prefix)inbox_counts WHERE group_id = \(id)")
            {
                let (version, os, device, n) = try row.decode((String, String, String, Int).self)
                guard n > 0 else { continue }
                versions[version, default: 0] += n
                systems[os, default: 0] += n
                devices[device, default: 0] += n
            }
            let examples = try self.rows(
                connection,
                "SELECT detail FROM \(unescaped: self.prefix)inbox_reports WHERE group_id = \(id) ORDER BY seen_at DESC, id LIMIT 10"
            ).map { try InboxSchema.value(InboxReport.self, json: try $0.decode(String.self)) }
            let newest = try self.rows(
                connection, "SELECT detail FROM \(unescaped: self.prefix)inbox_reports WHERE id = \(group.newestReport)"
            ).first.map { try InboxSchema.value(InboxReport.self, json: try $0.decode(String.self)) }
            return GroupDetail(
                group: group, versions: InboxSchema.sortedVersions(versions), systems: InboxSchema.sortedByCount(systems),
                devices: InboxSchema.sortedByCount(devices), newest: newest ?? examples.first, examples: examples)
        }
    }

    package func change(_ id: String, to change: StateChange) throws(InboxError) -> InboxGroup? {
        try changing("cannot change group \(id)", moves: true) { connection in
            let transaction = PostgresTransaction(inbox: self, connection: connection, keepsVersionCounts: keepsVersionCounts)
            guard var group = try transaction.group(id) else { return nil }
            group.apply(change)
            try transaction.save(group, isNew: false)
            return group
        }
    }

    package func awaiting(_ ids: [DebugID]) throws(InboxError) -> [(report: String, body: Data)] {
        guard !ids.isEmpty else { return [] }
        return try calling("cannot read the inbox") { connection in
            try self.rows(
                connection,
                """
                SELECT DISTINCT r.id, r.body FROM \(unescaped: self.prefix)inbox_awaiting a
                JOIN \(unescaped: self.prefix)inbox_reports r ON r.id = a.report_id
                WHERE a.debug_id = ANY(\(ids.map(\.hexString))) ORDER BY r.id
                """
            ).map { row in try row.decode((String, Data).self) }.map { (report: $0.0, body: $0.1) }
        }
    }

    package func body(of report: String) throws(InboxError) -> Data? {
        try calling("cannot read the inbox") { connection in
            try self.rows(connection, "SELECT body FROM \(unescaped: self.prefix)inbox_reports WHERE id = \(report)").first?.decode(
                Data.self)
        }
    }

    package func removeReports(receivedBefore date: Date) throws(InboxError) -> Int {
        try changing("cannot remove old reports", moves: true) { connection in
            let cutoff = date.timeIntervalSince1970
            try self.run(
                connection,
                """
                DELETE FROM \(unescaped: self.prefix)inbox_awaiting WHERE report_id IN
                    (SELECT id FROM \(unescaped: self.prefix)inbox_reports WHERE received_at < \(cutoff))
                """)
            let result = try self.wait(
                connection.query("DELETE FROM \(unescaped: self.prefix)inbox_reports WHERE received_at < \(cutoff)", logger: self.logger))
            return result.metadata.rows ?? 0
        }
    }

    // MARK: Rows

    static func group(_ cells: PostgresRandomAccessRow) throws -> InboxGroup {
        try InboxSchema.group(
            id: try cells[0].decode(String.self), kind: try cells[1].decode(String.self), exception: try cells[2].decode(String?.self),
            app: try cells[3].decode(String?.self), function: try cells[4].decode(String?.self), file: try cells[5].decode(String?.self),
            via: try cells[6].decode(String?.self), neighbours: try cells[7].decode(String.self), state: try cells[8].decode(String.self),
            resolvedIn: try cells[9].decode(String?.self), regressedIn: try cells[10].decode(String?.self),
            firstSeen: try cells[11].decode(Double.self), lastSeen: try cells[12].decode(Double.self),
            firstVersion: try cells[13].decode(String?.self), lastVersion: try cells[14].decode(String?.self),
            count: try cells[15].decode(Int.self), newestReport: try cells[16].decode(String.self),
            decision: try cells[17].decode(String?.self))
    }

    // MARK: Calls

    private func calling<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws(InboxError) -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(try connected())
        } catch let error as InboxError {
            throw error
        } catch {
            dropIfBroken(error)
            throw InboxError(location: location, message: "\(what): \(Self.describe(error))")
        }
    }

    /// One transaction around `body`: rolled back when it throws. A change that `moves` the
    /// generation moves it after its commit: a reader that saw the new number then reads what
    /// was committed (moved before, a reader could keep the old rows under the new number).
    private func changing<T>(_ what: String, moves: Bool = false, _ body: (PostgresConnection) throws -> T) throws(InboxError) -> T {
        lock.lock()
        defer { lock.unlock() }
        let connection: PostgresConnection
        do {
            connection = try connected()
            try run(connection, "BEGIN")
        } catch {
            dropIfBroken(error)
            throw InboxError(location: location, message: "\(what): \(Self.describe(error))")
        }
        do {
            let result = try body(connection)
            try run(connection, "COMMIT")
            if moves, keepsVersionCounts { moveGeneration() }
            return result
        } catch {
            do { try run(connection, "ROLLBACK") } catch { dropIfBroken(error) }
            if let error = error as? InboxError { throw error }
            dropIfBroken(error)
            throw InboxError(location: location, message: "\(what): \(Self.describe(error))")
        }
    }

    /// Moves the generation on after a commit; tried again on a fresh connection once, since
    /// a change whose generation did not move would leave other servers' answers stale.
    private func moveGeneration() {
        for _ in 0..<2 {
            do {
                try run(try connected(), "SELECT nextval('\(unescaped: prefix)inbox_generation')")
                return
            } catch {
                dropIfBroken(error)
            }
        }
    }

    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        let made = try PostgresWait.connect(url, on: group.next(), timeout: timeout, id: 2, logger: logger)
        connection = made
        return made
    }

    private func dropIfBroken(_ error: any Error) {
        if let error = error as? PSQLError, error.code == .server { return }
        if let broken = connection {
            connection = nil
            let closing: EventLoopFuture<Void> = broken.close()
            closing.whenComplete { _ in withExtendedLifetime(broken) {} }
        }
    }

    func run(_ connection: PostgresConnection, _ query: PostgresQuery) throws {
        _ = try wait(connection.query(query, logger: logger))
    }

    func rows(_ connection: PostgresConnection, _ query: PostgresQuery) throws -> [PostgresRow] {
        Array(try wait(connection.query(query, logger: logger)).rows)
    }

    /// Waits for a future on this thread (never one of `group`'s: nothing here runs on it).
    private func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        try PostgresWait.result(of: future, timeout: timeout)
    }

    static func describe(_ error: any Error) -> String { PostgresWait.describe(error) }

    var tablePrefix: String { prefix }
}

/// One PostgreSQL transaction's reads and writes; a group's row is read `FOR UPDATE`.
struct PostgresTransaction: InboxTransaction {
    let inbox: PostgresInbox
    let connection: PostgresConnection
    let keepsVersionCounts: Bool
    private var p: String { inbox.tablePrefix }

    func hasReport(_ id: String) throws -> String? {
        try inbox.rows(connection, "SELECT group_id FROM \(unescaped: p)inbox_reports WHERE id = \(id)").first?.decode(String.self)
    }

    func groupID(forKey key: String) throws -> String? {
        try inbox.rows(connection, "SELECT group_id FROM \(unescaped: p)inbox_group_keys WHERE key = \(key)").first?.decode(String.self)
    }

    func group(_ id: String) throws -> InboxGroup? {
        try inbox.rows(
            connection, "SELECT \(unescaped: InboxSchema.groupColumns) FROM \(unescaped: p)inbox_groups WHERE id = \(id) FOR UPDATE"
        )
        .first.map { try PostgresInbox.group($0.makeRandomAccess()) }
    }

    func save(_ group: InboxGroup, isNew: Bool) throws {
        let key = group.key
        let neighbours = try InboxSchema.json(key.neighbours)
        let decision = try group.decision.map(InboxSchema.json)
        try inbox.run(
            connection,
            """
            INSERT INTO \(unescaped: p)inbox_groups (\(unescaped: InboxSchema.groupColumns), first_marketing)
            VALUES (\(group.id), \(key.kind), \(key.exception), \(key.app), \(key.function), \(key.file), \(key.via), \(neighbours),
                \(group.state.rawValue), \(group.resolvedIn?.description), \(group.regressedIn?.description),
                \(group.firstSeen.timeIntervalSince1970), \(group.lastSeen.timeIntervalSince1970), \(group.firstVersion?.description),
                \(group.lastVersion?.description), \(group.count), \(group.newestReport), \(decision), \(group.firstVersion?.version))
            ON CONFLICT (id) DO UPDATE SET
                state = excluded.state, resolved_in = excluded.resolved_in, regressed_in = excluded.regressed_in,
                first_seen = excluded.first_seen, last_seen = excluded.last_seen, first_version = excluded.first_version,
                first_marketing = excluded.first_marketing, last_version = excluded.last_version, count = excluded.count,
                newest_report = excluded.newest_report, decision = excluded.decision
            """)
    }

    func addKey(_ key: String, group: String) throws {
        try inbox.run(
            connection, "INSERT INTO \(unescaped: p)inbox_group_keys (key, group_id) VALUES (\(key), \(group)) ON CONFLICT DO NOTHING")
    }

    func insert(_ report: InboxReport, group: String, body: Data) throws {
        let detail = try InboxSchema.json(report)
        try inbox.run(
            connection,
            """
            INSERT INTO \(unescaped: p)inbox_reports (id, group_id, seen_at, received_at, version, os, device, body, detail)
            VALUES (\(report.id), \(group), \(report.seenAt.timeIntervalSince1970), \(report.receivedAt.timeIntervalSince1970),
                \(report.version?.description ?? ""), \(report.os ?? ""), \(report.device ?? ""), \(body), \(detail))
            """)
        for id in report.awaiting {
            try inbox.run(
                connection,
                "INSERT INTO \(unescaped: p)inbox_awaiting (debug_id, report_id) VALUES (\(id.hexString), \(report.id)) ON CONFLICT DO NOTHING"
            )
        }
    }

    func deleteReport(_ id: String) throws -> StoredReportRow? {
        guard
            let row = try inbox.rows(
                connection,
                """
                SELECT group_id, version, os, device, seen_at, received_at, body FROM \(unescaped: p)inbox_reports
                WHERE id = \(id) FOR UPDATE
                """
            ).first
        else { return nil }
        let (group, version, os, device, seen, received, body) = try row.decode((String, String, String, String, Double, Double, Data).self)
        try inbox.run(connection, "DELETE FROM \(unescaped: p)inbox_awaiting WHERE report_id = \(id)")
        try inbox.run(connection, "DELETE FROM \(unescaped: p)inbox_reports WHERE id = \(id)")
        return StoredReportRow(
            group: group, version: version, os: os, device: device, seenAt: Date(timeIntervalSince1970: seen),
            receivedAt: Date(timeIntervalSince1970: received), body: body)
    }

    func count(group: String, version: String, os: String, device: String, by delta: Int) throws {
        try inbox.run(
            connection,
            """
            INSERT INTO \(unescaped: p)inbox_counts AS c (group_id, version, marketing, os, device, count)
            VALUES (\(group), \(version), \(AppVersion(version)?.version ?? ""), \(os), \(device), \(delta))
            ON CONFLICT (group_id, version, os, device) DO UPDATE SET count = c.count + excluded.count
            """)
        guard keepsVersionCounts else { return }
        try inbox.run(
            connection,
            """
            INSERT INTO \(unescaped: p)inbox_version_counts AS v (group_id, version, marketing, count)
            VALUES (\(group), \(version), \(AppVersion(version)?.version ?? ""), \(delta))
            ON CONFLICT (group_id, version) DO UPDATE SET count = v.count + excluded.count
            """)
    }

    func versionCounts(inGroup id: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try inbox.rows(
            connection,
            """
            SELECT version, SUM(count)::BIGINT FROM \(unescaped: p)inbox_counts WHERE group_id = \(id)
            GROUP BY version HAVING SUM(count) > 0
            """)
        {
            let (version, n) = try row.decode((String, Int).self)
            counts[version] = n
        }
        return counts
    }

    func stored(inGroup id: String) throws -> (newest: InboxReport, earliest: Date)? {
        guard
            let detail = try inbox.rows(
                connection, "SELECT detail FROM \(unescaped: p)inbox_reports WHERE group_id = \(id) ORDER BY seen_at DESC, id LIMIT 1"
            ).first?.decode(String.self),
            let earliest = try inbox.rows(connection, "SELECT MIN(seen_at) FROM \(unescaped: p)inbox_reports WHERE group_id = \(id)")
                .first?.decode(Double.self)
        else { return nil }
        return (try InboxSchema.value(InboxReport.self, json: detail), Date(timeIntervalSince1970: earliest))
    }
}
