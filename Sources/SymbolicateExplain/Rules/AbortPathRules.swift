import Foundation
import SymbolicateCrashReport

/// A process that stopped itself: the library between `abort()` and its caller says who decided
/// to stop it and why (issue 31). Each verdict quotes the frames it read.
extension Diagnostician {
    func place(_ thread: CrashReport.Thread, _ frame: Frame) -> String { "Thread \(thread.index) frame \(frame.index)" }

    /// `-[UITableView _endCellAnimationsWithContext:] (UIKitCore)`, or the image and offset.
    func named(_ frame: Frame) -> String {
        let (function, location) = frame.appLine
        let image = frame.imageName ?? "?"
        if let function { return "\(function)" + (location.map { " at \($0)" } ?? "") + " (\(image))" }
        return "\(image)" + (frame.imageOffset.map { " + " + hex($0) } ?? "")
    }

    /// The diagnosis an abort path names, nil when its stop is not one the rules know (the
    /// generic abort rule then names the caller).
    func classifyAbortPath(_ path: AbortPath, in thread: CrashReport.Thread) -> Verdict? {
        guard let stopper = path.stopper else { return nil }
        let library = path.library ?? "a system library"
        let stopName = path.stopFrame?.functionNames.first.map(AbortPath.baseName)
        let via = stopName.map { "\($0) in \(library)" } ?? library
        var shown: [String] = []
        if let abortFrame = path.machinery.last {
            found.quote(abortFrame, at: place(thread, abortFrame), "the abort machinery")
        }
        if let stop = path.stopFrame ?? path.decider {
            shown.append(found.quote(stop, at: place(thread, stop), "\(library) decided to stop the process here"))
        }
        var callerText = ""
        if let caller = path.caller {
            shown.append(found.quote(caller, at: place(thread, caller), "the call that led \(library) to stop"))
            callerText = ", called from \(named(caller))"
        }

        switch stopper {
        case .objcException:
            return objcException(name: nil, reason: nil)
        case .malloc:
            found.use(base.entry(.mallocCheck))
            found.cause(.likely, "A double free, or a free of a pointer malloc did not return (the check ran in \(via))", frames: shown)
            found.cause(
                .likely, "Heap corruption: a write past the end of a heap block or into one already freed, found later by malloc's check")
            // `step` puts each before the earlier ones: the first to try comes last.
            found.step("If Objective-C objects are freed here, enable Zombies to catch a message to a deallocated object")
            found.step("Or enable Guard Malloc and Malloc Scribble (scheme › Diagnostics) so the corruption fails nearer its cause")
            found.step(
                "Reproduce with Address Sanitizer (scheme › Diagnostics): it stops at the bad write or free, not later at malloc's check")
            return Verdict(
                .memoryCorruption, .likely,
                "malloc's heap check stopped the process (\(via)\(callerText)): heap corruption, a double free or an invalid free.")
        case .stackProtector:
            found.use(base.entry(.stackCheckFail))
            found.cause(
                .likely, "A buffer on the stack was written past its end (the stack protector's canary was overwritten)", frames: shown)
            return Verdict(
                .memoryCorruption, .likely,
                "The stack protector stopped the process (\(via)\(callerText)): a stack buffer overflow.")
        case .cAssert:
            let site = path.caller.map { " in \(named($0))" } ?? ""
            found.cause(.likely, "An assert() condition was false\(site); the calling frame is the assertion site", frames: shown)
            found.notes.append("The assertion message is not in this report's Application Specific Information.")
            return Verdict(.assertionFailure, .likely, "An assert() failed\(site) (__assert_rtn called abort).")
        case .nsAssertion:
            found.use(base.entry(.nsAssertionHandler))
            let site = path.caller.map { " in \(named($0))" } ?? ""
            found.cause(.likely, "An NSAssert failed\(site): the method's own consistency check", frames: shown)
            return Verdict(.assertionFailure, .likely, "An NSAssert failed\(site) (NSAssertionHandler stopped the process).")
        case .cxxTerminate:
            return cxxTerminate(path, in: thread, shown: shown, callerText: callerText)
        case .swiftRuntime:
            found.use(base.entry(.assertionFailure))
            let what: String
            switch stopName ?? "" {
            case let name where name.contains("swift_dynamicCastFailure"): what = "a forced cast (as!) failed"
            case let name where name.contains("Unowned"): what = "an unowned reference was read after its object was deallocated"
            case let name where name.contains("reportUnexpectedExecutor"):
                what = "code isolated to an actor (usually @MainActor) ran on another executor"
            default: what = "a Swift runtime check, precondition or fatalError failed"
            }
            found.cause(.likely, "The Swift runtime stopped the process: \(what)", frames: shown)
            return Verdict(.swiftRuntimeError, .likely, "The Swift runtime stopped the process (\(via)\(callerText)): \(what).")
        case .objcRuntime:
            found.use(base.entry(.objcFatal))
            found.cause(
                .likely,
                "The Objective-C runtime found a fatal error (for example a weak reference formed to an object being deallocated); it printed the reason to the console",
                frames: shown)
            found.step("Read the console log from the moment of the crash (objc[pid]: …): the runtime printed its reason there")
            return Verdict(.abort, .likely, "The Objective-C runtime stopped the process (\(via)\(callerText)).")
        case .libdispatch:
            found.use(base.entry(.libdispatchClientBug))
            found.cause(.likely, "A Dispatch API misuse that libdispatch checks for (\(via))", frames: shown)
            return Verdict(.dispatchMisuse, .likely, "libdispatch stopped the process (\(via)\(callerText)): a Dispatch API misuse.")
        case .dyld:
            found.notes.append("dyld stopped the process; a termination reason from DYLD would name what it could not load.")
            return Verdict(.missingLibrary, .likely, "dyld stopped the process (\(via)).")
        case .tcc:
            found.notes.append(
                "TCC stops a process that reads privacy-protected data without the Info.plist usage description; the report's termination reason names the key when it has one."
            )
            return Verdict(.privacyViolation, .likely, "TCC stopped the process for a privacy violation (\(via)\(callerText)).")
        }
    }

