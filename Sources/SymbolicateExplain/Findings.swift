import Foundation
import SymbolicateCrashReport

/// Collects evidence and knowledge-base entries while the rules run, then builds the diagnosis.
final class Findings {
    var evidence: [Diagnosis.Evidence] = []
    var entries: [KnowledgeEntry] = []
    var causes: [Diagnosis.Cause] = []
    /// Steps the rules wrote from this report's own facts, most specific first.
    var steps: [String] = []
    /// Steps from knowledge-base entries: general advice, filtered by `Relevance` before use.
    var entrySteps: [String] = []
    var notes: [String] = []
    /// Set by the watchdog rule from the report's CPU time (see `Relevance.mainThreadBusy`).
    var mainThreadBusy: Bool?

    func quote(_ field: String, _ text: String?, _ note: String? = nil) {
        guard let text, !text.isEmpty else { return }
        if let existing = evidence.firstIndex(where: { $0.field == field && $0.quote == text }) {
            if let note, evidence[existing].note == nil { evidence[existing].note = note }
            return
        }
        evidence.append(Diagnosis.Evidence(field: field, quote: text, note: note))
    }

    /// Generic entries (the exception type, the signal): cited, and their causes and
    /// steps used only when nothing more specific was found.
    var background: [KnowledgeEntry] = []

    /// Cites `entry`; with `causes`, adds all its causes (the first `causes` as likely)
    /// and its next steps.
    func use(_ entry: KnowledgeEntry?, causes likely: Int? = nil) {
        guard let entry else { return }
        if entries.contains(entry) {
            // Cited earlier as background; a rule now relies on it, so its causes count.
            guard likely != nil, let index = background.firstIndex(of: entry) else { return }
            background.remove(at: index)
        } else {
            entries.append(entry)
        }
        guard let likely else {
            background.append(entry)
            return
        }
        for (index, text) in entry.causes.enumerated() {
            cause(index < likely ? .likely : .possible, text)
        }
        for step in entry.checkNext where !entrySteps.contains(step) { entrySteps.append(step) }
    }

    /// The generic entries' causes, all possible: used only when nothing more specific fits.
    /// The signal (cited after the exception type) narrows more, so later entries lead.
    var backgroundCauses: [Diagnosis.Cause] {
        background.reversed().flatMap { $0.causes.map { Diagnosis.Cause($0, .possible) } }
    }

    /// The generic entries' steps: used only when nothing more specific fits.
    var backgroundSteps: [String] { background.flatMap(\.checkNext) }

    func cause(_ likelihood: Diagnosis.Likelihood, _ text: String, frames: [String] = []) {
        if let existing = causes.firstIndex(where: { $0.text == text }) {
            if likelihood == .likely { causes[existing].likelihood = .likely }
            return
        }
        causes.append(Diagnosis.Cause(text, likelihood, frames: frames))
    }

    /// Quotes `frame` as evidence and returns the line, for a cause to carry.
    @discardableResult
    func quote(_ frame: Frame, at place: String, _ note: String? = nil) -> String {
        let text = frame.evidenceText
        quote(place, text, note)
        return "\(place): \(text)"
    }

    func step(_ text: String) {
        if !steps.contains(text) { steps.insert(text, at: 0) }
    }
}
