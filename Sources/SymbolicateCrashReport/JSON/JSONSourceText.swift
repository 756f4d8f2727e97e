/// Where a parsed JSON value sits in its source bytes. Members and elements come in document
/// order, so `children[i]` is the span of an object's i-th member value or an array's i-th element.
struct JSONSpan: Sendable {
    /// Bytes of the value itself (for a container: from the bracket to its closing bracket).
    var range: Range<Int>
    /// For an object member: offset of its key's opening quote; -1 otherwise.
    var keyStart: Int
    var children: [JSONSpan]
}

/// A JSON text together with the spans of its values: what a writer needs to give a document
/// back in its own layout. Apple writes `.ips` bodies in two layouts — one compact line, or a
/// pretty form where top-level members sit on their own lines but most nested values stay
/// compact — and tools re-serialise them in others; reproducing any of them means copying every
/// byte nobody changed and splicing in only the new text.
struct JSONSourceText: Sendable {
    let bytes: [UInt8]
    let root: JSONSpan

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The whole text with each edit's range replaced by its text. Edits must not overlap.
    func replacing(_ edits: [(range: Range<Int>, text: String)]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        var cursor = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where edit.range.lowerBound >= cursor {
            out += text(cursor..<edit.range.lowerBound)
            out += edit.text
            cursor = edit.range.upperBound
        }
        out += text(cursor..<bytes.count)
        return out
    }

    /// The span of `key`'s value in the object `value` whose span is `span`.
    static func member(_ key: String, of value: JSONValue, at span: JSONSpan) -> (value: JSONValue, span: JSONSpan)? {
        guard let members = value.objectValue, members.count == span.children.count,
            let i = members.firstIndex(where: { $0.key == key })
        else { return nil }
        return (members[i].value, span.children[i])
    }

    /// What separates element `i` of a container from its neighbour, as written (`,` or
    /// `,\n    `), for laying out new elements the way the old ones are laid out.
    func separator(around i: Int, in span: JSONSpan) -> String {
        let kids = span.children
        func start(_ k: Int) -> Int { kids[k].keyStart >= 0 ? kids[k].keyStart : kids[k].range.lowerBound }
        if i + 1 < kids.count { return text(kids[i].range.upperBound..<start(i + 1)) }
        if i > 0 { return text(kids[i - 1].range.upperBound..<start(i)) }
        // A lone element: a comma plus the whitespace that puts it on its own line, if any.
        let lead = text(span.range.lowerBound..<start(i)).dropFirst()
        return "," + lead
    }

    /// The object `value` (at `span`) with `updates` applied, in its own layout: an updated
    /// member keeps its place and key spelling and gets the new value; a member updated to
    /// `nil` is dropped; a new key is appended with the object's own separator and colon
    /// spacing. Every member not named is copied byte for byte.
    func editedObject(_ value: JSONValue, at span: JSONSpan, updates: [(key: String, value: JSONValue?)]) -> String {
        let members = value.objectValue ?? []
        let kids = span.children
        guard !kids.isEmpty, members.count == kids.count, let first = kids.first, let last = kids.last else {
            let added = updates.compactMap { u in u.value.map { JSONValue.quoted(u.key, escapingSlashes: true) + ":" + $0.compactText() } }
            return "{" + added.joined(separator: ",") + "}"
        }
        let open = text(span.range.lowerBound..<first.keyStart)
        let close = text(last.range.upperBound..<span.range.upperBound)
        let separator = separator(around: 0, in: span)
        var pending = updates
        var pieces: [String] = []
        for (i, kid) in kids.enumerated() {
            if let u = pending.firstIndex(where: { $0.key == members[i].key }) {
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
    private func colonText(of member: JSONSpan) -> String {
        var i = member.range.lowerBound
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i > member.keyStart, isSpace(bytes[i - 1]) { i -= 1 }
        if i > member.keyStart, bytes[i - 1] == UInt8(ascii: ":") { i -= 1 }
        while i > member.keyStart, isSpace(bytes[i - 1]) { i -= 1 }
        return text(i..<member.range.lowerBound)
    }
}

/// An `.ips` file as read: the header line with its line end (empty when the file had none)
/// and the body's bytes with the spans of its values.
struct IPSSourceText: Sendable {
    var headerLine: String
    var body: JSONSourceText
}