    /// libc++abi's terminate path: an uncaught C++ exception, an exception leaving a noexcept
    /// function, or a pure virtual call.
    private func cxxTerminate(_ path: AbortPath, in thread: CrashReport.Thread, shown: [String], callerText: String) -> Verdict {
        let region = thread.frames.drop { $0.index <= (path.machinery.last?.index ?? -1) }.prefix(AbortPath.stopRegion + 3)
        func frame(_ fragment: String) -> Frame? {
            region.first { $0.functionNames.contains { $0.contains(fragment) } }
        }
        if let pure = frame("__cxa_pure_virtual") ?? frame("__cxa_deleted_virtual") {
            found.use(base.entry(.pureVirtual), causes: 1)
            let site = path.caller.map { ", called from \(named($0))" } ?? ""
            found.quote(pure, at: place(thread, pure), "libc++abi's handler for a call to a pure virtual method")
            return Verdict(
                .abort, .likely,
                "A pure virtual function was called (__cxa_pure_virtual\(site)): the object was being built, destroyed, or already freed.")
        }
        found.use(base.entry(.uncaughtCppException))
        found.use(base.entry(.terminateHandler))
        var chain = shown
        for name in ["demangling_terminate_handler", "std::__terminate", "__cxa_throw", "__cxa_rethrow"] {
            if let hit = frame(name) {
                chain.append(found.quote(hit, at: place(thread, hit), name == "__cxa_throw" ? "the throw nothing caught" : nil))
            }
        }
        if let noexcept = frame("__clang_call_terminate") ?? frame("__cxa_call_unexpected") {
            let owner = thread.frames.first { $0.index > noexcept.index && !($0.imageName ?? "").hasPrefix("libc++abi") }
            chain.append(found.quote(noexcept, at: place(thread, noexcept), "the compiler's terminate call for a noexcept function"))
            let site = owner.map { " (\(named($0)))" } ?? ""
            found.cause(.likely, "An exception left a noexcept function\(site): C++ calls std::terminate for that", frames: chain)
            return Verdict(
                .uncaughtCppException, .likely,
                "A C++ exception left a noexcept function\(site); libc++abi's terminate handler stopped the process.")
        }
        let thrower = frame("__cxa_throw").flatMap { hit in
            thread.frames.first { $0.index > hit.index && !($0.imageName ?? "").hasPrefix("libc++abi") }
        }
        if let thrower { chain.append(found.quote(thrower, at: place(thread, thrower), "the call that threw")) }
        found.cause(
            .likely,
            "A C++ exception was thrown and no handler caught it" + (thrower.map { " (thrown from \(named($0)))" } ?? ""),
            frames: chain)
        found.notes.append("The exception's type is not in this report; libc++abi prints it to the console before it aborts.")
        return Verdict(
            .uncaughtCppException, .likely,
            "Uncaught C++ exception: libc++abi's terminate handler stopped the process"
                + (thrower.map { " (thrown from \(named($0)))" } ?? callerText) + ".")
    }

