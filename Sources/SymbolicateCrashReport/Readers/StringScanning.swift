import SymbolicateCore

extension StringProtocol {
    /// Spaces, tabs and no-break spaces trimmed from both ends. (Foundation's
    /// `trimmingCharacters(in:)` bridges through NSString on Linux and dominated parse time.)
    var trimmedBlanks: String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isBlank(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let previous = scalars.index(before: end)
            guard Self.isBlank(scalars[previous]) else { break }
            end = previous
        }
        return String(self[start..<end])
    }

    static func isBlank(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\u{A0}"
    }
}

extension String {
    /// Whether `needle` occurs in the string, compared as UTF-8 bytes. For ASCII needles in
    /// paths and report lines this is what `contains` means, without Foundation's
    /// `contains(_:)`, which goes through CFString on Linux (a few percent of batch time in
    /// app-ownership checks).
    func containsBytes(_ needle: StaticString) -> Bool {
        var haystack = self
        return haystack.withUTF8 { text in
            needle.withUTF8Buffer { ByteSearch.contains(UnsafeRawBufferPointer(text), UnsafeRawBufferPointer($0)) }
        }
    }
}

extension Substring {
    /// `String.containsBytes` for a part of a string: its bytes in place when they are contiguous.
    func containsBytes(_ needle: StaticString) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { text in
            needle.withUTF8Buffer { ByteSearch.contains(UnsafeRawBufferPointer(text), UnsafeRawBufferPointer($0)) }
        }
        return found ?? String(self).containsBytes(needle)
    }

    /// Where the parenthesized group that closes the text opens (`f(a, (b))` → the `(` after `f`),
    /// nil when the text does not end in `)` or its parentheses do not balance. Frame symbols end in
    /// groups a reader drops: `(in MyApp)`, `(MyApp.swift:12)`, LLDB's argument values.
    func openingParenOfLastGroup() -> Index? {
        guard hasSuffix(")") else { return nil }
        var depth = 0
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index] == ")" {
                depth += 1
            } else if self[index] == "(" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}
