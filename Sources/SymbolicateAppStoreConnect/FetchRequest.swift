import Foundation
import SymbolicateBatch
import SymbolicateCore
import SymbolicateJSON
import SymbolicatePipeline

/// What `symbolicate fetch` downloads.
public enum FetchKind: String, Sendable, CaseIterable {
    /// TestFlight testers' crash submissions and their crash logs.
    case crashes
    /// The builds' diagnostic signatures (hangs, disk writes, launches) and their logs.
    case diagnostics
    case all
}

/// `symbolicate fetch`: an app's TestFlight crash logs and diagnostic logs from App Store
/// Connect, written into a folder one file per crash (names that sort by date; a file already
/// there is not asked for again), and, when asked, run through `batch` with the team's debug
/// files.
///
/// Endpoints (App Store Connect API, OpenAPI description `AppStoreConnectSpec.openAPIVersion`):
/// - `GET /v1/apps?filter[bundleId]=…`: the app's id when `--app` is a bundle id;
/// - `GET /v1/builds?filter[app]=…&filter[preReleaseVersion.version]=…&sort=-uploadedDate`: the
///   builds of `--version` (all builds for diagnostics without it);
/// - `GET /v1/apps/{id}/betaFeedbackCrashSubmissions?sort=-createdDate[&filter[build]=…]`: the
///   crash submissions, newest first (so paging stops at the first older than `--since`);
/// - `GET /v1/betaFeedbackCrashSubmissions/{id}/crashLog`: `BetaCrashLog.attributes.logText`;
/// - `GET /v1/builds/{id}/diagnosticSignatures`, then `GET /v1/diagnosticSignatures/{id}/logs`
///   (`application/vnd.apple.diagnostic-logs+json`), written as received.
/// Every collection is read page by page through `links.next` with `limit=200`.
public struct FetchRequest: Sendable {
    public var key: AppStoreConnectKey
    /// The app's App Store Connect id (digits) or its bundle id.
    public var app: String
    /// The app's version (`CFBundleShortVersionString`): only its builds.
    public var version: String?
    /// Only crashes submitted (diagnostics: builds uploaded) in this window, inclusive.
    public var since: Date?
    public var until: Date?
    public var kind: FetchKind
    public var outputFolder: String
    /// Debug files for `--symbolicate`: nil to only download.
    public var symbolicateWith: [String]?
    public var searchFolders: [String] = []
    /// Where the API is (`SYMBOLICATE_APP_STORE_CONNECT_URL`, else Apple's).
    public var baseURL = AppStoreConnectSpec.productionBaseURL
    /// One line per file written or skipped (stderr in the CLI).
    public var progress: (@Sendable (String) -> Void)?
    package var clock: @Sendable () -> Date = { Date() }
    package var sleep: @Sendable (Double) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
    /// Bounds on waiting out 429s (tests shorten them).
    package var maximumWait: Double = 60

    public init(
        key: AppStoreConnectKey, app: String, version: String? = nil, since: Date? = nil, until: Date? = nil, kind: FetchKind = .all,
        outputFolder: String, symbolicateWith: [String]? = nil
    ) {
        self.key = key
        self.app = app
        self.version = version
        self.since = since
        self.until = until
        self.kind = kind
        self.outputFolder = outputFolder
        self.symbolicateWith = symbolicateWith
    }

