import Foundation
import SymbolicateCrashReport

/// Exception types and signals (§3) when no message or termination reason explains the crash.
extension Diagnostician {
    func classifyByException() -> Verdict {
        let type = facts.exception?.machType
        let signal = facts.exception?.signal
        found.use(type.flatMap { base.entry($0, kind: .exceptionType) })
        if let signal, let entry = base.entry(signal.components(separatedBy: " ").first ?? signal, kind: .signal) {
            found.use(entry)
        }

        if let frameResult = classifyBySwiftFrames() { return frameResult }

        // The signal decides where the Mach type is not one of the faults below: a bare signal,
        // a signal in the type's place (`Exception Type: SIGABRT`, which fact reading files as the
        // signal), or a type the rules do not name (`EXC_SOFTWARE (SIGABRT)`, EXC_UNIX_ABORT).
        let mach = type
        let named = facts.exception?.signalName
        // Under EXC_CRASH a fault's signal was sent, not raised by the hardware (`raisedSignal`).
        let sent = mach == "EXC_CRASH"
        switch (mach, named) {
        case ("EXC_BAD_ACCESS", _),
            (_, "SIGSEGV") where !sent, (_, "SIGBUS") where !sent:
            return badAccess()
        case ("EXC_BREAKPOINT", _):
            return breakpoint()
        case ("EXC_BAD_INSTRUCTION", _),
            (_, "SIGILL") where !sent:
            return badInstruction()
        case ("EXC_ARITHMETIC", _),
            (_, "SIGFPE") where !sent:
            quoteTopFrames(count: 2)
            return Verdict(.arithmetic, .likely, .verdictArithmetic)
        case ("EXC_GUARD", _):
            return classifyGuard()
        case ("EXC_RESOURCE", _):
            return resource()
        case (_, "SIGABRT"):
            return abort()
        case (_, "SIGKILL"):
            found.note(.noteKilledWithoutReason)
            return Verdict(.killed, .stated, .verdictKilled)
        case ("EXC_CRASH", "SIGTRM"), (_, "SIGTERM"), (_, "SIGQUIT"):
            return Verdict(.terminated, .stated, .verdictTerminated, ["signal": .text(signal ?? named ?? "")])
        case ("EXC_CRASH", "SIGSYS"), (nil, "SIGSYS"):
            quoteTopFrames(count: 3)
            return Verdict(.illegalInstruction, .stated, .verdictBadSystemCall)
        case (nil, "SIGTRAP"):
            return breakpoint()
        case ("EXC_CRASH", _?):
            return raisedSignal(signal ?? named ?? "")
        default:
            if facts.exception?.isCodeSignatureInvalid == true { return codeSignature() }
            quoteTopFrames(count: 3)
            return Verdict(
                .unknown, .possible, .verdictUnknownType,
                ["type": report.exceptionLine.map(Phrase.text) ?? Phrase(.wordUnknown)])
        }
    }

