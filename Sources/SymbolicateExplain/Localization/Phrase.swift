import Foundation

/// A piece of prose the diagnosis writes, held as a catalog key and named values rather than
/// as text, so the rules that choose it stay apart from the words of each language. The rules
/// run on the English rendering (their filters read English words), and the diagnosis is
/// rendered in the reader's language at the end.
indirect enum Phrase: Hashable, Sendable {
    /// A catalog sentence; `{name}` placeholders take the values.
    case catalog(PhraseKey, [String: Phrase])
    /// Text from the report (a quote, a function name, an identifier): the same in every language.
    case verbatim(String)
    /// A knowledge-base text: the entry's own English, or its translation.
    case knowledge(KnowledgeText.Reference)
    /// English lowercases the phrase to run it into a sentence; other languages keep it.
    case lowercasedInEnglish(Phrase)
    /// Phrases joined with the language's list separator (`, ` or `、`).
    case list([Phrase])
    /// Phrases written one after the other.
    case sequence([Phrase])
    /// A throw-site catalogue text (`SymbolicateThrowSites`, its own JSON data with every
    /// language side by side): the entry's rule or fix in the reader's language.
    case throwSite(ThrowSiteText)

    init(_ key: PhraseKey, _ values: [String: Phrase] = [:]) {
        self = .catalog(key, values)
    }

    /// The phrase in `language`.
    func text(_ language: Language) -> String {
        switch self {
        case .verbatim(let text):
            return text
        case .knowledge(let reference):
            return reference.text(language)
        case .lowercasedInEnglish(let phrase):
            let text = phrase.text(language)
            return language == .english ? text.lowercased() : text
        case .sequence(let items):
            return items.map { $0.text(language) }.joined()
        case .list(let items):
            return items.map { $0.text(language) }.joined(separator: Catalog.template(.listSeparator, language))
        case .catalog(let key, let values):
            return Catalog.fill(Catalog.template(key, language), values.mapValues { $0.text(language) })
        case .throwSite(let text):
            return text.text(language)
        }
    }

    /// The English rendering, which the rules and `Relevance` compare and filter.
    var english: String { text(.english) }
}

/// Builds values for phrases from the report's own text.
extension Phrase {
    static func text(_ text: String) -> Phrase { .verbatim(text) }
}

extension KnowledgeEntry {
    /// The stable ID of an entry in the catalogs: its kind and canonical term.
    package var catalogID: String { "\(kind.rawValue)/\(term)" }

    var titlePhrase: Phrase { .knowledge(.init(entry: catalogID, field: .title, english: title)) }
    var meaningPhrase: Phrase { .knowledge(.init(entry: catalogID, field: .meaning, english: meaning)) }
    var causePhrases: [Phrase] {
        causes.enumerated().map { .knowledge(.init(entry: catalogID, field: .cause($0.offset), english: $0.element)) }
    }
    var stepPhrases: [Phrase] {
        checkNext.enumerated().map { .knowledge(.init(entry: catalogID, field: .step($0.offset), english: $0.element)) }
    }

    /// The entry with its prose in `language` (term, aliases, sources and values unchanged).
    package func localized(_ language: Language) -> KnowledgeEntry {
        guard language != .english else { return self }
        return KnowledgeEntry(
            term: term, kind: kind, title: titlePhrase.text(language), meaning: meaningPhrase.text(language),
            causes: causePhrases.map { $0.text(language) }, checkNext: stepPhrases.map { $0.text(language) },
            sources: sources, provenance: provenance, aliases: aliases, values: values, namespace: namespace,
            patterns: patterns)
    }
}
