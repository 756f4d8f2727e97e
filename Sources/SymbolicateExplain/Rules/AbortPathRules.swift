import Foundation
import SymbolicateCrashReport

/// A process that stopped itself: the library between `abort()` and its caller says who decided
/// to stop it and why (issue 31). Each verdict quotes the frames it read.
extension Diagnostician {
    func place(_ thread: CrashReport.Thread, _ frame: Frame) -> Phrase { .frame(thread.index, frame.index) }

    /// `-[UITableView _endCellAnimationsWithContext:] (UIKitCore)`, or the image and offset.
    func named(_ frame: Frame) -> Phrase {
        let (function, location) = frame.appLine
        let image = Phrase.text(frame.imageName ?? "?")
        if let function, let location {
            return Phrase(.namedFrameAt, ["function": .text(function), "location": .text(location), "image": image])
        }
        if let function { return Phrase(.namedFrame, ["function": .text(function), "image": image]) }
        return frame.imageAndOffset
    }

    /// `, called from -[X y] (Image)`, or nothing.
    private func calledFrom(_ frame: Frame?) -> Phrase {
        frame.map { Phrase(.wordCalledFrom, ["caller": named($0)]) } ?? .verbatim("")
    }

    /// The diagnosis an abort path names, nil when its stop is not one the rules know (the
    /// generic abort rule then names the caller).
    func classifyAbortPath(_ path: AbortPath, in thread: CrashReport.Thread) -> Verdict? {
        guard let stopper = path.stopper else { return nil }
        let library = path.library.map(Phrase.text) ?? Phrase(.wordSystemLibrary)
        let stopName = path.stopFrame?.functionNames.first.map(AbortPath.baseName)
        let via = stopName.map { Phrase(.wordFunctionInLibrary, ["function": .text($0), "library": library]) } ?? library
        var shown: [FrameLine] = []
        if let abortFrame = path.machinery.last {
            found.quote(abortFrame, at: place(thread, abortFrame), Phrase(.noteAbortMachinery))
        }
        if let stop = path.stopFrame ?? path.decider {
            shown.append(found.quote(stop, at: place(thread, stop), Phrase(.noteLibraryDecided, ["library": library])))
        }
        if let caller = path.caller {
            shown.append(found.quote(caller, at: place(thread, caller), Phrase(.noteCallLedToStop, ["library": library])))
        }
        let callerText = calledFrom(path.caller)
        let values: [String: Phrase] = ["via": via, "calledFrom": callerText]

        switch stopper {
        case .objcException:
            return objcException(name: nil, reason: nil)
        case .malloc:
            found.use(base.entry(.mallocCheck))
            found.cause(.likely, .causeMallocDoubleFree, ["via": via], frames: shown)
            found.cause(.likely, .causeMallocHeapCorruption)
            // `step` puts each before the earlier ones: the first to try comes last.
            found.step(.stepMallocZombies)
            found.step(.stepMallocGuard)
            found.step(.stepMallocASan)
            return Verdict(.memoryCorruption, .likely, .verdictMallocCheck, values)
        case .stackProtector:
            found.use(base.entry(.stackCheckFail))
            found.cause(.likely, .causeStackBufferOverflow, frames: shown)
            return Verdict(.memoryCorruption, .likely, .verdictStackProtector, values)
        case .cAssert:
            // A claim about Application Specific Information only when the report has that section.
            found.note(facts.messageLines.isEmpty ? .noteAssertionMessageMissingNoASI : .noteAssertionMessageMissing)
            // The C library's own handler (`__assert_rtn`, glibc's `__assert_fail`, bionic's `__assert2`).
            let handler = Phrase.text(stopName ?? "__assert_rtn")
            if let caller = path.caller {
                found.cause(.likely, .causeAssertFalseAt, ["site": named(caller)], frames: shown)
                return Verdict(.assertionFailure, .likely, .verdictAssertFailedAt, ["site": named(caller), "handler": handler])
            }
            found.cause(.likely, .causeAssertFalseCaller, frames: shown)
            return Verdict(.assertionFailure, .likely, .verdictAssertFailed, ["handler": handler])
        case .nsAssertion:
            found.use(base.entry(.nsAssertionHandler))
            if let caller = path.caller {
                found.cause(.likely, .causeNSAssertFailedAt, ["site": named(caller)], frames: shown)
                return Verdict(.assertionFailure, .likely, .verdictNSAssertAt, ["site": named(caller)])
            }
            found.cause(.likely, .causeNSAssertFailed, frames: shown)
            return Verdict(.assertionFailure, .likely, .verdictNSAssert)
        case .cxxTerminate:
            return cxxTerminate(path, in: thread, shown: shown, callerText: callerText)
        case .swiftRuntime:
            found.use(base.entry(.assertionFailure))
            let what: PhraseKey
            switch stopName ?? "" {
            case let name where name.containsBytes("swift_dynamicCastFailure"): what = .wordForcedCastFailed
            case let name where name.containsBytes("Unowned"): what = .wordUnownedAfterDealloc
            case let name where name.containsBytes("reportUnexpectedExecutor"): what = .wordWrongExecutor
            default: what = .wordSwiftCheckFailed
            }
            found.cause(.likely, .causeSwiftRuntimeStopped, ["what": Phrase(what)], frames: shown)
            return Verdict(.swiftRuntimeError, .likely, .verdictSwiftRuntimeStopped, values.merging(["what": Phrase(what)]) { a, _ in a })
        case .objcRuntime:
            found.use(base.entry(.objcFatal))
            found.cause(.likely, .causeObjCRuntimeFatal, frames: shown)
            found.step(.stepReadConsoleObjC)
            return Verdict(.abort, .likely, .verdictObjCRuntimeStopped, values)
        case .libdispatch:
            found.use(base.entry(.libdispatchClientBug))
            found.cause(.likely, .causeDispatchMisuseVia, ["via": via], frames: shown)
            return Verdict(.dispatchMisuse, .likely, .verdictLibdispatchStopped, values)
        case .dyld:
            found.note(.noteDyldStopped)
            return Verdict(.missingLibrary, .likely, .verdictDyldStopped, ["via": via])
        case .tcc:
            found.note(.noteTCCStops)
            return Verdict(.privacyViolation, .likely, .verdictTCCStopped, values)
        }
    }

