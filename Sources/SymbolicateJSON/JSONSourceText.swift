/// Giving a JSON document back in its own layout. Apple writes `.ips` bodies in two layouts —
/// one compact line, or a pretty form where top-level members sit on their own lines but most
/// nested values stay compact — and tools re-serialise them in others; reproducing any of them
/// means copying every byte nobody changed and splicing in only the new text. A `JSONTape`
/// knows where every value (and every member's key) sits in the text.
extension JSONTape {
    /// The whole text with each edit's range replaced by its text, after `prefix` (built in
    /// one buffer: the text may be tens of megabytes). Edits must not overlap.
    package func replacing(_ edits: [(range: Range<Int>, text: String)], after prefix: String = "") -> String {
        var out = ""
        out.reserveCapacity(prefix.utf8.count + bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        out += prefix
        var cursor = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where edit.range.lowerBound >= cursor {
            append(cursor..<edit.range.lowerBound, to: &out)
            out += edit.text
            cursor = edit.range.upperBound
        }
        append(cursor..<bytes.count, to: &out)
        return out
    }

    /// Appends the text of `range` in pieces of at most 64 KiB, each ending before a UTF-8
    /// lead byte, so no temporary string as large as the range is made.
    private func append(_ range: Range<Int>, to out: inout String) {
        var start = range.lowerBound
        while start < range.upperBound {
            var end = min(start + 65536, range.upperBound)
            while end < range.upperBound, end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            out += text(start..<end)
            start = end
        }
    }

    /// What separates element `i` of a container from its neighbour, as written (`,` or
    /// `,\n    `), for laying out new elements the way the old ones are laid out. `kids` are
    /// the container's children (`container.children`).
    package func separator(around i: Int, in container: JSONNode, kids: [JSONNode]) -> String {
        if i + 1 < kids.count { return text(kids[i].range.upperBound..<kids[i + 1].leadingStart) }
        if i > 0 { return text(kids[i - 1].range.upperBound..<kids[i].leadingStart) }
        // A lone element: a comma plus the whitespace that puts it on its own line, if any.
        let lead = text(container.range.lowerBound..<kids[i].leadingStart).dropFirst()
        return "," + lead
    }

    /// The object `object` with `updates` applied, in its own layout: an updated member keeps
    /// its place and key spelling and gets the new value; a member updated to `nil` is
    /// dropped; a new key is appended with the object's own separator and colon spacing.
    /// Every member not named is copied byte for byte.
    package func editedObject(_ object: JSONNode, updates: [(key: String, value: JSONValue?)]) -> String {
        let kids = object.children
        guard object.isObject, let first = kids.first, let last = kids.last else {
            let added = updates.compactMap { u in u.value.map { JSONValue.quoted(u.key, escapingSlashes: true) + ":" + $0.compactText() } }
            return "{" + added.joined(separator: ",") + "}"
        }
        let open = text(object.range.lowerBound..<first.keyStart)
        let close = text(last.range.upperBound..<object.range.upperBound)
        let separator = separator(around: 0, in: object, kids: kids)
        var pending = updates
        var pieces: [String] = []
        for kid in kids {
            let key = kid.key ?? ""
            if let u = pending.firstIndex(where: { $0.key == key }) {
                if let new = pending.remove(at: u).value {
                    pieces.append(text(kid.keyStart..<kid.range.lowerBound) + new.compactText())
                }
            } else {
                pieces.append(text(kid.keyStart..<kid.range.upperBound))
            }
        }
        let colon = colonText(of: first)
        for u in pending {
            guard let new = u.value else { continue }
            pieces.append(JSONValue.quoted(u.key, escapingSlashes: true) + colon + new.compactText())
        }
        return open + pieces.joined(separator: separator) + close
    }

    /// The text between a member's key and its value (`:` or ` : `).
    private func colonText(of member: JSONNode) -> String {
        let keyStart = member.keyStart
        var i = member.range.lowerBound
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i > keyStart, isSpace(bytes[i - 1]) { i -= 1 }
        if i > keyStart, bytes[i - 1] == UInt8(ascii: ":") { i -= 1 }
        while i > keyStart, isSpace(bytes[i - 1]) { i -= 1 }
        return text(i..<member.range.lowerBound)
    }
}
