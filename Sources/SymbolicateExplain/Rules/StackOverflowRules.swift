import Foundation
import SymbolicateCrashReport

/// A thread that ran off its stack, recognised from the report itself (issue 31): a long run
/// of one function or a short cycle of functions on the crashed thread, a fault address just
/// below the thread's stack pointer, a VM region named as a stack guard — not only from the
/// message newer reports add ("Thread stack size exceeded").
struct StackEvidence {
    /// The longest stretch of the crashed thread made of one repeating cycle.
    struct Cycle {
        /// Function names of the cycle, innermost first (one for plain recursion).
        let functions: [String]
        /// Frames the stretch covers, and where it starts.
        let frameCount: Int
        let firstFrame: Frame
        var repetitions: Int { frameCount / max(functions.count, 1) }
    }

    let cycle: Cycle?
    /// How far below the stack pointer the fault address lies, when it does (within 1 MiB).
    let belowStackPointer: (distance: UInt64, pointer: UInt64, register: String)?
    let guardRegion: Bool

    /// Longest cycle length looked for: mutual recursion through a few functions.
    static let longestCycle = 4
    /// Frames a cycle must cover to be a runaway recursion on its own; fewer suffice when the
    /// fault address points at the stack.
    static let runawayFrames = 64
    static let supportedFrames = 16

    init(report: CrashReport, fault: FaultDescription?) {
        let frames = report.crashedThread?.frames ?? []
        cycle = Self.longestCycle(in: frames)
        if let thread = report.crashedThread, let fault = fault,
            let sp = thread.registers.first(where: { ["sp", "rsp", "esp"].contains($0.name) })
        {
            let address = fault.stripped ?? fault.address
            belowStackPointer = address < sp.value && sp.value - address <= 0x10_0000 ? (sp.value - address, sp.value, sp.name) : nil
        } else {
            belowStackPointer = nil
        }
        guardRegion = report.facts.exception?.isStackGuard ?? false
    }

    /// The key a frame repeats under: its function, else its image and offset.
    static func key(_ frame: Frame) -> String {
        frame.functionNames.first.map(AbortPath.baseName)
            ?? "\(frame.imageName ?? "?") + \(frame.imageOffset.map { hex($0) } ?? hex(frame.address))"
    }

    static func longestCycle(in frames: [Frame]) -> Cycle? {
        let keys = frames.map(key)
        var best: Cycle?
        for period in 1...longestCycle where keys.count > period * 2 {
            var start = 0
            var run = 0
            for index in 0..<(keys.count - period) {
                if keys[index] == keys[index + period] {
                    if run == 0 { start = index }
                    run += 1
                } else {
                    run = 0
                }
                let covered = run + period
                // A cycle of several functions must not be one function repeated.
                let cycleKeys = Array(keys[start..<(start + period)])
                guard run > 0, period == 1 || Set(cycleKeys).count == period else { continue }
                if covered > (best?.frameCount ?? 0) {
                    best = Cycle(functions: cycleKeys, frameCount: covered, firstFrame: frames[start])
                }
            }
        }
        return best
    }

    /// The evidence is enough on its own: a guard-region fault, or a long cycle, or a fault
    /// just below the stack pointer with a cycle behind it.
    var isOverflow: Bool {
        if guardRegion { return true }
        guard let cycle, cycle.repetitions >= 8 else { return false }
        if cycle.frameCount >= Self.runawayFrames { return true }
        return belowStackPointer != nil && cycle.frameCount >= Self.supportedFrames
    }
}

extension Diagnostician {
    /// Stack overflow from the frames, the stack pointer and the VM region (see `StackEvidence`).
    func stackOverflowFromFrames() -> Verdict? {
        // A report cut to its header still names the guard page the fault was in.
        let thread = report.crashedThread
        guard thread != nil || facts.exception?.isStackGuard == true else { return nil }
        let evidence = StackEvidence(report: report, fault: fault)
        guard evidence.isOverflow else { return nil }
        var shown: [FrameLine] = []
        if evidence.guardRegion, let line = facts.vmRegionArrow ?? facts.vmRegionLine {
            found.quote(.label("VM Region Info"), line, Phrase(.noteGuardPage))
        }
        if let below = evidence.belowStackPointer {
            let text = Phrase(
                .quoteStackPointer,
                ["register": .text(below.register), "pointer": .text(hex(below.pointer)), "distance": .text(String(below.distance))])
            found.quote(Phrase(.fieldStackPointer), phrase: text, Phrase(.noteWrotePastStack))
            shown.append(FrameLine(place: Phrase(.fieldStackPointer), text: text))
        }
        var what = Phrase(.wordRanOffStack)
        if let thread, let cycle = evidence.cycle, cycle.repetitions >= 8 {
            let names = Phrase.text(cycle.functions.joined(separator: " → "))
            let single = cycle.functions.count == 1
            let summary = Phrase(
                single ? .quoteRepeatFunction : .quoteRepeatCycle,
                [
                    "count": .text(String(cycle.frameCount)), "first": .text(String(cycle.firstFrame.index)), "names": names,
                    "repetitions": .text(String(cycle.repetitions)), "total": .text(String(thread.frames.count)),
                ])
            let field = Phrase(.fieldThread, ["thread": .text(String(thread.index))])
            found.quote(field, phrase: summary, Phrase(single ? .noteCallingItself : .noteCallingCycle))
            shown.insert(FrameLine(place: field, text: summary), at: 0)
            shown.append(found.quote(cycle.firstFrame, at: place(thread, cycle.firstFrame), Phrase(.noteInnermostRepeating)))
            what = Phrase(single ? .wordRecursionIn : .wordMutualRecursion, ["names": names])
        }
        found.use(base.entry(.stackOverflow))
        found.cause(.likely, .causeUnboundedRecursion, frames: shown)
        found.cause(.possible, .causeLargeStackAllocations)
        found.step(.stepEndRepetition)
        let certainty: Diagnosis.Certainty = evidence.guardRegion ? .stated : .likely
        return Verdict(.stackOverflow, certainty, .verdictStackOverflowWhat, ["what": what])
    }
}