    /// Where the base URL may point: https anywhere, plain http only on this machine (a local
    /// proxy or test server), so a token never crosses a network unencrypted.
    public static func checkBaseURL(_ text: String) throws(AppStoreConnectError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            throw .request("SYMBOLICATE_APP_STORE_CONNECT_URL \(text): not a URL")
        }
        if scheme == "https" { return }
        guard scheme == "http", ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
            throw .request("SYMBOLICATE_APP_STORE_CONNECT_URL \(text): must be https (plain http only to 127.0.0.1 or localhost)")
        }
    }

    /// Runs the request; never throws and never prints (but `progress`).
    public func run() async -> FetchResponse {
        var response = FetchResponse()
        do throws(AppStoreConnectError) {
            try Self.checkBaseURL(baseURL)
            try prepareFolder()
        } catch {
            return response.fail(error)
        }
        let client = AppStoreConnectClient(
            key: key, baseURL: baseURL, clock: clock, sleep: sleep, maximumWait: maximumWait)
        do throws(AppStoreConnectError) {
            try await download(client, into: &response)
        } catch {
            response.counts.requests = client.counts.requests
            await client.shutdown()
            // What was written stays (whole files only): a second run asks for the rest.
            if response.counts.crashLogs + response.counts.diagnosticLogs > 0 {
                response.messages.append(.fetched(response.counts, folder: outputFolder))
            }
            return response.fail(error)
        }
        response.counts.requests = client.counts.requests
        await client.shutdown()
        response.messages.append(.fetched(response.counts, folder: outputFolder))
        if let debugFiles = symbolicateWith { symbolicate(debugFiles, into: &response) }
        return response
    }

    // MARK: - Downloading

    private func download(_ client: AppStoreConnectClient, into response: inout FetchResponse) async throws(AppStoreConnectError) {
        let existing = existingStems()
        let appID = try await resolveApp(client)
        let builds = try await self.builds(client, appID: appID)
        if kind != .diagnostics {
            try await fetchCrashes(client, appID: appID, builds: builds, existing: existing, into: &response)
        }
        if kind != .crashes {
            try await fetchDiagnostics(client, builds: builds, existing: existing, into: &response)
        }
    }

    /// The app id: `--app` itself when it is digits, else the app whose bundle id it is.
    private func resolveApp(_ client: AppStoreConnectClient) async throws(AppStoreConnectError) -> String {
        if !app.isEmpty, app.allSatisfy(\.isNumber) { return app }
        let query =
            "/v1/apps?"
            + Self.query([("filter[bundleId]", app), ("fields[apps]", "bundleId"), ("limit", "\(AppStoreConnectSpec.pageLimit)")])
        var found: String?
        try await eachPage(client, query) { item in
            if item["attributes"]?["bundleId"]?.stringValue == app, let id = item["id"]?.stringValue { found = id }
            return found == nil
        }
        guard let found else { throw .request("--app \(app): no app with this id or bundle id is visible to \(key)") }
        return found
    }

    /// One build: its id, version (build number) and upload date.
    struct Build: Sendable {
        var id: String
        var number: String?
        var uploaded: Date?
        var uploadedText: String?
    }

    /// The builds of `--version`, newest first; nil when crashes need no build filter and no
    /// diagnostics are asked for.
    private func builds(_ client: AppStoreConnectClient, appID: String) async throws(AppStoreConnectError) -> [Build]? {
        guard version != nil || kind != .crashes else { return nil }
        var parameters = [("filter[app]", appID), ("sort", "-uploadedDate"), ("fields[builds]", "version,uploadedDate")]
        if let version { parameters.append(("filter[preReleaseVersion.version]", version)) }
        parameters.append(("limit", "\(AppStoreConnectSpec.pageLimit)"))
        let query = "/v1/builds?" + Self.query(parameters)
        var builds: [Build] = []
        try await eachPage(client, query) { item in
            guard let id = item["id"]?.stringValue else { return true }
            let uploadedText = item["attributes"]?["uploadedDate"]?.stringValue
            builds.append(
                Build(
                    id: id, number: item["attributes"]?["version"]?.stringValue, uploaded: uploadedText.flatMap(Self.date),
                    uploadedText: uploadedText))
            return true
        }
        if let version, builds.isEmpty { throw .request("--version \(version): the app has no build of this version") }
        return builds
    }

    private func fetchCrashes(
        _ client: AppStoreConnectClient, appID: String, builds: [Build]?, existing: Set<String>, into response: inout FetchResponse
    ) async throws(AppStoreConnectError) {
        var parameters = [("sort", "-createdDate")]
        if version != nil, let builds { parameters.append(("filter[build]", builds.map(\.id).joined(separator: ","))) }
        parameters.append(("limit", "\(AppStoreConnectSpec.pageLimit)"))
        let query = "/v1/apps/\(Self.encoded(appID))/betaFeedbackCrashSubmissions?" + Self.query(parameters)
        var submissions: [(id: String, created: Date)] = []
        try await eachPage(client, query) { item in
            guard let id = item["id"]?.stringValue, let createdText = item["attributes"]?["createdDate"]?.stringValue,
                let created = Self.date(createdText)
            else { return true }
            if let until, created > until { return true }
            // Newest first: the first older than --since ends the list.
            if let since, created < since { return false }
            submissions.append((id, created))
            return true
        }
        for submission in submissions {
            let stem = Self.stamp(submission.created) + "-crash-" + Self.safe(submission.id)
            if existing.contains(stem) {
                response.counts.skipped += 1
                progress?("skipped \(stem) (already in \(outputFolder))")
                continue
            }
            let target = "/v1/betaFeedbackCrashSubmissions/\(Self.encoded(submission.id))/crashLog"
            let body = try await client.get(target)
            guard let json = try? JSONParser.parse(body).value, let data = json["data"] else {
                throw .invalidResponse(path: target, reason: "not a BetaCrashLogResponse (no data object)")
            }
            guard let text = data["attributes"]?["logText"]?.stringValue, !text.isEmpty else {
                response.counts.withoutLog += 1
                progress?("no crash log for submission \(submission.id)")
                continue
            }
            let isJSON = text.drop(while: \.isWhitespace).hasPrefix("{")
            let name = stem + (isJSON ? ".ips" : ".crash")
            try write(Array(text.utf8), name: name)
            response.counts.crashLogs += 1
            response.files.append(name)
            progress?("downloaded \(name)")
        }
    }

    private func fetchDiagnostics(
        _ client: AppStoreConnectClient, builds: [Build]?, existing: Set<String>, into response: inout FetchResponse
    ) async throws(AppStoreConnectError) {
        for build in builds ?? [] {
            if let uploaded = build.uploaded {
                if let since, uploaded < since { continue }
                if let until, uploaded > until { continue }
            } else if since != nil || until != nil {
                continue
            }
            let query = "/v1/builds/\(Self.encoded(build.id))/diagnosticSignatures?limit=\(AppStoreConnectSpec.pageLimit)"
            var signatures: [(id: String, type: String)] = []
            try await eachPage(client, query) { item in
                guard let id = item["id"]?.stringValue else { return true }
                signatures.append((id, item["attributes"]?["diagnosticType"]?.stringValue ?? "DIAGNOSTIC"))
                return true
            }
            for signature in signatures {
                let stem =
                    (build.uploaded.map(Self.stamp) ?? "undated") + "-diagnostic-" + Self.safe(build.number ?? build.id) + "-"
                    + Self.safe(signature.type.lowercased()) + "-" + Self.safe(signature.id)
                if existing.contains(stem) {
                    response.counts.skipped += 1
                    progress?("skipped \(stem) (already in \(outputFolder))")
                    continue
                }
                let target = "/v1/diagnosticSignatures/\(Self.encoded(signature.id))/logs"
                let body = try await client.get(target, accept: "application/vnd.apple.diagnostic-logs+json")
                guard Self.isDiagnosticLogs(body) else {
                    throw .invalidResponse(path: target, reason: "not DiagnosticLogs JSON (no productData array)")
                }
                let name = stem + ".json"
                try write(body, name: name)
                response.counts.diagnosticLogs += 1
                response.files.append(name)
                progress?("downloaded \(name)")
            }
        }
    }

    /// Reads a collection page by page (`links.next`); `each` answers whether to go on.
    private func eachPage(
        _ client: AppStoreConnectClient, _ first: String, _ each: (JSONValue) -> Bool
    ) async throws(AppStoreConnectError) {
        var next: String? = first
        var seen: Set<String> = []
        while let target = next {
            guard seen.insert(target).inserted else {
                throw .invalidResponse(path: AppStoreConnectClient.shown(target), reason: "links.next points back at a page already read")
            }
            let body = try await client.get(target)
            guard let json = try? JSONParser.parse(body).value, let data = json["data"]?.arrayValue else {
                throw .invalidResponse(path: AppStoreConnectClient.shown(target), reason: "no data array")
            }
            for item in data where !each(item) { return }
            next = json["links"]?["next"]?.stringValue
        }
    }

    /// Whether a body is `DiagnosticLogs` JSON. Its call trees nest two levels per frame: read
    /// with the deep bound and released through a `DeepJSON`, as the reader does.
    static func isDiagnosticLogs(_ body: [UInt8]) -> Bool {
        guard let value = try? JSONParser.parse(body, maxDepth: JSONParser.deepMaxDepth).value else { return false }
        let logs = DeepJSON(value)
        return logs.value["productData"]?.arrayValue != nil
    }

    // MARK: - Files

    private func prepareFolder() throws(AppStoreConnectError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputFolder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .output(path: outputFolder, reason: "exists and is not a folder") }
            return
        }
        do { try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true) } catch {
            throw .output(path: outputFolder, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// The names already in the folder, without their extension: what is not asked for again.
    private func existingStems() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: outputFolder)) ?? []
        return Set(names.filter { !$0.hasPrefix(".") }.map { ($0 as NSString).deletingPathExtension })
    }

    /// Written to a temporary file beside it, then renamed: an interrupted run leaves whole files only.
    private func write(_ bytes: [UInt8], name: String) throws(AppStoreConnectError) {
        let path = (outputFolder as NSString).appendingPathComponent(name)
        do {
            let writer = try AtomicFileWriter(path: path)
            do {
                try bytes.withUnsafeBytes { try writer.write(bytes: $0) }
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch {
            throw .output(path: path, reason: (error as? OutputFileError)?.reason ?? "\(error)")
        }
    }

    // MARK: - Symbolicating

    private func symbolicate(_ debugFiles: [String], into response: inout FetchResponse) {
        let reports = ((try? FileManager.default.contentsOfDirectory(atPath: outputFolder)) ?? [])
            .filter { name in [".crash", ".ips", ".json"].contains { name.hasSuffix($0) } && !name.hasPrefix(".") }
            .sorted().map { (outputFolder as NSString).appendingPathComponent($0) }
        guard !reports.isEmpty else { return }
        let request = BatchRequest(
            inputs: reports, debugFiles: debugFiles, searchFolders: searchFolders,
            outputFolder: (outputFolder as NSString).appendingPathComponent("symbolicated"))
        let batch = request.run()
        response.messages += batch.messages.map { FetchMessage.batch($0) }
        response.batchSummary = batch.summary
        if batch.status != .success { response.status = batch.status }
    }

    // MARK: - Helpers

    /// App Store Connect's dates: ISO 8601, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `2026-03-01T10-22-33Z`: sorts by date, and is a valid file name everywhere.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss'Z'"
        return formatter.string(from: date)
    }

    /// An id as part of a file name: letters, digits, `-` and `_` kept, the rest `_`.
    static func safe(_ text: String) -> String {
        let kept = String(text.prefix(100).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return kept.isEmpty ? "_" : kept
    }

    /// A query string, names and values percent-encoded (`filter[app]` as `filter%5Bapp%5D`).
    static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { encoded($0.0) + "=" + encoded($0.1) }.joined(separator: "&")
    }

    static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// What a fetch did, counted.
public struct FetchCounts: Sendable, Equatable {
    public var crashLogs = 0
    public var diagnosticLogs = 0
    /// Already in the folder: not asked for again.
    public var skipped = 0
    /// Crash submissions App Store Connect has no log text for.
    public var withoutLog = 0
    /// HTTP requests sent.
    public var requests = 0
}

/// What `symbolicate fetch` has to say.
public enum FetchMessage: RunMessage, Equatable {
    case fetched(FetchCounts, folder: String)
    case failure(AppStoreConnectError)
    case batch(BatchMessage)

    public var severity: MessageSeverity {
        switch self {
        case .fetched: return .plain
        case .failure: return .error
        case .batch(let message): return message.severity
        }
    }

    public var stream: SymbolicatePipeline.OutputStream {
        switch self {
        case .fetched: return .standardOutput
        case .failure: return .standardError
        case .batch(let message): return message.stream
        }
    }

    public var body: String {
        switch self {
        case .fetched(let counts, let folder):
            var text = "\(counts.crashLogs) crash log\(counts.crashLogs == 1 ? "" : "s") and "
            text += "\(counts.diagnosticLogs) diagnostic log\(counts.diagnosticLogs == 1 ? "" : "s") downloaded to \(folder)"
            text += ", \(counts.skipped) already there"
            if counts.withoutLog > 0 { text += ", \(counts.withoutLog) submission\(counts.withoutLog == 1 ? "" : "s") without a log" }
            return text
        case .failure(let error): return error.description
        case .batch(let message): return message.body
        }
    }

    public func text(tool: String) -> String {
        switch self {
        case .batch(let message): return message.text(tool: tool)
        case .fetched: return "\(tool): \(body)\n"
        case .failure: return "\(tool): error: \(body)\n"
        }
    }
}

/// What a fetch produced.
public struct FetchResponse: Sendable {
    public var messages: [FetchMessage] = []
    public var counts = FetchCounts()
    /// The files written this run, in order.
    public var files: [String] = []
    /// `--symbolicate`'s batch summary.
    public var batchSummary: BatchSummary?
    public var status: ExitStatus = .success

    public init() {}

    mutating func fail(_ error: AppStoreConnectError) -> FetchResponse {
        messages.append(.failure(error))
        status = error.exitStatus
        return self
    }
}

extension AppStoreConnectError {
    /// 64 for what the command line gave (key, dates, app), 73 for an unwritable folder, 1 for
    /// App Store Connect refusing or not answering.
    public var exitStatus: ExitStatus {
        switch self {
        case .credentials, .request: return .usage
        case .output: return .cannotWrite
        case .api, .rateLimited, .transport, .invalidResponse: return .failed
        }
    }
}
