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
