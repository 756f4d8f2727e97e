/// A CPU architecture by the name Apple's tools print (`arm64`, `arm64e`, `x86_64h`, …).
///
/// Reports, `--arch` and debug files name architectures differently (`ARM-64`, `aarch64`,
/// `arm64-unknown`, a Mach-O cpu type pair, an ELF `e_machine`); they are all turned into
/// this one value so that matching never compares spellings. Linux names map onto Apple's:
/// `aarch64` is `arm64`, `amd64` is `x86_64`, `i686` is `i386`.
public struct Architecture: Hashable, Sendable, CustomStringConvertible, Codable {
    /// Apple's spelling, lowercase; an architecture we do not know keeps the (lowercased)
    /// name it was given.
    public let name: String

    /// Any spelling of an architecture name.
    public init(_ name: String) {
        let lower = name.lowercased()
        self.name = Self.aliases[lower] ?? lower
    }

    public static let arm64 = Architecture("arm64")
    public static let arm64e = Architecture("arm64e")
    public static let arm64_32 = Architecture("arm64_32")
    public static let x86_64 = Architecture("x86_64")
    public static let x86_64h = Architecture("x86_64h")
    public static let i386 = Architecture("i386")
    public static let armv7 = Architecture("armv7")

    /// Names that denote the same thing for matching purposes.
    private static let aliases: [String: String] = [
        "arm64-unknown": "arm64",  // PLCrashReporter
        "aarch64": "arm64",  // Linux, ELF, the Swift runtime's backtracer
        "amd64": "x86_64",
        "x86-64": "x86_64",
        "i686": "i386",
        "i586": "i386",
        "i486": "i386",
        "x86": "i386",
    ]

    /// Names crash reports print for architectures (`Binary Images:` lines, `Code Type:`).
    public var isKnown: Bool { Self.known.contains(name) }

    private static let known: Set<String> = [
        "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv7m", "armv7em", "armv6", "armv6m",
        "armv7f", "armv5", "armv4t", "armv8", "x86_64", "x86_64h", "i386", "ppc", "ppc64", "arm64e.old",
    ]

    /// The base architecture a variant runs on: `arm64e` → `arm64`, `x86_64h` → `x86_64`.
    /// A debug file of the variant's family may stand in for it only when it is the only
    /// candidate, since DWARF of another variant would give wrong answers silently.
    public var family: Architecture {
        switch name {
        case "arm64e": return .arm64
        case "x86_64h": return .x86_64
        default: return self
        }
    }

    /// Which of `candidates` (the slices of one file) serves this architecture: an exact match,
    /// else the only one of the same family (`arm64e`↔`arm64`, `x86_64h`↔`x86_64`); nil when
    /// none or several could, since DWARF of the other variant would give wrong answers silently.
    package func match(among candidates: [Architecture]) -> Int? {
        if let exact = candidates.firstIndex(of: self) { return exact }
        let sameFamily = candidates.indices.filter { candidates[$0].family == family }
        return sameFamily.count == 1 ? sameFamily[0] : nil
    }

    /// Whether pointers are 64-bit (ILP32 `arm64_32` is not).
    public var is64Bit: Bool {
        ["arm64", "arm64e", "x86_64", "x86_64h", "ppc64", "arm64e.old"].contains(name)
    }

    /// Whether this is an Intel architecture (its exception codes read differently).
    public var isIntel: Bool { ["x86_64", "x86_64h", "i386"].contains(name) }

    public var description: String { name }

    /// The architecture of a report's `Code Type:` line (`ARM-64 (Native)`, `X86-64`, …).
    public init?(codeType: String) {
        let t = codeType.uppercased()
        if t.hasPrefix("ARM-64") || t.hasPrefix("ARM64") {
            if t.contains("ARM64E") {
                self = .arm64e
                return
            }
            if t.contains("32") {
                self = .arm64_32
                return
            }
            self = .arm64
            return
        }
        if t.hasPrefix("X86-64") || t.hasPrefix("X86_64") {
            self = .x86_64
            return
        }
        if t.hasPrefix("X86") || t.hasPrefix("I386") {
            self = .i386
            return
        }
        if t.hasPrefix("ARM") {
            self = .armv7
            return
        }
        return nil
    }

    /// The architecture of an ELF file's `e_machine`; `nil` for machines crash reports never
    /// name.
    public init?(elfMachine: UInt16) {
        switch elfMachine {
        case 3: self = .i386  // EM_386
        case 40: self = .armv7  // EM_ARM
        case 62: self = .x86_64  // EM_X86_64
        case 183: self = .arm64  // EM_AARCH64
        default: return nil
        }
    }

    // Encoded as its name, so JSON output keeps the string it always had.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
