import Foundation
import Testing

/// Every user-visible flag must be documented: `--help` of each subcommand and the man page
/// have to agree, or users find options nobody told them about.
@Suite struct HelpAndManPageTests {
    static let subcommands: [[String]] = [[], ["report"]] + extraSubcommands
    /// Subcommands registered beyond `report`, read from the root help so new ones are covered.
    static var extraSubcommands: [[String]] {
        guard let help = try? CLI.run(["--help"]).stdout,
              let range = help.range(of: "SUBCOMMANDS:")
        else { return [] }
        // The subcommand list runs from the header to the first blank line.
        return help[range.upperBound...]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst()
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .compactMap { line -> [String]? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix("  "), let word = trimmed.split(separator: " ").first,
                      word.allSatisfy({ $0.isLetter || $0 == "-" }), word != "report"
                else { return nil }
                return [String(word)]
            }
    }

    static func longOptions(in help: String) -> Set<String> {
        var found = Set<String>()
        let scalars = Array(help)
        var i = 0
        while i + 2 < scalars.count {
            if scalars[i] == "-", scalars[i + 1] == "-", scalars[i + 2].isLetter,
               i == 0 || !(scalars[i - 1].isLetter || scalars[i - 1] == "-") {
                var j = i + 2
                while j < scalars.count, scalars[j].isLetter || scalars[j].isNumber || scalars[j] == "-" { j += 1 }
                found.insert(String(scalars[(i + 2)..<j]))
                i = j
            } else {
                i += 1
            }
        }
        return found
    }

    @Test(arguments: subcommands)
    func everyOptionInHelpIsInTheManPage(subcommand: [String]) throws {
        let result = try CLI.run(subcommand + ["--help"])
        #expect(result.status == 0, "\(subcommand) --help exited \(result.status): \(result.stderr)")
        let options = Self.longOptions(in: result.stdout)
        #expect(!options.isEmpty)
        let man = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Man/symbolicate.1"), encoding: .utf8)
        // roff escapes dashes as \- ; compare with escapes removed.
        let plainMan = man.replacingOccurrences(of: "\\-", with: "-")
        for option in options.sorted() {
            #expect(plainMan.contains("--\(option)"), "Man/symbolicate.1 does not document --\(option) (from `symbolicate \(subcommand.joined(separator: " ")) --help`)")
        }
    }

    @Test func readmeDocumentsEveryOption() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for subcommand in Self.subcommands {
            let help = try CLI.run(subcommand + ["--help"]).stdout
            for option in Self.longOptions(in: help).sorted() where option != "help" && option != "version" {
                #expect(readme.contains("--\(option)"), "README.md does not mention --\(option)")
            }
        }
    }
}
