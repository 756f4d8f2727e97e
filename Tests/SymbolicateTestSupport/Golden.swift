import Foundation
import Testing

/// Golden files under `Fixtures/expected/`: compared byte for byte, rewritten instead when
/// `SYMBOLICATE_UPDATE_GOLDEN=1`. A run that rewrote anything fails (one issue per file
/// written), so a recording can never pass for a check: review the diff, then rerun without it.
public enum Golden {
    public static let updating = ProcessInfo.processInfo.environment["SYMBOLICATE_UPDATE_GOLDEN"] == "1"

    /// Compares `output` with `Fixtures/expected/<relativePath>` (or records it there, and
    /// fails the test for having recorded). `what` names the command, for the failure message.
    public static func check(
        _ output: String, against relativePath: String, what: String = "output", sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let expected = try expected(relativePath, output: output, sourceLocation: sourceLocation) else { return }
        #expect(
            output == expected,
            "\(what) differs from Fixtures/expected/\(relativePath); rerun with SYMBOLICATE_UPDATE_GOLDEN=1 and review the diff",
            sourceLocation: sourceLocation)
    }

    /// The committed text of `Fixtures/expected/<relativePath>`, never rewritten: for a test
    /// that checks one output against another path's golden.
    public static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent("expected/\(relativePath)"), encoding: .utf8)
    }

    /// The committed text of `Fixtures/expected/<relativePath>`; when updating, writes
    /// `output` there instead, records an issue saying so and returns nil.
    public static func expected(
        _ relativePath: String, output: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String? {
        let url = TestPaths.fixtures.appendingPathComponent("expected/\(relativePath)")
        if updating {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(output.utf8).write(to: url)
            Issue.record(
                "recorded Fixtures/expected/\(relativePath) (SYMBOLICATE_UPDATE_GOLDEN=1): review the diff and rerun without it",
                sourceLocation: sourceLocation)
            return nil
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
