import Foundation

/// Apple's frame text, shared by the text writer and the `.ips` → text rendering.
enum FrameFormatting {
    /// `function + off (File.swift:42)` per level, innermost first; ` [inlined]` on every level
    /// but the concrete (last) one, as Apple prints inline chains (`Fixtures/expected/swift-trap.crash.txt`), and
    /// ` [unverified]` on levels from a debug file matched by name only, ` [guess]` on a
    /// symbol-table name the address lies too far past to be sure of.
    static func symbolicatedRests(_ levels: [SymbolicatedFrame]) -> [String] {
        levels.enumerated().map { (i, level) in
            var s = "\(level.function) + \(level.offsetInFunction)"
            if let line = level.line, let file = level.file {
                s += " (\(basename(file)):\(line))"
            }
            if i < levels.count - 1 { s += " [inlined]" }
            if level.isUnverified { s += " [unverified]" }
            if level.isGuess { s += " [guess]" }
            return s
        }
    }

    /// What the report itself said after the address, rebuilt from the model (`.ips`).
    static func originalRest(_ frame: Frame, imageBase: UInt64?) -> String {
        var s: String
        if let symbol = frame.symbol {
            s = symbol
            if let off = frame.symbolOffset { s += " + \(off)" }
            if let file = frame.sourceFile, let line = frame.sourceLine { s += " (\(file):\(line))" }
        } else if let base = imageBase, let off = frame.imageOffset {
            s = "0x\(String(base, radix: 16)) + \(off)"
        } else {
            s = "???"
        }
        if frame.isInlined { s += " [inlined]" }
        return s
    }

    static func basename(_ path: String) -> String {
        // By UTF-8 byte: `/` is never part of another character, and walking Characters here
        // was a twentieth of rendering a million frames.
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) { return String(path[path.utf8.index(after: slash)...]) }
        return path
    }

    /// `IDX IMAGE(padded 30)\t ADDR(right-aligned 18)` — the layout of iOS 15+/macOS 12+
    /// translated reports.
    static func applePrefix(index: Int, imageName: String, address: UInt64) -> String {
        var line = ""
        appendPrefix(index: index, imageName: imageName, address: address, to: &line)
        return line
    }

    /// A whole frame line, `applePrefix` + " " + `rest`, built in one string: the padding
    /// strings and partial joins the prefix was made of were a fifth of rendering a million frames.
    static func appleLine(index: Int, imageName: String, address: UInt64, rest: String) -> String {
        var line = ""
        line.reserveCapacity(54 + imageName.utf8.count + rest.utf8.count)
        appendPrefix(index: index, imageName: imageName, address: address, to: &line)
        line += " "
        line += rest
        return line
    }

    private static func appendPrefix(index: Int, imageName: String, address: UInt64, to line: inout String) {
        let idx = String(index)
        line += idx
        appendSpaces(max(1, 4 - idx.count), to: &line)
        line += imageName
        appendSpaces(max(1, 30 - imageName.count), to: &line)
        line += "\t"
        let hex = String(address, radix: 16)
        appendSpaces(max(0, 16 - hex.utf8.count), to: &line)
        line += "0x"
        line += hex
    }

    private static func appendSpaces(_ count: Int, to line: inout String) {
        for _ in 0..<count { line.unicodeScalars.append(" ") }
    }

    /// Splits an existing frame line into (leading, index digits, whitespace after the index,
    /// middle through the end of the address, rest after the address).
    static func splitFrameLine(_ line: String) -> (lead: Substring, index: Substring, gap: Substring, middle: Substring, rest: Substring)? {
        // Scanned as UTF-8 bytes: every boundary is an ASCII space, tab, digit or `0x`. Walking
        // Characters here was an eighth of batch mode's time.
        var text = line
        guard let ends = text.withUTF8({ frameLineBoundaries($0) }) else { return nil }
        let utf8 = line.utf8
        func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let leadEnd = at(ends.leadEnd)
        let digitsEnd = at(ends.digitsEnd)
        let gapEnd = at(ends.gapEnd)
        let addressEnd = at(ends.addressEnd)
        return (
            line[..<leadEnd], line[leadEnd..<digitsEnd], line[digitsEnd..<gapEnd], line[gapEnd..<addressEnd], line[addressEnd...]
        )
    }

    /// Byte offsets of `splitFrameLine`'s parts: leading blanks, index digits, blanks, then the
    /// first blank-delimited `0x<hex>` token after the index (which may follow the gap
    /// directly, as in the Swift runtime's backtraces).
    private static func frameLineBoundaries(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (leadEnd: Int, digitsEnd: Int, gapEnd: Int, addressEnd: Int)? {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        func isHex(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
        let count = bytes.count
        var i = 0
        while i < count, isBlank(bytes[i]) { i += 1 }
        let leadEnd = i
        while i < count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        let digitsEnd = i
        guard digitsEnd > leadEnd else { return nil }
        while i < count, isBlank(bytes[i]) { i += 1 }
        let gapEnd = i
        guard gapEnd > digitsEnd else { return nil }
        var j = gapEnd - 1
        while j + 2 < count {
            if isBlank(bytes[j]), bytes[j + 1] == 0x30, bytes[j + 2] == 0x78 {  // " 0x"
                var k = j + 3
                while k < count, isHex(bytes[k]) { k += 1 }
                if k > j + 3, k == count || isBlank(bytes[k]) { return (leadEnd, digitsEnd, gapEnd, k) }
            }
            j += 1
        }
        return nil
    }

    /// The same frame line with a new index (column width kept where the gap allows) and,
    /// when given, a new text after the address.
    static func rewrite(_ line: String, index: Int, rest: String?) -> String? {
        guard let parts = splitFrameLine(line) else { return nil }
        let idx = String(index)
        var gap = String(parts.gap)
        if idx.count != parts.index.count, !gap.contains("\t") {
            gap = String(repeating: " ", count: max(1, parts.index.count + gap.count - idx.count))
        }
        let newRest = rest.map { " " + $0 } ?? String(parts.rest)
        return String(parts.lead) + idx + gap + String(parts.middle) + newRest
    }
}
