import Foundation

/// One line of pasted text as UTF-8 bytes, with the few reads the device-log and crash-service
/// readers need. Every read goes forward (or back) from a position over short literals the
/// readers spell out, never a backtracking pattern, so a line costs time linear in its length
/// for each literal looked for (issue 38's rule; `LineBytesTests` counts the steps).
struct LineBytes {
    let bytes: [UInt8]
    /// Bytes compared so far, for tests that show reading stays linear.
    private(set) var steps = 0

    init(_ text: some StringProtocol) {
        bytes = Array(text.utf8)
    }

    var count: Int { bytes.count }

    /// Where `literal` first starts at or after `from` (ASCII case ignored when `caseInsensitive`).
    mutating func find(_ literal: String, from: Int = 0, caseInsensitive: Bool = false) -> Int? {
        let needle = Array(literal.utf8)
        guard let head = needle.first, from >= 0 else { return nil }
        var index = from
        while index + needle.count <= bytes.count {
            steps += 1
            if Self.same(bytes[index], head, caseInsensitive) {
                var offset = 1
                while offset < needle.count {
                    steps += 1
                    if !Self.same(bytes[index + offset], needle[offset], caseInsensitive) { break }
                    offset += 1
                }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Whether `literal` starts at `index`.
    mutating func matches(_ literal: String, at index: Int) -> Bool {
        var position = index
        for byte in literal.utf8 {
            guard position >= 0, position < bytes.count else { return false }
            steps += 1
            guard bytes[position] == byte else { return false }
            position += 1
        }
        return true
    }

    /// The end of the run from `start` of bytes satisfying `predicate`.
    mutating func run(from start: Int, while predicate: (UInt8) -> Bool) -> Int {
        var index = max(start, 0)
        while index < bytes.count {
            steps += 1
            guard predicate(bytes[index]) else { break }
            index += 1
        }
        return index
    }

    /// The start of the run of bytes satisfying `predicate` that ends just before `end`.
    mutating func runBack(before end: Int, while predicate: (UInt8) -> Bool) -> Int {
        var index = min(end, bytes.count)
        while index > 0 {
            steps += 1
            guard predicate(bytes[index - 1]) else { break }
            index -= 1
        }
        return index
    }

    /// The decimal number starting at `start` and where it ends.
    mutating func decimal(at start: Int) -> (value: Int, end: Int)? {
        let end = run(from: start, while: Self.isDigit)
        guard end > start, end - start <= 18, let value = Int(string(start, end)) else { return nil }
        return (value, end)
    }

    /// The first occurrence of `byte` at or after `from`.
    mutating func first(_ byte: UInt8, from: Int) -> Int? {
        var index = max(from, 0)
        while index < bytes.count {
            steps += 1
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The last occurrence of `byte` before `end`.
    mutating func last(_ byte: UInt8, before end: Int) -> Int? {
        var index = min(end, bytes.count) - 1
        while index >= 0 {
            steps += 1
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    func string(_ start: Int, _ end: Int) -> String {
        let lower = max(0, min(start, bytes.count))
        let upper = max(lower, min(end, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// The text from `start` to the end, blanks trimmed.
    func rest(from start: Int) -> String {
        string(start, bytes.count).trimmingCharacters(in: .whitespaces)
    }

    private static func same(_ a: UInt8, _ b: UInt8, _ caseInsensitive: Bool) -> Bool {
        a == b || (caseInsensitive && lower(a) == lower(b))
    }

    static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    /// Letters, digits, `-`, `_`: a jetsam reason, a band, a limit kind.
    static func isWordByte(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x5F }
    /// Anything but a blank: a process or image name.
    static func isNameByte(_ byte: UInt8) -> Bool { !isBlank(byte) }
    /// A bundle identifier's characters (letters, digits, `.`, `-`, `_`).
    static func isBundleByte(_ byte: UInt8) -> Bool { isWordByte(byte) || byte == 0x2E }
}
