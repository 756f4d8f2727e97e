import CLLVMDemangle

/// What the demanglers made of one name.
package enum Demangling: Equatable, Sendable {
    /// The simplified demangled form.
    case demangled(String)
    /// Not a Swift, C++ or Rust mangling the demanglers accept: printed as it came.
    case notMangled
    /// A mangled name the demanglers were not given, or that they gave up on, because
    /// demangling it would take more than a name is allowed: printed as it came, with a note.
    case refused(DemangleRefusal)

    /// The demangled text, if any.
    package var text: String? {
        if case .demangled(let text) = self { return text }
        return nil
    }
}

/// Why a mangled name is printed as it came. Names come from anyone (a report posted to
/// `serve`, a symbol table in an uploaded file), and the manglings have back-references that
/// print an earlier part again: a few hundred bytes that double at every level would print
/// gigabytes, and deep nesting recurses once per byte. So every demangler is bounded, as
/// LLVM's and rustc-demangle's own limits bound theirs.
package enum DemangleRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is longer than the demangler admits (its recursion is bounded by the length).
    case tooLong(length: Int, limit: Int)
    /// The demangled text would be longer than `limit` bytes, or nest deeper than the
    /// demangler's bound.
    case tooLarge(limit: Int)
    /// The demangler could not get the memory or the thread it needs.
    case noResources
    /// A malformed mangling the Swift runtime's demangler does not survive: it would not
    /// return, or would stop the process (`SwiftDemanglerHazard`).
    case malformed

    package var description: String {
        switch self {
        case .tooLong(let length, let limit):
            "the mangled name is \(length) bytes long, over the demangler's limit of \(limit)"
        case .tooLarge(let limit):
            "demangled, the name would be longer than \(limit) bytes or nest deeper than the demangler allows"
        case .noResources:
            "the demangler ran out of memory"
        case .malformed:
            "the mangled name is malformed in a way the Swift runtime's demangler does not survive"
        }
    }
}

/// The demanglers' bounds.
package enum DemangleLimits {
    /// The longest demangled text printed, in bytes: rustc-demangle's own `MAX_SIZE` is about
    /// the same. Real names print a few hundred bytes; the longest C++ template names some KiB.
    package static let maxOutputBytes = 1 << 20

    /// The longest Swift or Rust name given to a demangler, in bytes. Swift's demangler and
    /// printer recurse per level of nesting, as LLVM's do; C++ has its own (`CLLVMDemangle`).
    package static let maxNameBytes = 32 * 1024
}

/// Work run on a thread of its own with a stack of a given size (`CLLVMDemangle`'s
/// `symbolicate_run_with_stack`), for the demanglers whose recursion a long name could take
/// past the caller's stack (a secondary thread on macOS has 512 KiB).
enum LargeStack {
    /// `body`'s result, or nil when no thread could be started.
    static func run<T>(bytes: Int, _ body: @escaping () -> T) -> T? {
        var result: T?
        let job = Unmanaged.passRetained(Job { result = body() })
        defer { job.release() }
        let status = symbolicate_run_with_stack(
            bytes,
            { context in
                guard let context else { return }
                Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().work()
            }, job.toOpaque())
        return status == 0 ? result : nil
    }

    /// The work, handed to the thread through its context pointer.
    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}

/// A linear pre-scan of a Swift mangling bounding the length of its demangled text, so a name
/// whose substitutions double at every level (`$sSDySiSiGSDyA2AGSDyA2BG…`) is never handed to
/// the runtime's demangler, which would print it whole.
///
/// The model: every byte prints at most `bytesPerByte` characters (the longest fixed texts the
/// printer writes for one operator, `partial apply forwarder for ` and the like, are shorter
/// than that per byte of their operator); an identifier prints itself; a substitution
/// (`A` followed by indexes, as Swift's `docs/ABI/Mangling.rst` describes it)
/// prints its target again. The target's length is not known without parsing, so it is
/// bounded by everything before it, except that identifiers and nominal and bound generic
/// types are substitution entries in order: entry `i` exists once the `i + 1`-th of them is
/// read, so it is no longer than everything up to there. Real names refer to their module and
/// types, named early; a name that refers to what its references built, level after level, is
/// refused.
enum SwiftManglingBound {
    static let bytesPerByte: UInt64 = 64

    /// Whether the demangled text of `name` (the bytes after its `$s`-style prefix) could pass
    /// `limit` bytes.
    static func exceeds(_ mangling: ArraySlice<UInt8>, limit: Int) -> Bool {
        let limit = UInt64(limit)
        var scan = Scan(bytes: mangling)
        while scan.position < scan.bytes.endIndex {
            scan.step()
            if scan.bound > limit { return true }
        }
        return false
    }

