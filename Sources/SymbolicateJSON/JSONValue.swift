import Foundation

/// A JSON document that keeps what `JSONSerialization` loses: key order, duplicate-free
/// ordered objects, and numbers exactly as written (`.ips` files carry unsigned 64-bit
/// register values and addresses that do not survive a trip through `Double`).
/// Writing a parsed value back therefore keeps every key we do not understand.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, e.g. `"14987979559889010704"` or `"0.5"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        default: return nil
        }
    }

    /// Integer value; accepts numbers and numeric strings (re-serialised reports write
    /// `"platform":"2"`).
    public var intValue: Int? {
        switch self {
        case .number(let n): return Int(n) ?? Double(n).flatMap { $0.isFinite && $0 == $0.rounded() ? Int(exactly: $0) : nil }
        case .string(let s): return Int(s)
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    public var uint64Value: UInt64? {
        switch self {
        case .number(let n):
            if let v = UInt64(n) { return v }
            if let v = Int64(n) { return UInt64(bitPattern: v) }
            if let d = Double(n), d >= 0, d < 1.8446744073709552e19, d == d.rounded() { return UInt64(d) }
            return nil
        case .string(let s):
            if s.hasPrefix("0x") || s.hasPrefix("0X") { return UInt64(s.dropFirst(2), radix: 16) }
            return UInt64(s)
        default: return nil
        }
    }

    /// Accepts `true`, `1` and the string `"true"` (CrashSymbolicator.py writes the string).
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let n): return n != "0"
        case .string(let s): return s == "true" || s == "1"
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Sets or replaces `key`, keeping the member's position when it already exists.
    public mutating func set(_ key: String, _ value: JSONValue?) {
        guard case .object(var members) = self else { return }
        if let i = members.firstIndex(where: { $0.key == key }) {
            if let value { members[i].value = value } else { members.remove(at: i) }
        } else if let value {
            members.append((key, value))
        }
        self = .object(members)
    }

    public static func int<I: BinaryInteger>(_ v: I) -> JSONValue { .number(String(v)) }

    /// Parses JSON text keeping what the Codable bridge cannot: key order, and numbers exactly
    /// as written.
    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONParser.parse(Array(text.utf8)).value
    }
}

// MARK: - Codable

/// The Codable bridge, for embedding a `JSONValue` in Codable models (`asi` in `--format json`).
/// Numbers stay exact: integers as 64-bit integers, anything else through `Decimal` (exact up to
/// 38 significant digits; `Double` only beyond that). Key order is up to the coder, and
/// Foundation's JSONEncoder and JSONDecoder both use hash order (sorted with `.sortedKeys`) —
/// so where order matters, go through text instead: `JSONValue(parsing:)` and
/// `compactText()`/`prettyText()` keep it, and the `.ips` writer copies the input's bytes.
extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let u = try? c.decode(UInt64.self) {
            self = .number(String(u))
        } else if let i = try? c.decode(Int64.self) {
            self = .number(String(i))
        } else if let d = try? c.decode(Decimal.self), d.isFinite {
            self = .number(d.description)
        } else if let d = try? c.decode(Double.self) {
            self = .number(String(d))
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            let keyed = try decoder.container(keyedBy: AnyKey.self)
            var members: [(key: String, value: JSONValue)] = []
            for key in keyed.allKeys {
                members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let u = UInt64(n) {
                try c.encode(u)
            } else if let i = Int64(n) {
                try c.encode(i)
            } else if let d = Self.exactDecimal(n) {
                try c.encode(d)
            } else if let d = Double(n) {
                try c.encode(d)
            } else {
                try c.encode(n)
            }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let members):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in members { try c.encode(v, forKey: AnyKey(k)) }
        }
    }

    /// `text` as a Decimal when that holds its value exactly: at most 38 significant digits
    /// (Decimal's mantissa) and an exponent Decimal can carry.
    package static func exactDecimal(_ text: String) -> Decimal? {
        var mantissa = text.lowercased()
        if let e = mantissa.firstIndex(of: "e") { mantissa = String(mantissa[..<e]) }
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        guard digits.count <= 38, let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), d.isFinite else { return nil }
        return d
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}

// MARK: - Deep documents

