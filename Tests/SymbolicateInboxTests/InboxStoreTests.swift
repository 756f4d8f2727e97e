import Foundation
import GRDB
import SymbolicateCore
import SymbolicateInbox
import SymbolicateTestSupport
import Testing

/// The inbox's storage on both databases (PostgreSQL when `make test` offers one): reports
/// stored once, groups and their figures, states and regressions, lists with filters and
/// pages, migrations, servers ingesting at once, re-symbolication and retention.
@Suite struct InboxStoreTests {
    /// The fixture crashes, symbolicated once for every test.
    static let samples: [(body: Data, report: InboxReport)] = {
        ["reports/swift-trap.crash", "reports/null-deref.crash", "reports/objc-exception.ips", "reports/watchdog.crash"].compactMap {
            guard let read = try? InboxFixtures.reports($0), let report = read.reports.first else { return nil }
            return (read.body, report)
        }
    }()

    static func sample(_ n: Int) throws -> InboxReport {
        try #require(samples.count == 4)
        return samples[n].report
    }

    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Reports of three versions, two OSes and two devices: 4 crashes, 24 reports.
    static func release() throws -> [InboxReport] {
        var out: [InboxReport] = []
        for (v, version) in ["1.0 (10)", "1.1 (11)", "1.2 (12)"].enumerated() {
            for crash in 0..<4 where !(crash == 3 && v == 0) {  // the watchdog is new in 1.1
                for (d, device) in ["iPhone14,5", "iPad13,4"].enumerated() {
                    out.append(
                        InboxFixtures.variant(
                            try sample(crash), version: version, os: d == 0 ? "iOS 17.5" : "iPadOS 17.5", device: device, n: d,
                            at: start.addingTimeInterval(Double(v) * day + Double(d))))
                }
            }
        }
        return out
    }

    @Test(arguments: InboxDatabase.allCases) func aBodyIsStoredOnce(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("once") else { return }
        let (body, report) = try #require(Self.samples.first)
        let first = try inbox.ingest(report, body: body)
        let again = try inbox.ingest(report, body: body)
        #expect(first.stored && first.newGroup)
        #expect(!again.stored && !again.newGroup)
        #expect(again.group == first.group)
        let detail = try #require(try inbox.group(id: first.group))
        #expect(detail.group.count == 1)
        #expect(detail.newest?.id == report.id)
        #expect(detail.newest?.frames.first(where: \.isApp)?.function != nil)
        #expect(detail.group.decision?.category == "swiftRuntimeError")
        #expect(detail.newest?.facts.machException == "EXC_BREAKPOINT")
    }

