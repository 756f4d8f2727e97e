/// Which of many fixed byte strings occur in a text, found in one pass over it: each needle is
/// filed under its first two bytes, and at each position of the text only the needles filed
/// under the two bytes there are compared. The throw-site catalogue asks this of every report
/// for each of its entries' symbols and reasons, the crash-message grammar of every line for
/// its anchors, the knowledge base of every stated message for its patterns: one pass per
/// needle made those most of the `explain` fuzz target's time.
package struct NeedleIndex: Sendable {
    private let needles: [[UInt8]]
    /// The needles of each pair of first bytes (`first << 8 | second`) are
    /// `pairIDs[pairStart[pair]..<pairStart[pair + 1]]`: a flat table, so the pass over a text does
    /// no hashing (a dictionary lookup per byte was most of its cost).
    private let pairStart: [Int32]
    private let pairIDs: [Int32]
    /// Which pairs file any needle, one bit each: most positions of a text are refused by one load.
    private let pairBits: [UInt64]
    /// Needles one byte long, by that byte; the empty needle occurs everywhere.
    private let bySingle: [UInt8: [Int]]
    private let empty: [Int]

    package init(_ needles: [String]) {
        self.needles = needles.map { Array($0.utf8) }
        var byPair = [[Int32]](repeating: [], count: 1 << 16)
        var bySingle: [UInt8: [Int]] = [:]
        var empty: [Int] = []
        for (id, bytes) in self.needles.enumerated() {
            switch bytes.count {
            case 0: empty.append(id)
            case 1: bySingle[bytes[0], default: []].append(id)
            default: byPair[Int(bytes[0]) << 8 | Int(bytes[1])].append(Int32(id))
            }
        }
        var pairStart = [Int32](repeating: 0, count: (1 << 16) + 1)
        var pairIDs: [Int32] = []
        var pairBits = [UInt64](repeating: 0, count: (1 << 16) / 64)
        for pair in 0..<(1 << 16) {
            pairStart[pair] = Int32(pairIDs.count)
            if !byPair[pair].isEmpty { pairBits[pair >> 6] |= 1 << UInt64(pair & 63) }
            pairIDs.append(contentsOf: byPair[pair])
        }
        pairStart[1 << 16] = Int32(pairIDs.count)
        self.pairStart = pairStart
        self.pairIDs = pairIDs
        self.pairBits = pairBits
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
        if !bySingle.isEmpty {
            for byte in bytes { if let ids = bySingle[byte] { for id in ids { found[id] = true } } }
        }
        guard bytes.count >= 2 else { return }
        pairBits.withUnsafeBufferPointer { bits in
            for position in 0..<(bytes.count - 1) {
                let pair = Int(bytes[position]) << 8 | Int(bytes[position + 1])
                guard bits[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
                for slot in Int(pairStart[pair])..<Int(pairStart[pair + 1]) {
                    let id = Int(pairIDs[slot])
                    guard !found[id] else { continue }
                    let needle = needles[id]
                    guard position + needle.count <= bytes.count else { continue }
                    var index = 2
                    while index < needle.count, bytes[position + index] == needle[index] { index += 1 }
                    if index == needle.count { found[id] = true }
                }
            }
        }
    }
}
