import Foundation
import SymbolicateCrashReport

/// Crashes named by frames: `Swift runtime failure:` frames, Swift runtime entry points, libc++ hardening.
extension Diagnostician {
    /// The `Swift runtime failure:` level of the line the headline names (`namedFrame`, its
    /// `runtimeFailure`): the one crash fact of frames pasted without the report around them.
    /// Read from the same typed value the headline shows, never from rendered text.
    func classifyByAppLineFailure() -> Verdict? {
        guard let thread = report.crashedThread, let (position, line) = report.namedFrame(in: thread),
            let reason = line.runtimeFailureReason
        else { return nil }
        let frame = thread.frames[position]
        found.quote(.frame(thread.index, frame.index), frame.evidenceText, Phrase(.noteSwiftFailureFrame))
        found.use(base.entry(.swiftRuntimeFailure))
        if let entry = base.entries(matchingText: reason, kinds: [.swiftRuntimeMessage]).first {
            found.use(entry, causes: 0)
            found.cause(.likely, .causeNamedByFrame, ["title": entry.titlePhrase])
        }
        if let location = line.location, let function = line.function {
            let at = thread.frames[line.position]
            found.step(
                .stepOpenFailedCheck,
                ["location": .text(location), "function": .text(function), "place": .place(thread.index, at.index)])
        }
        return Verdict(.swiftRuntimeError, .stated, .verdictSwiftRuntimeError, ["reason": .text(reason)])
    }

    /// Artificial `Swift runtime failure:` frames and Swift runtime entry points in the crashed thread.
    func classifyBySwiftFrames() -> Verdict? {
        guard let thread = report.crashedThread else { return nil }
        for frame in thread.frames.prefix(6) {
            for name in frame.functionNames {
                guard let range = name.byteRange(of: "Swift runtime failure: ") else { continue }
                let reason = String(name[range.upperBound...])
                found.quote(.frame(thread.index, frame.index), frame.evidenceText, Phrase(.noteSwiftFailureFrame))
                found.use(base.entry(.swiftRuntimeFailure))
                if let entry = base.entries(matchingText: reason, kinds: [.swiftRuntimeMessage]).first {
                    found.use(entry, causes: 0)
                    found.cause(.likely, .causeNamedByFrame, ["title": entry.titlePhrase])
                }
                if let levels = frame.symbolication,
                    let site = levels.first(where: {
                        !$0.function.hasPrefix("Swift runtime failure") && $0.file.map { !$0.containsBytes("<compiler-generated>") } == true
                            && ($0.line ?? 0) > 0
                    }),
                    let file = site.file, let line = site.line
                {
                    found.step(
                        .stepOpenFailedCheck,
                        [
                            "location": .text("\((file as NSString).lastPathComponent):\(line)"), "function": .text(site.function),
                            "place": .place(thread.index, frame.index),
                        ])
                }
                quoteFirstAppFrame()
                return Verdict(.swiftRuntimeError, .stated, .verdictSwiftRuntimeError, ["reason": .text(reason)])
            }
        }
        // libc++ hardening: the failed assertion is the name of an artificial inlined frame.
        for frame in thread.frames.prefix(3) {
            for name in frame.functionNames {
                guard let match = AssertionFact.libcxxAssertion(frameName: name) else { continue }
                found.quote(.frame(thread.index, frame.index), frame.evidenceText, Phrase(.noteLibraryAssertionFrame))
                found.use(base.entry(.libcxxAssertion), causes: 1)
                // The inlined standard-library frames between are not the call: skip them.
                if let caller = thread.frames.first(where: { $0.index > frame.index && !$0.functionNames.isEmpty && !$0.isLibraryCodeInApp }
                ) {
                    found.quote(.frame(thread.index, caller.index), caller.evidenceText, Phrase(.noteCallFailedCheck))
                }
                return Verdict(
                    .assertionFailure, .stated, .verdictLibcxxAssertion, ["file": .text(match.file), "what": .text(match.what)])
            }
        }
        for frame in thread.frames.prefix(6) {
            let names = frame.functionNames.joined(separator: " ")
            if names.containsBytes("swift_unexpectedError") {
                found.quote(.frame(thread.index, frame.index), frame.evidenceText, Phrase(.noteTryBangFrame))
                found.use(base.entry(.unexpectedError))
                found.use(base.entry(.tryBang))
                quoteFirstAppFrame()
                return Verdict(.swiftRuntimeError, .likely, .verdictTryBang)
            }
            if names.containsBytes("swift_abortRetainUnowned") || names.containsBytes("swift_unknownObjectUnownedLoadStrong") {
                found.quote(.frame(thread.index, frame.index), frame.evidenceText, Phrase(.noteUnownedCheck))
                found.use(base.entry(.unownedDeallocated), causes: 1)
                quoteFirstAppFrame()
                return Verdict(.swiftRuntimeError, .likely, .verdictUnowned)
            }
            // libdispatch's `__DISPATCH_WAIT_FOR_QUEUE__` (crash services drop the underscores)
            // crashes for one misuse only: dispatch_sync onto the queue the thread already drains
            // (swift-corelibs-libdispatch src/queue.c, its `DISPATCH_CLIENT_CRASH`).
            if frame.functionNames.contains(where: {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "_")) == "DISPATCH_WAIT_FOR_QUEUE"
            }) {
                let raising = found.quote(frame, at: .frame(thread.index, frame.index), Phrase(.noteDispatchWaitFrame))
                let entry = base.entry(.dispatchSyncOnOwnedQueue)
                found.use(entry)
                if let entry { found.cause(.likely, .causeNamedByRaisingFrame, ["title": entry.titlePhrase], frames: [raising]) }
                quoteFirstAppFrame()
                return Verdict(.dispatchMisuse, .likely, .verdictDispatchSyncOnOwnedQueue)
            }
            if names.containsBytes("_dispatch_assert_queue_fail") {
                let raising = found.quote(frame, at: .frame(thread.index, frame.index), Phrase(.noteQueueAssertion))
                let entry = base.entry(.queueAssertion)
                found.use(entry)
                if let entry { found.cause(.likely, .causeNamedByRaisingFrame, ["title": entry.titlePhrase], frames: [raising]) }
                quoteFirstAppFrame()
                return Verdict(.dispatchMisuse, .likely, .verdictWrongQueue)
            }
        }
        return nil
    }
}
