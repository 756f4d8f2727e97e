import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// GETs from the App Store Connect API with the key's bearer token, the way its documentation
/// asks to be used: the token renewed before it expires and once after a 401; a 429 waited out
/// for as long as `Retry-After` says, when that is at most `maximumWait`, at most
/// `maximumRateLimitWaits` times in a row; errors read from Apple's `errors` JSON. The client
/// follows no redirect and refuses a `links.next` on another host, so the token goes nowhere
/// but `baseURL`.
///
/// The HTTP client is set up as `SymbolicateSymbolSources`'s `HTTPDownloader`: async-http-client
/// on NIOPosix's shared event loops (on every platform), redirects off, decompression off.
package final class AppStoreConnectClient: Sendable {
    package struct Counts: Sendable, Equatable {
        /// Requests sent.
        package var requests = 0
        /// 429 answers waited out.
        package var rateLimitWaits = 0
        /// 401 answers after which a new token was signed and the request sent again.
        package var renewalsAfterRefusal = 0
    }

    let baseURL: String
    let tokens: TokenSource
    private let http: HTTPClient
    let clock: @Sendable () -> Date
    let sleep: @Sendable (Double) async -> Void
    let timeout: TimeAmount
    let maximumWait: Double
    let maximumRateLimitWaits: Int
    /// A log of 200 MiB is not a crash log.
    let maximumBodySize = 256 << 20
    private let counted = Mutex(Counts())

    package var counts: Counts { counted.withLock { $0 } }
    package var tokensSigned: Int { tokens.signed }

    package init(
        key: AppStoreConnectKey, baseURL: String, clock: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) async -> Void,
        timeoutSeconds: Int64 = 60, maximumWait: Double = 60, maximumRateLimitWaits: Int = 5
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        tokens = TokenSource(key: key)
        self.clock = clock
        self.sleep = sleep
        timeout = .seconds(timeoutSeconds)
        self.maximumWait = maximumWait
        self.maximumRateLimitWaits = maximumRateLimitWaits
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(timeoutSeconds)),
            decompression: .disabled)
        http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Must be called once the client is no longer used.
    package func shutdown() async { try? await http.shutdown() }

    /// The base URL's origin (`scheme://host:port`): where every request must go.
    private var origin: String {
        guard let url = URL(string: baseURL), let scheme = url.scheme, let host = url.host else { return baseURL }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// `target` is a path with its query (`/v1/apps/1/…?limit=200`) or an absolute URL from
    /// `links.next`, which must be on the base URL's origin.
    package func get(_ target: String, accept: String = "application/json") async throws(AppStoreConnectError) -> [UInt8] {
        let url: String
        if target.hasPrefix("/") {
            url = baseURL + target
        } else {
            guard target.hasPrefix(origin + "/") else {
                throw .invalidResponse(
                    path: Self.shown(target), reason: "a next-page link to another server (\(Self.shown(target))), not followed")
            }
            url = target
        }
        let path = Self.shown(url)
        var renewed = false
        var waits = 0
        while true {
            let token = try tokens.token(now: clock())
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            request.headers.add(name: "Authorization", value: "Bearer " + token)
            request.headers.add(name: "Accept", value: accept)
            request.headers.add(name: "User-Agent", value: "symbolicate")
            counted.withLock { $0.requests += 1 }
            let status: Int
            let body: [UInt8]
            let retryAfter: String?
            do {
                let response = try await http.execute(request, timeout: timeout)
                status = Int(response.status.code)
                retryAfter = response.headers.first(name: "Retry-After")
                let buffer = try await response.body.collect(upTo: maximumBodySize)
                body = Array(buffer.readableBytesView)
            } catch {
                throw .transport(path: path, reason: Self.describe(error))
            }
            switch status {
            case 200..<300:
                return body
            case 401 where !renewed:
                // An expired or otherwise refused token: sign a new one and ask once more.
                tokens.invalidate()
                renewed = true
                counted.withLock { $0.renewalsAfterRefusal += 1 }
                continue
            case 429:
                let seconds = Self.seconds(retryAfter: retryAfter, now: clock()) ?? Double(5 * (waits + 1))
                guard waits < maximumRateLimitWaits else {
                    throw .rateLimited(path: path, said: "still 429 Too Many Requests after waiting \(waits) times")
                }
                guard seconds <= maximumWait else {
                    throw .rateLimited(
                        path: path,
                        said: "429 Too Many Requests, Retry-After \(Int(seconds)) s (longer than the \(Int(maximumWait)) s waited)")
                }
                waits += 1
                counted.withLock { $0.rateLimitWaits += 1 }
                await sleep(max(0, seconds))
                continue
            default:
                throw .api(status: status, path: path, errors: AppStoreConnectError.apiErrors(body), renewed: renewed)
            }
        }
    }

    /// `Retry-After` as seconds from now: delta-seconds or an HTTP date (RFC 9110).
    static func seconds(retryAfter: String?, now: Date) -> Double? {
        guard let value = retryAfter?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// A URL as messages show it: path and query, no host (the query holds filters, never secrets).
    static func shown(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout: return "no complete answer within the time limit"
            case .connectTimeout: return "connection timed out"
            case .remoteConnectionClosed: return "the connection closed before the answer was complete"
            default: break
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("refused") { return "cannot connect (connection refused)" }
        if text.localizedCaseInsensitiveContains("tooMany") || text.localizedCaseInsensitiveContains("tooLarge") {
            return "the answer is larger than 256 MiB"
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
