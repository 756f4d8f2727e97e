/// Substring search over raw bytes, for ASCII markers in report text and paths.
///
/// Foundation's `String.contains(_:)` goes through CFString on Linux and `Data`'s iterator
/// is slow; both showed up in batch mode's profile when sniffing thousands of files.
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack` (an empty needle always does).
    package static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first {
                var k = 1
                while k < needle.count, haystack[i + k] == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
