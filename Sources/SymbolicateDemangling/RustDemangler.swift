/// Rust symbol names, printed as `rustfilt` prints them by default: rustc-demangle's alternate
/// form (`{:#}`), which leaves out the crate disambiguators of v0 names, the hash element of
/// legacy names and the type suffix of constants (`Unsigned<11>`, not `Unsigned<11u8>`).
///
/// Both manglings rustc emits are read, each with the extra leading underscore Mach-O adds:
/// - legacy (`_ZN…17h<16 hex>E`): Itanium-shaped paths whose elements carry `$LT$`, `$u20$`,
///   `..` escapes, ending in the `h` hash element that tells them apart from C++ names;
/// - v0 (`_R…`, RFC 2603 "Rust symbol name mangling v0"): paths, impls, generic arguments,
///   closures and shims, const generics, backreferences and punycode identifiers.
///
/// A `.llvm.<hex>` suffix (ThinLTO's renaming) is dropped; another `.`-suffix is kept as printed.
/// Anything else that does not parse is not a Rust name: the caller prints it as it came.
package enum RustDemangler {
    /// The demangled name, or nil when `name` is not a valid Rust mangling.
    package static func demangle(_ name: String) -> String? {
        demangling(name).text
    }

    /// The demangled name, `.notMangled` when `name` is not a valid Rust mangling, or
    /// `.refused` when a v0 name passes the demangler's bounds (`DemangleLimits`).
    package static func demangling(_ name: String) -> Demangling {
        var bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return .notMangled }
        bytes = withoutLLVMSuffix(bytes)
        let v0 = RustV0Demangler.demangling(bytes)
        guard v0 == .notMangled else { return v0 }
        if let legacy = RustLegacyDemangler.demangle(bytes) ?? RustLegacyDemangler.demangle(itaniumPrinted: bytes) {
            return .demangled(legacy)
        }
        return .notMangled
    }

    /// Whether `name` has the start of a Rust mangling (v0 `_R`, or a legacy `_ZN` path), or is
    /// a legacy name an Itanium demangler printed (`…::h<16 hex>`); the full check is `demangle`.
    package static func mayBeRust(_ name: String) -> Bool {
        name.hasPrefix("_R") || name.hasPrefix("__R") || name.hasPrefix("_ZN") || name.hasPrefix("__ZN")
            || RustLegacyDemangler.endsInPrintedHash(name.utf8)
    }

    /// `name` without a trailing `.llvm.` followed by uppercase hex digits and `@`.
    static func withoutLLVMSuffix(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array(".llvm.".utf8)
        guard bytes.count > marker.count else { return bytes }
        for start in 0...(bytes.count - marker.count) where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            let rest = bytes[(start + marker.count)...]
            if rest.allSatisfy({ isDigit($0) || (0x41...0x46).contains($0) || $0 == 0x40 }) { return Array(bytes[..<start]) }
            return bytes
        }
        return bytes
    }

    /// A suffix rustc-demangle keeps after a name: `.` then ASCII letters, digits and punctuation.
    static func isKeptSuffix(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.first == 0x2E else { return false }
        return bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}

