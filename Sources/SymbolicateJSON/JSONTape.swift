/// A parsed JSON text kept as the text itself plus one small record per value, in document
/// order: its kind, where it starts and ends, where its key starts (object members) and the
/// record after its subtree. A `.ips` of a million frames holds three to five values per
/// frame; as a tree of `JSONValue`s each frame was an array of key/value pairs, its spans
/// another array, about 250 bytes a frame, where these records take 17 bytes a value.
///
/// Values are read through `JSONNode` (the same accessors as `JSONValue`); strings and
/// numbers are decoded from the text when asked. The parser (`JSONParser`) fills it, and
/// `JSONValue`s are materialised from it, so both views come from one parser.
package final class JSONTape: Sendable {
    package enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    /// The JSON text.
    package let bytes: [UInt8]
    package let kinds: [Kind]
    /// Byte range of each value (containers: bracket to closing bracket).
    package let starts: [UInt32]
    package let ends: [UInt32]
    /// Offset of the key's opening quote for an object member; `noKey` otherwise.
    package let keyStarts: [UInt32]
    /// Index of the first record after the value's subtree: its next sibling, if any.
    package let nexts: [UInt32]

    package static let noKey = UInt32.max

    package init(bytes: [UInt8], builder: Builder) {
        self.bytes = bytes
        // Exact-size copies: the builder's arrays grew by doubling.
        func exact<T>(_ a: [T]) -> [T] { a.withUnsafeBufferPointer { Array($0) } }
        kinds = exact(builder.kinds)
        starts = exact(builder.starts)
        ends = exact(builder.ends)
        keyStarts = exact(builder.keyStarts)
        nexts = exact(builder.nexts)
    }

    /// The first value of the text.
    package var root: JSONNode { JSONNode(tape: self, index: 0) }

    /// What the parser appends to, one record per value as its start is met; `close` fills
    /// in the end when the value is complete.
    package struct Builder {
        var kinds: [Kind] = []
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        var keyStarts: [UInt32] = []
        var nexts: [UInt32] = []

        var count: Int { kinds.count }

        /// Offsets fit: the parser refuses texts of 4 GiB and more.
        mutating func open(_ kind: Kind, start: Int, keyStart: Int) -> Int {
            kinds.append(kind)
            starts.append(UInt32(truncatingIfNeeded: start))
            ends.append(UInt32(truncatingIfNeeded: start))
            keyStarts.append(keyStart < 0 ? JSONTape.noKey : UInt32(truncatingIfNeeded: keyStart))
            nexts.append(0)
            return kinds.count - 1
        }

        mutating func close(_ node: Int, end: Int) {
            ends[node] = UInt32(truncatingIfNeeded: end)
            nexts[node] = UInt32(truncatingIfNeeded: kinds.count)
        }
    }

    // MARK: Text

    package func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The string literal whose opening quote is at `start`, decoded (escapes resolved).
    /// The parser has validated it, so this cannot fail on a tape's own strings.
    package func decodedString(at start: Int) -> String {
        var i = start + 1
        var plain = true
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") {
                plain = false
                i += 2
            } else {
                i += 1
            }
        }
        if plain { return String(decoding: bytes[(start + 1)..<min(i, bytes.count)], as: UTF8.self) }
        var parser = JSONParser(bytes: bytes, at: start)
        return (try? parser.parseStringLiteral()) ?? ""
    }

    /// Whether the string literal at `start` reads `key`, without building a string when it
    /// has no escapes.
    package func stringLiteral(at start: Int, equals key: String) -> Bool {
        var i = start + 1
        for b in key.utf8 {
            guard i < bytes.count, bytes[i] == b else { return decodedStringIfEscaped(at: start) == key }
            i += 1
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return decodedStringIfEscaped(at: start) == key }
        return true
    }

    private func decodedStringIfEscaped(at start: Int) -> String? {
        var i = start + 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") { return decodedString(at: start) }
            i += 1
        }
        return nil
    }

    // MARK: Materialising

    /// The subtree at `index` as a `JSONValue`, built with a loop (a MetricKit call tree
    /// nests thousands of levels).
    package func value(at index: Int) -> JSONValue {
        struct Open {
            var node: Int
            var next: Int
            var end: Int
            var items: [JSONValue] = []
            var members: [(key: String, value: JSONValue)] = []
        }
        var stack: [Open] = []
        var i = index
        while true {
            var value: JSONValue
            switch kinds[i] {
            case .null: value = .null
            case .false: value = .bool(false)
            case .true: value = .bool(true)
            case .number: value = .number(text(Int(starts[i])..<Int(ends[i])))
            case .string: value = .string(decodedString(at: Int(starts[i])))
            case .array, .object:
                let end = Int(nexts[i])
                if end > i + 1 {
                    stack.append(Open(node: i, next: i + 1, end: end))
                    i += 1
                    continue
                }
                value = kinds[i] == .array ? .array([]) : .object([])
            }
            // `value` is complete (record `i`): hand it to its container, closing every
            // container it completes.
            var done = i
            while true {
                guard var top = stack.popLast() else { return value }
                if kinds[top.node] == .object {
                    top.members.append((decodedString(at: Int(keyStarts[done])), value))
                } else {
                    top.items.append(value)
                }
                top.next = Int(nexts[done])
                if top.next < top.end {
                    stack.append(top)
                    i = top.next
                    break
                }
                value = kinds[top.node] == .object ? .object(top.members) : .array(top.items)
                done = top.node
            }
        }
    }
}

