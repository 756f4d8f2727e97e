import Foundation
import SymbolicateCrashReport

/// A build tool that crashed itself (`CrashFacts.toolchainCrash`): the compiler's bug, not the
/// app's crash. Its signal and frames are the tool's, so no rule about the app's memory or
/// threads applies; what helps is the place in the code it was at and a way around the bug.
extension Diagnostician {
    func classifyToolchainCrash() -> Verdict? {
        guard let crash = facts.toolchainCrash else { return nil }
        found.quote(.label("Line \(crash.line)"), crash.statement)
        for activity in crash.activities.suffix(2) { found.quote(.label("Stack dump"), activity) }
        var frames: [FrameLine] = []
        if let thread = report.crashedThread {
            let start = CrashReport.pastSignalHandler(thread)
            if let frame = thread.frames.dropFirst(start).first(where: { !$0.functionNames.isEmpty }) {
                frames.append(found.quote(frame, at: place(thread, frame)))
            }
        }
        if let place = crash.place {
            found.cause(.likely, .causeToolchainBugAt, ["place": .text(place)], frames: frames)
        } else {
            found.cause(.likely, .causeToolchainBug, frames: frames)
        }
        found.cause(.possible, .causeToolchainMismatch)
        found.step(.stepToolchainReduce)
        var values: [String: Phrase] = [
            "tool": crash.tool.map(Phrase.verbatim) ?? Phrase(.wordTheCompiler),
            "signal": .verbatim(crash.signal.map { " (\($0))" } ?? ""),
            "line": .text(crash.statement),
        ]
        // LLVM's dump alone: what it was doing is what it says.
        if crash.statesOnlyTheDump, let activity = crash.activities.last {
            values["line"] = .text(activity)
            return Verdict(.toolchainCrash, .stated, .verdictToolchainCrash, values)
        }
        guard let activity = crash.activities.last else { return Verdict(.toolchainCrash, .stated, .verdictToolchainCrash, values) }
        values["activity"] = .text(activity)
        return Verdict(.toolchainCrash, .stated, .verdictToolchainCrashWhile, values)
    }
}