    @Test(.disabled(if: InboxTestDatabase.url == nil, InboxTestDatabase.skipped))
    func bothDatabasesGiveTheSameGroups() throws {
        let reports = try Self.release()
        var answers: [GroupPage] = []
        for database in InboxDatabase.allCases {
            let inbox = try #require(try database.open("same"))
            for report in reports { _ = try inbox.ingest(report, body: Data()) }
            answers.append(try inbox.groups(GroupQuery()))
            #expect(try inbox.groups(GroupQuery(version: "1.1", os: "iOS 17.5")).groups.map(\.count) == [1, 1, 1, 1])
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0].total == 4)
    }

    @Test(arguments: InboxDatabase.allCases) func groupsCountPerVersionOSAndDevice(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("counts") else { return }
        for report in try Self.release() { _ = try inbox.ingest(report, body: Data()) }
        let all = try inbox.groups(GroupQuery())
        #expect(all.total == 4)
        #expect(all.groups.map(\.count) == [6, 6, 6, 4])
        let watchdog = try #require(all.groups.last)
        #expect(watchdog.versions == [VersionCount(version: "1.1 (11)", count: 2), VersionCount(version: "1.2 (12)", count: 2)])
        #expect(watchdog.group.firstVersion == AppVersion("1.1 (11)"))

        // New in 1.1: the watchdog alone, by marketing version or with the build.
        #expect(try inbox.groups(GroupQuery(version: "1.1", filter: .new)).groups.map(\.group.id) == [watchdog.group.id])
        #expect(try inbox.groups(GroupQuery(version: "1.1 (11)", filter: .new)).groups.map(\.group.id) == [watchdog.group.id])
        #expect(try inbox.groups(GroupQuery(version: "1.2", filter: .new)).total == 0)
        // Filtered counts: one version, one OS.
        let ipad = try inbox.groups(GroupQuery(version: "1.2", os: "iPadOS 17.5"))
        #expect(ipad.groups.map(\.count) == [1, 1, 1, 1])
        #expect(try inbox.groups(GroupQuery(version: "9.9")).total == 0)

        let detail = try #require(try inbox.group(id: watchdog.group.id))
        #expect(detail.devices == [VersionCount(version: "iPad13,4", count: 2), VersionCount(version: "iPhone14,5", count: 2)])
        #expect(detail.systems.map(\.count) == [2, 2])
        #expect(detail.examples.count == 4)
        #expect(detail.newest?.version == AppVersion("1.2 (12)"))
        #expect(try inbox.group(id: "0000000000000000") == nil)
    }

    @Test(arguments: InboxDatabase.allCases) func pagesCoverEveryGroupOnce(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("pages") else { return }
        for report in try Self.release() { _ = try inbox.ingest(report, body: Data()) }
        var seen: [String] = []
        for page in 1...3 {
            let answer = try inbox.groups(GroupQuery(page: page, perPage: 3))
            #expect(answer.total == 4)
            #expect(answer.page == page)
            seen += answer.groups.map(\.group.id)
        }
        #expect(seen.count == 4)
        #expect(Set(seen).count == 4)
    }

    @Test(arguments: InboxDatabase.allCases) func aResolvedGroupReopensInALaterVersionOnly(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("regress") else { return }
        let crash = try Self.sample(1)
        let first = try inbox.ingest(InboxFixtures.variant(crash, version: "1.0 (10)", n: 0), body: Data())
        let fixed = try #require(AppVersion("1.1 (11)"))
        let resolved = try #require(try inbox.change(first.group, to: .resolved(in: fixed)))
        #expect(resolved.state == .resolved)
        // The fixed version and older builds still in use keep it resolved.
        let old = try inbox.ingest(InboxFixtures.variant(crash, version: "1.0 (10)", n: 1), body: Data())
        let same = try inbox.ingest(InboxFixtures.variant(crash, version: "1.1 (11)", n: 2), body: Data())
        #expect(!old.regression && !same.regression)
        #expect(try inbox.group(id: first.group)?.group.state == .resolved)
        #expect(try inbox.groups(GroupQuery(filter: .resolved)).total == 1)
        // A later one reopens it.
        let later = try inbox.ingest(InboxFixtures.variant(crash, version: "1.2 (12)", n: 3), body: Data())
        #expect(later.regression)
        let group = try #require(try inbox.group(id: first.group)?.group)
        #expect(group.state == .regressed)
        #expect(group.regressedIn == AppVersion("1.2 (12)"))
        #expect(try inbox.groups(GroupQuery(version: "1.2", filter: .regressed)).groups.map(\.group.id) == [first.group])
        #expect(try inbox.groups(GroupQuery(filter: .resolved)).total == 0)
        // Reopened and ignored by hand.
        #expect(try inbox.change(first.group, to: .ignored)?.state == .ignored)
        #expect(try inbox.change(first.group, to: .open)?.state == .open)
        #expect(try inbox.change("0000000000000000", to: .open) == nil)
    }

    @Test(arguments: InboxDatabase.allCases) func migratesFromEmptyAndFromTheFirstSchema(_ database: InboxDatabase) throws {
        guard let fresh = try database.open("fresh") else { return }
        #expect(try fresh.schemaVersion() == inboxSchemaVersion)

        // A database of schema 1 (no waits for debug files) with a report in it.
        let name = "old"
        let old = try #require(try database.open(name, schemaVersion: 1))
        #expect(try old.schemaVersion() == 1)
        let stored = try old.ingest(InboxFixtures.variant(try Self.sample(0), version: "1.0 (1)", n: 0), body: Data())
        // Opened by this code: brought to the current schema, the report kept.
        let reopened = try database.reopen(old, name: name)
        #expect(try reopened.schemaVersion() == inboxSchemaVersion)
        #expect(try reopened.group(id: stored.group)?.group.count == 1)
        var waiting = InboxFixtures.variant(try Self.sample(1), version: "1.0 (1)", n: 1)
        waiting.awaiting = [try #require(DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57"))]
        _ = try reopened.ingest(waiting, body: Data("body".utf8))
        #expect(try reopened.awaiting(waiting.awaiting).map(\.report) == [waiting.id])
    }

    /// Schema 3 keeps each group's count per version beside the finer rows: a database of
    /// schema 2 with reports in two versions, brought to 3, lists the same per-version counts
    /// it summed before, and counts on from there.
    @Test(arguments: InboxDatabase.allCases) func perVersionCountsAreCarriedIntoSchemaThree(_ database: InboxDatabase) throws {
        let name = "versions"
        guard let old = try database.open(name, schemaVersion: 2) else { return }
        #expect(try old.generation() == 0)
        let reports = try Self.release()
        for report in reports.prefix(12) { _ = try old.ingest(report, body: Data()) }
        let before = try old.groups(GroupQuery())
        let reopened = try database.reopen(old, name: name)
        #expect(try reopened.schemaVersion() == inboxSchemaVersion)
        let after = try reopened.groups(GroupQuery())
        #expect(after == before)
        #expect(after.groups.first?.versions.map(\.count).reduce(0, +) == after.groups.first?.count)
        #expect(try reopened.groups(GroupQuery(version: "1.0")) == (try old.groups(GroupQuery(version: "1.0"))))
        for report in reports.dropFirst(12) { _ = try reopened.ingest(report, body: Data()) }
        let fresh = try #require(try database.open("versions-fresh"))
        for report in reports { _ = try fresh.ingest(report, body: Data()) }
        #expect(try reopened.groups(GroupQuery()) == (try fresh.groups(GroupQuery())))
        #expect(try reopened.groups(GroupQuery(version: "1.1")) == (try fresh.groups(GroupQuery(version: "1.1"))))
    }

    /// Every committed change moves the generation on, reads never do, and a second instance
    /// on the same database sees the first one's moves (a server keeps answers by it).
    @Test(arguments: InboxDatabase.allCases) func everyChangeMovesTheGeneration(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("generation") else { return }
        let other = try database.reopen(inbox, name: "generation")
        var seen = try inbox.generation()
        func moved(_ what: Comment) throws {
            let now = try inbox.generation()
            #expect(now > seen, what)
            #expect(try other.generation() == now, what)
            seen = now
        }
        let reports = try Self.release()
        let first = try inbox.ingest(reports[0], body: Data())
        try moved("an ingest")
        _ = try inbox.groups(GroupQuery())
        _ = try inbox.group(id: first.group)
        #expect(try inbox.generation() == seen, "reads")
        _ = try other.ingest(reports[1], body: Data())
        try moved("an ingest by the other instance")
        _ = try inbox.change(first.group, to: .resolved(in: try #require(AppVersion("1.0 (10)"))))
        try moved("a state")
        _ = try inbox.replace(reports[0])
        try moved("a report stored again")
        _ = try inbox.removeReports(receivedBefore: .distantFuture)
        try moved("a removal")
    }

    @Test func aNewerSchemaIsRefused() throws {
        let path = try InboxFixtures.folder("newer").appendingPathComponent("inbox.sqlite").path
        try SQLiteInbox(path: path).close()
        // Another symbolicate's later schema: named, never changed.
        let raw = try DatabaseQueue(path: path)
        try raw.write { db in try db.execute(sql: "PRAGMA user_version = \(inboxSchemaVersion + 1)") }
        let error = try #require(throws: InboxError.self) { try SQLiteInbox(path: path) }
        #expect(error.description.contains("schema version \(inboxSchemaVersion + 1)"))
        #expect(error.description.contains(path))
        #expect(try raw.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == inboxSchemaVersion + 1)
    }

    /// Two inboxes on one database (two `serve` instances), each on its own threads, ingesting
    /// overlapping reports at once: every report once, every count exact.
    @Test(arguments: InboxDatabase.allCases) func twoInstancesIngestingAtOnceLoseAndDuplicateNothing(_ database: InboxDatabase) throws {
        guard let first = try database.open("race") else { return }
        let second = try database.reopen(first, name: "race")
        // 4 crashes × 30 reports, each sent to both instances.
        var reports: [InboxReport] = []
        for n in 0..<30 {
            for crash in 0..<4 { reports.append(InboxFixtures.variant(try Self.sample(crash), version: "1.\(n % 3) (\(n))", n: n)) }
        }
        let all = reports
        let outcomes = OutcomeList()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let inbox = worker % 2 == 0 ? first : second
            // Workers 0 and 1 go forwards, 2 and 3 backwards: the same reports meet.
            let order = worker < 2 ? all : all.reversed()
            for report in order {
                do { outcomes.add(try inbox.ingest(report, body: Data())) } catch { outcomes.fail("\(error)") }
            }
        }
        #expect(outcomes.failures.isEmpty, "\(outcomes.failures.prefix(3))")
        #expect(outcomes.stored.count == all.count)
        #expect(Set(outcomes.stored).count == all.count)
        let page = try first.groups(GroupQuery())
        #expect(page.total == 4)
        #expect(page.groups.map(\.count) == [30, 30, 30, 30])
        #expect(page.groups.map { $0.versions.reduce(0) { $0 + $1.count } } == [30, 30, 30, 30])
    }

    /// A report uploaded before its dSYM: grouped by image offset, waiting for CrashApp's
    /// UUID; when the dSYM arrives it is symbolicated again and moves to the crash's group.
    @Test(arguments: InboxDatabase.allCases) func aReportBeforeItsDSYMIsSymbolicatedAgain(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("late-dsym") else { return }
        // The same crash, already symbolicated, from another upload.
        let (symbolicatedBody, symbolicated) = try InboxFixtures.reports("reports/null-deref.ips")
        let known = try inbox.ingest(try #require(symbolicated.first), body: symbolicatedBody)

        let (body, early) = try InboxFixtures.reports("reports/null-deref.crash", debugFiles: [])
        let report = try #require(early.first)
        let uuid = try #require(DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57"))
        #expect(report.awaiting.contains(uuid))
        #expect(report.key.function?.hasPrefix("CrashApp + 0x") == true)
        let waiting = try inbox.ingest(report, body: body)
        #expect(waiting.group != known.group)

        // The dSYM arrives: what waits for it is symbolicated again, with it.
        let bodies = try inbox.awaiting([uuid])
        #expect(bodies.map(\.report) == [report.id])
        for (id, stored) in bodies {
            #expect(stored == body)
            let again = InboxFixtures.process(stored, name: id, debugFiles: [TestPaths.dsyms], receivedAt: report.receivedAt)
            let moved = try inbox.replace(try #require(again.first))
            #expect(moved.group == known.group)
        }
        #expect(try inbox.awaiting([uuid]).isEmpty)
        #expect(try inbox.group(id: known.group)?.group.count == 2)
        #expect(try inbox.group(id: waiting.group)?.group.count == 0)
        #expect(try inbox.groups(GroupQuery()).groups.map(\.group.id) == [known.group])
    }

    /// A report that moves when its dSYM arrives takes its time and version with it: the group
    /// it leaves has its first seen, versions and newest report worked out again from what
    /// remains, the group it joins gains them ("new in 0.9" follows it), and it keeps when it
    /// was received (retention counts from there, not from the re-symbolication).
    @Test(arguments: InboxDatabase.allCases) func aMovedReportTakesItsFirstSeenAndVersionWithIt(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("move-figures") else { return }
        let (symbolicatedBody, symbolicated) = try InboxFixtures.reports("reports/null-deref.ips")
        let known = try inbox.ingest(
            InboxFixtures.variant(
                try #require(symbolicated.first), version: "1.0 (10)", n: 0, at: Self.start.addingTimeInterval(2 * Self.day)),
            body: symbolicatedBody)

        // Two uploads of the crash before its dSYM: one of 0.9 (the earliest), one of 1.0.
        let (body, early) = try InboxFixtures.reports("reports/null-deref.crash", debugFiles: [])
        let waiting = try #require(early.first)
        let moving = InboxFixtures.variant(waiting, version: "0.9 (9)", n: 1, at: Self.start)
        let staying = InboxFixtures.variant(waiting, version: "1.0 (10)", n: 2, at: Self.start.addingTimeInterval(Self.day))
        let unsymbolicated = try inbox.ingest(moving, body: body).group
        #expect(try inbox.ingest(staying, body: body).group == unsymbolicated)
        #expect(try inbox.group(id: unsymbolicated)?.group.firstVersion == AppVersion("0.9 (9)"))
        #expect(try inbox.groups(GroupQuery(version: "0.9", filter: .new)).groups.map(\.group.id) == [unsymbolicated])

        // The 0.9 report is symbolicated again (its dSYM arrived three days later).
        let processed = InboxFixtures.process(body, name: "again", debugFiles: [TestPaths.dsyms], receivedAt: Self.start)
        var again = InboxFixtures.variant(try #require(processed.first), version: "0.9 (9)", n: 1, at: Self.start)
        again.id = moving.id
        again.receivedAt = Self.start.addingTimeInterval(3 * Self.day)
        #expect(try inbox.replace(again).group == known.group)

        let left = try #require(try inbox.group(id: unsymbolicated))
        #expect(left.group.count == 1)
        #expect(left.group.firstSeen == staying.seenAt)
        #expect(left.group.lastSeen == staying.seenAt)
        #expect(left.group.firstVersion == AppVersion("1.0 (10)"))
        #expect(left.group.lastVersion == AppVersion("1.0 (10)"))
        #expect(left.group.newestReport == staying.id)
        #expect(left.versions == [VersionCount(version: "1.0 (10)", count: 1)])

        let joined = try #require(try inbox.group(id: known.group))
        #expect(joined.group.count == 2)
        #expect(joined.group.firstSeen == Self.start)
        #expect(joined.group.firstVersion == AppVersion("0.9 (9)"))
        #expect(joined.group.lastVersion == AppVersion("1.0 (10)"))
        #expect(joined.versions.map(\.version) == ["0.9 (9)", "1.0 (10)"])
        #expect(joined.examples.first(where: { $0.id == moving.id })?.receivedAt == moving.receivedAt)
        #expect(try inbox.groups(GroupQuery(version: "0.9", filter: .new)).groups.map(\.group.id) == [known.group])
        #expect(try inbox.groups(GroupQuery(version: "1.0", filter: .new)).groups.map(\.group.id) == [unsymbolicated])

        // The last report leaves too: the group is empty (and listed nowhere); a later report
        // of it starts its figures again instead of inheriting the ones that left.
        var last = InboxFixtures.variant(try #require(processed.first), version: "1.0 (10)", n: 2, at: staying.seenAt)
        last.id = staying.id
        #expect(try inbox.replace(last).group == known.group)
        let empty = try #require(try inbox.group(id: unsymbolicated))
        #expect(empty.group.count == 0)
        #expect(empty.group.firstVersion == nil)
        #expect(try inbox.groups(GroupQuery(version: "1.0", filter: .new)).total == 0)
        let later = InboxFixtures.variant(waiting, version: "1.1 (11)", n: 3, at: Self.start.addingTimeInterval(5 * Self.day))
        #expect(try inbox.ingest(later, body: body).group == unsymbolicated)
        let restarted = try #require(try inbox.group(id: unsymbolicated))
        #expect(restarted.group.firstSeen == later.seenAt)
        #expect(restarted.group.firstVersion == AppVersion("1.1 (11)"))
    }

    /// The report that reopened a resolved group moves to another group once its dSYM arrives:
    /// the group it left is resolved again, nothing of a later version being left in it.
    @Test(arguments: InboxDatabase.allCases) func aRegressionWhoseReportMovesOutIsUndone(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("move-regression") else { return }
        let (symbolicatedBody, symbolicated) = try InboxFixtures.reports("reports/null-deref.ips")
        let known = try inbox.ingest(
            InboxFixtures.variant(try #require(symbolicated.first), version: "1.0 (10)", n: 0, at: Self.start), body: symbolicatedBody)
        let (body, early) = try InboxFixtures.reports("reports/null-deref.crash", debugFiles: [])
        let waiting = try #require(early.first)
        let before = InboxFixtures.variant(waiting, version: "1.0 (10)", n: 1, at: Self.start)
        let unsymbolicated = try inbox.ingest(before, body: body).group
        #expect(unsymbolicated != known.group)
        #expect(try inbox.change(unsymbolicated, to: .resolved(in: try #require(AppVersion("1.0 (10)"))))?.state == .resolved)
        let reopening = InboxFixtures.variant(waiting, version: "1.1 (11)", n: 2, at: Self.start.addingTimeInterval(Self.day))
        #expect(try inbox.ingest(reopening, body: body).regression)
        #expect(try inbox.group(id: unsymbolicated)?.group.state == .regressed)

        // The 1.1 report is symbolicated again and joins the other group.
        let processed = InboxFixtures.process(body, name: "again", debugFiles: [TestPaths.dsyms], receivedAt: Self.start)
        var again = InboxFixtures.variant(try #require(processed.first), version: "1.1 (11)", n: 2, at: reopening.seenAt)
        again.id = reopening.id
        #expect(try inbox.replace(again).group == known.group)
        let left = try #require(try inbox.group(id: unsymbolicated)?.group)
        #expect(left.state == .resolved)
        #expect(left.regressedIn == nil)
        #expect(try inbox.groups(GroupQuery(filter: .regressed)).total == 0)
    }

    @Test(arguments: InboxDatabase.allCases) func oldReportsGoAndTheirGroupsStay(_ database: InboxDatabase) throws {
        guard let inbox = try database.open("retention") else { return }
        let reports = try Self.release()
        for report in reports { _ = try inbox.ingest(report, body: Data()) }
        // Version 1.0's reports were received on the first day.
        let removed = try inbox.removeReports(receivedBefore: Self.start.addingTimeInterval(Self.day / 2))
        #expect(removed == reports.filter { $0.version == AppVersion("1.0 (10)") }.count)
        let page = try inbox.groups(GroupQuery())
        #expect(page.total == 4)
        #expect(page.groups.map(\.count) == [6, 6, 6, 4])
        for summary in page.groups {
            let detail = try #require(try inbox.group(id: summary.group.id))
            #expect(detail.examples.allSatisfy { $0.version != AppVersion("1.0 (10)") })
        }
    }
}

/// What concurrent ingests report, collected across threads.
final class OutcomeList: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var stored: [String] = []
    private(set) var failures: [String] = []

    func add(_ outcome: IngestOutcome) {
        lock.lock()
        if outcome.stored { stored.append(outcome.report) }
        lock.unlock()
    }

    func fail(_ message: String) {
        lock.lock()
        failures.append(message)
        lock.unlock()
    }
}
