/// `symbolicate explain TERM…` joins its words into one query. The argument parser removes each
/// positional word with a linear scan, so its cost grows with the square of the word count
/// (50,000 words: 89 s, issue 54); a term is a line or two (`Namespace SPRINGBOARD, Code
/// 0x8badf00d`), and a longer text is a crash text to give as a file. Checked before parsing,
/// in one pass over the arguments.
enum TermLength {
    /// The most words a term to explain may have.
    static let maximumWords = 200

    /// The usage error for `arguments` (without the program name), nil when they are fine.
    static func refusal(_ arguments: [String], explain: String) -> String? {
        guard arguments.first == explain else { return nil }
        let words = arguments.dropFirst().lazy.filter { !$0.hasPrefix("-") }.count
        guard words > maximumWords else { return nil }
        return
            "A term to explain is at most \(maximumWords) words (\(words) given). To diagnose a crash text, save it to a file and give its path: symbolicate explain FILE."
    }
}
