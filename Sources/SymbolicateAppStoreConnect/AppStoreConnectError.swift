import Foundation
import SymbolicateJSON

/// What went wrong talking to App Store Connect, in words a user acts on. No case ever holds
/// the private key or a token.
public enum AppStoreConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key id, issuer id or `.p8` file are missing or unusable.
    case credentials(String)
    /// A command-line value App Store Connect cannot be asked with (a bad date, an app not found).
    case request(String)
    /// App Store Connect answered with an error status; `errors` is its `errors` array.
    case api(status: Int, path: String, errors: [APIError], renewed: Bool)
    /// 429 more times than waited for, or a `Retry-After` longer than the wait allowed.
    case rateLimited(path: String, said: String)
    /// No answer: connection refused, timeout, a cut body.
    case transport(path: String, reason: String)
    /// An answer not in the documented shape.
    case invalidResponse(path: String, reason: String)
    /// A file of the output folder could not be written.
    case output(path: String, reason: String)

    /// One entry of Apple's `ErrorResponse.errors`.
    public struct APIError: Sendable, Equatable {
        public var status: String?
        public var code: String?
        public var title: String?
        public var detail: String?
    }

    public var description: String {
        switch self {
        case .credentials(let why): return "App Store Connect key: \(why)"
        case .request(let why): return why
        case .api(let status, let path, let errors, let renewed):
            var text = "App Store Connect answered \(status) \(Self.reason(status)) to GET \(path)"
            let words = errors.map { e in
                [e.code, e.title, e.detail].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            }.filter { !$0.isEmpty }
            text += words.isEmpty ? " (no error description in the answer)" : ": " + words.joined(separator: "; ")
            if status == 401 {
                text +=
                    renewed
                    ? " (a freshly signed token was refused too: the key may be revoked, or the key id or issuer id may not belong to it)"
                    : ""
            }
            if status == 403 { text += " (the key's role may not allow this request)" }
            return text
        case .rateLimited(let path, let said): return "App Store Connect rate limit on GET \(path): \(said); run again later"
        case .transport(let path, let reason): return "App Store Connect did not answer GET \(path): \(reason)"
        case .invalidResponse(let path, let reason): return "App Store Connect's answer to GET \(path) is not as documented: \(reason)"
        case .output(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// Apple's `errors` array from an error body; empty when the body is not that JSON.
    static func apiErrors(_ body: [UInt8]) -> [APIError] {
        guard let json = try? JSONParser.parse(body).value, let list = json["errors"]?.arrayValue else { return [] }
        return list.map { e in
            APIError(
                status: e["status"]?.stringValue, code: e["code"]?.stringValue, title: e["title"]?.stringValue,
                detail: e["detail"]?.stringValue)
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP status"
        }
    }
}
