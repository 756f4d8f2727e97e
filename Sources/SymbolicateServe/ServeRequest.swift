import Foundation
import SymbolicatePipeline

/// One `symbolicate serve` run, as the other commands have theirs: the flags and the
/// environment in; which of them make no server, the configuration they describe, and what
/// the run says out. The CLI only parses flags and prints.
package struct ServeRequest: Sendable {
    package var host: String
    package var port: Int
    /// `--debug-files`, used for every request.
    package var debugFiles: [String]
    /// `--store`; nil: the default place (`ServeStore.defaultRoot`).
    package var store: String?
    package var limits: ServeLimits
    /// Where the token and the default store's place are read (`SYMBOLICATE_SERVE_TOKEN`,
    /// `XDG_DATA_HOME`, `HOME`).
    package var environment: [String: String]

    package init(
        host: String = "127.0.0.1", port: Int = 8080, debugFiles: [String] = [], store: String? = nil, limits: ServeLimits = ServeLimits(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
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
        return nil
    }

    /// The server's configuration: the store at `--store` or its default place, and the upload
    /// token from `SYMBOLICATE_SERVE_TOKEN` (an empty one is none: the store is read-only).
    package var configuration: ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.debugFiles = debugFiles
        configuration.storePath = store ?? ServeStore.defaultRoot(environment: environment)
        configuration.token = environment["SYMBOLICATE_SERVE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.limits = limits
        return configuration
    }

    /// Starts the server and serves until SIGTERM or SIGINT. A server that cannot start (an
    /// unusable store or debug file) is a usage error; `say` hears every message as it happens.
    package func run(say: @escaping @Sendable (ServeMessage) -> Void) async throws -> ExitStatus {
        let server: ServeServer
        do {
            server = try ServeServer(configuration: configuration)
        } catch {
            say(.cannotStart(error))
            return .usage
        }
        let host = self.host
        try await server.run { port in say(.listening(host: host, port: port)) }
        return .success
    }
}

/// What `symbolicate serve` says on standard error besides its access log.
package enum ServeMessage: RunMessage {
    /// The store or a `--debug-files` path cannot be used.
    case cannotStart(any Error)
    /// The port is bound (the one chosen when `--port 0`).
    case listening(host: String, port: Int)

    package var severity: MessageSeverity {
        switch self {
        case .cannotStart: return .error
        case .listening: return .plain
        }
    }

    package var body: String {
        switch self {
        case .cannotStart(let error): return "\(error)"
        case .listening(let host, let port): return "listening on http://\(host):\(port)/ (open it in a browser)"
        }
    }
}
