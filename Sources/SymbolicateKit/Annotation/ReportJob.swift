import Foundation
import SymbolicateCrashReport

extension DebugFileIndex {
    /// Where to look when the user names no debug files: the report's folder, the current
    /// directory, then every folder of `SYMBOLICATE_DSYM_PATH` (colon-separated).
    public static func defaultSearchFolders(forReport reportPath: String,
                                            environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders = [URL(fileURLWithPath: reportPath).deletingLastPathComponent().path,
                       FileManager.default.currentDirectoryPath]
        folders += extraSearchFolders(environment: environment)
        var seen = Set<String>()
        return folders.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The folders of `SYMBOLICATE_DSYM_PATH`, searched in addition to explicit inputs.
    public static func extraSearchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        (environment["SYMBOLICATE_DSYM_PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }
}

extension Annotator {
    /// Parses and symbolicates one report file.
    public func symbolicate(contentsOf path: String) throws(CrashReportError) -> (CrashReport, SymbolicationSummary) {
        var report = try CrashReport.parse(contentsOf: path)
        let summary = annotate(&report)
        return (report, summary)
    }
}

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename, so a reader (or a crash of ours) never sees a half-written output.
public func writeAtomically(_ contents: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
    do {
        try Data(contents.utf8).write(to: temporary, options: [.withoutOverwriting])
        if rename(temporary.path, url.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw error
    }
}