    /// libc++abi's terminate path: an uncaught C++ exception, an exception leaving a noexcept
    /// function, or a pure virtual call.
    private func cxxTerminate(_ path: AbortPath, in thread: CrashReport.Thread, shown: [FrameLine], callerText: Phrase) -> Verdict {
        let region = thread.frames.drop { $0.index <= (path.machinery.last?.index ?? -1) }.prefix(AbortPath.stopRegion + 3)
        func frame(_ fragment: String) -> Frame? {
            region.first { $0.functionNames.contains { $0.contains(fragment) } }
        }
        if let pure = frame("__cxa_pure_virtual") ?? frame("__cxa_deleted_virtual") {
            found.use(base.entry(.pureVirtual), causes: 1)
            found.quote(pure, at: place(thread, pure), Phrase(.notePureVirtualHandler))
            return Verdict(.abort, .likely, .verdictPureVirtual, ["calledFrom": calledFrom(path.caller)])
        }
        found.use(base.entry(.uncaughtCppException))
        found.use(base.entry(.terminateHandler))
        var chain = shown
        for name in ["demangling_terminate_handler", "std::__terminate", "__cxa_throw", "__cxa_rethrow"] {
            if let hit = frame(name) {
                chain.append(found.quote(hit, at: place(thread, hit), name == "__cxa_throw" ? Phrase(.noteThrowNothingCaught) : nil))
            }
        }
        if let noexcept = frame("__clang_call_terminate") ?? frame("__cxa_call_unexpected") {
            let owner = thread.frames.first { $0.index > noexcept.index && !($0.imageName ?? "").hasPrefix("libc++abi") }
            chain.append(found.quote(noexcept, at: place(thread, noexcept), Phrase(.noteNoexceptTerminate)))
            let site = owner.map { Phrase(.wordParenthesized, ["what": named($0)]) } ?? .verbatim("")
            found.cause(.likely, .causeNoexcept, ["site": site], frames: chain)
            return Verdict(.uncaughtCppException, .likely, .verdictNoexcept, ["site": site])
        }
        // No throw on the path: code called std::terminate itself. libc++abi's default handler
        // then says only "terminating" (it names an exception when one is in flight).
        let throwing = ["__cxa_throw", "__cxa_rethrow", "failed_throw", "_Unwind_", "objc_exception"].contains { frame($0) != nil }
        let saysNoException = facts.statements.terminatesWithoutException
        if !throwing, let terminate = frame("std::terminate") ?? frame("std::__terminate"),
            let direct = thread.frames.first(where: { $0.index > terminate.index && !($0.imageName ?? "").hasPrefix("libc++abi") })
        {
            found.use(base.entry(.terminateHandler))
            if saysNoException {
                found.quote(.label("Application Specific Information"), "terminating", Phrase(.noteTerminatingNoException))
            }
            var chain = shown.filter { $0.place != place(thread, direct) }
            chain.append(found.quote(terminate, at: place(thread, terminate), nil))
            chain.append(found.quote(direct, at: place(thread, direct), Phrase(.noteCalledTerminate)))
            let certainty: Diagnosis.Certainty = saysNoException ? .stated : .likely
            if direct.functionNames.contains(where: { $0.containsBytes("thread::~thread") }) {
                let owner = thread.frames.first { $0.index > direct.index && !($0.imageName ?? "").hasPrefix("libc++") }
                if let owner { chain.append(found.quote(owner, at: place(thread, owner), Phrase(.noteDestroyedTheThread))) }
                found.cause(
                    .likely, .causeJoinableThreadDestroyed,
                    ["owner": owner.map { Phrase(.wordParenthesized, ["what": named($0)]) } ?? .verbatim("")], frames: chain)
                found.step(.stepJoinOrDetach)
                return Verdict(.abort, certainty, .verdictTerminateJoinableThread)
            }
            found.cause(.likely, .causeTerminateCalledDirectly, ["site": named(direct)], frames: chain)
            found.step(.stepReadTerminateCaller, ["site": named(direct), "place": place(thread, direct)])
            return Verdict(.abort, certainty, .verdictTerminateCalledDirectly, ["site": named(direct)])
        }
        // Past `__cxa_throw`: libc++'s throw helper (it names the type), then the call that threw.
        let past = frame("__cxa_throw").map { hit in
            thread.frames.filter { $0.index > hit.index && !($0.imageName ?? "").hasPrefix("libc++abi") }
        }
        let helper = past?.first.flatMap { first in
            first.functionNames.first.flatMap(AbortPath.libcxxThrownType).map { (frame: first, type: $0) }
        }
        let thrower = past?.first { frame in
            !((frame.imageName ?? "").hasPrefix("libc++") && frame.functionNames.first.flatMap(AbortPath.libcxxThrownType) != nil)
        }
        if let helper {
            chain.append(
                found.quote(helper.frame, at: place(thread, helper.frame), Phrase(.noteLibcxxThrowHelper, ["type": .text(helper.type)])))
        }
        if let thrower { chain.append(found.quote(thrower, at: place(thread, thrower), Phrase(.noteCallThatThrew))) }
        // A libc++ call that threw (`std::mutex::lock()`) was made by the code after it.
        let outside = thrower.flatMap { thrower -> Frame? in
            guard (thrower.imageName ?? "").hasPrefix("libc++") else { return nil }
            return thread.frames.first { $0.index > thrower.index && !($0.imageName ?? "").hasPrefix("libc++") }
        }
        if let outside { chain.append(found.quote(outside, at: place(thread, outside), Phrase(.noteMadeTheThrowingCall))) }
        let thrownFrom = thrower.map { thrower in
            outside.map { Phrase(.wordThrownFromCalledBy, ["frame": named(thrower), "caller": named($0)]) }
                ?? Phrase(.wordThrownFrom, ["frame": named(thrower)])
        }
        found.cause(.likely, .causeCppUncaught, ["thrown": thrownFrom ?? .verbatim("")], frames: chain)
        if let helper {
            found.note(.noteCppWhatMissing)
            return Verdict(
                .uncaughtCppException, .likely, .verdictCppTerminateTyped, ["type": .text(helper.type), "where": thrownFrom ?? callerText])
        }
        found.note(.noteCppTypeMissing)
        return Verdict(.uncaughtCppException, .likely, .verdictCppTerminate, ["where": thrownFrom ?? callerText])
    }

