import Foundation

/// What `GET /metrics` reports, in Prometheus' text format: requests by route and status,
/// latencies as a histogram, symbolications and frames resolved, and the store's size.
package final class ServeMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [Key: Int] = [:]
    private var latencyBuckets: [Int]
    private var latencyCount = 0
    private var latencySum = 0.0
    private var symbolications = 0
    private var framesSymbolicated = 0
    private var debugFileLookups = 0
    private var refusals: [String: Int] = [:]
    private var abandonedRuns = 0
    private var storeAtStart: (bytes: UInt64, entries: Int)?
    private var filesStored = 0
    private var bytesStored: UInt64 = 0
    private var deletions = 0

    /// Upper bounds of the latency histogram, in seconds.
    static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private struct Key: Hashable {
        var route: String
        var status: Int
    }

    package init() {
        latencyBuckets = Array(repeating: 0, count: Self.bounds.count)
    }

    /// One answered request. `route` is the route's pattern (`/v1/debug-files/{id}`), never the
    /// path asked for, so the number of series stays bounded.
    package func request(route: String, status: Int, seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        requests[Key(route: route, status: status), default: 0] += 1
        latencyCount += 1
        latencySum += seconds
        for (position, bound) in Self.bounds.enumerated() where seconds <= bound { latencyBuckets[position] += 1 }
    }

    /// One report symbolicated: how many frames were rewritten and images looked up.
    package func symbolicated(frames: Int, lookups: Int) {
        lock.lock()
        defer { lock.unlock() }
        symbolications += 1
        framesSymbolicated += frames
        debugFileLookups += lookups
    }

    /// The store's size when the server started, measured once off the event loop.
    package func storeMeasured(bytes: UInt64, entries: Int) {
        lock.lock()
        defer { lock.unlock() }
        storeAtStart = (bytes, entries)
    }

    /// An upload stored `files` debug files of `bytes` bytes in all.
    package func stored(files: Int, bytes: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        filesStored += files
        bytesStored &+= bytes
    }

    /// An entry removed (`DELETE /v1/debug-files/{id}`).
    package func deleted() {
        lock.lock()
        defer { lock.unlock() }
        deletions += 1
    }

    /// A symbolication stopped before its end: its request was given up on (past the time limit).
    package func abandoned() {
        lock.lock()
        defer { lock.unlock() }
        abandonedRuns += 1
    }

    /// A request refused by a limit (`body`, `concurrency`, `time`, `token`).
    package func refused(_ reason: String) {
        lock.lock()
        defer { lock.unlock() }
        refusals[reason, default: 0] += 1
    }

    /// The exposition text: counters kept as requests, uploads and deletions happen (never a
    /// walk of the store); `hasStore` adds the store's.
    package func render(hasStore: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        var lines: [String] = []
        lines.append("# HELP symbolicate_http_requests_total HTTP requests answered, by route and status.")
        lines.append("# TYPE symbolicate_http_requests_total counter")
        for (key, count) in requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            lines.append("symbolicate_http_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(count)")
        }
        lines.append("# HELP symbolicate_http_request_duration_seconds Time to answer a request.")
        lines.append("# TYPE symbolicate_http_request_duration_seconds histogram")
        for (position, bound) in Self.bounds.enumerated() {
            lines.append("symbolicate_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(latencyBuckets[position])")
        }
        lines.append("symbolicate_http_request_duration_seconds_bucket{le=\"+Inf\"} \(latencyCount)")
        lines.append("symbolicate_http_request_duration_seconds_sum \(latencySum)")
        lines.append("symbolicate_http_request_duration_seconds_count \(latencyCount)")
        lines.append("# HELP symbolicate_reports_total Reports symbolicated.")
        lines.append("# TYPE symbolicate_reports_total counter")
        lines.append("symbolicate_reports_total \(symbolications)")
        lines.append("# HELP symbolicate_frames_symbolicated_total Frames rewritten from debug files.")
        lines.append("# TYPE symbolicate_frames_symbolicated_total counter")
        lines.append("symbolicate_frames_symbolicated_total \(framesSymbolicated)")
        lines.append("# HELP symbolicate_debug_file_lookups_total Images of reports matched with a debug file.")
        lines.append("# TYPE symbolicate_debug_file_lookups_total counter")
        lines.append("symbolicate_debug_file_lookups_total \(debugFileLookups)")
        lines.append("# HELP symbolicate_abandoned_total Symbolications stopped part-way: their request was given up on.")
        lines.append("# TYPE symbolicate_abandoned_total counter")
        lines.append("symbolicate_abandoned_total \(abandonedRuns)")
        lines.append("# HELP symbolicate_refusals_total Requests refused by a limit, by reason.")
        lines.append("# TYPE symbolicate_refusals_total counter")
        for (reason, count) in refusals.sorted(by: { $0.key < $1.key }) {
            lines.append("symbolicate_refusals_total{reason=\"\(reason)\"} \(count)")
        }
        if hasStore {
            if let storeAtStart {
                lines.append("# HELP symbolicate_store_bytes_at_start Bytes the debug-file store held when the server started.")
                lines.append("# TYPE symbolicate_store_bytes_at_start gauge")
                lines.append("symbolicate_store_bytes_at_start \(storeAtStart.bytes)")
                lines.append("# HELP symbolicate_store_entries_at_start Identities the debug-file store held when the server started.")
                lines.append("# TYPE symbolicate_store_entries_at_start gauge")
                lines.append("symbolicate_store_entries_at_start \(storeAtStart.entries)")
            }
            lines.append("# HELP symbolicate_store_files_stored_total Debug files stored by uploads to this server.")
            lines.append("# TYPE symbolicate_store_files_stored_total counter")
            lines.append("symbolicate_store_files_stored_total \(filesStored)")
            lines.append("# HELP symbolicate_store_bytes_stored_total Bytes of the debug files stored by uploads to this server.")
            lines.append("# TYPE symbolicate_store_bytes_stored_total counter")
            lines.append("symbolicate_store_bytes_stored_total \(bytesStored)")
            lines.append("# HELP symbolicate_store_deletions_total Entries removed through this server.")
            lines.append("# TYPE symbolicate_store_deletions_total counter")
            lines.append("symbolicate_store_deletions_total \(deletions)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
