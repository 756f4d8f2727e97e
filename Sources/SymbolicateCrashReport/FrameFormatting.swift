import Foundation

/// Apple's frame text, shared by the text writer and the `.ips` → text rendering.
enum FrameFormatting {
    /// `function + off (File.swift:42)` per level, innermost first; ` [inlined]` on every level
    /// but the concrete (last) one, as Apple prints inline chains (formats.md §4.2), and
    /// ` [unverified]` on levels from a debug file matched by name only.
    static func symbolicatedRests(_ levels: [SymbolicatedFrame]) -> [String] {
        levels.enumerated().map { (i, level) in
            var s = "\(level.function) + \(level.offsetInFunction)"
            if let line = level.line, let file = level.file {
                s += " (\(basename(file)):\(line))"
            }
            if i < levels.count - 1 { s += " [inlined]" }
            if level.isUnverified { s += " [unverified]" }
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
        if let slash = path.lastIndex(of: "/") { return String(path[path.index(after: slash)...]) }
        return path
    }

    /// `IDX IMAGE(padded 30)\t ADDR(right-aligned 18)` — the layout of iOS 15+/macOS 12+
    /// translated reports.
    static func applePrefix(index: Int, imageName: String, address: UInt64) -> String {
        let idx = String(index)
        let idxCol = idx + String(repeating: " ", count: max(1, 4 - idx.count))
        let nameCol = imageName + String(repeating: " ", count: max(1, 30 - imageName.count))
        let addr = "0x" + String(address, radix: 16)
        return idxCol + nameCol + "\t" + String(repeating: " ", count: max(0, 18 - addr.count)) + addr
    }

    /// Splits an existing frame line into (leading, index digits, whitespace after the index,
    /// middle through the end of the address, rest after the address).
    static func splitFrameLine(_ line: String) -> (lead: Substring, index: Substring, gap: Substring, middle: Substring, rest: Substring)? {
        let lead = line.prefix(while: { $0 == " " || $0 == "\t" })
        let afterLead = line[lead.endIndex...]
        let digits = afterLead.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty else { return nil }
        let afterDigits = afterLead[digits.endIndex...]
        let gap = afterDigits.prefix(while: { $0 == " " || $0 == "\t" })
        guard !gap.isEmpty else { return nil }
        // Address: first whitespace-delimited `0x<hex>` token after the index (which may
        // follow the gap directly, as in the Swift runtime's backtraces).
        var i = line.index(before: gap.endIndex)
        let end = line.endIndex
        while i < end {
            if line[i] == " " || line[i] == "\t" {
                let next = line.index(after: i)
                if line[next...].hasPrefix("0x") {
                    var k = line.index(next, offsetBy: 2)
                    var count = 0
                    while k < end, line[k].isHexDigit {
                        k = line.index(after: k)
                        count += 1
                    }
                    if count > 0, k == end || line[k] == " " || line[k] == "\t" {
                        return (lead, digits, gap, line[gap.endIndex..<k], line[k...])
                    }
                }
            }
            i = line.index(after: i)
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