    /// For an Objective-C exception: the API that threw it, from the Last Exception Backtrace
    /// (or the crashed thread past `objc_exception_throw`); a failed NSAssert names the method.
    func quoteThrowSite() {
        var site: ThrowSite?
        var field: (Int) -> Phrase = { .exceptionFrame($0) }
        if let frames = report.lastExceptionBacktrace?.frames, !frames.isEmpty {
            site = ThrowSite(frames: frames)
        } else if let thread = report.crashedThread,
            let start = thread.frames.lastIndex(where: { $0.functionNames.contains { $0.hasPrefix("objc_exception_throw") } })
        {
            site = ThrowSite(frames: Array(thread.frames[start...]))
            field = { .frame(thread.index, $0) }
        }
        guard let site, let thrower = site.thrower else { return }
        if let handler = site.assertionHandler {
            found.use(base.entry(.nsAssertionHandler))
            var frames = [found.quote(handler, at: field(handler.index), Phrase(.noteNSAssertFailed))]
            if let method = site.caller {
                frames.append(found.quote(method, at: field(method.index), Phrase(.noteMethodAssertionFailed)))
                found.cause(
                    .likely, .causeNSAssertIn,
                    ["method": named(method), "image": method.imageName.map(Phrase.text) ?? Phrase(.wordTheCode)], frames: frames)
            }
            return
        }
        guard !thrower.functionNames.isEmpty, !report.isAppOwned(thrower) else { return }
        found.quote(thrower, at: field(thrower.index), Phrase(.noteAPIThatThrew))
    }
}

