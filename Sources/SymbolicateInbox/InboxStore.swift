import Foundation
import SymbolicateCore

/// The crash inbox's storage: reports stored once by content hash, grouped as they arrive,
/// each group's figures kept in the same transaction as the report that changes them. SQLite
/// (`SQLiteInbox`, a file beside the store) and PostgreSQL (`PostgresInbox`, shared by several
/// servers) give the same answers to the same reports.
///
/// Calls are synchronous (run them off an event loop); each change is one transaction that
/// decides and writes together, so servers ingesting at once neither lose nor duplicate.
package protocol InboxStore: Sendable {
    /// The file or URL (without its password), for messages.
    var location: String { get }
    /// Stores a report with the body it was read from (kept to symbolicate it again), or finds
    /// it stored (same body, same id).
    func ingest(_ report: InboxReport, body: Data) throws(InboxError) -> IngestOutcome
    /// Stores a report symbolicated again (its debug file arrived): it leaves its group for
    /// the one its new key names, the figures of both following.
    func replace(_ report: InboxReport) throws(InboxError) -> IngestOutcome
    func groups(_ query: GroupQuery) throws(InboxError) -> GroupPage
    func group(id: String) throws(InboxError) -> GroupDetail?
    /// Sets a group's state; nil when there is no such group.
    func change(_ id: String, to change: StateChange) throws(InboxError) -> InboxGroup?
    /// Reports waiting for one of these debug files, with their bodies.
    func awaiting(_ ids: [DebugID]) throws(InboxError) -> [(report: String, body: Data)]
    /// The body a report was read from; nil when it is not (or no longer) stored.
    func body(of report: String) throws(InboxError) -> Data?
    /// The schema version the database has.
    func schemaVersion() throws(InboxError) -> Int
    /// A number every committed change moves on (an ingest, a state, a removal), by any server
    /// sharing the database: an answer read at one generation holds until it moves. Read it
    /// before the answer it keys.
    func generation() throws(InboxError) -> Int64
    /// Removes the reports received before `date` (their groups and figures stay); returns how many.
    func removeReports(receivedBefore date: Date) throws(InboxError) -> Int
}

/// The schema version this code reads and writes.
package let inboxSchemaVersion = InboxSchema.version

/// The primitive reads and writes of one transaction, which `InboxRules` combines: each
/// database says them in its own SQL.
protocol InboxTransaction {
    func hasReport(_ id: String) throws -> String?
    func groupID(forKey key: String) throws -> String?
    func group(_ id: String) throws -> InboxGroup?
    func save(_ group: InboxGroup, isNew: Bool) throws
    func addKey(_ key: String, group: String) throws
    func insert(_ report: InboxReport, group: String, body: Data) throws
    /// Removes a report's row (and its waits); returns what it held.
    func deleteReport(_ id: String) throws -> StoredReportRow?
    func count(group: String, version: String, os: String, device: String, by delta: Int) throws
    /// The group's reports per version (`""`: none stated) from its counts, which retention
    /// leaves alone: rows at zero left out.
    func versionCounts(inGroup id: String) throws -> [String: Int]
    /// Of the group's stored reports: the one seen last, and when the earliest was seen; nil
    /// when none is stored.
    func stored(inGroup id: String) throws -> (newest: InboxReport, earliest: Date)?
}

