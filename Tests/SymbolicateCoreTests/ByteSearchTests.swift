import SymbolicateCore
import Testing

/// The literal searches the readers and rules use in place of Foundation's (issue 47): the same
/// answers as a search over characters, for ASCII markers and for text around them in any script.
@Suite struct ByteSearchTests {
    @Test func rangesAndContainment() {
        let line = "2024-05-01 アプリ Fatal error: Index out of range"
        let range = line.byteRange(of: "Fatal error")
        #expect(range.map { String(line[$0]) } == "Fatal error")
        #expect(range.map { String(line[$0.upperBound...]) } == ": Index out of range")
        #expect(line.containsBytes("アプリ"))
        #expect(!line.containsBytes("fatal error"))
        #expect(line.containsBytesIgnoringASCIICase("FATAL ERROR"))
        #expect(line.byteRange(of: "fatal ERROR", ignoringASCIICase: true).map { String(line[$0]) } == "Fatal error")
        #expect(line.byteRange(of: "missing") == nil)
        // A part of a string searches its own bytes, and its ranges are the string's.
        let part = line.dropFirst(11)
        #expect(part.byteRange(of: "Index").map { String(part[$0]) } == "Index")
        #expect(!part.containsBytes("2024"))
        let literal: StaticString = "out of"
        #expect(part.containsBytes(literal))
    }

    /// Without case, candidates of either case interleaved: the same first offset as a plain
    /// search over lower-cased bytes, for every needle cut from the text and for needles it lacks.
    @Test func withoutCaseAgreesWithLowerCasedSearch() {
        let texts = ["eXception Exception EXCEPTION exception", "aAaAab AB", "xx Fatal FATAL fatal", "e", "E", "", "Ünïcode Éxc ex"]
        func reference(_ text: String, _ needle: String) -> Int? {
            let hay = Array(text.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            let pin = Array(needle.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard !pin.isEmpty else { return 0 }
            guard hay.count >= pin.count else { return nil }
            return (0...(hay.count - pin.count)).first { hay[$0..<$0 + pin.count].elementsEqual(pin) }
        }
        for text in texts {
            let bytes = Array(text.utf8)
            var needles = ["exception ", "EXCEPTION", "ab", "AAB", "fatal", "zz", "É", "e"]
            for start in 0..<bytes.count {
                for end in (start + 1)...min(bytes.count, start + 4) {
                    if let cut = String(validating: bytes[start..<end], as: UTF8.self) { needles.append(cut.uppercased()) }
                }
            }
            for needle in needles {
                let found = text.byteRange(of: needle, ignoringASCIICase: true).map {
                    text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                }
                #expect(found == reference(text, needle), "\(needle) in \(text)")
            }
        }
    }

    @Test func edges() {
        #expect("abc".containsBytes(""))
        #expect("".byteRange(of: "a") == nil)
        #expect("ab".byteRange(of: "abc") == nil)
        #expect("aab".byteRange(of: "ab").map { "aab".utf8.distance(from: "aab".startIndex, to: $0.lowerBound) } == 1)
        #expect("  \ttext \u{A0}".trimmedBlanks == "text")
    }

    /// The first of several candidates whose first byte matches, the needle at the very end, and
    /// a candidate cut off by the end (libc's `memchr` and `memcmp` over the bytes).
    @Test func candidatesAndTheEnd() {
        let text = "aXaYaZ abab abc"
        #expect(text.byteRange(of: "abc").map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == 12)
        #expect(text.byteRange(of: "c").map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == 14)
        #expect(text.byteRange(of: "abcd") == nil)
        #expect(text.dropLast().byteRange(of: "abc") == nil)
    }

    /// A prefix compared byte for byte, in a string and in a part of one.
    @Test func bytePrefixes() {
        let line = "Thread 1: EXC_BAD_ACCESS (code=1)"
        #expect(line.hasBytePrefix("Thread 1:"))
        #expect(line.hasBytePrefix(""))
        #expect(!line.hasBytePrefix("thread"))
        #expect(!"Thr".hasBytePrefix("Thread"))
        let part = line.dropFirst(10)
        #expect(part.hasBytePrefix("EXC_BAD_ACCESS"))
        #expect(!part.hasBytePrefix("Thread"))
        #expect("アプリ: x".hasBytePrefix("アプリ"))
    }
}
