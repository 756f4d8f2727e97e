import Foundation

/// A piece of prose the diagnosis writes, held as a catalog text and named values rather than
/// as words, so the rules that choose it stay apart from the words of each language. The rules
/// decide on a phrase's identity and tags (`ExplainTag`); the diagnosis is rendered in the
/// reader's language at the end.
indirect enum Phrase: Hashable, Sendable {
    /// A catalog sentence; `{name}` placeholders take the values.
    case catalog(PhraseKey, [String: Phrase])
    /// Text from the report (a quote, a function name, an identifier): the same in every language.
    case verbatim(String)
    /// A catalog text with nothing to fill: a knowledge-base text (an entry's title, meaning,
    /// cause or step) or a sentence without placeholders. A sentence and a knowledge-base text
    /// that share an ID (the same idea) are one phrase.
    case knowledge(CatalogText)
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
        if values.isEmpty, let text = Catalog.phraseTexts[key] {
            self = .knowledge(text)
        } else {
            self = .catalog(key, values)
        }
    }

    /// The phrase in `language`.
    func text(_ language: Language) -> String {
        switch self {
        case .verbatim(let text):
            return text
        case .knowledge(let text):
            return text.text(language)
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

    /// The report's own text the phrase quotes (its `verbatim` parts), the same in every
    /// language: what a decision may compare with the report, never the catalog's words.
    var quotedTexts: [String] {
        switch self {
        case .verbatim(let text): [text]
        case .knowledge, .throwSite: []
        case .lowercasedInEnglish(let phrase): phrase.quotedTexts
        case .sequence(let items), .list(let items): items.flatMap(\.quotedTexts)
        case .catalog(_, let values): values.keys.sorted().flatMap { values[$0]?.quotedTexts ?? [] }
        }
    }

    /// The English rendering (for logs and tests; no decision reads it).
    var english: String { text(.english) }

    /// The tags of the catalog texts the phrase is made of (the report's own text has none).
    var tags: Set<ExplainTag> {
        switch self {
        case .verbatim, .throwSite: []
        case .knowledge(let text): text.tags
        case .lowercasedInEnglish(let phrase): phrase.tags
        case .list(let items), .sequence(let items): items.reduce(into: []) { $0.formUnion($1.tags) }
        case .catalog(let key, let values): values.values.reduce(into: Catalog.tags(key)) { $0.formUnion($1.tags) }
        }
    }

    /// The catalog key of a sentence phrase; nil for other phrases.
    var catalogKey: PhraseKey? {
        switch self {
        case .catalog(let key, _): key
        case .knowledge(let text): PhraseKey(rawValue: text.id)
        default: nil
        }
    }

    /// The report's own text the phrase quotes (function names, file:line), in order.
    var quotedText: [String] {
        switch self {
        case .verbatim(let text): [text]
        case .knowledge, .throwSite: []
        case .lowercasedInEnglish(let phrase): phrase.quotedText
        case .list(let items), .sequence(let items): items.flatMap(\.quotedText)
        case .catalog(_, let values): values.keys.sorted().flatMap { values[$0]?.quotedText ?? [] }
        }
    }
}

/// Builds values for phrases from the report's own text.
extension Phrase {
    static func text(_ text: String) -> Phrase { .verbatim(text) }
}

extension KnowledgeEntry {
    /// The stable ID of an entry in the catalogs: its kind and canonical term.
    package var catalogID: String { "\(kind.rawValue)/\(term)" }

    var titlePhrase: Phrase { .knowledge(titleText) }
    var meaningPhrase: Phrase { .knowledge(meaningText) }
    var causePhrases: [Phrase] { causeTexts.map { .knowledge($0) } }
    var stepPhrases: [Phrase] { stepTexts.map { .knowledge($0) } }

    /// The entry with its prose in `language` (term, aliases, sources and values unchanged).
    package func localized(_ language: Language) -> LocalizedEntry {
        LocalizedEntry(
            term: term, kind: kind, title: titleText.text(language), meaning: meaningText.text(language),
            causes: causeTexts.map { $0.text(language) }, checkNext: stepTexts.map { $0.text(language) },
            sources: sources, provenance: provenance, aliases: aliases, values: values, namespace: namespace,
            patterns: patterns)
    }
}
