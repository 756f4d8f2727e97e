import Foundation
import NIOCore
import SymbolicateDWARF
import SymbolicatePipeline
import SymbolicateSourceContext

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `symbolicate serve` run, as the other commands have theirs: the flags and the
/// environment in; which of them make no server, the configuration they describe, and what
/// the run says out. The CLI only parses flags and prints.
package struct ServeRequest: Sendable {
    package var host: String
    package var port: Int
    /// `--allowed-host`: names answered to besides loopback's.
    package var allowedHosts: [String] = []
    /// `--debug-files`, used for every request.
    package var debugFiles: [String]
    /// `--store`; nil: the default place (`ServeStore.defaultRoot`).
    package var store: String?
    /// `--store-index`: a `postgres://` URL; nil: the store's own SQLite index.
    package var storeIndex: String?
    package var limits: ServeLimits
    /// The checkout whose lines go with every answer (`--source-root`); nil shows none.
    package var sourceContext: SourceContextProvider?
    /// `--object-path-map`: where a debug map's object files have moved, for every request.
    package var objectPathMap = ObjectPathMap()
    /// `--inbox`: the crash inbox's SQLite file or `postgres://` URL; nil: no inbox.
    package var inbox: String?
    /// `--read-token`: reading the inbox needs `SYMBOLICATE_SERVE_READ_TOKEN` (or the upload token).
    package var requiresReadToken = false
    /// `--keep-reports`: days an inbox report is kept.
    package var keepReportDays: Int?
    /// Where the token and the default store's place are read (`SYMBOLICATE_SERVE_TOKEN`,
    /// `XDG_DATA_HOME`, `HOME`).
    package var environment: [String: String]

    package init(
        host: String = "127.0.0.1", port: Int = 8080, debugFiles: [String] = [], store: String? = nil, storeIndex: String? = nil,
        limits: ServeLimits = ServeLimits(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.storeIndex = storeIndex
        self.host = host
        self.port = port
        self.debugFiles = debugFiles
        self.store = store
        self.limits = limits
        self.environment = environment
    }

    /// Why the flags make no server (a usage error, shown with the usage text); nil when they do.
    package var invalidArgument: String? {
        if !(0...65535).contains(port) { return "--port must be 0…65535" }
        if limits.uploadBytes <= 0 { return "--max-upload-bytes must be positive" }
        if limits.reportBytes <= 0 { return "--max-report-bytes must be positive" }
        if limits.concurrentRequests <= 0 { return "--max-requests must be at least 1" }
        if !(limits.requestSeconds > 0) { return "--request-timeout must be positive" }
        if !(limits.headerSeconds > 0) { return "--header-timeout must be positive" }
        if !(limits.bodySeconds > 0) { return "--body-timeout must be positive" }
        if !(limits.idleSeconds > 0) { return "--idle-timeout must be positive" }
        if limits.connections <= 0 { return "--max-connections must be at least 1" }
        if limits.connectionsPerClient <= 0 { return "--max-connections-per-client must be at least 1" }
        if let bad = allowedHosts.first(where: { HostNames.name(of: $0).isEmpty || $0.contains(where: { " /\\\t@".contains($0) }) }) {
            return "--allowed-host takes a host name such as symbols.example.com (\(bad.isEmpty ? "empty" : bad) is none)"
        }
        if inbox == nil, requiresReadToken || keepReportDays != nil {
            return "\(requiresReadToken ? "--read-token" : "--keep-reports") is about the crash inbox: add --inbox FILE|postgres://…"
        }
        if let inbox, inbox.isEmpty { return "--inbox takes an SQLite file's path or a postgres:// URL" }
        if let days = keepReportDays, days < 1 { return "--keep-reports is a number of days, 1 or more" }
        if requiresReadToken, (environment["SYMBOLICATE_SERVE_READ_TOKEN"] ?? "").isEmpty {
            return "--read-token needs the token in SYMBOLICATE_SERVE_READ_TOKEN"
        }
        if let storeIndex, !ServeStore.isIndexURL(storeIndex) {
            return "--store-index is a postgres://USER@HOST:PORT/DATABASE URL (the default index is the store's own SQLite file)"
        }
        return nil
    }

    /// The server's configuration: the store at `--store` or its default place, and the upload
    /// token from `SYMBOLICATE_SERVE_TOKEN` (an empty one is none: the store is read-only).
    package var configuration: ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.allowedHosts = allowedHosts
        configuration.debugFiles = debugFiles
        configuration.storePath = store ?? ServeStore.defaultRoot(environment: environment)
        configuration.storeIndex = storeIndex
        configuration.token = environment["SYMBOLICATE_SERVE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.limits = limits
        configuration.sourceContext = sourceContext
        configuration.objectPathMap = objectPathMap
        configuration.inbox = inbox
        configuration.readToken = requiresReadToken ? environment["SYMBOLICATE_SERVE_READ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } : nil
        configuration.keepReportDays = keepReportDays
        return configuration
    }

    /// Starts the server and serves until SIGTERM or SIGINT. A server that cannot start (an
    /// unusable store or debug file, a port in use) is a usage error; `say` hears every message
    /// as it happens.
    package func run(say: @escaping @Sendable (ServeMessage) -> Void) async throws -> ExitStatus {
        let server: ServeServer
        do {
            server = try ServeServer(configuration: configuration)
        } catch {
            say(.cannotStart(error))
            return .usage
        }
        let (host, port) = (self.host, self.port)
        do {
            try await server.run { port in say(.listening(host: host, port: port)) }
        } catch let error as IOError {
            say(.cannotListen(host: host, port: port, errno: error.errnoCode))
            return .usage
        }
        return .success
    }
}

/// What `symbolicate serve` says on standard error besides its access log.
package enum ServeMessage: RunMessage {
    /// The store or a `--debug-files` path cannot be used.
    case cannotStart(any Error)
    /// The port is bound (the one chosen when `--port 0`).
    case listening(host: String, port: Int)
    /// The address cannot be listened on: the port is in use (`EADDRINUSE`), not allowed
    /// (`EACCES`, below 1024), or the host is not an address of this machine.
    case cannotListen(host: String, port: Int, errno: Int32)

    package var severity: MessageSeverity {
        switch self {
        case .cannotStart, .cannotListen: return .error
        case .listening: return .plain
        }
    }

    package var body: String {
        switch self {
        case .cannotStart(let error): return "\(error)"
        case .listening(let host, let port): return "listening on http://\(host):\(port)/ (open it in a browser)"
        case .cannotListen(let host, let port, let code):
            switch code {
            case EADDRINUSE: return "port \(port) on \(host) is in use: stop what listens there or choose another --port"
            case EACCES: return "port \(port) on \(host) is not allowed for this user: choose a --port above 1023"
            case EADDRNOTAVAIL: return "\(host) is not an address of this machine: choose another --host"
            default: return "cannot listen on port \(port) on \(host): \(String(cString: strerror(code)))"
            }
        }
    }
}
