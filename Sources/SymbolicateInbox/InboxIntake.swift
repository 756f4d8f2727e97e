import Foundation
import SymbolicateCore
import SymbolicatePipeline

/// From an uploaded body, symbolicated (and diagnosed) by the report pipeline, to the
/// reports the inbox stores.
package enum InboxIntake {
    /// The content hash a body is stored under.
    package static func id(of body: Data) -> String { SHA256.hex(body) }

    /// One inbox report per report the body held (a MetricKit payload holds several: each is
    /// `<hash>-<n>`; a body of one report is its hash).
    package static func reports(from processed: [ProcessedReport], body: Data, receivedAt: Date) -> [InboxReport] {
        let hash = id(of: body)
        return processed.enumerated().map { position, one in
            InboxReport(processed: one, id: processed.count == 1 ? hash : "\(hash)-\(position + 1)", receivedAt: receivedAt)
        }
    }
}
