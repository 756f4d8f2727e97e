import Foundation
import SymbolicateCrashReport

/// Crashes named by frames: `Swift runtime failure:` frames, Swift runtime entry points, libc++ hardening.
extension Diagnostician {
    /// Artificial `Swift runtime failure:` frames and Swift runtime entry points in the crashed thread.
    func classifyBySwiftFrames() -> Verdict? {
        guard let thread = facts.crashedThread else { return nil }
        for frame in thread.frames.prefix(6) {
            for name in frame.functionNames {
                guard let range = name.range(of: "Swift runtime failure: ") else { continue }
                let reason = String(name[range.upperBound...])
                found.quote(
                    "Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "artificial frame naming the failed Swift check")
                found.use(base.entry(.swiftRuntimeFailure))
                if let entry = base.entries(matchingText: reason, kinds: [.swiftRuntimeMessage]).first {
                    found.use(entry, causes: 0)
                    found.cause(.likely, "\(entry.title) — named by the symbolicated frame")
                }
                if let levels = frame.symbolication,
                    let site = levels.first(where: {
                        !$0.function.hasPrefix("Swift runtime failure") && $0.file.map { !$0.contains("<compiler-generated>") } == true
                            && ($0.line ?? 0) > 0
                    }),
                    let file = site.file, let line = site.line
                {
                    found.step(
                        "Open \((file as NSString).lastPathComponent):\(line) in \(site.function) (thread \(thread.index) frame \(frame.index)): the failed check is on that line"
                    )
                }
                quoteFirstAppFrame()
                return Verdict(.swiftRuntimeError, .stated, "Swift runtime error: \(reason).")
            }
        }
        // libc++ hardening: the failed assertion is the name of an artificial inlined frame.
        for frame in thread.frames.prefix(3) {
            for name in frame.functionNames {
                guard let match = firstMatch(#"assertion (.+) failed: (.+)$"#, in: name), let what = match[1] else { continue }
                found.quote(
                    "Thread \(thread.index) frame \(frame.index)", frame.evidenceText,
                    "artificial frame naming the failed library assertion")
                found.use(base.entry(.libcxxAssertion), causes: 1)
                // The inlined standard-library frames between are not the call: skip them.
                if let caller = thread.frames.first(where: { $0.index > frame.index && !$0.functionNames.isEmpty && !$0.isLibraryCodeInApp }
                ) {
                    found.quote("Thread \(thread.index) frame \(caller.index)", caller.evidenceText, "the call that failed the check")
                }
                return Verdict(
                    .assertionFailure, .stated, "A C++ standard-library hardening assertion failed (\(match[0] ?? "")): \(what).")
            }
        }
        for frame in thread.frames.prefix(6) {
            let names = frame.functionNames.joined(separator: " ")
            if names.contains("swift_unexpectedError") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "called when a try! expression throws")
                found.use(base.entry(.unexpectedError))
                found.use(base.entry(.tryBang))
                quoteFirstAppFrame()
                return Verdict(.swiftRuntimeError, .likely, "Swift runtime error: a try! call threw an error (swift_unexpectedError).")
            }
            if names.contains("swift_abortRetainUnowned") || names.contains("swift_unknownObjectUnownedLoadStrong") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "unowned reference check")
                found.use(base.entry(.unownedDeallocated), causes: 1)
                quoteFirstAppFrame()
                return Verdict(
                    .swiftRuntimeError, .likely, "Swift runtime error: an unowned reference was read after its object was deallocated.")
            }
            if names.contains("_dispatch_assert_queue_fail") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "dispatch queue assertion")
                found.use(base.entry(.queueAssertion))
                quoteFirstAppFrame()
                return Verdict(
                    .dispatchMisuse, .likely,
                    "A closure that must run on a specific queue (usually the main queue) was called from another queue.")
            }
        }
        return nil
    }
}
