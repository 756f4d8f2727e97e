import Foundation
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateSourceContext

/// What `symbolicate serve` is told: where to listen, which debug files to use, and the limits
/// that keep one client from taking the machine.
package struct ServeConfiguration: Sendable {
    /// Loopback unless told otherwise: a crash report can hold user data.
    package var host = "127.0.0.1"
    package var port = 8080
    /// Host names answered to besides loopback's (`--allowed-host`): see `HostNames`.
    package var allowedHosts: [String] = []
    /// The debug-file store (`--store`); nil: none (uploads are refused).
    package var storePath: String?
    /// Where the store's index is (`--store-index`): a `postgres://` URL, for several servers
    /// sharing the store; nil: the SQLite file kept with the store's files.
    package var storeIndex: String?
    /// The bearer token uploads and deletions need (`SYMBOLICATE_SERVE_TOKEN`); without one the
    /// store is read-only over HTTP.
    package var token: String?
    /// The crash inbox (`--inbox`): an SQLite file's path or a `postgres://` URL; nil: none
    /// (`POST /v1/reports` and the inbox's pages answer 404).
    package var inbox: String?
    /// The bearer token reading the inbox needs (`--read-token`: `SYMBOLICATE_SERVE_READ_TOKEN`);
    /// nil: reading is open. The upload token reads too.
    package var readToken: String?
    /// Days a report is kept in the inbox (`--keep-reports`); its group and counts stay. Nil: for ever.
    package var keepReportDays: Int?
    /// Debug files given on the command line (`--debug-files`), used for every request.
    package var debugFiles: [String] = []
    package var limits = ServeLimits()
    /// The checkout whose lines go with every answer (`--source-root`); nil shows none.
    package var sourceContext: SourceContextProvider?
    /// Where the object files a debug-mapped binary (a Debug build among `--debug-files` or in
    /// the store) names may have moved (`--object-path-map`).
    package var objectPathMap = ObjectPathMap()

    package init() {}
}

/// The limits of one server. Each refusal has its status: 413 for bodies over their limit,
/// 503 past the concurrency limit, 504 past the time limit.
package struct ServeLimits: Sendable {
    /// Largest report body: the CLI's limit for report files.
    package var reportBytes = CrashReport.defaultSizeLimit
    /// Largest debug-file upload (a dSYM zip of a large app is a few hundred MiB).
    package var uploadBytes = 2 << 30
    /// Requests worked on at once (their body in); past it, 503 at once.
    package var concurrentRequests = 64
    /// Request bodies received at once, before their request is admitted (a body being read
    /// holds no request's place, so slow bodies cannot keep ready requests out); past it 503.
    package var bodiesRead: Int { 4 * concurrentRequests }
    /// After `bodyRateGrace` seconds from its first byte, a body must have come at least this
    /// fast on average (bytes a second); else 408 and the connection is closed.
    package var minimumBodyRate = 1024
    /// How long a body may come slower than `minimumBodyRate` (a slow start, a busy server).
    package var bodyRateGrace: Double = 10
    /// Symbolications run at once, on threads of their own (the others wait for one).
    package var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The longest a request may take, body included; then 504 (the work already begun
    /// finishes in the background, still counted against `concurrentRequests`).
    package var requestSeconds: Double = 30
    /// A new connection's first request must have sent all its headers within this; then 408
    /// and the connection is closed (slow headers hold no connection for ever).
    package var headerSeconds: Double = 10
    /// The longest wait for the next piece of a request body; then the connection is closed
    /// and the request's place freed.
    package var bodySeconds: Double = 10
    /// How long a kept-alive connection may wait for its next request (headers included).
    package var idleSeconds: Double = 30
    /// Connections open at once; past it a new connection's request gets 503.
    package var connections = 512
    /// Connections open at once from one client address (below `concurrentRequests`, so that
    /// one client cannot take every place); past it 503.
    package var connectionsPerClient = 32

    package init() {}
}
