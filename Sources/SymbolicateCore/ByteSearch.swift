/// Substring search over raw bytes, for ASCII markers in report text and paths.
///
/// Foundation's `String.contains(_:)` goes through CFString on Linux and `Data`'s iterator
/// is slow; both showed up in batch mode's profile when sniffing thousands of files.
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack` (an empty needle always does).
    package static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        firstOffset(haystack, needle) != nil
    }
}

extension ByteSearch {
    /// Offset of the first occurrence of `needle` in `haystack`, nil when there is none (0 for an
    /// empty needle); with `ignoringASCIICase`, ASCII letters compared without case.
    package static func firstOffset(
        _ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, ignoringASCIICase: Bool = false
    ) -> Int? {
        @inline(__always) func key(_ byte: UInt8) -> UInt8 {
            ignoringASCIICase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        guard let first = needle.first.map(key) else { return 0 }
        guard haystack.count >= needle.count else { return nil }
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if key(haystack[i]) == first {
                var k = 1
                while k < needle.count, key(haystack[i + k]) == key(needle[k]) { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// Literal substring search over UTF-8 for the text that reports and their lines are: what
/// `contains(_:)` and `range(of:)` mean for the markers the readers and rules look for, without
/// Foundation's versions, which go through CFString on Linux (a tenth of explain's time).
extension StringProtocol {
    /// Whether `needle` occurs, byte for byte.
    package func containsBytes(_ needle: some StringProtocol) -> Bool {
        byteOffset(of: needle, ignoringASCIICase: false) != nil
    }

    /// Whether `needle` occurs, ASCII letters compared without case.
    package func containsBytesIgnoringASCIICase(_ needle: some StringProtocol) -> Bool {
        byteOffset(of: needle, ignoringASCIICase: true) != nil
    }

    /// The range of the first occurrence of `needle`, byte for byte.
    package func byteRange(of needle: some StringProtocol, ignoringASCIICase: Bool = false) -> Range<Index>? {
        guard let offset = byteOffset(of: needle, ignoringASCIICase: ignoringASCIICase) else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: needle.utf8.count)
    }

    private func byteOffset(of needle: some StringProtocol, ignoringASCIICase: Bool) -> Int? {
        func search(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
            let found = needle.utf8.withContiguousStorageIfAvailable { pattern in
                ByteSearch.firstOffset(UnsafeRawBufferPointer(text), UnsafeRawBufferPointer(pattern), ignoringASCIICase: ignoringASCIICase)
            }
            if let found { return found }
            return Array(needle.utf8).withUnsafeBytes {
                ByteSearch.firstOffset(UnsafeRawBufferPointer(text), $0, ignoringASCIICase: ignoringASCIICase)
            }
        }
        if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(utf8).withUnsafeBufferPointer(search)
    }
}

extension StringProtocol {
    /// `containsBytes` for a literal, compared in place.
    package func containsBytes(_ needle: StaticString) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { text in
            needle.withUTF8Buffer { ByteSearch.contains(UnsafeRawBufferPointer(text), UnsafeRawBufferPointer($0)) }
        }
        if let found { return found }
        return Array(utf8).withUnsafeBytes { text in needle.withUTF8Buffer { ByteSearch.contains(text, UnsafeRawBufferPointer($0)) } }
    }
}

extension StringProtocol {
    /// Spaces, tabs and no-break spaces trimmed from both ends. (Foundation's
    /// `trimmingCharacters(in:)` bridges through NSString on Linux and dominated parse time.)
    package var trimmedBlanks: String {
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

    package static func isBlank(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\u{A0}"
    }
}
