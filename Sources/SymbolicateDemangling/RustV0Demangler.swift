/// Rust v0 names (`_R…`), after RFC 2603's grammar, printed in rustc-demangle's alternate form.
///
/// One pass over the bytes writes the text as it parses; backreferences (`B<base-62>`) jump
/// back to an earlier position and print what is there again. Impl paths and the instantiating
/// crate are parsed without printing. Nesting, work and output are bounded (as rustc-demangle
/// bounds its recursion and its output), so a hostile name is refused, never a stack overflow,
/// and backreferences that double at every level (`TBx_Bx_E`…) stop at the output limit.
struct RustV0Demangler {
    private struct Invalid: Error {
        /// A bound was reached (the name may be valid): the caller notes it, unlike a bad name.
        var overLimit = false
    }

    private let bytes: [UInt8]
    /// Where the mangling proper starts (after `_R`): backreferences count from here.
    private let base: Int
    private var position: Int
    private var out = ""
    private var printing = true
    private var depth = 0
    /// Productions parsed so far, backreferences followed included: bounds the work.
    private var steps = 0
    /// Set when `out` reached the output limit; the next production stops the parse.
    private var overflowed = false
    /// The measuring pass (`measure`): nothing is written, lengths are added up instead.
    private var measuring = false
    private var measured = 0
    /// Measuring: the printed length of the production that starts at each position, with
    /// what its backreferences print, so a backreference adds a length instead of re-parsing.
    private var lengths: [Int: Int] = [:]
    /// Measuring: what a production may print beyond its measured length where it is printed
    /// again in another context (`::` before generic arguments in a value path, braces around
    /// a constant, a lifetime's name under another binder).
    private static let contextSlack = 8
    /// Lifetimes bound by the `for<…>` binders currently open.
    private var boundLifetimes = 0

    private static let maxDepth = 300
    /// Productions per name: real names take a few hundred; backreferences re-parse their target
    /// each time they are printed, so this bounds the work that output the limit does not.
    private static let maxSteps = 1 << 20

    private init(bytes: [UInt8], base: Int) {
        self.bytes = bytes
        self.base = base
        position = base
    }

    static func demangle(_ bytes: [UInt8]) -> String? {
        demangling(bytes).text
    }

    /// Names up to this length are demangled on the caller's stack: the deepest shapes
    /// (function types in function types) take about 4 KiB of stack per level unoptimised,
    /// and a level takes at least two bytes, so 64 bytes stay under 128 KiB. Longer names
    /// run on a thread with `threadStackBytes`, enough for `maxDepth` levels four times over.
    static let inlineLength = 64
    static let threadStackBytes = 8 << 20

    /// The demangled name, `.notMangled` when `bytes` is not a v0 name, `.refused` at a bound.
    static func demangling(_ bytes: [UInt8]) -> Demangling {
        guard bytes.count > inlineLength, bytes.starts(with: Array("_R".utf8)) || bytes.starts(with: Array("__R".utf8)) else {
            return demanglingHere(bytes)
        }
        return LargeStack.run(bytes: threadStackBytes) { demanglingHere(bytes) } ?? .refused(.noResources)
    }

