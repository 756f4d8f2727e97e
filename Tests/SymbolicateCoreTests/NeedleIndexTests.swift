import SymbolicateCore
import Testing

/// The one-pass search for many literals (issue 47): the same needles found as a search for
/// each needle alone, for needles of one byte, of two, longer, repeated, at the text's edges,
/// and in any script.
@Suite struct NeedleIndexTests {
    @Test func findsWhatASearchForEachNeedleFinds() {
        let needles = ["", "x", "F", "Fa", "Fatal error", "error: ", "SIG", "SIGSEGV", "アプリ", "ab", "abc", "bc", "c", "\n", "zz"]
        let index = NeedleIndex(needles)
        #expect(index.count == needles.count)
        let texts = [
            "", "F", "Fatal error: boom", "xx SIGSEGV", "aaabc", "2024 アプリ Fatal", "line\nnext", "z", "abSIGbc", "cFa",
        ]
        for text in texts {
            let found = index.found(in: text)
            for (id, needle) in needles.enumerated() {
                let expected = needle.isEmpty || text.containsBytes(needle)
                #expect(found[id] == expected, "\(needle.debugDescription) in \(text.debugDescription)")
            }
        }
    }
}
