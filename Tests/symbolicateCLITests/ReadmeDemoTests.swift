import Foundation
import SymbolicateTestSupport
import Testing

/// The README's `make demo` transcript is what the tool prints (issue 39, finding 13: it had
/// fallen behind the output). `scripts/readme-demo.sh` refreshes it from a real run.
@Suite struct ReadmeDemoTests {
    /// The lines of the transcript block, without the script's `… (…) …` elisions.
    static func transcript() throws -> [String] {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "`make demo` prints (colours omitted):\n\n```text\n"
        let start = try #require(readme.range(of: marker), "README has the demo transcript")
        let rest = readme[start.upperBound...]
        let end = try #require(rest.range(of: "\n```"))
        return rest[..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("… (") }
    }

    @Test func theDemoTranscriptIsWhatTheToolPrints() throws {
        let result = try CLI.run([
            "--explain", "--color", "never", TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path,
            TestPaths.dsyms,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = (result.stdout + result.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Every transcript line, in order, among the lines printed (the elided parts skipped).
        var at = printed.startIndex
        for line in try Self.transcript() {
            guard let found = printed[at...].firstIndex(of: line) else {
                Issue.record("README's demo line is not printed (run scripts/readme-demo.sh): \(line)")
                return
            }
            at = printed.index(after: found)
        }
    }
}
