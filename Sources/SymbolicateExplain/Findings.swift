import Foundation
import SymbolicateCrashReport

/// Collects evidence and knowledge-base entries while the rules run, then builds the diagnosis.
final class Findings {
    var evidence: [Diagnosis.Evidence] = []
    var entries: [KnowledgeEntry] = []
    var causes: [Diagnosis.Cause] = []
    var steps: [String] = []
    var notes: [String] = []

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
        guard let entry, !entries.contains(entry) else { return }
        entries.append(entry)
        guard let likely else {
            background.append(entry)
            return
        }
        for (index, text) in entry.causes.enumerated() {
            cause(index < likely ? .likely : .possible, text)
        }
        for step in entry.checkNext where !steps.contains(step) { steps.append(step) }
    }

    /// Falls back to the generic entries' causes and steps when no rule added its own.
    func completeFromBackground() {
        if causes.isEmpty {
            for entry in background { for text in entry.causes { cause(.possible, text) } }
        }
        if steps.isEmpty {
            for entry in background { for step in entry.checkNext where !steps.contains(step) { steps.append(step) } }
        }
    }

    func cause(_ likelihood: Diagnosis.Likelihood, _ text: String) {
        if let existing = causes.firstIndex(where: { $0.text == text }) {
            if likelihood == .likely { causes[existing].likelihood = .likely }
            return
        }
        causes.append(Diagnosis.Cause(text, likelihood))
    }

    func step(_ text: String) {
        if !steps.contains(text) { steps.insert(text, at: 0) }
    }
}
