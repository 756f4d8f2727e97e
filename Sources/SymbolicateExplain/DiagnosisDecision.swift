import SymbolicateCrashReport

/// What the rules decided for one report, before any wording: equal in every language, so a
/// caller decides once and words the result for each language it is asked in (a server
/// answering in two languages, batch keeping one diagnosis per crash signature).
package struct DiagnosisDecision: Hashable, Sendable {
    let value: Diagnostician.Decision

    /// The verdict's category, the typed answer to "what kind of crash".
    package var category: Diagnosis.Category { value.verdict.category }

    /// The diagnosis in `language`'s words.
    package func worded(in language: Language) -> Diagnosis {
        Diagnostician.word(value, language: language)
    }
}

/// Decides a parsed report from the facts its reader carried, with no language: word the
/// result with `DiagnosisDecision.worded(in:)`.
package func decide(_ report: CrashReport) -> DiagnosisDecision {
    DiagnosisDecision(value: Diagnostician(report: report, base: KnowledgeBase.standard).decide())
}
