import Foundation
import SymbolicateTestSupport

/// The naming fixtures (`Fixtures/names/*.tsv`, written by `Fixtures/names/generate.sh`): one
/// `mangled<TAB>answer` line per name, the answer from the oracle tool.
enum NameFixtures {
    static func pairs(_ file: String) throws -> [(mangled: String, answer: String)] {
        let url = TestPaths.fixtures.appendingPathComponent("names/\(file)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }
}
