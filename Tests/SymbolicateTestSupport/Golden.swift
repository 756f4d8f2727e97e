import Foundation

/// Golden files under `Fixtures/expected/`: compared byte for byte, rewritten instead when
/// `SYMBOLICATE_UPDATE_GOLDEN=1` (then the diff is reviewed before committing).
public enum Golden {
    public static let updating = ProcessInfo.processInfo.environment["SYMBOLICATE_UPDATE_GOLDEN"] == "1"

    /// The committed text of `Fixtures/expected/<relativePath>`; when updating, writes
    /// `output` there instead and returns nil (nothing to compare).
    public static func expected(_ relativePath: String, output: String) throws -> String? {
        let url = TestPaths.fixtures.appendingPathComponent("expected/\(relativePath)")
        if updating {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(output.utf8).write(to: url)
            return nil
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
