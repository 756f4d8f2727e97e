import Foundation
import SymbolicateStoreIndex

/// Where a PostgreSQL store index is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE]`
/// (`postgresql://` too). The password may instead come from `PGPASSWORD`, so that it is not
/// on a command line; it is never part of `location`.
package struct PostgresIndexURL: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    /// The schema the index's tables are in; nil: the connection's `search_path` (normally `public`).
    package var schema: String?
    package var tls: TLSMode

    /// libpq's `sslmode` values this index understands.
    package enum TLSMode: String, Sendable, Equatable {
        /// No TLS.
        case disable
        /// TLS when the server offers it (libpq's default).
        case prefer
        /// TLS or no connection.
        case require
    }

    /// Whether `text` names a PostgreSQL index (any other `--store-index` value is refused).
    package static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a URL; `environment` gives `PGPASSWORD` when the URL has no password.
    /// - Throws: naming the URL (without its password) and what is wrong with it.
    package init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreIndexError) {
        let shown = Self.withoutPassword(text)
        func refuse(_ message: String) -> StoreIndexError { StoreIndexError(location: shown, message: message) }
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw refuse("not a PostgreSQL URL: write postgres://USER@HOST:PORT/DATABASE")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("names no host") }
        // `[::1]` comes back with its brackets on some platforms.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw refuse("port \(port) is out of range") }
        guard let user = components.user, !user.isEmpty else { throw refuse("names no user (postgres://USER@HOST/DATABASE)") }
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else { throw refuse("names no database (postgres://USER@HOST/DATABASE)") }
        database = path.removingPercentEncoding ?? path
        schema = nil
        tls = .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                guard let name = item.value, Self.isIdentifier(name) else {
                    throw refuse("schema must be a lowercase name of letters, digits and _ (at most 63)")
                }
                schema = name
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw refuse("sslmode is disable, prefer or require")
                }
                tls = mode
            default:
                throw refuse("unknown option \(item.name) (schema and sslmode are understood)")
            }
        }
    }

    /// The URL as shown to users: never with its password.
    package var location: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        var text = "postgres://\(user)@\(hostPart):\(port)/\(database)"
        var options: [String] = []
        if let schema { options.append("schema=\(schema)") }
        if tls != .prefer { options.append("sslmode=\(tls.rawValue)") }
        if !options.isEmpty { text += "?" + options.joined(separator: "&") }
        return text
    }

    /// A lowercase SQL identifier that needs no quoting.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 63 else { return false }
        let lower: ClosedRange<Unicode.Scalar> = "a"..."z"
        let digits: ClosedRange<Unicode.Scalar> = "0"..."9"
        return (lower.contains(first) || first == "_")
            && name.unicodeScalars.allSatisfy { lower.contains($0) || digits.contains($0) || $0 == "_" }
    }

    /// `text` with anything between `user:` and `@` taken out, for messages about a URL that
    /// could not be read.
    static func withoutPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + String(rest[at...])
    }
}
