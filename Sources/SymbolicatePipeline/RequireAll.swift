import SymbolicateCrashReport
import SymbolicateSymbolication

/// Why `--require-all` fails a report, one line each: the gate never passes a report in
/// which nothing was checked, and never fails one without saying why.
public enum RequireAllShortfall: Sendable, Equatable, CustomStringConvertible {
    /// Frames of the app's executable that no image of the report covers (an App Review
    /// excerpt without its Binary Images): their addresses cannot be matched to a debug file.
    case appFramesWithoutImage(image: String, frames: Int)
    /// A partial report (cut after its header, or before any app frame) in which no app frame
    /// was there to check.
    case nothingChecked(missing: String)
    /// An app image left unsymbolicated: which one and why, in one line (issue 54: the gate
    /// failed with no reason line of its own for a missing or mismatched dSYM).
    case appImage(ImageDiagnostic)

    public var description: String {
        switch self {
        case .appFramesWithoutImage(let image, let frames):
            return
                "\(frames) frame\(frames == 1 ? "" : "s") of \(image) \(frames == 1 ? "matches" : "match") no image of the report (no Binary Images entry for it), so \(frames == 1 ? "it was" : "they were") not checked against a debug file"
        case .nothingChecked(let missing):
            return "the report is incomplete (\(missing)) and has no app frame to check"
        case .appImage(let image):
            let uuid = image.uuid.map { " \($0)" } ?? ""
            let arch = image.arch.map { " (\($0.name))" } ?? ""
            let which = "\(image.imageName)\(uuid)\(arch) was not symbolicated: "
            switch image.kind {
            case .missingDebugFile: return which + "no debug file with its UUID among the inputs"
            case .uuidMismatch:
                let other = image.debugFileUUID.map { " (UUID \($0))" } ?? ""
                return which + "\(image.debugFile ?? "the debug file of that name") is of another build\(other)"
            case .missingUUID: return which + "the report gives no UUID for it"
            case .unreadableDebugFile:
                return which + "\(image.debugFile ?? "its debug file") could not be read" + (image.detail.map { " (\($0))" } ?? "")
            case .ambiguousName: return which + "the report gives no UUID and several debug files have its name"
            case .matchedByName: return which + "matched by name only"
            case .objectFileProblem:
                return which + "object files its debug map names are missing or changed since the link"
                    + (image.detail.map { " (\($0))" } ?? "")
            }
        }
    }

    /// What `--require-all` holds against one processed report: each app image left
    /// unsymbolicated (`SymbolicationSummary.hasUnsymbolicatedAppImage`, one line each), app
    /// frames no image covers, and a partial report with nothing checked.
    package static func shortfalls(of processed: ProcessedReport) -> [RequireAllShortfall] {
        let report = processed.report
        let images = (processed.summary?.diagnostics ?? []).filter { $0.isAppImage && $0.kind != .matchedByName }
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
        return images.map(RequireAllShortfall.appImage) + found
    }
}
