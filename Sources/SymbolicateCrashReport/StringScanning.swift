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
