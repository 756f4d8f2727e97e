import Foundation
import SymbolicateCrashReport

/// Quoting frames as evidence: the top of the crashed thread, the first app frame, the exception backtrace.
extension Diagnostician {
    func quoteTopFrames(count: Int) {
        guard let thread = report.crashedThread else { return }
        for frame in thread.frames.prefix(count) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
    }

    func quoteFrames(matching needles: [String], limit: Int) {
        guard let thread = report.crashedThread else { return }
        let hits = thread.frames.prefix(12).filter { frame in
            frame.functionNames.contains { name in needles.contains { name.contains($0) } }
        }
        for frame in hits.prefix(limit) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
    }

    /// Swift runtime frames plus the first app frame (the failed check's caller).
    func quoteSwiftFrames() {
        quoteFrames(matching: ["Swift runtime failure", "_assertionFailure", "fatalError", "swift_unexpectedError"], limit: 2)
        quoteFirstAppFrame()
    }

    /// The first crashed-thread frame in an app-owned image: where to start reading code.
    func quoteFirstAppFrame() {
        guard let thread = report.crashedThread else { return }
        if let appFrame = report.firstAppFrame {
            found.quote(.frame(thread.index, appFrame.index), appFrame.evidenceText, Phrase(.noteFirstAppFrame))
        }
    }

    /// "Symbolicate thread 0 frame 3 (MyApp + 0x1234) with the app's dSYM: why", only when that
    /// frame has no function name yet (the step names the frame it is about).
    func stepToSymbolicate(_ frame: Frame, in thread: CrashReport.Thread, _ why: PhraseKey) {
        guard frame.functionNames.isEmpty else { return }
        found.step(
            .stepSymbolicateFrame,
            [
                "place": .place(thread.index, frame.index), "image": frame.imageAndOffset, "debugFile": report.debugFilePhrase(for: frame),
                "why": Phrase(why),
            ])
    }

    func quoteLastExceptionBacktrace() {
        guard let frames = report.lastExceptionBacktrace?.frames, !frames.isEmpty else { return }
        for frame in frames.prefix(3) { found.quote(.exceptionFrame(frame.index), frame.evidenceText) }
        let appFrame = frames.first(where: report.isAppOwned)
        if let appFrame {
            found.quote(.exceptionFrame(appFrame.index), appFrame.evidenceText, Phrase(.noteFirstAppFrameThrew))
        }
        if frames.contains(where: { $0.functionNames.contains { $0.containsBytes("doesNotRecognizeSelector") } }) {
            found.use(base.entry(.unrecognizedSelector))
            found.cause(.likely, .causeUnrecognizedSelector)
        }
    }
}