/// Legacy Rust names: `_ZN` (or Mach-O's `__ZN`), length-prefixed elements, `E`.
enum RustLegacyDemangler {
    static func demangle(_ bytes: [UInt8]) -> String? {
        let prefixLength: Int
        if bytes.starts(with: Array("_ZN".utf8)) {
            prefixLength = 3
        } else if bytes.starts(with: Array("__ZN".utf8)) {
            prefixLength = 4
        } else {
            return nil
        }
        var position = prefixLength
        var elements: [ArraySlice<UInt8>] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "E") {
            var length = 0
            guard RustDemangler.isDigit(bytes[position]) else { return nil }
            while position < bytes.count, RustDemangler.isDigit(bytes[position]) {
                let (times, overflow1) = length.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[position] - 0x30))
                guard !overflow1, !overflow2 else { return nil }
                length = sum
                position += 1
            }
            guard length > 0, length <= bytes.count - position else { return nil }
            elements.append(bytes[position..<(position + length)])
            position += length
        }
        guard position < bytes.count, let hash = elements.last, isHash(hash), elements.count >= 2 else { return nil }
        let suffix = bytes[(position + 1)...]
        guard suffix.isEmpty || RustDemangler.isKeptSuffix(suffix) else { return nil }
        var out = ""
        for (index, element) in elements.dropLast().enumerated() {
            if index > 0 { out += "::" }
            out += unescape(element)
        }
        return out + String(decoding: suffix, as: UTF8.self)
    }

    /// A legacy name as an Itanium demangler prints it (Apple's reports do: they read `_ZN…E`
    /// as C++): the elements joined with `::`, their escapes and the hash element kept
    /// (`_$LT$core..panic..AssertUnwindSafe$LT$F$GT$…::call_once::h1a2b…`). Only element
    /// characters rustc writes are accepted, so a C++ or Swift name never reads as one.
    static func demangle(itaniumPrinted bytes: [UInt8]) -> String? {
        guard endsInPrintedHash(bytes) else { return nil }
        var elements: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") else { return nil }
                elements.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        elements.append(bytes[start...])
        // A crate, an item and the hash at least: `foo::h…` alone is not taken for Rust.
        guard elements.count >= 3,
            elements.allSatisfy({ element in
                !element.isEmpty
                    && element.allSatisfy {
                        RustDemangler.isDigit($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                            || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ".")
                    }
            })
        else { return nil }
        return elements.dropLast().map(unescape).joined(separator: "::")
    }

    /// Whether the text ends in `::h` and 16 hex digits.
    static func endsInPrintedHash<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        var backwards = bytes.reversed().makeIterator()
        for _ in 0..<16 {
            guard let byte = backwards.next(), RustDemangler.isDigit(byte) || (0x61...0x66).contains(byte) else { return false }
        }
        return backwards.next() == UInt8(ascii: "h") && backwards.next() == UInt8(ascii: ":") && backwards.next() == UInt8(ascii: ":")
    }

    /// `h` and 16 hex digits: the hash rustc appends as the last element.
    static func isHash(_ element: ArraySlice<UInt8>) -> Bool {
        element.count == 17 && element.first == UInt8(ascii: "h")
            && element.dropFirst().allSatisfy { RustDemangler.isDigit($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }

    /// One element with rustc's escapes undone: `$LT$` `<`, `$GT$` `>`, `$RF$` `&`, `$BP$` `*`,
    /// `$SP$` `@`, `$LP$` `(`, `$RP$` `)`, `$C$` `,`, `$u20$` (any code point in lowercase hex),
    /// `..` `::`. A leading `_` before `$` is the escape's guard and dropped. At an escape that
    /// is not one of these the rest is printed as it stands.
    static func unescape(_ element: ArraySlice<UInt8>) -> String {
        var rest = element
        if rest.starts(with: Array("_$".utf8)) { rest = rest.dropFirst() }
        var out = ""
        while let first = rest.first {
            if first == UInt8(ascii: ".") {
                if rest.dropFirst().first == UInt8(ascii: ".") {
                    out += "::"
                    rest = rest.dropFirst(2)
                } else {
                    out += "."
                    rest = rest.dropFirst()
                }
            } else if first == UInt8(ascii: "$") {
                guard let end = rest.dropFirst().firstIndex(of: UInt8(ascii: "$")),
                    let character = escaped(rest[(rest.startIndex + 1)..<end])
                else { break }
                out.append(character)
                rest = rest[(end + 1)...]
            } else {
                let end = rest.firstIndex { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ".") } ?? rest.endIndex
                out += String(decoding: rest[..<end], as: UTF8.self)
                rest = rest[end...]
            }
        }
        return out + String(decoding: rest, as: UTF8.self)
    }

    static func escaped(_ code: ArraySlice<UInt8>) -> Character? {
        switch String(decoding: code, as: UTF8.self) {
        case "SP": return "@"
        case "BP": return "*"
        case "RF": return "&"
        case "LT": return "<"
        case "GT": return ">"
        case "LP": return "("
        case "RP": return ")"
        case "C": return ","
        case let text where text.hasPrefix("u") && text.count > 1:
            let digits = text.dropFirst()
            guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) }),
                let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value), !isControl(scalar)
            else { return nil }
            return Character(scalar)
        default: return nil
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}
