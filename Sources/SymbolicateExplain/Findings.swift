import Foundation
import SymbolicateCrashReport

/// A cause as the rules found it: a phrase, rendered in the reader's language at the end,
/// with the frames that show it (as the evidence quotes them).
struct FoundCause: Hashable {
    var phrase: Phrase
    var likelihood: Diagnosis.Likelihood
    var frames: [FrameLine] = []
}

/// A quoted frame a cause carries: `Thread 16 frame 12: UIKitCore -[UIView setNeedsLayout]`.
struct FrameLine: Hashable {
    var place: Phrase
    var text: Phrase

    func text(_ language: Language) -> String { "\(place.text(language)): \(text.text(language))" }
}

/// A quoted line as the rules found it. `field` and `note` are prose (a report's own field
/// labels are verbatim); `quote` is the report's text, or a line the rules derived from it.
struct FoundEvidence: Hashable {
    var field: Phrase
    var quote: Phrase
    var note: Phrase?
}

/// Collects evidence and knowledge-base entries while the rules run, then builds the diagnosis.
/// Texts are phrases (catalog texts and values); they are compared by identity (the catalog
/// text's ID and the values), never by their words, so what the rules keep does not depend on
/// the reader's language or on how a sentence is worded.
final class Findings {
    var evidence: [FoundEvidence] = []
    /// Where each quoted (field, quote) pair sits in `evidence`: a rule that
    /// quotes every line of a long Application Specific Information must not compare each
    /// line with all the lines before it (issue 38).
    private var evidenceIndex: [EvidenceKey: Int] = [:]
    private struct EvidenceKey: Hashable {
        let field: Phrase
        let quote: Phrase
    }
    var entries: [KnowledgeEntry] = []
    var causes: [FoundCause] = []
    /// Steps the rules wrote from this report's own facts, most specific first.
    var steps: [Phrase] = []
    /// Steps from knowledge-base entries: general advice, filtered by `Relevance` before use.
    var entrySteps: [Phrase] = []
    var notes: [Phrase] = []
    /// Set by the watchdog rule from the report's CPU time (see `Relevance.mainThreadBusy`).
    var mainThreadBusy: Bool?
    /// The catalogue entry or family a rule matched (issue 41), carried into `Diagnosis.matched`.
    var matched: Diagnosis.Match?
    /// Set when the thread-role rule put its "called off the main thread" cause first: a throw
    /// site's rule then comes second (the rule was broken because of where the code ran).
    var threadRoleCauseFirst = false

    /// Quotes the report's own text.
    func quote(_ field: Phrase, _ text: String?, _ note: Phrase? = nil) {
        guard let text, !text.isEmpty else { return }
        quote(field, phrase: .verbatim(text), note)
    }

    /// Quotes a line derived from the report (a decoded address, a frame count).
    func quote(_ field: Phrase, phrase: Phrase, _ note: Phrase? = nil) {
        let key = EvidenceKey(field: field, quote: phrase)
        if let existing = evidenceIndex[key] {
            if let note, evidence[existing].note == nil { evidence[existing].note = note }
            return
        }
        evidenceIndex[key] = evidence.count
        evidence.append(FoundEvidence(field: field, quote: phrase, note: note))
    }

    /// What the text's own sentence says of how the process ended, when only a sentence named the
    /// signal (`clang: error: unable to execute command: Segmentation fault: 11`): the first cause,
    /// beside whatever the signal's rules or entries say.
    var statedStop: FoundCause?

    /// A later sentence naming another signal (a handler's abort after the fault it caught).
    var statedStopThen: FoundCause?

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
        for (index, phrase) in entry.causePhrases.enumerated() {
            cause(index < likely ? .likely : .possible, phrase)
        }
        for step in entry.stepPhrases where !entrySteps.contains(step) { entrySteps.append(step) }
    }

    /// The generic entries' causes, all possible: used only when nothing more specific fits.
    /// The signal (cited after the exception type) narrows more, so later entries lead.
    var backgroundCauses: [FoundCause] {
        background.reversed().flatMap { $0.causePhrases.map { FoundCause(phrase: $0, likelihood: .possible) } }
    }

    /// The generic entries' steps: used only when nothing more specific fits.
    var backgroundSteps: [Phrase] { background.flatMap(\.stepPhrases) }

    func cause(_ likelihood: Diagnosis.Likelihood, _ phrase: Phrase, frames: [FrameLine] = []) {
        if let existing = causes.firstIndex(where: { $0.phrase == phrase }) {
            if likelihood == .likely { causes[existing].likelihood = .likely }
            return
        }
        causes.append(FoundCause(phrase: phrase, likelihood: likelihood, frames: frames))
    }

    func cause(
        _ likelihood: Diagnosis.Likelihood, _ key: PhraseKey, _ values: [String: Phrase] = [:], frames: [FrameLine] = []
    ) {
        cause(likelihood, Phrase(key, values), frames: frames)
    }

    /// Quotes `frame` as evidence and returns the line, for a cause to carry.
    @discardableResult
    func quote(_ frame: Frame, at place: Phrase, _ note: Phrase? = nil) -> FrameLine {
        let text = frame.evidenceText
        quote(place, text, note)
        return FrameLine(place: place, text: .verbatim(text))
    }

    func step(_ phrase: Phrase) {
        if !steps.contains(phrase) { steps.insert(phrase, at: 0) }
    }

    func step(_ key: PhraseKey, _ values: [String: Phrase] = [:]) { step(Phrase(key, values)) }

    func note(_ key: PhraseKey, _ values: [String: Phrase] = [:]) { notes.append(Phrase(key, values)) }
}
