/// Malformed Swift manglings the runtime's demangler does not survive, and how each is kept
/// from stopping the process that asks.
///
/// The runtime's demangler (`_swift_backtrace_demangle`, the Swift 6 toolchain's) is written for
/// names the compiler emitted, and names come from anyone (a report posted to `serve`, a symbol
/// table in an upload). Handing it millions of mutated real names in a child process
/// (`Fuzz/tools/swift-demangler-hazards.sh`) found two ways a name stops it, and no other:
///
/// - **A specialization's parameter list that ends inside a constant** never returns. In a
///   function signature specialization (`Tf`, a pass id, parameters up to `_`), `p` starts a run
///   of propagated constants; at the end of the text the parser steps back onto the `p` and
///   returns without consuming it, and its caller reads the same parameter again, allocating a
///   node each time (`$s4mainTf0p`). That shape is found in the text and refused.
/// - **A generic parameter marker outside its signature's head** stops the process: markers of a
///   parameter pack (`Rv`) or a value parameter (`RV`) are printed as part of their signature only
///   when they are its first requirements, and the printer's fatal error ends the process for one
///   anywhere else (`$sRvs`, `…Rzs5NeverORVs_r0_l…`, `…QpRvzSilF`). Where a marker ends up
///   depends on what every operator between it and the signature's end consumes, which only the
///   demangler knows; so a name with a marker (rare: parameter packs, value generics) is
///   demangled in a child process, whose end costs nothing (`symbolicate_swift_demangle_in_child`).
package enum SwiftDemanglerHazard: Equatable, Sendable {
    /// A function signature specialization's parameter list ends right after `p`.
    case unterminatedSpecializationConstant
    /// `Rv` or `RV` occurs: a generic parameter marker, wherever the demangler places it.
    case genericParameterMarker

    /// The hazard `mangling` (the bytes after the `$s`-style prefix) holds, or nil.
    static func find(in mangling: ArraySlice<UInt8>) -> SwiftDemanglerHazard? {
        // Every `Tf` is tried, inside an identifier or not: only a name that ends right after a
        // `p` in what reads as a parameter list is refused.
        var index = mangling.startIndex
        var marker = false
        while index + 1 < mangling.endIndex {
            let byte = mangling[index], next = mangling[index + 1]
            if byte == UInt8(ascii: "T"), next == UInt8(ascii: "f"), specializationEndsInsideConstant(mangling, after: index + 2) {
                return .unterminatedSpecializationConstant
            }
            if byte == UInt8(ascii: "R"), next == UInt8(ascii: "v") || next == UInt8(ascii: "V") { marker = true }
            index += 1
        }
        return marker ? .genericParameterMarker : nil
    }

    /// Whether the parameter list of the `Tf` specialization whose attributes start at `start`
    /// reaches the end of the text right after `p` (the demangler's `demangleFuncSpecParam`).
    static func specializationEndsInsideConstant(_ bytes: ArraySlice<UInt8>, after start: Int) -> Bool {
        var position = start
        func peek() -> UInt8? { position < bytes.endIndex ? bytes[position] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        // Attributes (metatype parameters removed, serialized, async removed, representation
        // changed), then the pass id: one digit.
        while let byte = peek(), [UInt8(ascii: "m"), UInt8(ascii: "q"), UInt8(ascii: "a"), UInt8(ascii: "r")].contains(byte) {
            position += 1
        }
        guard isDigit(peek()) else { return false }
        position += 1
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "_"):
                return false
            case UInt8(ascii: "n"), UInt8(ascii: "c"), UInt8(ascii: "x"), UInt8(ascii: "i"), UInt8(ascii: "s"), UInt8(ascii: "r"):
                continue
            case UInt8(ascii: "C"):
                // A closure propagated from an earlier argument: its index.
                guard isDigit(peek()) else { return false }
                while isDigit(peek()) { position += 1 }
            case UInt8(ascii: "e"), UInt8(ascii: "d"), UInt8(ascii: "g"), UInt8(ascii: "o"):
                while let flag = peek(), [UInt8(ascii: "D"), UInt8(ascii: "G"), UInt8(ascii: "O"), UInt8(ascii: "X")].contains(flag) {
                    position += 1
                }
            case UInt8(ascii: "p"):
                // A run of constants; the text ending right after `p` is the hazard.
                guard peek() != nil else { return true }
                constants: while let kind = peek() {
                    switch kind {
                    case UInt8(ascii: "S"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "k"):
                        position += 1
                    case UInt8(ascii: "i"), UInt8(ascii: "d"):
                        position += 1
                        guard isDigit(peek()) else { return false }
                        while isDigit(peek()) { position += 1 }
                    case UInt8(ascii: "s"):
                        position += 1
                        guard let encoding = peek(), [UInt8(ascii: "b"), UInt8(ascii: "w"), UInt8(ascii: "c")].contains(encoding) else {
                            return false
                        }
                        position += 1
                    default:
                        break constants
                    }
                }
            default:
                // Not a parameter: the demangler gives up on the name.
                return false
            }
        }
        return false
    }
}
