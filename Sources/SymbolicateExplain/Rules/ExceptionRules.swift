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
            return Verdict(.arithmetic, .likely, "Arithmetic fault (SIGFPE): most likely an integer division by zero in C-family code.")
        case ("EXC_GUARD", _):
            return classifyGuard()
        case ("EXC_RESOURCE", _):
            return resource()
        case ("EXC_CRASH", "SIGABRT"), (nil, "SIGABRT"):
            return abort()
        case ("EXC_CRASH", "SIGKILL"), (nil, "SIGKILL"):
            found.notes.append(
                "No termination namespace or code explains the kill; backtraces of a killed process usually show whatever was running, not a cause."
            )
            return Verdict(
                .killed, .stated, "The process was killed (SIGKILL) by the system or another process; the report gives no reason code.")
        case ("EXC_CRASH", "SIGTERM"), ("EXC_CRASH", "SIGTRM"), ("EXC_CRASH", "SIGQUIT"), (nil, "SIGTERM"), (nil, "SIGQUIT"):
            return Verdict(
                .terminated, .stated,
                "The process was asked to terminate (\(signal ?? "")) by another process; this is not a bug in the crashing code itself.")
        case ("EXC_CRASH", "SIGSYS"):
            quoteTopFrames(count: 3)
            return Verdict(.illegalInstruction, .stated, "Bad system call (SIGSYS): the process made a system call that does not exist.")
        case ("EXC_CRASH", let signal?):
            return raisedSignal(signal)
        default:
            if let signal, signal.contains("Code Signature") { return codeSignature() }
            quoteTopFrames(count: 3)
            return Verdict(
                .unknown, .possible, "Crash of type \(facts.exceptionLine ?? "unknown"); the knowledge base has no specific rule for it.")
        }
    }

    func breakpoint() -> Verdict {
        guard let thread = facts.crashedThread else {
            return Verdict(
                .swiftTrap, .possible,
                "Trace trap (EXC_BREAKPOINT): a deliberate crash; the report has no crashed-thread backtrace to say which check failed.")
        }
        // A library that traps instead of aborting (libmalloc's newer checks, C++ terminate
        // paths compiled to a trap): the same stop, named the same way.
        if let path = AbortPath(thread: thread), path.machinery.isEmpty,
            [.malloc, .stackProtector, .cxxTerminate, .objcRuntime].contains(path.stopper),
            let verdict = classifyAbortPath(path, in: thread)
        {
            return verdict
        }
        let top = thread.frames.prefix(3)
        for frame in top { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        let topImage = top.first?.imageName ?? ""
        let names = thread.frames.prefix(4).flatMap(\.functionNames).joined(separator: " ")
        if topImage.hasPrefix("libdispatch") {
            found.use(base.entry(.libdispatchClientBug))
            found.notes.append("The message libdispatch leaves in Application Specific Information is missing from this report.")
            return Verdict(
                .dispatchMisuse, .likely,
                "libdispatch stopped the process in \(top.first?.functionNames.first ?? "its code"): likely a Dispatch API misuse (BUG IN CLIENT OF LIBDISPATCH)."
            )
        }
        if topImage.hasPrefix("libswiftCore") || names.contains("_assertionFailure") || names.contains("fatalError") {
            found.use(base.entry(.assertionFailure))
            quoteFirstAppFrame()
            found.notes.append(
                facts.needsSymbolication
                    ? "The Swift error message is not in this report; it is usually in Application Specific Information or, for optimized builds, in a 'Swift runtime failure' frame visible after symbolication."
                    : "The Swift error message is not in this report: neither Application Specific Information nor the symbolicated frames name the failed check."
            )
            found.cause(
                .likely,
                "A Swift standard-library check or fatalError/precondition failed (nil unwrap, index out of range, overflow, failed cast…)")
            return Verdict(
                .swiftTrap, .likely,
                "A Swift runtime check stopped the program (trap in \(top.first?.functionNames.first ?? "libswiftCore")); the message is not in the report."
            )
        }
        // A system framework's own trap (a __builtin_trap check such as CFRelease(NULL)): say
        // which framework, in which of its functions, and who called it.
        // (A frame with a source file is someone's own code, such as a test bundle: not a framework.)
        if let first = top.first, first.imageIndex != nil, !facts.isAppOwned(first), first.sourceLocation == nil,
            let image = first.imageName, !image.hasPrefix("libswift"),
            let function = first.functionNames.first,
            let caller = thread.frames.first(where: { $0.index > first.index && $0.imageName != image })
        {
            found.quote(caller, at: place(thread, caller), "the call into \(image) that trapped")
            found.cause(
                .likely, "\(image) found a condition it cannot continue from in \(function) (a check compiled to a trap instruction)",
                frames: ["\(place(thread, first)): \(first.evidenceText)", "\(place(thread, caller)): \(caller.evidenceText)"])
            found.cause(.possible, "An argument the call passed that the framework does not accept (NULL, a released object, a wrong type)")
            return Verdict(
                .explicitTrap, .likely,
                "\(image) stopped the process with a trap in \(AbortPath.baseName(function)), called from \(named(caller)): a check in that library failed."
            )
        }
        if let first = top.first, first.isCFamily {
            found.cause(
                .likely,
                "An explicit trap in C, C++ or Objective-C code (__builtin_trap(), a trap macro) or a compiler-inserted trap (unreachable code, -fsanitize=…-trap)"
            )
            found.cause(.possible, "A breakpoint instruction left in the code (e.g. a debugger-only macro)")
            found.step(
                "Open \(first.sourceLocation ?? "the crashing function") and look for a trap, assertion macro or code the compiler proved unreachable"
            )
            return Verdict(
                .explicitTrap, .likely,
                "Trace trap in C-family code (\(first.functionNames.first ?? "?")\(first.sourceLocation.map { ", \($0)" } ?? "")): an explicit or compiler-inserted trap instruction."
            )
        }
        quoteFirstAppFrame()
        found.cause(
            .likely,
            "A Swift runtime check inlined into the crashing function (force unwrap of nil, index out of range, arithmetic overflow, failed as!), or fatalError/precondition"
        )
        found.cause(
            .possible, "An explicit trap (__builtin_trap, brk) in C-family code or a debugger breakpoint instruction left in the binary")
        if let first = top.first {
            stepToSymbolicate(
                first, in: thread, "optimized Swift builds name the failed check in an inlined 'Swift runtime failure: …' frame")
        }
        let place = top.first.map { " in \($0.imageName ?? "?")" } ?? ""
        let advice = top.first?.functionNames.isEmpty == true ? "; symbolicate frame \(top.first?.index ?? 0) to see which" : ""
        return Verdict(.swiftTrap, .likely, "Trace trap\(place): most likely a failed Swift runtime check or fatalError\(advice).")
    }

    func badInstruction() -> Verdict {
        let isIntel = ["x86_64", "x86_64h", "i386"].contains(facts.architecture ?? "")
        quoteTopFrames(count: 3)
        quoteFirstAppFrame()
        if facts.isTranslated {
            found.quote("Code Type", report.codeType, "x86_64 code running under Rosetta")
            found.cause(.likely, "An instruction Rosetta does not translate (for example AVX) in the crashing code")
            found.cause(.possible, "A failed Swift runtime check or fatalError (ud2) in x86_64 code")
            return Verdict(
                .illegalInstruction, .likely,
                "Illegal instruction in an x86_64 process translated by Rosetta: likely an unsupported instruction (such as AVX), or a Swift trap."
            )
        }
        if isIntel {
            found.quote("Code Type", report.codeType, "on x86_64 Swift traps are illegal instructions (ud2)")
            found.cause(
                .likely, "A failed Swift runtime check (nil unwrap, index out of range, overflow, failed cast) or fatalError/precondition")
            found.cause(.possible, "A jump into data through a corrupted function pointer")
            if let thread = facts.crashedThread, let first = thread.frames.first {
                stepToSymbolicate(first, in: thread, "it holds the failed check, and the debug information gives its line")
            }
            return Verdict(
                .swiftTrap, .likely,
                "Illegal instruction on x86_64: most likely a Swift runtime check or fatalError (they trap with ud2 on Intel).")
        }
        found.cause(.likely, "A jump into data through a corrupted function pointer or return address")
        found.cause(.possible, "A corrupted code page or an instruction the CPU does not support")
        return Verdict(
            .illegalInstruction, .likely,
            "Illegal instruction on ARM: the CPU met an undefined instruction, usually after jumping through a bad pointer.")
    }

    func codeSignature(_ certainty: Diagnosis.Certainty = .stated) -> Verdict {
        found.use(base.entry(.codeSignError), causes: 0)
        found.use(base.entry(.codeSigningNamespace))
        quoteTopFrames(count: 3)
        if let dlopen = facts.asiLines.firstIndex(where: { $0.contains("dlopen") }) {
            for line in facts.asiLines[dlopen...].prefix(2) { found.quote("Application Specific Information", line) }
            found.cause(
                .likely,
                "A library or plug-in loaded with dlopen() whose pages fail signature validation (modified after signing, or rejected by library validation)"
            )
        }
        return Verdict(
            .codeSigning, certainty, "Code signature invalid: the kernel refused a memory page whose code signature did not validate.")
    }

    func abort() -> Verdict {
        found.use(base.entry(.abortCalled))
        for line in facts.asiLines { found.quote("Application Specific Information", line) }
        guard let thread = facts.crashedThread else {
            return Verdict(.abort, .possible, "The process aborted (SIGABRT); the report has no crashed-thread backtrace to say why.")
        }
        // The library between abort() and its caller says who stopped the process and why.
        // A frame naming the stop outranks a message; the stopping image alone does not.
        let path = AbortPath(thread: thread)
        if let path, path.stopFrame != nil, let verdict = classifyAbortPath(path, in: thread) { return verdict }
        // A library explained itself in Application Specific Information.
        for line in facts.asiLines {
            guard let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                !entry.is(.abortCalled)
            else { continue }
            found.use(entry, causes: 1)
            quoteTopFrames(count: 4)
            return Verdict(entry.is(.forkedMultithreaded) ? .abort : .memoryCorruption, .stated, "\(entry.title): \(line)")
        }
        if let path, path.stopFrame == nil, let verdict = classifyAbortPath(path, in: thread) { return verdict }
        return explicitAbort(path, in: thread)
    }

    /// An abort no library explains: name who called it — the deciding library and function
    /// when that is system code, and the first frame of the code that called into it.
    func explicitAbort(_ path: AbortPath?, in thread: CrashReport.Thread) -> Verdict {
        for frame in thread.frames.prefix(3) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        let decider = path?.decider
        // The code that decided: the decider itself unless it is a system library's frame
        // (then its first caller outside that library).
        let isSystem = decider.map { !facts.isAppOwned($0) } ?? false
        let caller = isSystem ? (path?.caller ?? decider) : decider
        var shown: [String] = []
        if let decider, isSystem, let caller, caller.index != decider.index {
            shown.append(found.quote(decider, at: place(thread, decider), "first frame after abort(): the library that called it"))
            shown.append(found.quote(caller, at: place(thread, caller), "the call into that library"))
        } else if let caller {
            shown.append(found.quote(caller, at: place(thread, caller), "first frame after abort(): the caller"))
        }
        let who = decider.map { frame in
            let function = frame.functionNames.first.map { " in \(AbortPath.baseName($0))" } ?? ""
            return (frame.imageName ?? "?") + function
        }
        found.cause(
            .likely,
            "Code in \(decider?.imageName ?? "the process") called abort() deliberately (a failed check or an unrecoverable error path)",
            frames: shown)
        found.cause(.possible, "An uncaught exception whose message was not recorded")
        if let caller {
            stepToSymbolicate(caller, in: thread, "it called abort(); read the code path that leads there")
        }
        var headline = "The process called abort()" + (who.map { " from \($0)" } ?? "")
        if isSystem, let caller, let decider, caller.index != decider.index {
            headline += ", called from \(named(caller))"
        }
        return Verdict(.abort, .likely, headline + "; no exception or message explains it.")
    }

    /// EXC_CRASH wrapping a fault signal (e.g. a process that called raise(SIGSEGV)).
    func raisedSignal(_ signal: String) -> Verdict {
        guard let thread = facts.crashedThread else {
            return Verdict(.signalRaised, .possible, "The process died from \(signal) delivered as EXC_CRASH (not a hardware fault).")
        }
        let raise = thread.frames.prefix(6).first {
            ["raise", "kill", "pthread_kill", "__pthread_kill"].contains($0.functionNames.first ?? "")
                && $0.functionNames.first != "__pthread_kill"
        }
        for frame in thread.frames.prefix(4) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        quoteFirstAppFrame()
        if raise != nil {
            found.cause(.likely, "The code sent \(signal) to itself with raise()/kill(); it is not a memory fault")
            return Verdict(
                .signalRaised, .likely,
                "The process raised \(signal) itself (raise/pthread_kill in the crashed thread), delivered as EXC_CRASH — not a hardware fault."
            )
        }
        return Verdict(
            .signalRaised, .possible, "The process died from \(signal) delivered as EXC_CRASH (software-generated, not a hardware fault).")
    }
}
