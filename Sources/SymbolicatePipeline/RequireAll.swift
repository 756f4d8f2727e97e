import SymbolicateCrashReport
import SymbolicateSymbolication

/// Why `--require-all` fails a report beyond an app image without a debug file (which the
/// image's own warning names): the gate never passes a report in which nothing was checked.
public enum RequireAllShortfall: Sendable, Equatable, CustomStringConvertible {
    /// Frames of the app's executable that no image of the report covers (an App Review
    /// excerpt without its Binary Images): their addresses cannot be matched to a debug file.
    case appFramesWithoutImage(image: String, frames: Int)
    /// A partial report (cut after its header, or before any app frame) in which no app frame
    /// was there to check.
    case nothingChecked(missing: String)

    public var description: String {
        switch self {
        case .appFramesWithoutImage(let image, let frames):
            return
                "\(frames) frame\(frames == 1 ? "" : "s") of \(image) \(frames == 1 ? "matches" : "match") no image of the report (no Binary Images entry for it), so \(frames == 1 ? "it was" : "they were") not checked against a debug file"
        case .nothingChecked(let missing):
            return "the report is incomplete (\(missing)) and has no app frame to check"
        }
    }

    /// What `--require-all` holds against one processed report, besides
    /// `SymbolicationSummary.hasUnsymbolicatedAppImage`.
    package static func shortfalls(of processed: ProcessedReport) -> [RequireAllShortfall] {
        let report = processed.report
        var found: [RequireAllShortfall] = []
        let executable = report.processPath.flatMap { $0.split(separator: "/").last.map(String.init) } ?? report.processName
        if let executable, !executable.isEmpty {
            let frames =
                report.threads.flatMap(\.frames) + (report.lastExceptionBacktrace?.frames ?? [])
                + report.asiBacktraces.flatMap(\.frames)
            let unmatched = frames.filter { $0.imageIndex == nil && $0.imageName == executable && $0.symbolication == nil }.count
            if unmatched > 0 { found.append(.appFramesWithoutImage(image: executable, frames: unmatched)) }
        }
        if !report.completeness.isComplete, (processed.summary?.appFrames ?? 0) == 0, found.isEmpty {
            found.append(.nothingChecked(missing: report.completeness.summary))
        }
        return found
    }
}
