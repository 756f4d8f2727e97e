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