extension Diagnostician {
    /// The crashed thread's role: quoted for every crash in running code, and "called off the
    /// main thread" as a cause when a main-thread-only call or check sits on another thread.
    func readThreadRole() {
        guard let role = ThreadRole(report: report), facts.platform.platform != .linux else { return }
        // MetricKit numbers the call stacks it kept, not the process's threads: without a
        // queue name its thread 0 need not be the main thread.
        if case .metricKit = report.kind, role.thread.queue == nil { return }
        found.quote(Phrase(.fieldCrashedThread), phrase: role.summary)
        let evidence = role.offMainEvidence
        // UIKit, AppKit and Auto Layout say so themselves in the exception's reason.
        if !role.isMain, evidence.isEmpty, let reason = facts.statements.offMainThreadReason {
            found.use(base.entry(.mainThreadOnly))
            // The thread named replaces the exception rules' cause that could not name it.
            found.causes.removeAll { $0.phrase == Phrase(.causeOffMainStated) }
            found.cause(
                .likely, .causeOffMainByReason, ["thread": role.label],
                frames: [FrameLine(place: .label("Application Specific Information"), text: .verbatim(reason))])
            found.causes.insert(found.causes.removeLast(), at: 0)
            found.threadRoleCauseFirst = true
            found.step(.stepMoveToMain)
            return
        }
        guard let first = evidence.first else { return }
        found.use(base.entry(.mainThreadOnly))
        let frames = evidence.map { frame in
            let isUI = ThreadRole.isMainOnly(frame)
            let at =
                isUI && role.exceptionFrames.contains(frame.index) && !role.thread.frames.contains(frame)
                ? Phrase.exceptionFrame(frame.index) : place(role.thread, frame)
            return found.quote(frame, at: at, Phrase(isUI ? .noteMainThreadOnlyCall : .noteMainQueueCheck))
        }
        // A queue assertion whose message names another queue is not about the main thread.
        if facts.statements.expectsOtherQueue { return }
        let certain = !role.mainOnlyFrames.isEmpty || facts.statements.namesMainThread
        let text: Phrase
        if let ui = role.mainOnlyFrames.first {
            text = Phrase(.causeCalledOffMainUI, ["call": named(ui), "thread": role.label])
        } else {
            // The isolation check's caller is the code that expected the main thread: past the
            // check's own library (libdispatch) and the Swift runtime's isolation checks.
            let caller = role.thread.frames.first { frame in
                frame.index > first.index && !AbortPath.isPlumbing(frame, stopper: nil) && frame.imageName != first.imageName
                    && !(frame.imageName ?? "").hasPrefix("libswift_Concurrency")
            }
            text = Phrase(
                .causeCalledOffMainCheck,
                [
                    "caller": caller.map(named) ?? Phrase(.wordMainActorCode), "thread": role.label,
                    "check": first.functionNames.first.map { .text(AbortPath.baseName($0)) } ?? Phrase(.wordMainQueueCheck),
                ])
        }
        found.causes.insert(FoundCause(phrase: text, likelihood: certain ? .likely : .possible, frames: frames), at: 0)
        found.threadRoleCauseFirst = true
        found.step(.stepMoveToMain)
    }
}
