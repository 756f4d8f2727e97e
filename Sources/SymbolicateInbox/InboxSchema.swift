import Foundation

/// The inbox's tables, one migration per schema version, in SQL both databases read (types
/// spelled per database). A database is brought from whatever version it has to the newest in
/// one transaction; one newer than this code is refused, never changed.
enum InboxSchema {
    /// The newest version.
    static let version = 3

    enum Dialect { case sqlite, postgres }

    /// The statements that take a database from `version - 1` to `version`; `prefix` is the
    /// tables' schema (`name.`: indexes are made in their table's schema, unprefixed).
    static func migration(to version: Int, _ dialect: Dialect, prefix: String = "") -> [String] {
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        let blob = dialect == .sqlite ? "BLOB" : "BYTEA"
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let p = prefix
        switch version {
        case 1:
            // Reports, their groups, the keys that name each group, and counts per version, OS
            // and device (the lists' figures, kept as reports arrive, never counted per request).
            return [
                """
                CREATE TABLE \(p)inbox_groups (
                    id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, exception TEXT, app TEXT, function TEXT, file TEXT,
                    via TEXT, neighbours TEXT NOT NULL, state TEXT NOT NULL, resolved_in TEXT, regressed_in TEXT,
                    first_seen \(real) NOT NULL, last_seen \(real) NOT NULL, first_version TEXT, first_marketing TEXT,
                    last_version TEXT, count \(integer) NOT NULL, newest_report TEXT NOT NULL, decision TEXT)
                """,
                "CREATE INDEX inbox_groups_by_count ON \(p)inbox_groups (count DESC, id)",
                "CREATE TABLE \(p)inbox_group_keys (key TEXT PRIMARY KEY NOT NULL, group_id TEXT NOT NULL)",
                """
                CREATE TABLE \(p)inbox_counts (
                    group_id TEXT NOT NULL, version TEXT NOT NULL, marketing TEXT NOT NULL, os TEXT NOT NULL, device TEXT NOT NULL,
                    count \(integer) NOT NULL, PRIMARY KEY (group_id, version, os, device))
                """,
                "CREATE INDEX inbox_counts_by_version ON \(p)inbox_counts (version, group_id)",
                "CREATE INDEX inbox_counts_by_marketing ON \(p)inbox_counts (marketing, group_id)",
                """
                CREATE TABLE \(p)inbox_reports (
                    id TEXT PRIMARY KEY NOT NULL, group_id TEXT NOT NULL, seen_at \(real) NOT NULL, received_at \(real) NOT NULL,
                    version TEXT NOT NULL, os TEXT NOT NULL, device TEXT NOT NULL, body \(blob) NOT NULL, detail TEXT NOT NULL)
                """,
                "CREATE INDEX inbox_reports_by_group ON \(p)inbox_reports (group_id, seen_at)",
            ]
        case 2:
            // Version 2: reports waiting for a debug file (symbolicated again when it arrives),
            // and the received time indexed for `--keep-reports`.
            return [
                """
                CREATE TABLE \(p)inbox_awaiting (
                    debug_id TEXT NOT NULL, report_id TEXT NOT NULL, PRIMARY KEY (debug_id, report_id))
                """,
                "CREATE INDEX inbox_awaiting_by_report ON \(p)inbox_awaiting (report_id)",
                "CREATE INDEX inbox_reports_by_received ON \(p)inbox_reports (received_at)",
            ]
        case 3:
            // Version 3: each group's count per version, kept beside the per-(version, OS,
            // device) rows (a page of 50 large groups summed thousands of those rows per
            // request), and the inbox's write generation, which every change moves on, so a
            // server may keep an answer until the inbox changes (Benchmarks/README.md, "Crash
            // inbox"). SQLite moves a row inside each write transaction; PostgreSQL moves a
            // sequence after each commit, so instances writing at once do not queue on one row.
            let generation =
                dialect == .sqlite
                ? [
                    "CREATE TABLE \(p)inbox_generation (one INTEGER PRIMARY KEY CHECK (one = 0), value INTEGER NOT NULL)",
                    "INSERT INTO \(p)inbox_generation (one, value) VALUES (0, 1)",
                ]
                : ["CREATE SEQUENCE \(p)inbox_generation"]
            return generation + [
                """
                CREATE TABLE \(p)inbox_version_counts (
                    group_id TEXT NOT NULL, version TEXT NOT NULL, marketing TEXT NOT NULL, count \(integer) NOT NULL,
                    PRIMARY KEY (group_id, version))
                """,
                """
                INSERT INTO \(p)inbox_version_counts (group_id, version, marketing, count)
                SELECT group_id, version, MIN(marketing), SUM(count) FROM \(p)inbox_counts GROUP BY group_id, version
                """,
                "CREATE INDEX inbox_version_counts_by_version ON \(p)inbox_version_counts (version, group_id)",
                "CREATE INDEX inbox_version_counts_by_marketing ON \(p)inbox_version_counts (marketing, group_id)",
            ]
        default:
            return []
        }
    }

    /// JSON for the columns that hold typed values (a key's neighbours, a decision, a report's detail).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, json: String) throws -> T {
        try decoder.decode(type, from: Data(json.utf8))
    }

    /// The columns of a group row, in the order `InboxGroup` is read from.
    static let groupColumns =
        "id, kind, exception, app, function, file, via, neighbours, state, resolved_in, regressed_in, first_seen, last_seen, first_version, last_version, count, newest_report, decision"

    /// A group from its row's cells (in `groupColumns` order).
    static func group(
        id: String, kind: String, exception: String?, app: String?, function: String?, file: String?, via: String?,
        neighbours: String, state: String, resolvedIn: String?, regressedIn: String?, firstSeen: Double, lastSeen: Double,
        firstVersion: String?, lastVersion: String?, count: Int, newestReport: String, decision: String?
    ) throws -> InboxGroup {
        let key = CrashGroupKey(
            kind: kind, exception: exception, app: app, function: function, file: file, via: via,
            neighbours: try value([String].self, json: neighbours))
        return InboxGroup(
            id: id, key: key, state: GroupState(rawValue: state) ?? .open, resolvedIn: resolvedIn.flatMap { AppVersion($0) },
            regressedIn: regressedIn.flatMap { AppVersion($0) }, firstSeen: Date(timeIntervalSince1970: firstSeen),
            lastSeen: Date(timeIntervalSince1970: lastSeen), firstVersion: firstVersion.flatMap { AppVersion($0) },
            lastVersion: lastVersion.flatMap { AppVersion($0) }, count: count, newestReport: newestReport,
            decision: try decision.map { try value(InboxDecision.self, json: $0) })
    }

    /// Sorts per-version counts by version (oldest first), text without a version last. Each
    /// version is read once, not once per comparison: a page of 50 groups with a dozen versions
    /// each read them thousands of times, most of the first page's time (Benchmarks/README.md,
    /// "Crash inbox").
    static func sortedVersions(_ counts: [String: Int]) -> [VersionCount] {
        counts.map { (count: VersionCount(version: $0.key, count: $0.value), parsed: AppVersion($0.key)) }.sorted { a, b in
            switch (a.parsed, b.parsed) {
            case (let x?, let y?): return x == y ? a.count.version < b.count.version : x < y
            case (nil, _?): return false
            case (_?, nil): return true
            case (nil, nil): return a.count.version < b.count.version
            }
        }.map(\.count)
    }

    /// Most first, then by name.
    static func sortedByCount(_ counts: [String: Int]) -> [VersionCount] {
        counts.map { VersionCount(version: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.version < $1.version
        }
    }
}