    func breakpoint() -> Verdict {
        guard let thread = report.crashedThread else {
            return Verdict(.swiftTrap, .possible, .verdictTraceTrapNoThread)
        }
        // A library that traps instead of aborting (libmalloc's newer checks, C++ terminate
        // paths compiled to a trap): the same stop, named the same way.
        if let path = AbortPath(thread: thread), path.machinery.isEmpty,
            [.malloc, .stackProtector, .cxxTerminate, .objcRuntime, .objcException].contains(path.stopper),
            let verdict = classifyAbortPath(path, in: thread)
        {
            return verdict
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
        if topImage.hasPrefix("libswiftCore") || names.containsBytes("_assertionFailure") || names.containsBytes("fatalError") {
            found.use(base.entry(.assertionFailure))
            quoteFirstAppFrame()
            found.note(report.needsSymbolication ? .noteSwiftMessageMissingSymbolicate : .noteSwiftMessageMissing)
            found.cause(.likely, .causeSwiftCheckFailed)
            return Verdict(
                .swiftTrap, .likely, .verdictSwiftCheckStopped,
                ["function": .text(top.first?.functionNames.first ?? "libswiftCore")])
        }
        // A system framework's own trap (a __builtin_trap check such as CFRelease(NULL)): say
        // which framework, in which of its functions, and who called it.
        // (A frame with a source file is someone's own code, such as a test bundle: not a framework.)
        if let first = top.first, first.imageIndex != nil, !report.isAppOwned(first), first.sourceLocation == nil,
            let image = first.imageName, !image.hasPrefix("libswift"),
            let function = first.functionNames.first,
            let caller = thread.frames.first(where: { $0.index > first.index && $0.imageName != image })
        {
            found.quote(caller, at: place(thread, caller), Phrase(.noteCallIntoTrapped, ["image": .text(image)]))
            found.cause(
                .likely, .causeFrameworkTrap, ["image": .text(image), "function": .text(function)],
                frames: [
                    FrameLine(place: place(thread, first), text: .verbatim(first.evidenceText)),
                    FrameLine(place: place(thread, caller), text: .verbatim(caller.evidenceText)),
                ])
            found.cause(.possible, .causeFrameworkArgument)
            return Verdict(
                .explicitTrap, .likely, .verdictFrameworkTrap,
                ["image": .text(image), "function": .text(AbortPath.baseName(function)), "caller": named(caller)])
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
            // A frame pasted without its image is named by its function.
            ["image": .text(top.first?.imageName ?? top.first?.functionNames.first ?? "?"), "frame": .text(String(top.first?.index ?? 0))])
    }

    /// A demangled Swift name: a dotted type path with an argument list (`App.Foo.bar() -> ()`,
    /// `closure #1 in Foo.bar()`).
    private func isSwiftName(_ frame: Frame) -> Bool {
        guard let name = frame.functionNames.first else { return false }
        return name.containsBytes(".") && name.containsBytes("(") && !name.hasPrefix("-[") && !name.hasPrefix("+[")
    }

    func badInstruction() -> Verdict {
        // Intel by the report's architecture or its code's name (`EXC_I386_INVOP`); a text that
        // names no architecture over Swift frames is the Simulator's or an Intel Mac's (on ARM a
        // Swift check traps with EXC_BREAKPOINT instead).
        let architecture = facts.platform.architecture?.name
        let namesIntel = facts.exception?.namesIntelException == true
        let swiftFrame =
            report.crashedThread?.frames.prefix(8).first(where: { !$0.functionNames.isEmpty }).map { !$0.isCFamily && isSwiftName($0) }
            ?? false
        let isIntel = ["x86_64", "x86_64h", "i386"].contains(architecture ?? "") || namesIntel || (architecture == nil && swiftFrame)
        quoteTopFrames(count: 3)
        quoteFirstAppFrame()
        // The instruction itself, when a debugger showed it: a trap's (`ud2`, `brk`) is a check that
        // stopped on purpose; any other is one this processor does not execute.
        if let instruction = facts.stopInstruction {
            found.quote(.label("Stopped at"), instruction)
            let mnemonic = instruction.prefix { $0 != " " }.lowercased()
            if !Self.trapMnemonics.contains(mnemonic) {
                found.cause(.likely, .causeUnsupportedInstruction, ["instruction": .text(instruction)])
                found.cause(.possible, .causeJumpIntoDataOrReturn)
                return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionUnsupported, ["instruction": .text(instruction)])
            }
        }
        if facts.platform.isTranslated {
            found.quote(.label("Code Type"), report.codeType, Phrase(.noteRosetta))
            found.cause(.likely, .causeRosettaInstruction)
            found.cause(.possible, .causeSwiftTrapX86)
            return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionRosetta)
        }
        if isIntel {
            found.quote(.label("Code Type"), report.codeType, Phrase(.noteX86SwiftTraps))
            found.cause(.likely, .causeSwiftCheckFailedX86)
            found.cause(.possible, .causeJumpIntoData)
            if let thread = report.crashedThread, let first = thread.frames.first {
                stepToSymbolicate(first, in: thread, .whyHoldsFailedCheck)
            }
            let named = ["x86_64", "x86_64h", "i386"].contains(architecture ?? "") || namesIntel
            return Verdict(.swiftTrap, .likely, named ? .verdictIllegalInstructionX86 : .verdictIllegalInstructionSwiftFrames)
        }
        // ARM only when the report says so: a shell's `Illegal instruction: 4` names no processor.
        guard facts.platform.instructionSet == .arm || architecture?.lowercased().hasPrefix("arm") == true else {
            found.cause(.likely, .causeNewerProcessorCode)
            found.cause(.possible, .causeJumpIntoDataOrReturn)
            return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionUnknownProcessor)
        }
        found.cause(.likely, .causeJumpIntoDataOrReturn)
        found.cause(.possible, .causeCorruptedCodePage)
        return Verdict(.illegalInstruction, .likely, .verdictIllegalInstructionARM)
    }

    /// Mnemonics of the instructions compilers and runtimes trap with on purpose (x86's `ud2`, ARM's
    /// `brk` and `udf`, `int3`, `hlt`).
    static let trapMnemonics: Set<String> = ["ud2", "ud1", "ud0", "brk", "udf", "int3", "hlt", "trap"]

    func codeSignature(_ certainty: Diagnosis.Certainty = .stated) -> Verdict {
        found.use(base.entry(.codeSignError), causes: 0)
        found.use(base.entry(.codeSigningNamespace))
        quoteTopFrames(count: 3)
        if !facts.statements.dlopenLines.isEmpty {
            for line in facts.statements.dlopenLines { found.quote(.label("Application Specific Information"), line) }
            found.cause(.likely, .causeDlopenSignature)
        }
        return Verdict(.codeSigning, certainty, .verdictCodeSignatureInvalid)
    }

    func abort() -> Verdict {
        found.use(base.entry(.abortCalled))
        for line in facts.messageLines { found.quote(.label("Application Specific Information"), line) }
        guard let thread = report.crashedThread else {
            return abortAfterLastOutput() ?? Verdict(.abort, .possible, .verdictAbortNoThread)
        }
        // The library between abort() and its caller says who stopped the process and why.
        // A frame naming the stop outranks a message; the stopping image alone does not.
        let path = AbortPath(thread: thread)
        if let path, path.stopFrame != nil, let verdict = classifyAbortPath(path, in: thread) { return verdict }
        // A library explained itself in Application Specific Information.
        for line in facts.messageLines {
            guard let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                !entry.is(.abortCalled)
            else { continue }
            found.use(entry, causes: 1)
            quoteTopFrames(count: 4)
            return Verdict(
                entry.is(.forkedMultithreaded) ? .abort : .memoryCorruption, .stated, .verdictTitleAndLine,
                ["title": entry.titlePhrase, "line": .text(line)])
        }
        if let path, path.stopFrame == nil, let verdict = classifyAbortPath(path, in: thread) { return verdict }
        if let verdict = abortAfterLastOutput() { return verdict }
        return explicitAbort(path, in: thread)
    }

    /// An abort nothing above explains, in a pasted text that shows what the program printed just
    /// before it (`lastOutput`): that line is the likely reason, quoted (a framework's fatal log,
    /// `This application failed to start because no Qt platform plugin could be initialized.`).
    /// The line whose words put it in a class, else the last one.
    func abortAfterLastOutput() -> Verdict? {
        guard let line = facts.lastOutput.first(where: { messageClass(of: $0) != nil }) ?? facts.lastOutput.last else { return nil }
        for other in facts.lastOutput { found.quote(Self.evidenceField(other.source), other.text) }
        found.cause(.likely, .causeLastOutput, ["line": .text(line.text)])
        return Verdict(.abort, .likely, .verdictLastOutput, ["source": Self.sourcePhrase(line.source), "line": .text(line.text)])
    }

    /// An abort no library explains: name who called it — the deciding library and function
    /// when that is system code, and the first frame of the code that called into it.
    func explicitAbort(_ path: AbortPath?, in thread: CrashReport.Thread) -> Verdict {
        for frame in thread.frames.prefix(3) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
        let decider = path?.decider
        // The code that decided: the decider itself unless it is a system library's frame
        // (then its first caller outside that library).
        let isSystem = decider.map { !report.isAppOwned($0) } ?? false
        let caller = isSystem ? (path?.caller ?? decider) : decider
        var shown: [FrameLine] = []
        if let decider, isSystem, let caller, caller.index != decider.index {
            shown.append(found.quote(decider, at: place(thread, decider), Phrase(.noteLibraryCalledAbort)))
            shown.append(found.quote(caller, at: place(thread, caller), Phrase(.noteCallIntoLibrary)))
        } else if let caller {
            shown.append(found.quote(caller, at: place(thread, caller), Phrase(.noteFirstFrameAfterAbort)))
        }
        let who: Phrase? = decider.map { frame in
            let image = Phrase.text(frame.imageName ?? "?")
            return frame.functionNames.first.map {
                Phrase(.wordImageInFunction, ["image": image, "function": .text(AbortPath.baseName($0))])
            } ?? image
        }
        found.cause(
            .likely, .causeCodeCalledAbort, ["image": decider.map { .text($0.imageName ?? "?") } ?? Phrase(.wordTheProcess)],
            frames: shown)
        // (Not when the text states a message: an exception's record is then not all it lacks.)
        if facts.statedMessages.isEmpty { found.cause(.possible, .causeUncaughtUnrecorded) }
        if let caller {
            stepToSymbolicate(caller, in: thread, .whyCalledAbort)
        }
        guard let who else { return Verdict(.abort, .likely, .verdictAbortUnexplained) }
        if isSystem, let caller, let decider, caller.index != decider.index {
            return Verdict(.abort, .likely, .verdictAbortFromCalledFrom, ["image": who, "caller": named(caller)])
        }
        return Verdict(.abort, .likely, .verdictAbortFrom, ["image": who])
    }

    /// EXC_CRASH wrapping a fault signal (e.g. a process that called raise(SIGSEGV)).
    func raisedSignal(_ signal: String) -> Verdict {
        guard let thread = report.crashedThread else {
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
