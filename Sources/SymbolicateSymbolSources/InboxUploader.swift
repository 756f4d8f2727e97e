import Foundation

/// Sends reports to a `serve --inbox` server's `POST /v1/reports` (`batch --upload`), over
/// the symbol servers' HTTP client. A call that cannot have been stored (no connection, a
/// time-out, 408, 429, 5xx) is tried again, at most `attempts` times in all, waiting longer
/// each time (or as `Retry-After` says, up to a bound): the inbox stores a body once, so a retry
/// after a lost answer counts nothing twice. An answer that will not change (401,
/// 413, a body the server cannot read) is final at once. After `giveUpAfter` reports in a row
/// found no server at all, the rest fail at once, saying so, instead of each waiting its turn.
package final class InboxUploader: Sendable {
    /// The address reports are posted to (`…/v1/reports`).
    package let endpoint: String
    /// `endpoint` without credentials or query, for messages.
    package let displayEndpoint: String
    private let token: String?
    private let client: HTTPDownloader
    package let attempts: Int
    private let pause: TimeInterval
    private let giveUpAfter: Int
    private let state = UploadState()

    /// How one body fared, with the inbox's answer for each report it held.
    package struct Result: Sendable, Equatable {
        package enum Status: Sendable, Equatable {
            /// The inbox answered 200/201: one entry per report of the body.
            case answered([Outcome])
            case failed(String)
        }
        package var status: Status
        package var attempts: Int
    }

    /// The inbox's word on one report (`IngestOutcome` as JSON).
    package struct Outcome: Sendable, Codable, Equatable {
        package var report: String
        package var group: String
        package var stored: Bool
        package var newGroup: Bool
        package var regression: Bool
    }

    /// - Parameters:
    ///   - server: the server's address (`http://host:8080`), or the full `…/v1/reports` URL.
    ///   - token: the server's upload token (`Authorization: Bearer`), if it has one.
    ///   - timeout: the most one request may take (connect, send, answer).
    ///   - attempts: requests per report at most, retries included.
    ///   - pause: the wait before the first retry (doubled before each next one).
    ///   - giveUpAfter: reports in a row that found no server, after which the rest are not tried.
    /// - Throws: `InboxUploadError` when `server` is no http(s) URL.
    package init(
        server: String, token: String?, timeout: TimeInterval = 120, attempts: Int = 3, pause: TimeInterval = 0.5, giveUpAfter: Int = 3
    ) throws(InboxUploadError) {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { throw InboxUploadError(message: "--upload \(server): not an http:// or https:// URL") }
        var trimmed = server
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        endpoint = trimmed.hasSuffix("/v1/reports") ? trimmed : trimmed + "/v1/reports"
        displayEndpoint = HTTPDownloader.withoutQuery(endpoint)
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        client = HTTPDownloader(timeout: timeout, maximumSize: 1 << 20)
        self.attempts = max(1, attempts)
        self.pause = pause
        self.giveUpAfter = max(1, giveUpAfter)
    }

    /// Requests made so far (retries included): tests count these instead of timing a run.
    package var requests: Int { client.counts.requests }

    /// Posts one report's bytes; never throws.
    package func upload(_ body: Data) -> Result {
        if state.unreachableInARow >= giveUpAfter {
            return Result(
                status: .failed("not tried: \(displayEndpoint) could not be reached for the \(giveUpAfter) reports before"), attempts: 0)
        }
        var headers = [("Content-Type", "application/octet-stream")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        var last = ""
        var reached = false
        for attempt in 1...attempts {
            var wait = pause * Double(1 << (attempt - 1))
            switch client.post(endpoint, body: body, headers: headers) {
            case .answered(let status, let answer, let retryAfter):
                reached = true
                state.reached()
                if status == 200 || status == 201 {
                    guard let read = try? JSONDecoder().decode(Answer.self, from: answer), !read.reports.isEmpty else {
                        return Result(
                            status: .failed("\(displayEndpoint) answered \(status) without the inbox's outcome"), attempts: attempt)
                    }
                    return Result(status: .answered(read.reports), attempts: attempt)
                }
                last = "\(displayEndpoint) answered \(status)" + Self.reason(answer)
                guard Self.isWorthRetrying(status) else { return Result(status: .failed(last), attempts: attempt) }
                if let retryAfter { wait = min(max(retryAfter, 0), Self.longestWait) }
            case .failed(let why, let reachable):
                last = why
                if reachable { reached = true }
            }
            if attempt < attempts { Thread.sleep(forTimeInterval: wait) }
        }
        if !reached { state.unreachable() }
        let tries = attempts == 1 ? "" : " (\(attempts) tries)"
        return Result(status: .failed(last + tries), attempts: attempts)
    }

    /// The longest `Retry-After` waited for.
    static let longestWait: TimeInterval = 10

    /// Statuses a later call may answer otherwise: time-outs, too many requests, server trouble.
    static func isWorthRetrying(_ status: Int) -> Bool { status == 408 || status == 429 || (500...599).contains(status) }

    /// The server's message from an error body (`{"error": {"message": …}}` or text), shortened.
    static func reason(_ body: Data) -> String {
        struct Wrapped: Decodable {
            struct Inner: Decodable { var message: String }
            var error: Inner
        }
        let text =
            (try? JSONDecoder().decode(Wrapped.self, from: body))?.error.message
            ?? String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return "" }
        return ": " + (text.count > 200 ? String(text.prefix(200)) + "…" : text)
    }

    private struct Answer: Decodable {
        var reports: [Outcome]
    }
}

/// Reports in a row that found no server (under a lock: batch uploads from several threads).
private final class UploadState: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var unreachableInARow: Int { lock.withLock { count } }
    func reached() { lock.withLock { count = 0 } }
    func unreachable() { lock.withLock { count += 1 } }
}

/// `--upload` given something other than an http(s) URL.
package struct InboxUploadError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
