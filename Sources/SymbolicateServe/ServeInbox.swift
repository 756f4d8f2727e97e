import Foundation
import Hummingbird
import SymbolicateCore
import SymbolicateExplain
import SymbolicateInbox
import SymbolicatePipeline
import SymbolicateStoreIndexPostgres

/// The crash inbox of a server (`--inbox`): what `POST /v1/reports` stores, the groups the
/// API and the inbox page list, and the reports symbolicated again when their dSYM is uploaded.
package final class ServeInbox: @unchecked Sendable {
    package let store: any InboxStore
    /// `--keep-reports` in days; nil: kept for ever.
    let keepReportDays: Int?
    private let lock = NSLock()
    /// When old reports were last removed (under `lock`).
    private var pruned: Date?
    /// Read answers kept until the inbox changes.
    let answers = InboxAnswers()

    /// Opens the inbox at `location`: a `postgres://` URL, else an SQLite file's path.
    package init(location: String, keepReportDays: Int? = nil) throws(InboxError) {
        store = PostgresIndexURL.isPostgres(location) ? try PostgresInbox(url: location) : try SQLiteInbox(path: location)
        self.keepReportDays = keepReportDays
    }

    /// Removes the reports past `--keep-reports` (groups and counts stay); returns how many.
    package func prune(now: Date = Date()) throws(InboxError) -> Int {
        guard let days = keepReportDays else { return 0 }
        lock.lock()
        pruned = now
        lock.unlock()
        return try store.removeReports(receivedBefore: now.addingTimeInterval(-Double(days) * 86_400))
    }
}

extension ServeInbox {
    /// Removes old reports when the last removal is an hour old (called after each ingest).
    func pruneHourly(now: Date = Date()) throws(InboxError) {
        guard keepReportDays != nil else { return }
        lock.lock()
        let due = pruned.map { now.timeIntervalSince($0) >= 3600 } ?? true
        lock.unlock()
        if due { _ = try prune(now: now) }
    }
}

/// What `POST /v1/reports` answers: one outcome per report the body held.
struct IngestAnswer: Codable {
    var reports: [IngestOutcome]
}

/// `POST /v1/groups/{id}/state`'s body.
struct StateRequest: Codable {
    /// `open`, `resolved` (with `version`) or `ignored`.
    var state: String
    var version: String?
}

/// A group as `GET /v1/groups/{id}` answers: the stored facts, and explain's diagnosis of the
/// newest report in the language asked (its words from the catalog, never stored).
struct GroupAnswer: Encodable, Sendable {
    var detail: GroupDetail
    var diagnosis: Diagnosis?

    func encode(to encoder: any Encoder) throws {
        try detail.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(diagnosis, forKey: .diagnosis)
    }

    enum Keys: String, CodingKey { case diagnosis }
}