/// A JSON value that may be nested far deeper than a thread's stack allows (a MetricKit
/// payload, read with `JSONParser.deepMaxDepth`). Swift destroys nested arrays by recursion,
/// one call chain per level; this box takes its value apart with a loop instead when the last
/// reference goes, so a 20,000-level tree is released on a 512 KiB stack.
package final class DeepJSON: @unchecked Sendable {
    package private(set) var value: JSONValue

    package init(_ value: JSONValue) { self.value = value }

    deinit {
        // Each step holds a level's children before the level itself is released, so no
        // release ever reaches more than one level down (and the box lets go of the root).
        var pending: [JSONValue] = [value]
        value = .null
        while let next = pending.popLast() {
            switch next {
            case .array(let items): pending.append(contentsOf: items)
            case .object(let members): pending.append(contentsOf: members.lazy.map(\.value))
            default: break
            }
        }
    }
}

// MARK: - Parsing

/// Where and why a JSON text failed to parse. `line` is 1-based within the parsed text.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    /// Path to the value being read, e.g. `threads[3].frames[12].imageOffset`; `nil` at the top level.
    public var path: String?
    public var message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes that tracks line, column and the JSON path,
/// so errors can name the exact spot in a truncated or hand-edited report. It fills a
/// `JSONTape` (one record per value); `parse` materialises a `JSONValue` from it,
/// `parseTape` keeps the tape (what `.ips` bodies of a million frames are read into).
package struct JSONParser {
    private let bytes: [UInt8]
    private var pos = 0
    private var line = 1
    private var lineStart = 0
    private var path: [String] = []
    /// The nesting any JSON document may have: far above every real `.ips` body, header or
    /// Swift backtrace, and low enough for the recursive code that walks `JSONValue`s
    /// (`==`, Codable, the compiler's own destruction of nested arrays) on any thread.
    package static let defaultMaxDepth = 512
    /// The nesting a MetricKit payload may have: its call trees nest two levels per frame,
    /// and a tree of 10,000 frames is read. Such a tree is only walked with loops and released
    /// through `DeepJSON` (never by recursion).
    package static let deepMaxDepth = 100_000
    private let maxDepth: Int
    private var tape = JSONTape.Builder()
    /// Offset of the key quote of the object member whose value is read next (-1: none).
    private var pendingKeyStart = -1

    package init<C: Collection>(_ bytes: C, maxDepth: Int = defaultMaxDepth) where C.Element == UInt8 {
        self.bytes = Array(bytes)
        self.maxDepth = maxDepth
    }

    /// A parser positioned at `offset` of `bytes` (for decoding one string of a tape).
    package init(bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        self.maxDepth = Self.defaultMaxDepth
        pos = offset
    }

    /// Parses exactly one value; trailing non-whitespace is an error unless `allowTrailing`.
    package static func parse<C: Collection>(
        _ bytes: C, allowTrailing: Bool = false, maxDepth: Int = defaultMaxDepth
    ) throws(JSONSyntaxError) -> (value: JSONValue, end: Int)
    where C.Element == UInt8 {
        var p = JSONParser(bytes, maxDepth: maxDepth)
        try p.parseDocument(allowTrailing: allowTrailing)
        return (JSONTape(bytes: p.bytes, builder: p.tape).root.value, p.pos)
    }

    /// Parses exactly one value into a tape, which keeps where every value sits in `bytes`
    /// (so a writer can reproduce the text byte for byte around the parts it changes) and
    /// reads values from the text when asked.
    package static func parseTape(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONTape {
        var p = JSONParser(bytes, maxDepth: maxDepth)
        try p.parseDocument(allowTrailing: false)
        return JSONTape(bytes: p.bytes, builder: p.tape)
    }

    private mutating func parseDocument(allowTrailing: Bool) throws(JSONSyntaxError) {
        // Tape offsets are 32-bit (reports are limited to 64 MiB long before this).
        guard bytes.count < Int(JSONTape.noKey) else { throw error("JSON text of 4 GiB or more") }
        skipWhitespace()
        try parseValue()
        let end = pos
        skipWhitespace()
        if !allowTrailing, pos < bytes.count {
            throw error("unexpected text after the JSON value")
        }
        pos = end
    }

    /// `threads[2].frames[5]`. A step repeated four times or more in a row is written once
    /// with its count (`subFrames[0]×255`): a MetricKit call tree nests one level per frame,
    /// and a path naming every level would bury the message.
    private func pathString() -> String? {
        var steps: [String] = []
        for c in path {
            if c.hasPrefix("["), let last = steps.popLast() { steps.append(last + c) } else { steps.append(c) }
        }
        var runs: [(step: String, count: Int)] = []
        for step in steps {
            if let last = runs.last, last.step == step { runs[runs.count - 1].count += 1 } else { runs.append((step, 1)) }
        }
        let parts = runs.flatMap { run -> [String] in
            run.count >= 4 ? ["\(run.step)×\(run.count)"] : Array(repeating: run.step, count: run.count)
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: pos - lineStart + 1, path: pathString(), message: message)
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0D: pos += 1
            case 0x0A:
                pos += 1
                line += 1
                lineStart = pos
            default: return
            }
        }
    }

    /// One open container while parsing: its tape record and how many values it has so far.
    private struct OpenContainer {
        var node: Int
        var isObject: Bool
        var count = 0
    }

    /// Reads one value with an explicit stack of open containers rather than recursion: a
    /// MetricKit call tree nests two levels per frame, and batch workers may run on small
    /// stacks (512 KiB on macOS), so the nesting a document may have is bounded by
    /// `maxDepth`, not by the thread's stack.
    private mutating func parseValue() throws(JSONSyntaxError) {
        var stack: [OpenContainer] = []
        while true {
            // At the start of a value (whitespace skipped).
            guard stack.count < maxDepth else { throw error("nesting deeper than \(maxDepth)") }
            guard pos < bytes.count else { throw error("unexpected end of input (truncated JSON)") }
            let start = pos, keyStart = pendingKeyStart
            pendingKeyStart = -1
            // The scalar read here; nil for an empty container (already complete on the tape).
            var kind: JSONTape.Kind?
            switch bytes[pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[pos] == UInt8(ascii: "{")
                let node = tape.open(isObject ? .object : .array, start: start, keyStart: keyStart)
                pos += 1
                skipWhitespace()
                if pos < bytes.count, bytes[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    tape.close(node, end: pos)
                    break
                }
                stack.append(OpenContainer(node: node, isObject: isObject))
                if isObject {
                    try readKey()
                } else {
                    path.append("[0]")
                    skipWhitespace()
                }
                continue
            case UInt8(ascii: "\""):
                _ = try parseString()
                kind = .string
            case UInt8(ascii: "t"):
                try literal("true")
                kind = .true
            case UInt8(ascii: "f"):
                try literal("false")
                kind = .false
            case UInt8(ascii: "n"):
                try literal("null")
                kind = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
                kind = .number
            default: throw error("unexpected character '\(printable(bytes[pos]))'")
            }
            if let kind { tape.close(tape.open(kind, start: start, keyStart: keyStart), end: pos) }
            // A value is complete: hand it to its container, closing every container it ends.
            while true {
                guard var top = stack.popLast() else { return }
                top.count += 1
                skipWhitespace()
                if top.isObject {
                    guard pos < bytes.count else {
                        stack.append(top)
                        throw error("unexpected end of input in an object (truncated JSON)")
                    }
                    path.removeLast()
                    if bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        stack.append(top)
                        try readKey()
                        break
                    }
                    guard bytes[pos] == UInt8(ascii: "}") else {
                        stack.append(top)
                        throw error("expected ',' or '}' in an object")
                    }
                } else {
                    path.removeLast()
                    guard pos < bytes.count else {
                        path.append("[\(top.count)]")
                        stack.append(top)
                        throw error("unexpected end of input in an array (truncated JSON)")
                    }
                    if bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        path.append("[\(top.count)]")
                        skipWhitespace()
                        stack.append(top)
                        break
                    }
                    guard bytes[pos] == UInt8(ascii: "]") else {
                        stack.append(top)
                        throw error("expected ',' or ']' in an array")
                    }
                }
                pos += 1
                tape.close(top.node, end: pos)
            }
        }
    }

    /// Reads `"key" :` of the next object member (whitespace before and after included) and
    /// names it in the path.
    private mutating func readKey() throws(JSONSyntaxError) {
        skipWhitespace()
        guard pos < bytes.count else { throw error("unexpected end of input in an object (truncated JSON)") }
        guard bytes[pos] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
        let keyStart = pos
        let key = try parseString()
        path.append(key)
        skipWhitespace()
        guard pos < bytes.count else { throw error("unexpected end of input in an object (truncated JSON)") }
        guard bytes[pos] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
        pos += 1
        skipWhitespace()
        pendingKeyStart = keyStart
    }

    /// The string literal at the current position, decoded (for `JSONTape`).
    package mutating func parseStringLiteral() throws(JSONSyntaxError) -> String {
        try parseString()
    }

    private func printable(_ b: UInt8) -> String {
        (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : String(format: "\\x%02X", b)
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for b in word.utf8 {
            guard pos < bytes.count else { throw error("unexpected end of input (truncated JSON)") }
            guard bytes[pos] == b else { throw error("invalid literal, expected '\(word)'") }
            pos += 1
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) {
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.pos
            while p.pos < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.pos]) { p.pos += 1 }
            return p.pos - s
        }
        guard digits(&self) > 0 else { throw error("invalid number") }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        pos += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw error("unexpected end of input inside a string (truncated JSON)") }
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "\""):
                pos += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                pos += 1
                guard pos < bytes.count else { throw error("unexpected end of input inside a string (truncated JSON)") }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), pos + 1 < bytes.count,
                        bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
                    {
                        pos += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                    }
                    let u = UnicodeScalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("invalid escape '\\\(printable(e))'")
                }
            case 0x0A:
                throw error("line break inside a string (re-wrapped or truncated JSON)")
            case 0x00..<0x20:
                throw error("control character inside a string")
            default:
                out.append(b)
                pos += 1
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw error("unexpected end of input in \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }
}