    private static func demanglingHere(_ bytes: [UInt8]) -> Demangling {
        let base: Int
        if bytes.starts(with: Array("_R".utf8)) {
            base = 2
        } else if bytes.starts(with: Array("__R".utf8)) {
            base = 3
        } else {
            return .notMangled
        }
        // Paths start with an uppercase tag; a digit would be a later encoding version.
        guard base < bytes.count, (0x41...0x5A).contains(bytes[base]) else { return .notMangled }
        guard bytes.count <= DemangleLimits.maxNameBytes else {
            return .refused(.tooLong(length: bytes.count, limit: DemangleLimits.maxNameBytes))
        }
        // First the printed length, in one pass linear in the name (each backreference adds the
        // length of what it points to): backreferences that double at every level are refused
        // before any of them is printed.
        var measure = RustV0Demangler(bytes: bytes, base: base)
        measure.measuring = true
        do throws(Invalid) {
            try measure.parseName()
        } catch {
            return error.overLimit ? .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes)) : .notMangled
        }
        guard measure.measured <= DemangleLimits.maxOutputBytes else { return .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes)) }
        var parser = RustV0Demangler(bytes: bytes, base: base)
        do throws(Invalid) {
            try parser.parseName()
            guard !parser.overflowed else { throw Invalid(overLimit: true) }
        } catch {
            return error.overLimit ? .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes)) : .notMangled
        }
        let suffix = bytes[parser.position...]
        guard suffix.isEmpty || RustDemangler.isKeptSuffix(suffix) else { return .notMangled }
        return .demangled(parser.out + String(decoding: suffix, as: UTF8.self))
    }

    /// The symbol: its path, then the instantiating crate, which is not printed.
    private mutating func parseName() throws(Invalid) {
        try path(inValue: true)
        if let next = peek(), (0x41...0x5A).contains(next) {
            try silently { (p) throws(Invalid) in try p.path(inValue: false) }
        }
    }

    // MARK: - Reading

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func next() throws(Invalid) -> UInt8 {
        guard position < bytes.count else { throw Invalid() }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func eat(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// `_` is 0; otherwise base-62 digits (`0-9a-zA-Z`) then `_`, meaning their value + 1.
    private mutating func base62() throws(Invalid) -> UInt64 {
        if eat("_") { return 0 }
        var value: UInt64 = 0
        while true {
            let byte = try next()
            if byte == UInt8(ascii: "_") { break }
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x7A: digit = UInt64(byte - 0x61) + 10
            case 0x41...0x5A: digit = UInt64(byte - 0x41) + 36
            default: throw Invalid()
            }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 62)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { throw Invalid() }
            value = sum
        }
        guard value < UInt64.max else { throw Invalid() }
        return value + 1
    }

    /// `tag` followed by a base-62 number (its value + 1), or 0 when `tag` is absent.
    private mutating func optionalBase62(_ tag: Unicode.Scalar) throws(Invalid) -> UInt64 {
        guard eat(tag) else { return 0 }
        let value = try base62()
        guard value < UInt64.max else { throw Invalid() }
        return value + 1
    }

    private mutating func decimal() throws(Invalid) -> Int {
        let first = try next()
        guard RustDemangler.isDigit(first) else { throw Invalid() }
        if first == UInt8(ascii: "0") { return 0 }
        var value = Int(first - 0x30)
        while let byte = peek(), RustDemangler.isDigit(byte) {
            position += 1
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1, !overflow2 else { throw Invalid() }
            value = sum
        }
        return value
    }

    /// Lowercase hex digits up to `_`.
    private mutating func hexNibbles() throws(Invalid) -> ArraySlice<UInt8> {
        let start = position
        while true {
            let byte = try next()
            if byte == UInt8(ascii: "_") { break }
            guard RustDemangler.isDigit(byte) || (0x61...0x66).contains(byte) else { throw Invalid() }
        }
        return bytes[start..<(position - 1)]
    }

    private struct Identifier {
        var ascii: ArraySlice<UInt8>
        var punycode: ArraySlice<UInt8>
        var isEmpty: Bool { ascii.isEmpty && punycode.isEmpty }
    }

    /// `[u] <decimal length> [_] <bytes>`: `u` marks punycode, whose ASCII part ends at the
    /// last `_`.
    private mutating func undisambiguatedIdentifier() throws(Invalid) -> Identifier {
        let isPunycode = eat("u")
        let length = try decimal()
        _ = eat("_")
        guard length <= bytes.count - position else { throw Invalid() }
        let text = bytes[position..<(position + length)]
        position += length
        guard text.allSatisfy({ $0 == 0x5F || RustDemangler.isDigit($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw Invalid() }
        guard isPunycode else { return Identifier(ascii: text, punycode: []) }
        if let separator = text.lastIndex(of: UInt8(ascii: "_")) {
            let identifier = Identifier(ascii: text[..<separator], punycode: text[(separator + 1)...])
            guard !identifier.punycode.isEmpty else { throw Invalid() }
            return identifier
        }
        guard !text.isEmpty else { throw Invalid() }
        return Identifier(ascii: [], punycode: text)
    }

    // MARK: - Writing

    private mutating func print(_ text: String) {
        if measuring {
            // Silent parts are counted too: a backreference may print them.
            measured += text.utf8.count
            return
        }
        guard printing, !overflowed else { return }
        out += text
        if out.utf8.count > DemangleLimits.maxOutputBytes { overflowed = true }
    }

    private mutating func print(_ identifier: Identifier) {
        if measuring {
            // Punycode decodes to at most 4 bytes per digit; `punycode{…-…}` when it does not.
            measured += identifier.ascii.count + 4 * identifier.punycode.count + 12
            return
        }
        guard printing, !overflowed else { return }
        defer { if out.utf8.count > DemangleLimits.maxOutputBytes { overflowed = true } }
        if identifier.punycode.isEmpty {
            out += String(decoding: identifier.ascii, as: UTF8.self)
        } else if let decoded = Punycode.decode(ascii: identifier.ascii, digits: identifier.punycode) {
            out += decoded
        } else {
            out += "punycode{"
            if !identifier.ascii.isEmpty { out += String(decoding: identifier.ascii, as: UTF8.self) + "-" }
            out += String(decoding: identifier.punycode, as: UTF8.self) + "}"
        }
    }

    /// Runs `body` with printing off (impl paths, the instantiating crate).
    private mutating func silently(_ body: (inout RustV0Demangler) throws(Invalid) -> Void) throws(Invalid) {
        let was = printing
        printing = false
        defer { printing = was }
        try body(&self)
    }

    private mutating func nested(_ body: (inout RustV0Demangler) throws(Invalid) -> Void) throws(Invalid) {
        depth += 1
        steps += 1
        guard depth <= Self.maxDepth else { throw Invalid(overLimit: true) }
        guard steps <= Self.maxSteps, !overflowed else { throw Invalid(overLimit: true) }
        defer { depth -= 1 }
        let start = position
        let before = measured
        try body(&self)
        if measuring {
            lengths[start] = max(lengths[start] ?? 0, measured - before + Self.contextSlack)
            guard measured <= DemangleLimits.maxOutputBytes else { throw Invalid(overLimit: true) }
        }
    }

    /// `B<base-62>`: prints what starts at that earlier position, then carries on after it.
    private mutating func backref(_ body: (inout RustV0Demangler) throws(Invalid) -> Void) throws(Invalid) {
        let tagPosition = position - 1
        let target = try base62()
        guard target < UInt64(tagPosition - base) else { throw Invalid() }
        if measuring {
            // What it points to was measured when it was parsed; a production still open
            // (a backreference into itself) would recurse until the depth bound.
            guard let length = lengths[base + Int(target)] else { throw Invalid(overLimit: true) }
            measured += length
            guard measured <= DemangleLimits.maxOutputBytes else { throw Invalid(overLimit: true) }
            return
        }
        guard printing else { return }
        let resume = position
        position = base + Int(target)
        try nested(body)
        position = resume
    }

    /// Repeats `body` until `E`, printing `separator` between; returns how many.
    @discardableResult
    private mutating func list(
        separator: String, _ body: (inout RustV0Demangler) throws(Invalid) -> Void
    ) throws(Invalid) -> Int {
        var count = 0
        while !eat("E") {
            if count > 0 { print(separator) }
            try body(&self)
            count += 1
        }
        return count
    }

    // MARK: - Paths

    private mutating func path(inValue: Bool) throws(Invalid) {
        try nested { (p) throws(Invalid) in try p.pathBody(inValue: inValue) }
    }

    private mutating func pathBody(inValue: Bool) throws(Invalid) {
        let tag = try next()
        switch tag {
        case UInt8(ascii: "C"):
            _ = try optionalBase62("s")
            print(try undisambiguatedIdentifier())
        case UInt8(ascii: "M"), UInt8(ascii: "X"):
            try silently { (p) throws(Invalid) in
                _ = try p.optionalBase62("s")
                try p.path(inValue: false)
            }
            print("<")
            try type()
            if tag == UInt8(ascii: "X") {
                print(" as ")
                try path(inValue: false)
            }
            print(">")
        case UInt8(ascii: "Y"):
            print("<")
            try type()
            print(" as ")
            try path(inValue: false)
            print(">")
        case UInt8(ascii: "N"):
            let namespace = try next()
            guard (0x41...0x5A).contains(namespace) || (0x61...0x7A).contains(namespace) else { throw Invalid() }
            try path(inValue: inValue)
            let disambiguator = try optionalBase62("s")
            let name = try undisambiguatedIdentifier()
            if (0x41...0x5A).contains(namespace) {
                print("::{")
                switch namespace {
                case UInt8(ascii: "C"): print("closure")
                case UInt8(ascii: "S"): print("shim")
                default: print(String(UnicodeScalar(namespace)))
                }
                if !name.isEmpty {
                    print(":")
                    print(name)
                }
                print("#\(disambiguator)}")
            } else if !name.isEmpty {
                print("::")
                print(name)
            }
        case UInt8(ascii: "I"):
            try path(inValue: inValue)
            if inValue { print("::") }
            print("<")
            try list(separator: ", ") { (p) throws(Invalid) in try p.genericArgument() }
            print(">")
        case UInt8(ascii: "B"):
            try backref { (p) throws(Invalid) in try p.path(inValue: inValue) }
        default:
            throw Invalid()
        }
    }

    /// A path in a `dyn` bound: its generic arguments are left open (`Fn<(u8,)`) so that
    /// associated-type bindings can follow inside the same brackets. Returns whether it is open.
    private mutating func pathMaybeOpenGenerics() throws(Invalid) -> Bool {
        if eat("B") {
            var open = false
            try backref { (p) throws(Invalid) in open = try p.pathMaybeOpenGenerics() }
            return open
        }
        if eat("I") {
            try path(inValue: false)
            print("<")
            try list(separator: ", ") { (p) throws(Invalid) in try p.genericArgument() }
            return true
        }
        try path(inValue: false)
        return false
    }

    private mutating func genericArgument() throws(Invalid) {
        if eat("L") {
            try lifetime(try base62())
        } else if eat("K") {
            try constant(inValue: false)
        } else {
            try type()
        }
    }

    private mutating func lifetime(_ index: UInt64) throws(Invalid) {
        print("'")
        if index == 0 {
            print("_")
            return
        }
        guard index <= UInt64(boundLifetimes) else { throw Invalid() }
        let distance = UInt64(boundLifetimes) - index
        if distance < 26 {
            print(String(UnicodeScalar(UInt8(ascii: "a") + UInt8(distance))))
        } else {
            print("_\(distance)")
        }
    }

    /// `G<base-62>` opens a `for<'a, …>` binder around `body`.
    private mutating func binder(_ body: (inout RustV0Demangler) throws(Invalid) -> Void) throws(Invalid) {
        let count = try optionalBase62("G")
        guard count <= 1000 else { throw Invalid() }
        if count > 0 {
            print("for<")
            for i in 0..<Int(count) {
                if i > 0 { print(", ") }
                boundLifetimes += 1
                try lifetime(1)
            }
            print("> ")
        }
        try body(&self)
        boundLifetimes -= Int(count)
    }

    // MARK: - Types

    private static func basicType(_ tag: UInt8) -> String? {
        switch UnicodeScalar(tag) {
        case "a": "i8"
        case "b": "bool"
        case "c": "char"
        case "d": "f64"
        case "e": "str"
        case "f": "f32"
        case "h": "u8"
        case "i": "isize"
        case "j": "usize"
        case "l": "i32"
        case "m": "u32"
        case "n": "i128"
        case "o": "u128"
        case "s": "i16"
        case "t": "u16"
        case "u": "()"
        case "v": "..."
        case "x": "i64"
        case "y": "u64"
        case "z": "!"
        case "p": "_"
        default: nil
        }
    }

    private mutating func type() throws(Invalid) {
        try nested { (p) throws(Invalid) in try p.typeBody() }
    }

    private mutating func typeBody() throws(Invalid) {
        let tag = try next()
        if let basic = Self.basicType(tag) {
            print(basic)
            return
        }
        switch UnicodeScalar(tag) {
        case "R", "Q":
            print("&")
            if eat("L") {
                let index = try base62()
                if index != 0 {
                    try lifetime(index)
                    print(" ")
                }
            }
            if tag == UInt8(ascii: "Q") { print("mut ") }
            try type()
        case "P":
            print("*const ")
            try type()
        case "O":
            print("*mut ")
            try type()
        case "A":
            print("[")
            try type()
            print("; ")
            try constant(inValue: true)
            print("]")
        case "S":
            print("[")
            try type()
            print("]")
        case "T":
            print("(")
            let count = try list(separator: ", ") { (p) throws(Invalid) in try p.type() }
            if count == 1 { print(",") }
            print(")")
        case "F":
            try binder { (p) throws(Invalid) in try p.functionSignature() }
        case "D":
            print("dyn ")
            try binder { (p) throws(Invalid) in
                try p.list(separator: " + ") { (q) throws(Invalid) in try q.dynTrait() }
            }
            guard eat("L") else { throw Invalid() }
            let index = try base62()
            if index != 0 {
                print(" + ")
                try lifetime(index)
            }
        case "B":
            try backref { (p) throws(Invalid) in try p.type() }
        default:
            position -= 1
            try path(inValue: false)
        }
    }

    private mutating func functionSignature() throws(Invalid) {
        let isUnsafe = eat("U")
        var abi: String?
        if eat("K") {
            if eat("C") {
                abi = "C"
            } else {
                let name = try undisambiguatedIdentifier()
                guard name.punycode.isEmpty, !name.ascii.isEmpty else { throw Invalid() }
                abi = String(decoding: name.ascii.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
            }
        }
        if isUnsafe { print("unsafe ") }
        if let abi { print("extern \"\(abi)\" ") }
        print("fn(")
        try list(separator: ", ") { (p) throws(Invalid) in try p.type() }
        print(")")
        if !eat("u") {
            print(" -> ")
            try type()
        }
    }

    private mutating func dynTrait() throws(Invalid) {
        var open = try pathMaybeOpenGenerics()
        while eat("p") {
            print(open ? ", " : "<")
            open = true
            print(try undisambiguatedIdentifier())
            print(" = ")
            try type()
        }
        if open { print(">") }
    }

    // MARK: - Constants

    private mutating func constant(inValue: Bool) throws(Invalid) {
        try nested { (p) throws(Invalid) in try p.constantBody(inValue: inValue) }
    }

    private mutating func constantBody(inValue: Bool) throws(Invalid) {
        let tag = try next()
        var openedBrace = false
        func openBrace(_ p: inout RustV0Demangler) {
            guard !inValue else { return }
            openedBrace = true
            p.print("{")
        }
        switch UnicodeScalar(tag) {
        case "p":
            print("_")
        case "h", "t", "m", "y", "o", "j":
            print(Self.unsigned(try hexNibbles()))
        case "a", "s", "l", "x", "n", "i":
            if eat("n") { print("-") }
            print(Self.unsigned(try hexNibbles()))
        case "b":
            switch Self.value(try hexNibbles()) {
            case 0: print("false")
            case 1: print("true")
            default: throw Invalid()
            }
        case "c":
            guard let value = Self.value(try hexNibbles()), value <= UInt64(UInt32.max),
                let scalar = Unicode.Scalar(UInt32(value))
            else { throw Invalid() }
            print("'" + Self.escaped(scalar, quote: "'") + "'")
        case "e":
            openBrace(&self)
            print("*")
            try stringLiteral()
        case "R", "Q":
            if tag == UInt8(ascii: "R"), eat("e") {
                try stringLiteral()
            } else {
                openBrace(&self)
                print(tag == UInt8(ascii: "R") ? "&" : "&mut ")
                try constant(inValue: true)
            }
        case "A":
            openBrace(&self)
            print("[")
            try list(separator: ", ") { (p) throws(Invalid) in try p.constant(inValue: true) }
            print("]")
        case "T":
            openBrace(&self)
            print("(")
            let count = try list(separator: ", ") { (p) throws(Invalid) in try p.constant(inValue: true) }
            if count == 1 { print(",") }
            print(")")
        case "V":
            openBrace(&self)
            try path(inValue: true)
            switch UnicodeScalar(try next()) {
            case "U":
                break
            case "T":
                print("(")
                try list(separator: ", ") { (p) throws(Invalid) in try p.constant(inValue: true) }
                print(")")
            case "S":
                print(" { ")
                try list(separator: ", ") { (p) throws(Invalid) in
                    _ = try p.optionalBase62("s")
                    p.print(try p.undisambiguatedIdentifier())
                    p.print(": ")
                    try p.constant(inValue: true)
                }
                print(" }")
            default:
                throw Invalid()
            }
        case "B":
            try backref { (p) throws(Invalid) in try p.constant(inValue: inValue) }
        default:
            throw Invalid()
        }
        if openedBrace { print("}") }
    }

    /// `"…"` from hex-encoded UTF-8 bytes.
    private mutating func stringLiteral() throws(Invalid) {
        let nibbles = try hexNibbles()
        guard nibbles.count % 2 == 0 else { throw Invalid() }
        var data: [UInt8] = []
        var index = nibbles.startIndex
        while index < nibbles.endIndex {
            guard let high = Self.nibble(nibbles[index]), let low = Self.nibble(nibbles[index + 1]) else { throw Invalid() }
            data.append(high << 4 | low)
            index += 2
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw Invalid() }
        print("\"" + text.unicodeScalars.map { Self.escaped($0, quote: "\"") }.joined() + "\"")
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The value of up to 16 significant hex digits; nil when larger.
    private static func value(_ nibbles: ArraySlice<UInt8>) -> UInt64? {
        let significant = nibbles.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 16 else { return nil }
        return significant.reduce(0) { $0 << 4 | UInt64(nibble($1) ?? 0) }
    }

    /// Decimal when it fits in 64 bits, else `0x` and the hex digits.
    private static func unsigned(_ nibbles: ArraySlice<UInt8>) -> String {
        if let value = value(nibbles) { return String(value) }
        return "0x" + String(decoding: nibbles.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self)
    }

    /// A character as Rust's `escape_debug` writes it inside `quote`s.
    private static func escaped(_ scalar: Unicode.Scalar, quote: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": return "\\t"
        case "\r": return "\\r"
        case "\n": return "\\n"
        case "\\": return "\\\\"
        case "\0": return "\\0"
        case quote: return "\\" + String(quote)
        default:
            if RustLegacyDemangler.isControl(scalar) { return "\\u{" + String(scalar.value, radix: 16) + "}" }
            return String(scalar)
        }
    }
}

/// RFC 3492 punycode as v0 identifiers carry it (`_` instead of `-` before the digits).
enum Punycode {
    static func decode(ascii: ArraySlice<UInt8>, digits: ArraySlice<UInt8>) -> String? {
        let base = 36
        let tMin = 1
        let tMax = 26
        var output = ascii.map { UInt32($0) }
        var n: UInt32 = 128
        var i = 0
        var bias = 72
        var rest = digits[...]
        while !rest.isEmpty {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard let byte = rest.first else { return nil }
                rest = rest.dropFirst()
                let digit: Int
                switch byte {
                case 0x61...0x7A: digit = Int(byte - 0x61)
                case 0x30...0x39: digit = Int(byte - 0x30) + 26
                default: return nil
                }
                let (step, overflow1) = digit.multipliedReportingOverflow(by: weight)
                let (sum, overflow2) = i.addingReportingOverflow(step)
                guard !overflow1, !overflow2, sum < 1 << 32 else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextWeight, overflow3) = weight.multipliedReportingOverflow(by: base - t)
                guard !overflow3 else { return nil }
                weight = nextWeight
                k += base
            }
            let length = output.count + 1
            bias = adapt(delta: i - oldI, points: length, first: oldI == 0)
            let (added, overflow) = n.addingReportingOverflow(UInt32(i / length))
            guard !overflow else { return nil }
            n = added
            i %= length
            guard Unicode.Scalar(n) != nil, output.count < 1000 else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var text = ""
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    private static func adapt(delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / 700 : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((36 - 1) * 26) / 2 {
            delta /= 36 - 1
            k += 36
        }
        return k + (36 - 1 + 1) * delta / (delta + 38)
    }
}
