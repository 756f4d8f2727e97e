import Foundation
import SymbolicateCrashReport

/// Exception types and signals (§3) when no message or termination reason explains the crash.
extension Diagnostician {
    func classifyByException() -> Verdict {
        let type = facts.exceptionType
        let signal = facts.signal
        found.use(type.flatMap { base.entry($0, kind: .exceptionType) })
        if let signal, let entry = base.entry(signal.components(separatedBy: " ").first ?? signal, kind: .signal) {
            found.use(entry)
        }

        if let frameResult = classifyBySwiftFrames() { return frameResult }

        switch (type, signal) {
        case ("EXC_BAD_ACCESS", _), (nil, "SIGSEGV"), (nil, "SIGBUS"):
            return badAccess()
        case ("EXC_BREAKPOINT", _):
            return breakpoint()
        case ("EXC_BAD_INSTRUCTION", _), (nil, "SIGILL"):
            return badInstruction()
        case ("EXC_ARITHMETIC", _), (nil, "SIGFPE"):
            quoteTopFrames(count: 2)
            return Verdict(.arithmetic, .likely, .verdictArithmetic)
        case ("EXC_GUARD", _):
            return classifyGuard()
        case ("EXC_RESOURCE", _):
            return resource()
        case ("EXC_CRASH", "SIGABRT"), (nil, "SIGABRT"):
            return abort()
        case ("EXC_CRASH", "SIGKILL"), (nil, "SIGKILL"):
            found.note(.noteKilledWithoutReason)
            return Verdict(.killed, .stated, .verdictKilled)
        case ("EXC_CRASH", "SIGTERM"), ("EXC_CRASH", "SIGTRM"), ("EXC_CRASH", "SIGQUIT"), (nil, "SIGTERM"), (nil, "SIGQUIT"):
            return Verdict(.terminated, .stated, .verdictTerminated, ["signal": .text(signal ?? "")])
        case ("EXC_CRASH", "SIGSYS"):
            quoteTopFrames(count: 3)
            return Verdict(.illegalInstruction, .stated, .verdictBadSystemCall)
        case ("EXC_CRASH", let signal?):
            return raisedSignal(signal)
        default:
            if let signal, signal.contains("Code Signature") { return codeSignature() }
            quoteTopFrames(count: 3)
            return Verdict(
                .unknown, .possible, .verdictUnknownType,
                ["type": facts.exceptionLine.map(Phrase.text) ?? Phrase(.wordUnknown)])
        }
    }

