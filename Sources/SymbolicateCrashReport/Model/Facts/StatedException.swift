import Foundation

extension ExceptionInfo {
    /// Takes the exception type or the signal a stated line names (`EXC_BAD_ACCESS (code=1,
    /// address=0x0)`, `EXC_BAD_ACCESS KERN_INVALID_ADDRESS`, `Crash due to signal:
    /// SIGTRAP(TRAP_BRKPT)`, `Abort trap: 6`) into the typed fields it leaves unset: the one
    /// reading of such lines, for the console reader and for any layout whose fields name none.
    /// False when the message is of another family or names nothing.
    @discardableResult
    mutating func take(statedCrash message: StatedMessage) -> Bool {
        let text = Substring(message.text.split(separator: "\n", maxSplits: 1).first ?? "")
        switch message.family {
        case .machException:
            let reason = StopReason(String(text))
            if reason.isCrash {
                take(reason)
            } else if let type = MachExceptionLine.parse(text), self.type == nil || self.type?.hasPrefix("SIG") == true {
                self.type = type
                let rest = text.dropFirst(type.count).trimmedBlanks
                if !rest.isEmpty { subtype = rest }
            } else if let named = MachExceptionLine.named(in: text), let type = MachExceptionLine.parse(named),
                self.type == nil || self.type?.hasPrefix("SIG") == true
            {
                // Named in a sentence: the type, and the signal when it follows in parentheses.
                self.type = type
                let rest = named.dropFirst(type.count).drop { $0 == "`" || $0 == "'" || $0 == "\"" || $0 == "*" || $0 == " " }
                if rest.hasPrefix("(SIG"), let close = rest.firstIndex(of: ")") {
                    signal = signal ?? String(rest[rest.index(after: rest.startIndex)..<close])
                }
            } else {
                return false
            }
            return true
        case .signal:
            guard let named = SignalLine.signal(in: text) else { return false }
            if subtype == nil, let code = SignalLine.code(in: text), SignalLine.codeNames[code] == named { subtype = code }
            // A `siginfo_t` dump's fault address (`si_addr=0x0`): the address alone, where the codes go.
            if codes == nil, let address = SignalLine.siginfoAddress(in: text) { codes = address }
            if type == nil {
                type = named
            } else if type != named, signal == nil, type?.hasPrefix("SIG") != true {
                // A Mach exception's signal. A second signal after a first one stated (a runtime's
                // handler reports SIGSEGV, then aborts: the shell's `Abort trap: 6`) is the
                // handler's way out, not what crashed.
                signal = named
            }
            return true
        default:
            return false
        }
    }

    /// A debugger's stop reason: its Mach exception with codes, its signal, the runtime error
    /// or quoted reason it carries.
    mutating func take(_ reason: StopReason) {
        if let type = reason.exceptionType, self.type == nil || self.type?.hasPrefix("SIG") == true {
            self.type = type
            codes = reason.codes
        }
        if let signal = reason.signal {
            // A bare signal goes in the type field, as third-party reporters print it.
            if type == nil { type = signal } else if type != signal { self.signal = signal }
        }
        if let error = reason.runtimeError, runtimeError?.file == nil {
            setRuntimeError(error)
        }
        if let quoted = reason.quotedReason, uncaught == nil {
            uncaught = UncaughtException(language: .objectiveC, reason: quoted)
        }
    }

    /// The message field is what the report says stopped the process, as Apple's reports carry it.
    mutating func setRuntimeError(_ error: SwiftRuntimeError) {
        runtimeError = error
        message = error.message.isEmpty ? error.kind : "\(error.kind): \(error.message)"
    }
}