    /// For an Objective-C exception: the API that threw it, from the Last Exception Backtrace
    /// (or the crashed thread past `objc_exception_throw`); a failed NSAssert names the method.
    func quoteThrowSite() {
        var site: ThrowSite?
        var field = "Last Exception Backtrace frame"
        if let frames = report.lastExceptionBacktrace?.frames, !frames.isEmpty {
            site = ThrowSite(frames: frames)
        } else if let thread = facts.crashedThread,
            let start = thread.frames.lastIndex(where: { $0.functionNames.contains { $0.hasPrefix("objc_exception_throw") } })
        {
            site = ThrowSite(frames: Array(thread.frames[start...]))
            field = "Thread \(thread.index) frame"
        }
        guard let site, let thrower = site.thrower else { return }
        if let handler = site.assertionHandler {
            found.use(base.entry(.nsAssertionHandler))
            var frames = [found.quote(handler, at: "\(field) \(handler.index)", "an NSAssert failed")]
            if let method = site.caller {
                frames.append(found.quote(method, at: "\(field) \(method.index)", "the method whose assertion failed"))
                found.cause(
                    .likely,
                    "An NSAssert in \(named(method)) failed: \(method.imageName ?? "the code")'s own check of how it is used",
                    frames: frames)
            }
            return
        }
        guard !thrower.functionNames.isEmpty, !facts.isAppOwned(thrower) else { return }
        found.quote(thrower, at: "\(field) \(thrower.index)", "the API that threw")
    }
}

extension Diagnostician {
    /// The crashed thread's role: quoted for every crash in running code, and "called off the
    /// main thread" as a cause when a main-thread-only call or check sits on another thread.
    func readThreadRole() {
        guard let role = ThreadRole(facts: facts), facts.platform != .linux else { return }
        // MetricKit numbers the call stacks it kept, not the process's threads: without a
        // queue name its thread 0 need not be the main thread.
        if case .metricKit = report.kind, role.thread.queue == nil { return }
        found.quote("Crashed thread", role.summary)
        let evidence = role.offMainEvidence
        guard let first = evidence.first else { return }
        found.use(base.entry(.mainThreadOnly))
        let frames = evidence.map { frame in
            let isUI = ThreadRole.isMainOnly(frame)
            let at =
                isUI && role.exceptionFrames.contains(frame.index) && !role.thread.frames.contains(frame)
                ? "Last Exception Backtrace frame \(frame.index)" : place(role.thread, frame)
            return found.quote(frame, at: at, isUI ? "a main-thread-only call" : "a main-queue or main-actor check")
        }
        // A queue assertion whose message names another queue is not about the main thread.
        let message = (facts.asiLines + [facts.message].compactMap { $0 }).joined(separator: "\n")
        if message.contains("Block was expected to execute on queue"), !message.contains("com.apple.main-thread") { return }
        let certain = !role.mainOnlyFrames.isEmpty || message.contains("com.apple.main-thread") || message.contains("MainActor")
        let text: String
        if let ui = role.mainOnlyFrames.first {
            text = "Called off the main thread: \(named(ui)) ran on \(role.label); UIKit and AppKit may be used only from the main thread"
        } else {
            // The isolation check's caller is the code that expected the main thread.
            let caller = role.thread.frames.first { $0.index > first.index && !AbortPath.isPlumbing($0, stopper: nil) }
            text =
                "Called off the main thread: \(caller.map(named) ?? "main-actor code") ran on \(role.label), where \(first.functionNames.first.map(AbortPath.baseName) ?? "a main-queue check") stopped it"
        }
        found.causes.insert(Diagnosis.Cause(text, certain ? .likely : .possible, frames: frames), at: 0)
        found.step(
            "Move the call to the main thread (DispatchQueue.main.async or a @MainActor function); the Main Thread Checker (scheme › Diagnostics) finds every such call"
        )
    }
}
