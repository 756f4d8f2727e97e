import Foundation

extension DebugFileIndex {
    /// Where to look, top level only, when the user names no debug files: the report's
    /// folder and the current directory. (`SYMBOLICATE_DSYM_PATH`, searched recursively, is
    /// `extraSearchFolders`.) Never a recursive walk: the current directory may be `$HOME`
    /// or `/`.
    package static func defaultSearchFolders(forReport reportPath: String) -> [String] {
        let folders = [
            URL(fileURLWithPath: reportPath).deletingLastPathComponent().path,
            FileManager.default.currentDirectoryPath,
        ]
        var seen = Set<String>()
        return folders.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The folders of `SYMBOLICATE_DSYM_PATH`, searched in addition to explicit inputs.
    package static func extraSearchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        (environment["SYMBOLICATE_DSYM_PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }
}
