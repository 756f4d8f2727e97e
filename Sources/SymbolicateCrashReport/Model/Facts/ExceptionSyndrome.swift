import Foundation

/// The ARM64 exception syndrome register (`esr:` in a crashed thread's state): its exception
/// class says which exception the CPU took, for a text that kept the registers and not the
/// `Exception Type:` line (a crash log cut to its thread state). Decoded from the value, as the
/// Arm Architecture Reference Manual lays out ESR_ELx (EC in bits 31:26, the data and
/// instruction abort's fault status code in ISS bits 5:0); Apple's note beside it
/// (`(Breakpoint) brk 1`, `(Data Abort) byte read Translation fault`) says the same in words.
struct ExceptionSyndrome {
    let value: UInt64

    var exceptionClass: UInt64 { (value >> 26) & 0x3F }
    private var faultStatus: UInt64 { value & 0x3F }

    /// The Mach exception and signal the kernel turns this syndrome into, with the fault's
    /// `KERN_…` name for an abort whose status says which; nil for a class no crash report names.
    func exception(faultAddress: UInt64?) -> ExceptionInfo? {
        switch exceptionClass {
        case 0x3C, 0x38:  // BRK (AArch64), BKPT (AArch32)
            return ExceptionInfo(type: "EXC_BREAKPOINT", signal: "SIGTRAP")
        case 0x00, 0x0E:  // unknown reason (an undefined instruction), illegal execution state
            return ExceptionInfo(type: "EXC_BAD_INSTRUCTION", signal: "SIGILL")
        case 0x20, 0x21, 0x24, 0x25:  // instruction abort, data abort
            var info = ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV")
            let kind: String? =
                switch faultStatus >> 2 {
                case 0b0001: "KERN_INVALID_ADDRESS"  // translation fault, levels 0–3
                case 0b0011: "KERN_PROTECTION_FAILURE"  // permission fault
                default: nil
                }
            if let kind, let faultAddress { info.subtype = "\(kind) at 0x" + String(faultAddress, radix: 16, uppercase: false) }
            return info
        case 0x22, 0x26:  // PC or SP alignment fault
            return ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGBUS")
        case 0x28, 0x2C:  // trapped floating-point exception
            return ExceptionInfo(type: "EXC_ARITHMETIC", signal: "SIGFPE")
        default:
            return nil
        }
    }
}

extension CrashReport {
    /// The exception the crashed thread's `esr` register states, when the report prints no
    /// exception of its own.
    var exceptionFromSyndrome: ExceptionInfo? {
        guard let registers = crashedThread?.registers, let esr = registers.first(where: { $0.name == "esr" }) else { return nil }
        return ExceptionSyndrome(value: esr.value).exception(faultAddress: registers.first { $0.name == "far" }?.value)
    }
}
