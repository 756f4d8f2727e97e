import Foundation

/// What became of one report sent to a crash inbox (`batch --upload`): kept per report in
/// `summary.json`, counted in the totals, and named in the log when it failed.
public struct BatchUpload: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// The inbox stored it.
        case stored
        /// The inbox had it already (same bytes): nothing counted twice.
        case alreadyStored = "already-stored"
        /// It did not reach the inbox; `error` says why.
        case failed
    }

    public var status: Status
    /// The inbox's group for the report (a MetricKit payload's diagnostics each have theirs).
    public var group: String?
    /// Whether the report opened a new group, or reopened a resolved one.
    public var newGroup: Bool
    public var regression: Bool
    /// Requests made (retries included).
    public var attempts: Int
    public var error: String?

    public init(
        status: Status, group: String? = nil, newGroup: Bool = false, regression: Bool = false, attempts: Int, error: String? = nil
    ) {
        self.status = status
        self.group = group
        self.newGroup = newGroup
        self.regression = regression
        self.attempts = attempts
        self.error = error
    }
}

/// Sends a report's bytes to a crash inbox and says, per report the bytes hold, what became
/// of it: `[BatchUpload]` with one entry per report in the body's order (one entry, failed,
/// when the body as a whole did not arrive). Called from batch's worker threads; never throws.
package typealias BatchUploader = @Sendable (_ body: Data, _ name: String) -> [BatchUpload]

/// The upload figures of a run (`totals.uploads` in summary.json); nil when nothing was sent.
public struct BatchUploadTotals: Sendable, Codable, Equatable {
    public var stored: Int
    public var alreadyStored: Int
    public var failed: Int
    public var newGroups: Int
    public var regressions: Int

    init?(_ results: [BatchReportResult]) {
        let uploads = results.compactMap(\.upload)
        guard !uploads.isEmpty else { return nil }
        stored = uploads.filter { $0.status == .stored }.count
        alreadyStored = uploads.filter { $0.status == .alreadyStored }.count
        failed = uploads.filter { $0.status == .failed }.count
        newGroups = uploads.filter(\.newGroup).count
        regressions = uploads.filter(\.regression).count
    }
}
