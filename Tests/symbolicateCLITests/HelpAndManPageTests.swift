import Foundation
import SymbolicateTestSupport
import Testing

/// Every user-visible flag must be documented: each flag `--help` lists for a subcommand has to
/// be in that subcommand's section of the man page (`.SH BATCH OPTIONS` for `batch`, `.SH
/// REPORT OPTIONS` for the default `report`; `--help`/`--version` in `.SH COMMON OPTIONS`) and in
/// the README, or users find options nobody told them about. New subcommands are read from the
/// root help, so they are covered the day they are registered.
@Suite(.tags(.launchesBinary)) struct HelpAndManPageTests {
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
                // Names are indented by two spaces; wrapped descriptions by more.
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = trimmed.split(separator: " ").first,
                    word.allSatisfy({ $0.isLetter || $0 == "-" }), word != "report"
                else { return nil }
                return [String(word)]
            }
    }

    /// Flags in the OPTIONS part of a help text, every spelling: `-o, --output <output>` gives
    /// `-o` and `--output`; `--arch, -arch <arch>` gives `--arch` and `-arch`.
    static func flags(inHelp help: String) -> [String] {
        var found: [String] = []
        for line in help.split(separator: "\n") {
            // A flag line is indented by two spaces; a wrapped description by more, and it may
            // start with a flag it mentions.
            guard line.hasPrefix("  -") else { continue }
            let trimmed = line.dropFirst(2)
            // Names run up to the value placeholder or the two spaces before the description.
            let head = trimmed.components(separatedBy: "  ").first ?? ""
            for part in head.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
                if name.hasPrefix("-"), name.count > 1, !found.contains(name) { found.append(name) }
            }
        }
        return found
    }

    /// The man page's sections, title → text, with roff escapes a reader does not see removed
    /// (`\-` is a dash, `\fB`…`\fP` change fonts).
    static func manSections() throws -> [(title: String, text: String)] {
        let man = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Man/symbolicate.1"), encoding: .utf8)
        var sections: [(title: String, text: String)] = []
        for line in man.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".SH ") {
                let title = line.dropFirst(4).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
                sections.append((title, ""))
            } else if !sections.isEmpty {
                var plain = line.replacingOccurrences(of: "\\-", with: "-")
                for font in ["\\fB", "\\fI", "\\fR", "\\fP"] { plain = plain.replacingOccurrences(of: font, with: "") }
                sections[sections.count - 1].text += plain + "\n"
            }
        }
        return sections
    }

    /// `flag` as a word of `text`: `--format` is not found inside `--format-version`.
    static func mentions(_ text: String, _ flag: String) -> Bool {
        var search = text.startIndex..<text.endIndex
        while let r = text.range(of: flag, range: search) {
            let before = r.lowerBound == text.startIndex ? " " : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? " " : text[r.upperBound]
            let isNamePart: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            if !isNamePart(before), !isNamePart(after) { return true }
            search = r.upperBound..<text.endIndex
        }
        return false
    }

    static func displayName(_ subcommand: [String]) -> String {
        (["symbolicate"] + subcommand).joined(separator: " ")
    }

    @Test(arguments: subcommands)
    func everyFlagInHelpIsInItsManPageSection(subcommand: [String]) throws {
        let result = try CLI.run(subcommand + ["--help"])
        #expect(result.status == 0, "\(subcommand) --help exited \(result.status): \(result.stderr)")
        let flags = Self.flags(inHelp: result.stdout)
        #expect(flags.contains("--help"), "no flags read from `\(Self.displayName(subcommand)) --help`")
        let sections = try Self.manSections()
        let sectionTitle = "\((subcommand.first ?? "report").uppercased()) OPTIONS"
        let common = sections.first { $0.title == "COMMON OPTIONS" }?.text ?? ""
        let own = sections.first { $0.title == sectionTitle }
        let ownFlags = flags.filter { !["-h", "--help", "--version"].contains($0) }
        if !ownFlags.isEmpty {
            #expect(
                own != nil,
                "Man/symbolicate.1 has no `.SH \(sectionTitle)` section for the flags of `\(Self.displayName(subcommand))` (\(ownFlags.joined(separator: ", "))); add one"
            )
        }
        for flag in flags {
            let isCommon = ["-h", "--help", "--version"].contains(flag)
            let text = isCommon ? common : (own?.text ?? "")
            let place = isCommon ? "COMMON OPTIONS" : sectionTitle
            guard !Self.mentions(text, flag) else { continue }
            let elsewhere = sections.filter { Self.mentions($0.text, flag) }.map(\.title)
            Issue.record(
                """
                `\(Self.displayName(subcommand)) --help` lists \(flag), but Man/symbolicate.1 does not document it \
                in its \(place) section (.SH \(place))\
                \(elsewhere.isEmpty ? "; it is nowhere in the man page" : "; it appears only in: \(elsewhere.joined(separator: ", "))")
                """)
        }
    }

    /// Issue 54: the SYNOPSIS lacked `audit`. Every subcommand `--help` lists (the default
    /// `report` as `[report]`) has its own usage line there, with every flag of its `--help`.
    @Test(arguments: subcommands)
    func synopsisListsEverySubcommandWithItsFlags(subcommand: [String]) throws {
        let synopsis = try #require(try Self.manSections().first { $0.title == "SYNOPSIS" }?.text)
        // One usage per `.br`-separated block; the default subcommand's block is the first.
        let blocks = synopsis.components(separatedBy: ".br\n")
        let name = subcommand.first ?? "report"
        let block = blocks.first { block in
            let words = block.split(whereSeparator: \.isWhitespace)
            return name == "report" ? words.prefix(5).contains("report") : words.prefix(3).contains(Substring(name))
        }
        guard let block else {
            Issue.record("Man/symbolicate.1's SYNOPSIS has no usage line for `\(Self.displayName(subcommand))`")
            return
        }
        let help = try CLI.run(subcommand + ["--help"]).stdout
        for flag in Self.flags(inHelp: help) where flag.hasPrefix("--") && !["--help", "--version"].contains(flag) {
            #expect(Self.mentions(block, flag), "SYNOPSIS line of `\(Self.displayName(subcommand))` lacks \(flag)")
        }
    }

    @Test(arguments: subcommands)
    func readmeDocumentsEveryFlag(subcommand: [String]) throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let help = try CLI.run(subcommand + ["--help"]).stdout
        for flag in Self.flags(inHelp: help) where flag.hasPrefix("--") && flag != "--help" && flag != "--version" {
            #expect(Self.mentions(readme, flag), "`\(Self.displayName(subcommand)) --help` lists \(flag), but README.md never mentions it")
        }
    }

    @Test func flagsAreReadFromHelpInEverySpelling() {
        let help = """
            OPTIONS:
              -o, --output <output>   Folder.
              --arch, -arch <arch>    The slice.
              -i                      Inlined frames.
              --source-root <source-root>
                                      --github-annotations so they match.
              -h, --help              Show help information.
            """
        #expect(Self.flags(inHelp: help) == ["-o", "--output", "--arch", "-arch", "-i", "--source-root", "-h", "--help"])
        #expect(Self.mentions("use --format-version here", "--format") == false)
        #expect(Self.mentions(".B --format text", "--format"))
    }
}