/// One value of a `JSONTape`: what `JSONValue` offers (`subscript`, `stringValue`,
/// `arrayValue`…) read from the tape, plus where the value sits in the text, so a writer can
/// give the document back in its own layout.
package struct JSONNode: Sendable {
    package let tape: JSONTape
    package let index: Int

    package var kind: JSONTape.Kind { tape.kinds[index] }
    /// Bytes of the value itself (for a container: from the bracket to its closing bracket).
    package var range: Range<Int> { Int(tape.starts[index])..<Int(tape.ends[index]) }
    /// For an object member: offset of its key's opening quote; -1 otherwise.
    package var keyStart: Int {
        let k = tape.keyStarts[index]
        return k == JSONTape.noKey ? -1 : Int(k)
    }
    /// Where the member starts, key included (the value's start when not a member).
    package var leadingStart: Int { keyStart >= 0 ? keyStart : range.lowerBound }
    package var isObject: Bool { kind == .object }
    package var isArray: Bool { kind == .array }

    /// The elements of an array or the member values of an object, in document order.
    package var children: [JSONNode] {
        var out: [JSONNode] = []
        forEachChild { out.append($0) }
        return out
    }

    package var childCount: Int {
        var n = 0
        forEachChild { _ in n += 1 }
        return n
    }

    package func forEachChild(_ body: (JSONNode) -> Void) {
        guard kind == .array || kind == .object else { return }
        let end = Int(tape.nexts[index])
        var i = index + 1
        while i < end {
            body(JSONNode(tape: tape, index: i))
            i = Int(tape.nexts[i])
        }
    }

    /// The member's key (decoded); nil when the value is not an object member.
    package var key: String? { keyStart >= 0 ? tape.decodedString(at: keyStart) : nil }

    /// The first member named `key`, as `JSONValue`'s subscript finds it.
    package subscript(key: String) -> JSONNode? {
        guard kind == .object else { return nil }
        let end = Int(tape.nexts[index])
        var i = index + 1
        while i < end {
            if tape.stringLiteral(at: Int(tape.keyStarts[i]), equals: key) { return JSONNode(tape: tape, index: i) }
            i = Int(tape.nexts[i])
        }
        return nil
    }

    package var arrayValue: [JSONNode]? { kind == .array ? children : nil }

    package var objectValue: [(key: String, value: JSONNode)]? {
        guard kind == .object else { return nil }
        return children.map { ($0.key ?? "", $0) }
    }

    /// The value as a `JSONValue` (a whole subtree for a container).
    package var value: JSONValue { tape.value(at: index) }

    /// Scalars as `JSONValue`, so the conversions below are `JSONValue`'s own; containers
    /// convert to nothing.
    private var scalar: JSONValue? {
        switch kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(tape.text(range))
        case .string: return .string(tape.decodedString(at: range.lowerBound))
        case .array, .object: return nil
        }
    }

    package var stringValue: String? { scalar?.stringValue }
    package var intValue: Int? { scalar?.intValue }
    package var uint64Value: UInt64? { scalar?.uint64Value }
    package var boolValue: Bool? { scalar?.boolValue }

    /// The value's text as written.
    package var sourceText: String { tape.text(range) }
}
