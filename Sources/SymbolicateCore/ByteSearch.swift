import Foundation

/// Substring search over raw bytes, for ASCII markers in report text and paths.
///
/// Foundation's `String.contains(_:)` goes through CFString on Linux and `Data`'s iterator
/// is slow; both showed up in batch mode's profile when sniffing thousands of files.
@usableFromInline
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack` (an empty needle always does).
    @usableFromInline
    package static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        firstOffset(haystack, needle) != nil
    }
}

extension ByteSearch {
    /// Offset of the first occurrence of `needle` in `haystack`, nil when there is none (0 for an
    /// empty needle); with `ignoringASCIICase`, ASCII letters compared without case.
    @usableFromInline
    package static func firstOffset(
        _ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, ignoringASCIICase: Bool = false
    ) -> Int? {
        guard let first = needle.first else { return 0 }
        guard haystack.count >= needle.count, let text = haystack.baseAddress, let pattern = needle.baseAddress else { return nil }
        let last = haystack.count - needle.count
        if !ignoringASCIICase {
            // libc's `memchr` finds each candidate first byte and `memcmp` compares the rest: both
            // vectorised, and outside the coverage instrumentation of a fuzzing build, where a
            // loop of ours pays a callback for every comparison.
            var offset = 0
            while offset <= last {
                guard let hit = memchr(text + offset, Int32(first), last - offset + 1) else { return nil }
                let at = text.distance(to: UnsafeRawPointer(hit))
                if needle.count == 1 || memcmp(text + at + 1, pattern + 1, needle.count - 1) == 0 { return at }
                offset = at + 1
            }
            return nil
        }
        @inline(__always) func key(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        // Candidates by `memchr` for each case of the first byte (the nearer one first), as above:
        // most lines hold neither, and a byte loop of ours would pay for every byte.
        let lower = key(first)
        let upper = lower >= 0x61 && lower <= 0x7A ? lower & ~0x20 : lower
        var nextLower: Int? = -1
        var nextUpper: Int? = lower == upper ? nil : -1
        var offset = 0
        while offset <= last {
            func next(_ cached: inout Int?, _ byte: UInt8) -> Int? {
                guard let known = cached else { return nil }
                if known >= offset { return known }
                let hit = memchr(text + offset, Int32(byte), last - offset + 1)
                cached = hit.map { text.distance(to: UnsafeRawPointer($0)) }
                return cached
            }
            let lowerAt = next(&nextLower, lower)
            let upperAt = next(&nextUpper, upper)
            guard let at = lowerAt.map({ min($0, upperAt ?? $0) }) ?? upperAt else { return nil }
            var k = 1
            while k < needle.count, key(haystack[at + k]) == key(needle[k]) { k += 1 }
            if k == needle.count { return at }
            offset = at + 1
        }
        return nil
    }
}

/// Literal substring search over UTF-8 for the text that reports and their lines are: what
/// `contains(_:)` and `range(of:)` mean for the markers the readers and rules look for, without
/// Foundation's versions, which go through CFString on Linux (a tenth of explain's time).
extension StringProtocol {
    /// Whether `needle` occurs, byte for byte.
    @inlinable
    package func containsBytes(_ needle: some StringProtocol) -> Bool {
        byteOffset(of: needle, ignoringASCIICase: false) != nil
    }

    /// Whether `needle` occurs, ASCII letters compared without case.
    @inlinable
    package func containsBytesIgnoringASCIICase(_ needle: some StringProtocol) -> Bool {
        byteOffset(of: needle, ignoringASCIICase: true) != nil
    }

    /// The range of the first occurrence of `needle`, byte for byte.
    @inlinable
    package func byteRange(of needle: some StringProtocol, ignoringASCIICase: Bool = false) -> Range<Index>? {
        guard let offset = byteOffset(of: needle, ignoringASCIICase: ignoringASCIICase) else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: needle.utf8.count)
    }

    /// Inlinable so that each caller's string types are specialised: the generic version's
    /// witness calls and closure contexts cost more than the search on a short line.
    @inlinable
    func byteOffset(of needle: some StringProtocol, ignoringASCIICase: Bool) -> Int? {
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
    /// Whether the text starts with `prefix`, byte for byte. A substring's `hasPrefix` compares
    /// Characters, a grapheme break for each one, and the readers test every line against dozens
    /// of ASCII markers; the two differ only when a combining mark follows the prefix.
    @inlinable
    package func hasBytePrefix(_ prefix: some StringProtocol) -> Bool {
        let compared = utf8.withContiguousStorageIfAvailable { text in
            prefix.utf8.withContiguousStorageIfAvailable { start in
                ByteSearch.starts(UnsafeRawBufferPointer(text), with: UnsafeRawBufferPointer(start))
            }
        }
        if let compared, let compared { return compared }
        return utf8.starts(with: prefix.utf8)
    }
}

extension ByteSearch {
    /// Whether `text` starts with `prefix` (libc's `memcmp`).
    @usableFromInline
    package static func starts(_ text: UnsafeRawBufferPointer, with prefix: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= prefix.count else { return false }
        guard let start = prefix.baseAddress, let base = text.baseAddress else { return true }
        return memcmp(base, start, prefix.count) == 0
    }
}

extension StringProtocol {
    /// `containsBytes` for a literal, compared in place.
    @inlinable
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
        // Most lines have no edge blanks: the string itself, not a copy of its bytes.
        if start == scalars.startIndex, end == scalars.endIndex, let whole = self as? String { return whole }
        return String(self[start..<end])
    }

    package static func isBlank(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\u{A0}"
    }
}