/// The decisions of an ingest, the same for every database.
enum InboxRules {
    static func ingest(_ report: InboxReport, body: Data, in transaction: some InboxTransaction) throws -> IngestOutcome {
        if let stored = try transaction.hasReport(report.id) {
            return IngestOutcome(report: report.id, group: stored, stored: false, newGroup: false, regression: false)
        }
        var found: String?
        for key in report.key.lookupIDs where found == nil { found = try transaction.groupID(forKey: key) }
        var isNew = false
        var regression = false
        var group: InboxGroup
        if let found, let existing = try transaction.group(found) {
            group = existing
            if group.count == 0 {
                // Emptied by moves (`replace`): its figures start again from this report;
                // only its state and keys were kept.
                group.firstSeen = report.seenAt
                group.lastSeen = report.seenAt
                group.firstVersion = nil
                group.lastVersion = nil
            }
            group.count += 1
            if report.seenAt >= group.lastSeen {
                group.lastSeen = report.seenAt
                group.newestReport = report.id
                group.decision = report.decision ?? group.decision
            }
            group.firstSeen = min(group.firstSeen, report.seenAt)
            if let version = report.version {
                if group.firstVersion.map({ version < $0 }) ?? true { group.firstVersion = version }
                if group.lastVersion.map({ $0 < version }) ?? true { group.lastVersion = version }
                // A report of a version after the fix reopens the group.
                if group.state == .resolved, let fixed = group.resolvedIn, fixed < version {
                    group.state = .regressed
                    group.regressedIn = version
                    regression = true
                }
            }
        } else {
            isNew = true
            group = InboxGroup(
                id: String(report.key.exactID.prefix(16)), key: report.key, firstSeen: report.seenAt, lastSeen: report.seenAt,
                firstVersion: report.version, lastVersion: report.version, count: 1, newestReport: report.id, decision: report.decision)
        }
        try transaction.save(group, isNew: isNew)
        for key in report.key.lookupIDs { try transaction.addKey(key, group: group.id) }
        try transaction.insert(report, group: group.id, body: body)
        try transaction.count(
            group: group.id, version: report.version?.description ?? "", os: report.os ?? "", device: report.device ?? "", by: 1)
        return IngestOutcome(report: report.id, group: group.id, stored: true, newGroup: isNew, regression: regression)
    }

    /// Takes a stored report out of its group, then ingests it anew (its new key may name
    /// another group). The report keeps when it was received, and when it was seen unless it
    /// states a time. The group it leaves has its figures worked out again from what remains:
    /// count and versions from its counts, first and last seen and the newest report from its
    /// stored reports. A group left with no report keeps its row, state and keys at a count of
    /// zero (lists leave it out), so a later report of it finds its state.
    static func replace(_ report: InboxReport, in transaction: some InboxTransaction) throws -> IngestOutcome {
        guard let old = try transaction.deleteReport(report.id) else { throw InboxRulesError.noSuchReport(report.id) }
        // The group's row before its counts, the order an ingest takes them in (PostgreSQL
        // locks both: the other order could wait on an ingest that waits on this).
        let left = try transaction.group(old.group)
        try transaction.count(group: old.group, version: old.version, os: old.os, device: old.device, by: -1)
        if var group = left {
            try refigure(&group, without: old, in: transaction)
            try transaction.save(group, isNew: false)
        }
        var moved = report
        moved.receivedAt = old.receivedAt
        if moved.statedTime == nil { moved.seenAt = old.seenAt }
        return try ingest(moved, body: old.body, in: transaction)
    }

    /// A group's figures after `old` left it. Counts and versions come from the counts table
    /// (exact even when `--keep-reports` removed reports); times from the stored reports, but
    /// a first seen earlier than the report that left was another report's and stays (that
    /// report may be one retention removed).
    static func refigure(_ group: inout InboxGroup, without old: StoredReportRow, in transaction: some InboxTransaction) throws {
        let counts = try transaction.versionCounts(inGroup: group.id)
        group.count = counts.values.reduce(0, +)
        let versions = counts.keys.compactMap { AppVersion($0) }
        group.firstVersion = versions.min()
        group.lastVersion = versions.max()
        // A regression is a report of a version after the fix: when the reports that made it one
        // have left, the group is resolved again (or regressed in the earliest later version left).
        if group.state == .regressed, let fixed = group.resolvedIn {
            if let first = versions.filter({ fixed < $0 }).min() {
                group.regressedIn = first
            } else {
                group.state = .resolved
                group.regressedIn = nil
            }
        }
        guard group.count > 0 else {
            group.firstVersion = nil
            group.lastVersion = nil
            return
        }
        guard let stored = try transaction.stored(inGroup: group.id) else { return }
        if old.seenAt <= group.firstSeen { group.firstSeen = stored.earliest }
        group.lastSeen = stored.newest.seenAt
        group.newestReport = stored.newest.id
        group.decision = stored.newest.decision ?? group.decision
    }
}

/// A stored report's row as a replacement needs it.
struct StoredReportRow {
    var group: String
    var version: String
    var os: String
    var device: String
    var seenAt: Date
    var receivedAt: Date
    var body: Data
}

enum InboxRulesError: Error, CustomStringConvertible {
    case noSuchReport(String)

    var description: String {
        switch self {
        case .noSuchReport(let id): return "no stored report \(id)"
        }
    }
}
