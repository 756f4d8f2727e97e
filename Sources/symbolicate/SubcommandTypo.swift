import Foundation
import SymbolicateExplain

/// A mistyped subcommand (`symbolicate explan EXC_BAD_ACCESS`, `symbolicate help serv`) would
/// otherwise be read as a report path ("explan: no such file", exit 65) or answered with the
/// top-level help (exit 0). Checked before parsing: the first argument that is no existing file
/// and is a few edits from a subcommand's name is a usage error with the name it was likely meant as.
enum SubcommandTypo {
    /// The usage error to print for `arguments` (without the program name), nil when they are fine.
    static func refusal(_ arguments: [String], subcommands: [String], fileExists: (String) -> Bool) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if first == "help" {
            guard arguments.count > 1, let asked = arguments.dropFirst().first, !asked.hasPrefix("-"),
                !(subcommands + ["help"]).contains(asked)
            else { return nil }
            return "No subcommand '\(asked)'."
                + hint(asked, subcommands: subcommands, orElse: " Subcommands: \(subcommands.joined(separator: ", ")).")
        }
        guard !subcommands.contains(first), !fileExists(first), let near = nearest(first, in: subcommands + ["help"]) else { return nil }
        return "'\(first)' is neither a file nor a subcommand. Did you mean '\(near)'?"
    }

    /// The one subcommand name within a small edit distance of `word` (two edits, one for
    /// names of three letters or fewer), the closest first; nil when none is that close.
    static func nearest(_ word: String, in names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(word.lowercased(), $0)) }
            .filter { $0.distance > 0 && $0.distance <= ($0.name.count <= 3 ? 1 : 2) }
        return scored.min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
    }

    private static func hint(_ word: String, subcommands: [String], orElse other: String) -> String {
        nearest(word, in: subcommands).map { " Did you mean '\($0)'?" } ?? other
    }
}