extension ServeServer {
    /// `POST /v1/reports`, `GET /v1/groups`, `GET /v1/groups/{id}`, `POST /v1/groups/{id}/state`.
    func addInboxRoutes(to router: Router<BasicRequestContext>) {
        router.post("/v1/reports") { request, _ in try await ingest(request) }
        router.get("/v1/groups") { request, _ in
            let inbox = try readableInbox(request)
            let query = try Self.groupQuery(request)
            let key = ["groups", query.version ?? "", query.os ?? "", query.filter?.rawValue ?? "", "\(query.page)", "\(query.perPage)"]
            let answer = try await keptAnswer(inbox, key: key) { () throws(InboxError) -> GroupPage? in try inbox.store.groups(query) }
            guard let answer else { throw HTTPError(.internalServerError, message: "the crash inbox gave no list") }
            return answer
        }
        router.get("/v1/groups/:id") { request, context in
            let inbox = try readableInbox(request)
            let id = try Self.groupID(context)
            let language = try Self.language(of: request)
            let answer = try await keptAnswer(inbox, key: ["group", id, language.rawValue]) { () throws(InboxError) -> GroupAnswer? in
                guard let detail = try inbox.store.group(id: id) else { return nil }
                // The newest report's diagnosis, in the reader's language, from its stored body.
                var diagnosis: Diagnosis?
                if let newest = detail.newest, let body = try inbox.store.body(of: newest.id), !body.isEmpty,
                    var processed = symbolicator.process(body).reports.first
                {
                    processed.diagnose(language: language)
                    diagnosis = processed.diagnosis
                }
                return GroupAnswer(detail: detail, diagnosis: diagnosis)
            }
            guard let answer else { throw HTTPError(.notFound, message: "no group \(id)") }
            return answer
        }
        router.post("/v1/groups/:id/state") { request, context in
            try authorize(request)
            let inbox = try requireInbox()
            let id = try Self.groupID(context)
            let body = try await Self.collect(request.body, limit: 4096, pace: BodyPace(minimumRate: 1, grace: 10))
            let asked: StateRequest
            do { asked = try JSONDecoder().decode(StateRequest.self, from: body) } catch {
                throw HTTPError(.badRequest, message: #"the body is JSON: {"state": "open|resolved|ignored", "version": "1.2 (34)"}"#)
            }
            let change: StateChange
            switch asked.state {
            case "open": change = .open
            case "ignored": change = .ignored
            case "resolved":
                guard let version = asked.version.flatMap({ AppVersion($0) }) else {
                    throw HTTPError(.badRequest, message: #"a resolved group names the version that fixed it: "version": "1.2 (34)""#)
                }
                change = .resolved(in: version)
            default: throw HTTPError(.badRequest, message: "state is open, resolved or ignored")
            }
            let group = try await onWorker { () throws(InboxError) -> InboxGroup? in try inbox.store.change(id, to: change) }
            guard let group else { throw HTTPError(.notFound, message: "no group \(id)") }
            return try Self.inboxJSON(group, status: .ok)
        }
        Self.allow([.post], at: "/v1/reports", in: router)
        Self.allow([.get], at: "/v1/groups", in: router)
        Self.allow([.get], at: "/v1/groups/:id", in: router)
        Self.allow([.post], at: "/v1/groups/:id/state", in: router)
    }

    /// `POST /v1/reports`: the body symbolicated with the server's debug files, diagnosed,
    /// and stored in the inbox; 201 when a report was new, 200 when all were stored before.
    func ingest(_ request: Request) async throws -> Response {
        try authorize(request)
        let inbox = try requireInbox()
        let limit = configuration.limits.reportBytes
        return try await limited(bodyLimit: limit, request: request, receive: { try await Self.collect($0, limit: limit, pace: $1) }) {
            body in
            let received = Date()
            let stop = StopFlag()
            let processed = await withTaskCancellationHandler {
                await workers.run { [symbolicator] in symbolicator.process(body, shouldStop: { stop.isSet }) }
            } onCancel: {
                stop.stop()
            }
            if let failure = processed.failure {
                return Self.response(
                    SymbolicateAnswer(output: nil, messages: [], status: failure.exitStatus, failure: failure), format: .json)
            }
            let reports = InboxIntake.reports(from: processed.reports, body: body, receivedAt: received)
            guard !reports.isEmpty else {
                throw HTTPError(.unprocessableContent, message: "the body holds no report")
            }
            let outcomes = try await onWorker { () throws(InboxError) -> [IngestOutcome] in
                var outcomes: [IngestOutcome] = []
                for report in reports { outcomes.append(try inbox.store.ingest(report, body: body)) }
                try inbox.pruneHourly()
                return outcomes
            }
            return try Self.inboxJSON(IngestAnswer(reports: outcomes), status: outcomes.contains(where: \.stored) ? .created : .ok)
        }
    }

    /// Symbolicates again the inbox's reports that waited for these debug files (just
    /// uploaded): each moves to the group its symbolicated frames name. Returns how many.
    func resymbolicateWaiting(for ids: [DebugID]) -> Int {
        guard let inbox, !ids.isEmpty else { return 0 }
        do {
            var done = 0
            for (id, body) in try inbox.store.awaiting(ids) {
                let processed = symbolicator.process(body)
                let received = Date()
                let reports = InboxIntake.reports(from: processed.reports, body: body, receivedAt: received)
                guard let report = reports.first(where: { $0.id == id }) ?? (reports.count == 1 ? reports.first : nil) else { continue }
                var again = report
                again.id = id
                _ = try inbox.store.replace(again)
                done += 1
            }
            return done
        } catch {
            logger.error("inbox reports not symbolicated again", metadata: ["reason": "\(error)"])
            return 0
        }
    }

    /// The inbox, or 404 on a server without one.
    private func requireInbox() throws -> ServeInbox {
        guard let inbox else { throw HTTPError(.notFound, message: "this server keeps no crash inbox (start it with --inbox)") }
        return inbox
    }

    /// The inbox for a reader: open, or with `--read-token` the read token (or the upload token).
    func readableInbox(_ request: Request) throws -> ServeInbox {
        let inbox = try requireInbox()
        if let refusal = readRefusal(request.headers[.authorization]) {
            metrics.refused("token")
            throw refusal
        }
        return inbox
    }

    func readRefusal(_ given: String?) -> HTTPError? {
        guard let readToken = configuration.readToken, !readToken.isEmpty else { return nil }
        if let given, Self.sameBytes(given, "Bearer " + readToken) { return nil }
        if let given, let token = configuration.token, !token.isEmpty, Self.sameBytes(given, "Bearer " + token) { return nil }
        return HTTPError(
            .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
            message: "reading the inbox needs a bearer token: send Authorization: Bearer <SYMBOLICATE_SERVE_READ_TOKEN>")
    }

    /// Runs inbox work on a worker thread (the databases' calls wait); its error is the server's (500, logged).
    func onWorker<T: Sendable>(_ work: @escaping @Sendable () throws(InboxError) -> T) async throws -> T {
        let result = await workers.run { () -> Result<T, InboxError> in Result { () throws(InboxError) in try work() } }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            logger.error("crash inbox", metadata: ["reason": "\(error)"])
            throw HTTPError(.internalServerError, message: "the crash inbox could not be read or written; the server's log says why")
        }
    }

    /// An inbox read as a JSON answer, kept under `key` until the inbox's generation moves (read
    /// first, so an answer is never kept under a generation newer than what it shows); nil when
    /// `read` finds nothing.
    func keptAnswer<T: Encodable & Sendable>(
        _ inbox: ServeInbox, key: [String], read: @escaping @Sendable () throws(InboxError) -> T?
    ) async throws -> Response? {
        let generation = try await onWorker { () throws(InboxError) -> Int64 in try inbox.store.generation() }
        let body = try await inbox.answers.answer(for: key.joined(separator: "\u{1F}"), at: generation) {
            guard let value = try await self.onWorker(read) else { return nil }
            return try Self.inboxJSONBody(value)
        }
        return body.map { Self.jsonResponse($0, status: .ok) }
    }

    /// `?version=&state=&os=&page=&per_page=`: each checked, a 400 for what is not understood.
    static func groupQuery(_ request: Request) throws -> GroupQuery {
        let parameters = request.uri.queryParameters
        var query = GroupQuery()
        query.version = parameters["version"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        query.os = parameters["os"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        if let state = parameters["state"].map(String.init), !state.isEmpty {
            guard let filter = GroupQuery.Filter(rawValue: state) else {
                throw HTTPError(
                    .badRequest, message: "state is one of \(GroupQuery.Filter.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if filter == .new, query.version == nil {
                throw HTTPError(.badRequest, message: "state=new lists the groups first seen in a version: add version=")
            }
            query.filter = filter
        }
        if let page = parameters["page"] {
            guard let number = Int(page), number >= 1, number <= 1_000_000 else {
                throw HTTPError(.badRequest, message: "page is 1 or more")
            }
            query.page = number
        }
        if let size = parameters["per_page"] {
            guard let number = Int(size), (1...GroupQuery.largestPage).contains(number) else {
                throw HTTPError(.badRequest, message: "per_page is 1…\(GroupQuery.largestPage)")
            }
            query.perPage = number
        }
        return query
    }

    /// The inbox's answers: as every JSON answer, with times in ISO 8601 (UTC).
    static func inboxJSON(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        jsonResponse(try inboxJSONBody(value), status: status)
    }

    static func inboxJSONBody(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    static func jsonResponse(_ data: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A group's id: 16 hex digits, never a path.
    static func groupID(_ context: BasicRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count == 16, id.allSatisfy(\.isHexDigit) else {
            throw HTTPError(.badRequest, message: "a group's id is 16 hex digits")
        }
        return id.lowercased()
    }
}