    func breakpoint() -> Verdict {
        guard let thread = facts.crashedThread else {
            return Verdict(.swiftTrap, .possible, .verdictTraceTrapNoThread)
        }
        let top = thread.frames.prefix(3)
        for frame in top { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
        let topImage = top.first?.imageName ?? ""
        let names = thread.frames.prefix(4).flatMap(\.functionNames).joined(separator: " ")
        if topImage.hasPrefix("libdispatch") {
            found.use(base.entry(.libdispatchClientBug))
            found.note(.noteDispatchMessageMissing)
            return Verdict(
                .dispatchMisuse, .likely, .verdictDispatchStopped,
                ["function": top.first?.functionNames.first.map(Phrase.text) ?? Phrase(.wordItsCode)])
        }
        if topImage.hasPrefix("libswiftCore") || names.contains("_assertionFailure") || names.contains("fatalError") {
            found.use(base.entry(.assertionFailure))
            quoteFirstAppFrame()
            found.note(facts.needsSymbolication ? .noteSwiftMessageMissingSymbolicate : .noteSwiftMessageMissing)
            found.cause(.likely, .causeSwiftCheckFailed)
            return Verdict(
                .swiftTrap, .likely, .verdictSwiftCheckStopped,
                ["function": .text(top.first?.functionNames.first ?? "libswiftCore")])
        }
        if let first = top.first, first.isCFamily {
            found.cause(.likely, .causeExplicitTrapC)
            found.cause(.possible, .causeBreakpointLeft)
            found.step(
                .stepOpenTrapSite, ["location": first.sourceLocation.map(Phrase.text) ?? Phrase(.wordTheCrashingFunction)])
            return Verdict(
                .explicitTrap, .likely, .verdictTraceTrapC,
                ["frame": .text("\(first.functionNames.first ?? "?")\(first.sourceLocation.map { ", \($0)" } ?? "")")])
        }
        quoteFirstAppFrame()
        found.cause(.likely, .causeSwiftCheckInlined)
        found.cause(.possible, .causeExplicitTrapOrBreakpoint)
        if let first = top.first {
            stepToSymbolicate(first, in: thread, .whyOptimizedSwiftNamesCheck)
        }
        let key: PhraseKey =
            switch (top.first, top.first?.functionNames.isEmpty == true) {
            case (nil, _): .verdictTraceTrap
            case (_?, false): .verdictTraceTrapIn
            case (_?, true): .verdictTraceTrapInSymbolicate
            }
        return Verdict(
            .swiftTrap, .likely, key,
            ["image": .text(top.first?.imageName ?? "?"), "frame": .text(String(top.first?.index ?? 0))])
    }

    func badInstruction() -> Verdict {
        let isIntel = ["x86_64", "x86_64h", "i386"].contains(facts.architecture ?? "")
        quoteTopFrames(count: 3)
        quoteFirstAppFrame()
        if facts.isTranslated {
            found.quote(.label("Code Type"), report.codeType, Phrase(.noteRosetta))
            found.cause(.likely, .causeRosettaInstruction)
            found.cause(.possible, .causeSwiftTrapX86)
            return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionRosetta)
        }
        if isIntel {
            found.quote(.label("Code Type"), report.codeType, Phrase(.noteX86SwiftTraps))
            found.cause(.likely, .causeSwiftCheckFailedX86)
            found.cause(.possible, .causeJumpIntoData)
            if let thread = facts.crashedThread, let first = thread.frames.first {
                stepToSymbolicate(first, in: thread, .whyHoldsFailedCheck)
            }
            return Verdict(.swiftTrap, .likely, .verdictIllegalInstructionX86)
        }
        found.cause(.likely, .causeJumpIntoDataOrReturn)
        found.cause(.possible, .causeCorruptedCodePage)
        return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionARM)
    }

    func codeSignature(_ certainty: Diagnosis.Certainty = .stated) -> Verdict {
        found.use(base.entry(.codeSignError), causes: 0)
        found.use(base.entry(.codeSigningNamespace))
        quoteTopFrames(count: 3)
        if let dlopen = facts.asiLines.firstIndex(where: { $0.contains("dlopen") }) {
            for line in facts.asiLines[dlopen...].prefix(2) { found.quote(.label("Application Specific Information"), line) }
            found.cause(.likely, .causeDlopenSignature)
        }
        return Verdict(.codeSigning, certainty, .verdictCodeSignatureInvalid)
    }

    func abort() -> Verdict {
        found.use(base.entry(.abortCalled))
        for line in facts.asiLines { found.quote(.label("Application Specific Information"), line) }
        guard let thread = facts.crashedThread else {
            return Verdict(.abort, .possible, .verdictAbortNoThread)
        }
        let names = thread.frames.prefix(12).map { $0.functionNames.joined(separator: " ") }
        if let index = names.firstIndex(where: { $0.contains("_objc_terminate") || $0.contains("objc_exception_rethrow") }) {
            found.quote(
                .frame(thread.index, thread.frames[index].index), thread.frames[index].evidenceText, Phrase(.noteObjCHandlerAborted))
            return objcException(name: nil, reason: nil)
        }
        if let index = names.firstIndex(where: {
            $0.contains("__stack_chk_fail") || $0.contains("malloc_error_break") || $0.contains("BUG_IN_CLIENT_OF_LIBMALLOC")
        }) {
            found.quote(.frame(thread.index, thread.frames[index].index), thread.frames[index].evidenceText)
            found.use(base.entries(matchingText: names[index], kinds: [.applicationSpecificMessage]).first)
            return Verdict(
                .memoryCorruption, .likely, .verdictMemoryCorruptionDetected,
                ["function": .text(String(names[index].split(separator: " ").first ?? ""))])
        }
        if let index = names.firstIndex(where: { $0.contains("__assert_rtn") || $0 == "assert" }) {
            found.quote(.frame(thread.index, thread.frames[index].index), thread.frames[index].evidenceText, Phrase(.noteAssertFailed))
            quoteFirstAppFrame()
            found.cause(.likely, .causeAssertFalseCaller)
            found.note(.noteAssertionMessageMissing)
            return Verdict(.assertionFailure, .likely, .verdictAssertFailed)
        }
        if let index = names.firstIndex(where: {
            $0.contains("__cxa_throw") || $0.contains("std::terminate") || $0.contains("demangling_terminate_handler")
        }) {
            found.quote(.frame(thread.index, thread.frames[index].index), thread.frames[index].evidenceText)
            found.use(base.entry(.uncaughtCppException), causes: 1)
            return Verdict(.uncaughtCppException, .likely, .verdictCppTerminateHandler)
        }
        // A library explained itself in Application Specific Information.
        for line in facts.asiLines {
            guard let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                !entry.is(.abortCalled)
            else { continue }
            found.use(entry, causes: 1)
            quoteTopFrames(count: 4)
            return Verdict(
                entry.is(.forkedMultithreaded) ? .abort : .memoryCorruption, .stated, .verdictTitleAndLine,
                ["title": entry.titlePhrase, "line": .text(line)])
        }
        // Explicit abort: name the first frame after the abort machinery.
        let machinery = ["__pthread_kill", "pthread_kill", "abort", "__abort", "raise", "__pthread_sigmask"]
        let caller = thread.frames.first { frame in
            let name = frame.functionNames.first ?? ""
            return !machinery.contains(name) && !(frame.imageName ?? "").hasPrefix("libsystem_")
        }
        for frame in thread.frames.prefix(3) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
        if let caller {
            found.quote(.frame(thread.index, caller.index), caller.evidenceText, Phrase(.noteFirstFrameAfterAbort))
        }
        found.cause(.likely, .causeCodeCalledAbort, ["image": caller.map { .text($0.imageName ?? "?") } ?? Phrase(.wordTheProcess)])
        found.cause(.possible, .causeUncaughtUnrecorded)
        if let caller {
            stepToSymbolicate(caller, in: thread, .whyCalledAbort)
        }
        if let caller {
            return Verdict(.abort, .likely, .verdictAbortFrom, ["image": .text(caller.imageName ?? "?")])
        }
        return Verdict(.abort, .likely, .verdictAbortUnexplained)
    }

    /// EXC_CRASH wrapping a fault signal (e.g. a process that called raise(SIGSEGV)).
    func raisedSignal(_ signal: String) -> Verdict {
        guard let thread = facts.crashedThread else {
            return Verdict(.signalRaised, .possible, .verdictSignalNoThread, ["signal": .text(signal)])
        }
        let raise = thread.frames.prefix(6).first {
            ["raise", "kill", "pthread_kill", "__pthread_kill"].contains($0.functionNames.first ?? "")
                && $0.functionNames.first != "__pthread_kill"
        }
        for frame in thread.frames.prefix(4) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
        quoteFirstAppFrame()
        if raise != nil {
            found.cause(.likely, .causeSignalSentToSelf, ["signal": .text(signal)])
            return Verdict(.signalRaised, .likely, .verdictSignalRaised, ["signal": .text(signal)])
        }
        return Verdict(.signalRaised, .possible, .verdictSignalSoftware, ["signal": .text(signal)])
    }
}
