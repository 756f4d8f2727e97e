import Foundation
import SymbolicateCrashReport

/// A Rust panic (issue 41): named as one from the panic machinery on the crashed thread, its
/// kind from the function that panicked, its message where the report has it, the first frame
/// in the crate's own code, and the steps Rust's own documentation gives.
extension Diagnostician {
    func classifyRustPanic() -> Verdict? {
        // The frames decide first: the panic's message is looked for in the text only when the
        // crashed thread runs Rust's panic machinery.
        guard let thread = report.crashedThread,
            thread.frames.prefix(RustPanic.region).contains(where: { $0.functionNames.contains(where: RustPanic.isPanicMachinery) })
        else { return nil }
        let message = report.rustPanicMessage
        guard let panic = RustPanic(thread: thread, message: message) else { return nil }
        let entry = base.entries(named: KnowledgeBase.rustPanicTerm(panic.kind)).first
        found.use(entry, causes: 1)
        found.matched = Diagnosis.Match(catalogue: "rust-panic", id: panic.kind.rawValue, subject: panic.function)
        var shown: [FrameLine] = []
        let kindTitle = entry?.titlePhrase ?? .text(panic.kind.rawValue)
        if let entry = panic.runtimeEntry, entry.index != panic.panicFrame.index {
            shown.append(found.quote(entry, at: place(thread, entry), Phrase(.noteRustPanicMachinery)))
        }
        shown.append(found.quote(panic.panicFrame, at: place(thread, panic.panicFrame), Phrase(.noteRustPanicKind, ["kind": kindTitle])))
        if let message {
            let field =
                message.lineNumber.map { Phrase(.fieldReportLine, ["line": .text(String($0))]) }
                ?? .label("Application Specific Information")
            found.quote(field, message.line, Phrase(.noteRustPanicLine))
        } else {
            found.note(.noteRustMessageMissing)
        }
        let own = report.firstAppFrame.flatMap { frame in frame.index > panic.panicFrame.index ? frame : nil }
        if let own {
            shown.append(found.quote(own, at: place(thread, own), Phrase(.noteRustFirstOwnFrame)))
        }
        // `step` puts each step first: the last one written leads.
        found.step(panic.kind == .cannotUnwind ? .stepRustCatchAtBoundary : .stepRustFFIBoundary)
        found.step(.stepRustBacktrace)
        if let location = message?.location {
            found.step(.stepOpenRustPanicLocation, ["location": .text(location)])
        }
        if let first = found.causes.first, !shown.isEmpty {
            found.causes[0] = FoundCause(phrase: first.phrase, likelihood: .likely, frames: shown)
        }
        var values: [String: Phrase] = [
            "title": kindTitle, "message": .verbatim(""), "site": .verbatim(""),
        ]
        if let text = message?.message { values["message"] = Phrase(.wordRustPanicMessage, ["message": .text(text)]) }
        if let location = message?.location {
            values["site"] = Phrase(.wordRustPanicAt, ["location": .text(location)])
        } else if let own {
            values["site"] = Phrase(.wordRustPanicIn, ["function": named(own)])
        }
        let category: Diagnosis.Category = panic.kind == .runtimeAbort ? .abort : .assertionFailure
        return Verdict(category, message?.message != nil ? .stated : .likely, .verdictRustPanic, values)
    }
}