    private struct Scan {
        let bytes: ArraySlice<UInt8>
        var position: Int
        /// Upper bound of what the bytes read so far print.
        var bound: UInt64 = 0
        /// `bound` when each identifier so far was complete: entry `i` is no longer than `entryBounds[i]`.
        var entryBounds: [UInt64] = []
        /// The longest literal identifier part so far: a word substitution prints at most that.
        var longestPart: UInt64 = 0
        /// Whether the last thing read was an identifier or a substitution (so a letter after
        /// it is an operator of its own).
        var previousWasOperand = false

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : sum
        }

        static func times(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? .max : product
        }

        func peek() -> UInt8? { position < bytes.endIndex ? bytes[position] : nil }

        static func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        static func isLower(_ byte: UInt8?) -> Bool { byte.map { (0x61...0x7A).contains($0) } ?? false }
        static func isUpper(_ byte: UInt8?) -> Bool { byte.map { (0x41...0x5A).contains($0) } ?? false }

        /// A decimal number (saturating), or nil when there is no digit.
        mutating func natural() -> UInt64? {
            guard Self.isDigit(peek()) else { return nil }
            var value: UInt64 = 0
            while let byte = peek(), Self.isDigit(byte) {
                value = Self.add(Self.times(value, 10), UInt64(byte - 0x30))
                position += 1
            }
            return value
        }

        mutating func step() {
            let start = position
            if Self.isDigit(peek()), let printed = identifier() {
                bound = Self.add(bound, printed)
                entryBounds.append(bound)
                previousWasOperand = true
                return
            }
            position = start
            if peek() == UInt8(ascii: "A") {
                position += 1
                substitution()
                previousWasOperand = true
                return
            }
            let byte = bytes[position]
            let previous = position > bytes.startIndex ? bytes[position - 1] : 0
            position += 1
            bound = Self.add(bound, SwiftManglingBound.bytesPerByte)
            // A nominal type (`C` class, `V` struct, `O` enum) or a bound generic type (`G`) is an
            // entry too, unless the letter ends a two-letter operator (`fC`, `TV`, `SG`…).
            if Self.entryOperators.contains(byte), previousWasOperand || !(Self.isUpper(previous) || previous == UInt8(ascii: "f")) {
                entryBounds.append(bound)
            }
            previousWasOperand = false
        }

        static let entryOperators: Set<UInt8> = [UInt8(ascii: "C"), UInt8(ascii: "V"), UInt8(ascii: "O"), UInt8(ascii: "G")]

        /// An identifier as the demangler reads it: `NATURAL chars`, or `0` then word
        /// substitutions (`[a-z]`, the last `[A-Z]`) and literal parts, or `00` punycode.
        /// Returns what it prints; nil (position unspecified) when this is not one.
        mutating func identifier() -> UInt64? {
            var hasWords = false
            if peek() == UInt8(ascii: "0") {
                position += 1
                if peek() == UInt8(ascii: "0") {
                    position += 1
                } else {
                    hasWords = true
                }
            }
            var printed: UInt64 = 0
            repeat {
                while hasWords, let byte = peek(), Self.isLower(byte) || Self.isUpper(byte) {
                    position += 1
                    printed = Self.add(printed, longestPart)
                    if Self.isUpper(byte) { hasWords = false }
                }
                if peek() == UInt8(ascii: "0") {
                    position += 1
                    break
                }
                guard let count = natural(), count > 0, count <= UInt64(bytes.endIndex - position) else { return nil }
                position += Int(count)
                // Punycode decodes to at most 4 bytes per character.
                printed = Self.add(printed, count * 4)
                longestPart = max(longestPart, count * 4)
            } while hasWords
            return printed
        }

        /// After `A`: `INDEX` (`_` or `NATURAL _`, entry N + 26), or references
        /// `NATURAL? [a-z]` … ending in `NATURAL? [A-Z]`, the number a repeat count.
        mutating func substitution() {
            if peek() == UInt8(ascii: "_") || Self.isDigit(peek()) {
                let start = position
                let index: UInt64
                if peek() == UInt8(ascii: "_") {
                    position += 1
                    index = 26
                } else if let number = natural(), peek() == UInt8(ascii: "_") {
                    position += 1
                    index = Self.add(number, 27)
                } else {
                    position = start
                    index = .max
                }
                if index != .max {
                    refer(to: index, times: 1)
                    return
                }
            }
            while position < bytes.endIndex {
                let count = natural() ?? 1
                guard let letter = peek(), Self.isLower(letter) || Self.isUpper(letter) else { return }
                position += 1
                let index = UInt64(Self.isLower(letter) ? letter - 0x61 : letter - 0x41)
                refer(to: index, times: count)
                if Self.isUpper(letter) { return }
            }
        }

        mutating func refer(to index: UInt64, times count: UInt64) {
            let target = index < UInt64(entryBounds.count) ? entryBounds[Int(index)] : bound
            bound = Self.add(bound, Self.times(max(target, SwiftManglingBound.bytesPerByte), count))
        }
    }
}
