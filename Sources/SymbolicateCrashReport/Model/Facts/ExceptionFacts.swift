import Foundation

/// The exception as numbers and names: the Mach type, the signal, the codes, the faulting address.
public struct ExceptionFacts: Sendable, Hashable {
    /// `EXC_BAD_ACCESS`; nil when the report names only a signal or a description. Never a
    /// signal's name: `Exception Type: SIGABRT` is read as the signal.
    public var machType: String?
    /// `SIGSEGV`.
    public var signal: String?
    /// The signal's Darwin number (`SIGABRT` → 6, `SIGABRT: Abort trap` too), when `signal` names one.
    public var signalNumber: Int? { signalName.flatMap(DarwinNames.signalNumber) }
    /// The signal's name alone (`SIGKILL` of `SIGKILL - CODESIGNING`, `SIGABRT` of `SIGABRT: Abort
    /// trap`); nil when `signal` holds no signal's name (`Code Signature Invalid`).
    public var signalName: String? {
        guard let signal else { return nil }
        let token = String(signal.prefix { $0.isASCII && ($0.isUppercase || $0.isNumber) })
        return token.hasPrefix("SIG") && token.count > 3 ? token : nil
    }
    /// The exception and the signal by their names, as Apple prints them together
    /// (`EXC_BAD_ACCESS (SIGSEGV)`, `EXC_CRASH (SIGABRT)`, `SIGABRT`); nil when the report names
    /// neither (a numeric type of an old report, a description only).
    public var statedKind: String? {
        func name(_ text: String?) -> String? {
            guard let text else { return nil }
            let token = String(text.prefix { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
            return token.hasPrefix("EXC_") || token.hasPrefix("SIG") ? token : nil
        }
        let type = name(machType)
        let signal = name(signal).flatMap { $0 == type ? nil : $0 }
        switch (type, signal) {
        case (let type?, let signal?): return "\(type) (\(signal))"
        case (let one?, nil), (nil, let one?): return one
        case (nil, nil): return nil
        }
    }
    /// `Exception Codes:` as numbers (`0x1, 0x0` → [1, 0]); empty when the codes are words.
    public var codes: [UInt64] = []
    /// The address a memory fault touched, wherever the layout states it.
    public var fault: FaultAddress?
    /// The first line of `VM Region Info`, read.
    public var vmRegion: VMRegionFact?
    /// `VM Region Info` names the stack's guard page: the thread ran off its stack.
    public var isStackGuard = false
    /// The report says the process kept running (`isNonFatal`, `NOT a crash`).
    public var isNonFatal = false
    /// Decoded from the crashed thread's `esr` register: the text names no exception itself.
    public var isFromRegisters = false
    /// The signal field names a code-signing kill (`EXC_BAD_ACCESS (Code Signature Invalid)`).
    public var isCodeSignatureInvalid = false
    /// The subtype says a pointer-authentication check failed (arm64e).
    public var isPointerAuthenticationFailure = false
    /// The codes name an x86 general-protection fault (`EXC_I386_GPFLT`), which nil does not raise.
    public var isGeneralProtectionFault = false
    /// The codes or the subtype name one of Intel's exceptions (`EXC_I386_INVOP`, `EXC_I386_GPFLT`):
    /// the process ran x86 code, whatever the report's architecture field says or lacks.
    public var namesIntelException = false
    /// `VM Region Info` names a stack region (or its guard).
    public var isInStackRegion = false

    public init(machType: String? = nil, signal: String? = nil) {
        self.machType = machType
        self.signal = signal
    }
}

/// A faulting address and what the report calls the fault.
public struct FaultAddress: Sendable, Hashable {
    /// Where the report states it.
    public enum Source: String, Sendable, Hashable {
        /// `Exception Subtype: KERN_INVALID_ADDRESS at 0x10`.
        case subtype
        /// `Exception Codes:` (older macOS prints the description there; or numbers: kern_return_t, address).
        case codes
        /// Only `VM Region Info` (`0x8 is not in any region`): MetricKit's crash diagnostics.
        case vmRegion
    }
    public var address: UInt64
    /// The address without pointer-authentication bits (`at 0x… -> 0x…`).
    public var strippedAddress: UInt64?
    /// The fault as printed (`KERN_INVALID_ADDRESS`, `EXC_I386_GPFLT`, `SIGSEGV`); nil when only a number says it.
    public var name: String?
    /// The kern_return_t code, when the codes are numbers (`0x1` → `KERN_INVALID_ADDRESS`).
    public var kernelCode: UInt64?
    public var source: Source

    public init(address: UInt64, strippedAddress: UInt64? = nil, name: String?, kernelCode: UInt64? = nil, source: Source) {
        self.address = address
        self.strippedAddress = strippedAddress
        self.name = name
        self.kernelCode = kernelCode
        self.source = source
    }
}
