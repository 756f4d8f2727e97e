/// Which of many fixed byte strings occur in a text, found in one pass over it: each needle is
/// filed under its first two bytes, and at each position of the text only the needles filed
/// under the two bytes there are compared. The throw-site catalogue asks this of every report
/// for each of its entries' symbols and reasons, the crash-message grammar of every line for
/// its anchors, the knowledge base of every stated message for its patterns: one pass per
/// needle made those most of the `explain` fuzz target's time.
package struct NeedleIndex: Sendable {
    private let needles: [[UInt8]]
    /// Needles by their first two bytes (`first << 8 | second`).
    private let byPair: [UInt16: [Int]]
    /// Needles one byte long, by that byte; the empty needle occurs everywhere.
    private let bySingle: [UInt8: [Int]]
    private let empty: [Int]

    package init(_ needles: [String]) {
        self.needles = needles.map { Array($0.utf8) }
        var byPair: [UInt16: [Int]] = [:]
        var bySingle: [UInt8: [Int]] = [:]
        var empty: [Int] = []
        for (id, bytes) in self.needles.enumerated() {
            switch bytes.count {
            case 0: empty.append(id)
            case 1: bySingle[bytes[0], default: []].append(id)
            default: byPair[UInt16(bytes[0]) << 8 | UInt16(bytes[1]), default: []].append(id)
            }
        }
        self.byPair = byPair
        self.bySingle = bySingle
        self.empty = empty
    }

    package var count: Int { needles.count }

    /// Marks in `found` (one flag per needle) every needle that occurs in `haystack`.
    package func mark(in haystack: String, _ found: inout [Bool]) {
        var text = haystack
        text.withUTF8 { mark(inBytes: $0, &found) }
    }

    /// The flags of `mark(in:_:)`, fresh.
    package func found(in haystack: String) -> [Bool] {
        var found = [Bool](repeating: false, count: needles.count)
        mark(in: haystack, &found)
        return found
    }

    /// Marks every needle that occurs in `bytes`.
    package func mark(inBytes bytes: UnsafeBufferPointer<UInt8>, _ found: inout [Bool]) {
        for id in empty { found[id] = true }
        guard !bytes.isEmpty else { return }
        for position in 0..<bytes.count {
            let first = bytes[position]
            if let ids = bySingle[first] { for id in ids { found[id] = true } }
            guard position + 1 < bytes.count, let ids = byPair[UInt16(first) << 8 | UInt16(bytes[position + 1])] else { continue }
            for id in ids where !found[id] {
                let needle = needles[id]
                guard position + needle.count <= bytes.count else { continue }
                var index = 2
                while index < needle.count, bytes[position + index] == needle[index] { index += 1 }
                if index == needle.count { found[id] = true }
            }
        }
    }
}
