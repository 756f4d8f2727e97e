/// The few shapes the rules read out of a report's own text, each matched by a hand-written
/// scanner that reads the text once from left to right (plus look-backs over runs it will not
/// read again), so the work grows linearly with the text.
///
/// They replace backtracking regular expressions (issue 38): `([A-Za-z_0-9]+) at (0x…)` over a
/// long `Exception Codes` value was quadratic (54 s for a 34 KB report), `Assertion failed:
/// .*, function .*, file .*, line [0-9]+` cubic (48 s for 16 K characters), a long run before
/// `watchdog transgression` or a repeated `terminat…` quadratic. Each scanner gives the answer
/// the expression gave (the same capture groups, the leftmost match, greedy and lazy parts
/// resolved the same way); the comment of each method names the expression it replaces.
///
/// Text is read as Unicode scalars: `.` is any scalar but a line break (`\n`, `\r`, VT, FF,
/// NEL, U+2028, U+2029) and `$` is the end of a line, as in the expressions (which matched
/// with `anchorsMatchLineEndings`; the `explain` fuzz target compares them on short inputs).
/// `steps` counts the scalars visited, so a test can show that
/// a field a thousand times longer costs a thousand times more, not a million.
package final class MessageScan {
    private let text: [Unicode.Scalar]
    /// Scalars visited so far (each comparison or class test counts one).
    package private(set) var steps = 0

    package init(_ text: String) {
        self.text = Array(text.unicodeScalars)
    }

    // MARK: - The shapes

    /// `([A-Za-z_0-9]+) at (0x[0-9a-fA-F]+)(?: -> (0x[0-9a-fA-F]+))?`: the first fault
    /// description (`KERN_INVALID_ADDRESS at 0x10 -> 0x20`).
    package func faultAddress() -> (name: String, address: String, stripped: String?)? {
        var from = 0
        while let at = find(" at 0x", from: from) {
            from = at + 1
            let hexStart = at + 6
            let hexEnd = run(from: hexStart, while: Self.isHexDigit)
            // The name must end right before " at": it is the whole run of word characters there.
            guard hexEnd > hexStart, at > 0, test(at - 1, Self.isASCIIWord) else { continue }
            let nameStart = runBack(from: at - 1, while: Self.isASCIIWord)
            var stripped: String?
            if matches(" -> 0x", at: hexEnd) {
                let end = run(from: hexEnd + 6, while: Self.isHexDigit)
                if end > hexEnd + 6 { stripped = string(hexEnd + 4, end) }
            }
            return (string(nameStart, at), string(at + 4, hexEnd), stripped)
        }
        return nil
    }

    /// `uncaught exception '([^']+)', reason: '(.*)'`: an uncaught Objective-C exception's name
    /// and reason (the reason runs to the last quote of its line).
    package func uncaughtObjCException() -> (name: String, reason: String)? {
        let opening = "uncaught exception '"
        var from = 0
        // The last quote of the line the previous reason started on (a line is read once).
        var line: (end: Int, lastQuote: Int?) = (-1, nil)
        while let at = find(opening, from: from) {
            from = at + 1
            let nameStart = at + opening.unicodeScalars.count
            // `[^']+` runs to the next quote (line breaks included); the quote closes the name.
            guard let close = first("'", from: nameStart), close > nameStart, matches("', reason: '", at: close) else { continue }
            let reasonStart = close + 12
            if reasonStart > line.end {
                let end = lineEnd(from: reasonStart)
                var last: Int?
                var index = reasonStart
                while index < end {
                    if test(index, { $0 == "'" }) { last = index }
                    index += 1
                }
                line = (end, last)
            }
            guard let last = line.lastQuote, last >= reasonStart else { continue }
            // A sentence after the line's last quote: that quote is inside the reason, which runs
            // on (`ConsoleLine.closingQuote`); the line's end is as far as it goes here.
            let after = Substring(string(last, line.end))
            if ConsoleLine.closingQuote(of: after) == nil {
                return (string(nameStart, close), string(reasonStart, line.end))
            }
            return (string(nameStart, close), string(reasonStart, last))
        }
        return nil
    }

    /// `Assertion failed: .*, function .*, file .*, line [0-9]+`: C `assert()`'s message, all
    /// on one line. Each part is taken at its first place after the one before (the `.*` may be
    /// empty), so the line is read once.
    package func isCAssertion() -> Bool {
        var start = 0
        while start <= text.count {
            let end = lineEnd(from: start)
            if let at = find("Assertion failed: ", from: start, before: end),
                let function = find(", function ", from: at + 18, before: end),
                let file = find(", file ", from: function + 11, before: end)
            {
                var from = file + 7
                while let line = find(", line ", from: from, before: end) {
                    if line + 7 < end, test(line + 7, Self.isDecimalDigit) { return true }
                    from = line + 1
                }
            }
            start = end + 1
        }
        return false
    }

    /// `terminat\w+ (?:due to|with) uncaught exception of type (.+?)(?:: (.*))?$`: libc++abi's
    /// message for an uncaught C++ exception. The type runs to the first `: ` after its first
    /// character, or to the end of the line; what follows that `: ` is the `what()` text.
    package func uncaughtCppException() -> (type: String, what: String?)? {
        var from = 0
        // Occurrences inside one run of word characters share its end, and so its outcome.
        var examinedRunEnd = -1
        while let at = find("terminat", from: from) {
            from = at + 1
            guard at >= examinedRunEnd else { continue }
            let wordEnd = run(from: at + 8, while: Self.isWord)
            examinedRunEnd = wordEnd
            guard wordEnd > at + 8 else { continue }
            let typeStart: Int
            if matches(" due to uncaught exception of type ", at: wordEnd) {
                typeStart = wordEnd + 35
            } else if matches(" with uncaught exception of type ", at: wordEnd) {
                typeStart = wordEnd + 33
            } else {
                continue
            }
            let end = lineEnd(from: typeStart)
            guard typeStart < end else { continue }
            if let colon = find(": ", from: typeStart + 1, before: end) {
                return (string(typeStart, colon), string(colon + 2, end))
            }
            return (string(typeStart, end), nil)
        }
        return nil
    }

    /// `assertion (.+) failed: (.+)$`: the name of libc++'s artificial frame for a hardening
    /// check (`…: assertion __n < size() failed: vector[] index out of bounds`). The file part
    /// runs to the last ` failed: ` of the line that leaves a message after it.
    package func libcxxAssertion() -> (file: String, what: String)? {
        var from = 0
        while let at = find("assertion ", from: from) {
            let end = lineEnd(from: at)
            // A later "assertion " on the same line has fewer choices: only the first one counts.
            from = end + 1
            var best: Int?
            var search = at + 11
            while let failed = find(" failed: ", from: search, before: end) {
                if failed + 9 < end { best = failed }
                search = failed + 1
            }
            guard let best else { continue }
            return (string(at + 10, best), string(best + 9, end))
        }
        return nil
    }

    /// `(NS[A-Za-z]+UsageDescription)`: the Info.plist key a privacy violation names. In a run of
    /// letters, the first `NS` and the last `UsageDescription` at least one letter after it.
    package func usageDescriptionKey() -> String? {
        let suffix = "UsageDescription"
        var index = 0
        while index < text.count {
            guard test(index, Self.isASCIILetter) else {
                index += 1
                continue
            }
            let runEnd = run(from: index, while: Self.isASCIILetter)
            if let ns = find("NS", from: index, before: runEnd) {
                var last: Int?
                var search = ns + 3
                while let hit = find(suffix, from: search, before: runEnd) {
                    last = hit
                    search = hit + 1
                }
                if let last { return string(ns, last + 16) }
            }
            index = runEnd
        }
        return nil
    }

    /// `(scene-create|scene-update|process-exit|process-launch|[a-z-]+) watchdog transgression`:
    /// the event a watchdog timed (every named event is itself a `[a-z-]+` run, so the answer is
    /// the run right before the first ` watchdog transgression` that has one).
    package func watchdogEvent() -> String? {
        var from = 0
        while let at = find(" watchdog transgression", from: from) {
            from = at + 1
            guard at > 0, test(at - 1, Self.isLowercaseOrDash) else { continue }
            return string(runBack(from: at - 1, while: Self.isLowercaseOrDash), at)
        }
        // iOS 17's field under the termination (`WatchdogEvent: process-exit`).
        if let at = find("WatchdogEvent: ", from: 0) {
            let start = at + 15
            let end = run(from: start, while: Self.isLowercaseOrDash)
            if end > start { return string(start, end) }
        }
        return nil
    }

    /// RunningBoard's reason in its termination context (`<RBSTerminateContext| domain:10
    /// code:0x8BADF00D explanation:[app<com.app>:66569] Failed to terminate gracefully after 5.0s`):
    /// the words after the process it names, to the line's end or the context's `>`.
    package func terminateExplanation() -> String? {
        guard let at = find("explanation:", from: 0) else { return nil }
        var start = at + 12
        if start < text.count, text[start] == "[", let close = first("]", from: start) { start = close + 1 }
        let end = lineEnd(from: start)
        var words = Substring(string(start, end))
        while let first = words.first, first == " " { words = words.dropFirst() }
        while let last = words.last, last == " " || last == ">" { words = words.dropLast() }
        // (A watchdog's transgression there is its figures, which `watchdogEvent` and the allowance read.)
        guard !words.isEmpty, words.utf8.count <= 300, !words.containsBytes("watchdog transgression") else { return nil }
        return String(words)
    }

    /// `allowance of ([0-9.]+) seconds`: the watchdog's allowance.
    package func allowanceSeconds() -> String? {
        number(after: "allowance of ", followedBy: " seconds")
    }

    /// `Elapsed application CPU time \(seconds\): ([0-9.]+)`: the CPU time a watchdog report counts.
    package func elapsedCPUSeconds() -> String? {
        number(after: "Elapsed application CPU time (seconds): ", followedBy: nil)
    }

    /// Whether `needle` occurs in `text`, in time linear in both (Knuth–Morris–Pratt over their
    /// UTF-8): for a needle that comes from the report too (a frame's function name looked
    /// for in a step that quotes another frame), where a plain search is quadratic.
    package static func occurs(_ needle: String, in text: String) -> Bool {
        occurs(Array(needle.utf8), in: Array(text.utf8))
    }

    /// `occurs` over bytes: the knowledge base's patterns are looked for in a report line
    /// once each (Foundation's `contains` took seconds on a 16 KB line under the fuzzer).
    package static func occurs(_ pattern: [UInt8], in text: [UInt8]) -> Bool {
        guard !pattern.isEmpty else { return true }
        return search(pattern, in: text) { _ in true }
    }

    /// `occurs`, where the match starts a word: the byte before it is not an ASCII letter or
    /// digit (`concurrent` in `a concurrent access`, not in `testConcurrentTransactions`).
    package static func occursAtWordStart(_ pattern: [UInt8], in text: [UInt8]) -> Bool {
        guard !pattern.isEmpty else { return true }
        return search(pattern, in: text) { start in start == 0 || !isWordByte(text[start - 1]) }
    }

    /// Knuth–Morris–Pratt: whether `pattern` occurs in `text` at a start `accept` takes, in one
    /// pass over `text`.
    private static func search(_ pattern: [UInt8], in text: [UInt8], accept: (Int) -> Bool) -> Bool {
        guard pattern.count <= text.count else { return false }
        // failure[i]: length of the longest proper border of pattern[0...i].
        var failure = [Int](repeating: 0, count: pattern.count)
        var border = 0
        for index in pattern.indices.dropFirst() {
            while border > 0 && pattern[index] != pattern[border] { border = failure[border - 1] }
            if pattern[index] == pattern[border] { border += 1 }
            failure[index] = border
        }
        var matched = 0
        for (position, byte) in text.enumerated() {
            while matched > 0 && byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count {
                if accept(position + 1 - pattern.count) { return true }
                matched = failure[matched - 1]
            }
        }
        return false
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    // MARK: - Pieces

    /// The first `[0-9.]+` run right after `prefix` (and before `suffix`, when given).
    private func number(after prefix: String, followedBy suffix: String?) -> String? {
        let length = prefix.unicodeScalars.count
        var from = 0
        while let at = find(prefix, from: from) {
            from = at + 1
            let start = at + length
            let end = run(from: start, while: Self.isNumberCharacter)
            guard end > start, suffix.map({ matches($0, at: end) }) ?? true else { continue }
            return string(start, end)
        }
        return nil
    }

    /// Whether the scalar at `index` (in range) satisfies `predicate`; one step.
    private func test(_ index: Int, _ predicate: (Unicode.Scalar) -> Bool) -> Bool {
        steps += 1
        return predicate(text[index])
    }

    /// The end of the run of scalars from `start` that satisfy `predicate`.
    private func run(from start: Int, while predicate: (Unicode.Scalar) -> Bool) -> Int {
        var index = start
        while index < text.count, test(index, predicate) { index += 1 }
        return index
    }

    /// The start of the run of scalars that satisfy `predicate` and ends at `last` (included).
    private func runBack(from last: Int, while predicate: (Unicode.Scalar) -> Bool) -> Int {
        var index = last
        while index > 0, test(index - 1, predicate) { index -= 1 }
        return index
    }

    /// Whether `literal` starts at `index`.
    private func matches(_ literal: String, at index: Int) -> Bool {
        var position = index
        for scalar in literal.unicodeScalars {
            guard position < text.count else { return false }
            steps += 1
            guard text[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    /// Where `literal` first starts at or after `from`, ending at or before `limit` (the end of
    /// the text by default). The literals are short and fixed, so this is linear in the span.
    private func find(_ literal: String, from: Int, before limit: Int? = nil) -> Int? {
        let scalars = Array(literal.unicodeScalars)
        let limit = min(limit ?? text.count, text.count)
        guard let head = scalars.first, from >= 0 else { return nil }
        var index = from
        while index + scalars.count <= limit {
            steps += 1
            if text[index] == head {
                var offset = 1
                while offset < scalars.count {
                    steps += 1
                    if text[index + offset] != scalars[offset] { break }
                    offset += 1
                }
                if offset == scalars.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The first `scalar` at or after `from`.
    private func first(_ scalar: Unicode.Scalar, from: Int) -> Int? {
        var index = from
        while index < text.count {
            if test(index, { $0 == scalar }) { return index }
            index += 1
        }
        return nil
    }

    /// The index of the first line break at or after `from`, or the end of the text.
    private func lineEnd(from: Int) -> Int {
        var index = max(from, 0)
        while index < text.count, !test(index, Self.isLineBreak) { index += 1 }
        return index
    }

    private func string(_ start: Int, _ end: Int) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text[start..<end])
        return String(scalars)
    }

    // MARK: - Classes

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
    }

    static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// `[A-Za-z_0-9]`.
    static func isASCIIWord(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || isDecimalDigit(scalar) || scalar == "_"
    }

    static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDecimalDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    /// `[0-9.]`.
    static func isNumberCharacter(_ scalar: Unicode.Scalar) -> Bool { isDecimalDigit(scalar) || scalar == "." }

    /// `[a-z-]`.
    static func isLowercaseOrDash(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || scalar == "-" }

    /// `\w`: letters, marks, numbers and connector punctuation (`_`).
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIWord(scalar) }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.isJoinControl { return true }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation:
            return true
        default:
            return false
        }
    }
}
