import SymbolicateCore
import SymbolicateCrashReport

/// What the readers know about a report that the scrubber needs: the identities symbolication
/// matches debug files by (kept, wherever they stand) and the incident id each reader found in
/// its own layout (replaced wherever it occurs).
public struct ScrubContext: Sendable {
    public var keep: Set<String>
    public var known: [(value: String, kind: ScrubKind)]

    public init(keep: Set<String> = [], known: [(value: String, kind: ScrubKind)] = []) {
        self.keep = keep
        self.known = known
    }

    /// The context of the reports one file holds.
    public init(reports: [CrashReport]) {
        var keep = Set<String>()
        var known: [(value: String, kind: ScrubKind)] = []
        for report in reports {
            for image in report.binaryImages {
                if let id = image.debugID { keep.insert(id.hexString) }
            }
            if let incident = report.incidentIdentifier, !known.contains(where: { $0.value == incident }) {
                known.append((incident, .incident))
            }
        }
        self.init(keep: keep, known: known)
    }
}

extension Scrubber {
    /// The text scrubbed with what the readers know about its reports.
    public mutating func scrub(_ text: String, context: ScrubContext) -> String {
        scrub(text, keep: context.keep, known: context.known)
    }
}
