import SymbolicateCore

/// A Mach-O `cputype`/`cpusubtype` pair, and the architecture name Apple's tools print for
/// it (`arm64e`, `x86_64h`, …), which is what crash reports and `--arch` use.
package struct MachOCPU: Hashable, Sendable, CustomStringConvertible {
    package var cpuType: Int32
    package var cpuSubtype: Int32

    package init(cpuType: Int32, cpuSubtype: Int32) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
    }

    static let abi64: Int32 = 0x0100_0000
    static let abi64_32: Int32 = 0x0200_0000
    static let typeX86: Int32 = 7
    static let typeARM: Int32 = 12
    static let typeX86_64: Int32 = typeX86 | abi64
    static let typeARM64: Int32 = typeARM | abi64
    static let typeARM64_32: Int32 = typeARM | abi64_32

    /// The subtype without the capability bits (e.g. arm64e's pointer-auth ABI version).
    var maskedSubtype: Int32 { cpuSubtype & 0x00FF_FFFF }

    /// Apple's name, or `cputype:subtype` for pairs Apple's tools have no name for.
    package var architecture: Architecture {
        switch cpuType {
        case Self.typeARM64:
            return maskedSubtype == 2 ? .arm64e : .arm64
        case Self.typeARM64_32:
            return .arm64_32
        case Self.typeX86_64:
            return maskedSubtype == 8 ? .x86_64h : .x86_64
        case Self.typeX86:
            return .i386
        case Self.typeARM:
            switch maskedSubtype {
            case 5: return Architecture("armv4t")
            case 6: return Architecture("armv6")
            case 7: return Architecture("armv5")
            case 9: return .armv7
            case 10: return Architecture("armv7f")
            case 11: return Architecture("armv7s")
            case 12: return Architecture("armv7k")
            case 14: return Architecture("armv6m")
            case 15: return Architecture("armv7m")
            case 16: return Architecture("armv7em")
            default: return Architecture("arm")
            }
        default:
            return Architecture("\(cpuType):\(maskedSubtype)")
        }
    }

    package var description: String { architecture.name }

    /// Whether pointers in this architecture are 64-bit (ILP32 arm64_32 is not).
    package var is64Bit: Bool { cpuType & Self.abi64 != 0 }
}