// MARK: - Serialising

extension JSONValue {
    /// Compact single-line JSON (the `.ips` header line style).
    package func compactText() -> String {
        var out = ""
        write(into: &out, indent: nil, level: 0)
        return out
    }

    /// Pretty JSON in Apple's `.ips` body style: two-space indent, `"key" : value`.
    package func prettyText() -> String {
        var out = ""
        write(into: &out, indent: "  ", level: 0)
        return out
    }

    /// Writes with an explicit stack of open containers (a value read with
    /// `JSONParser.deepMaxDepth` may be nested far deeper than a thread's stack allows).
    private func write(into out: inout String, indent: String?, level: Int) {
        enum Step {
            case value(JSONValue, level: Int)
            case member(String, JSONValue, level: Int, first: Bool)
            case element(JSONValue, level: Int, first: Bool)
            case close(Character, level: Int)
        }
        func newline(_ level: Int, into out: inout String) {
            if let indent { out += "\n" + String(repeating: indent, count: level) }
        }
        var steps: [Step] = [.value(self, level: level)]
        while let step = steps.popLast() {
            var pending: JSONValue
            var at: Int
            switch step {
            case .close(let bracket, let level):
                newline(level, into: &out)
                out.append(bracket)
                continue
            case .member(let key, let value, let level, let first):
                if !first { out += "," }
                newline(level, into: &out)
                JSONValue.escape(key, into: &out)
                out += indent == nil ? ":" : " : "
                (pending, at) = (value, level)
            case .element(let value, let level, let first):
                if !first { out += "," }
                newline(level, into: &out)
                (pending, at) = (value, level)
            case .value(let value, let level):
                (pending, at) = (value, level)
            }
            switch pending {
            case .null: out += "null"
            case .bool(let b): out += b ? "true" : "false"
            case .number(let n): out += n
            case .string(let s): JSONValue.escape(s, into: &out)
            case .array(let items):
                if items.isEmpty {
                    out += "[]"
                    continue
                }
                out += "["
                steps.append(.close("]", level: at))
                // Indices, not enumerated().reversed(): on Apple's SDK that binds to a macOS 26 conformance.
                for i in items.indices.reversed() { steps.append(.element(items[i], level: at + 1, first: i == 0)) }
            case .object(let members):
                if members.isEmpty {
                    out += "{}"
                    continue
                }
                out += "{"
                steps.append(.close("}", level: at))
                for i in members.indices.reversed() {
                    steps.append(.member(members[i].key, members[i].value, level: at + 1, first: i == members.startIndex))
                }
            }
        }
    }

    /// `s` as a JSON string literal, quotes included: for writers that build JSON text by hand
    /// (one object per line, as atos `--json` and batch summaries do).
    /// `/` is escaped only when asked: Apple's `.ips` writer does it, plain JSON needs not.
    package static func quoted(_ s: String, escapingSlashes: Bool = false) -> String {
        var out = ""
        escape(s, into: &out, escapingSlashes: escapingSlashes)
        return out
    }

    package static func escape(_ s: String, into out: inout String, escapingSlashes: Bool = true) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where escapingSlashes: out += "\\/"
            default:
                if u.value < 0x20 {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
