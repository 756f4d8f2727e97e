import Foundation
import SymbolicateTestSupport
import Testing

/// The README's `make demo` transcript is what the tool prints (issue 39, finding 13: it had
/// fallen behind the output). `scripts/readme-demo.sh` refreshes it from a real run.
@Suite(.tags(.launchesBinary)) struct ReadmeDemoTests {
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
        // As `make demo` runs: in the clone, whose git work tree gives the crashing lines.
        let result = try CLI.run(
            [
                "--explain", "--color", "never", TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path,
                TestPaths.dsyms,
            ], environment: ["SYMBOLICATE_SOURCE_ROOT": ""], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        // The headline goes to stderr when stdout is not a terminal (on one, as `make demo`
        // shows it, it is stdout's first line, then a blank line); the rest is stdout.
        var transcript = try Self.transcript()
        let headline = transcript.removeFirst()
        #expect(result.stderr.split(separator: "\n").map(String.init).contains(headline), "README's headline: \(headline)")
        if transcript.first == "" { transcript.removeFirst() }
        let printed = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Every transcript line, in order, among the lines printed (the elided parts skipped).
        var at = printed.startIndex
        for line in transcript {
            guard let found = printed[at...].firstIndex(of: line) else {
                Issue.record("README's demo line is not printed (run scripts/readme-demo.sh): \(line)")
                return
            }
            at = printed.index(after: found)
        }
    }
}
