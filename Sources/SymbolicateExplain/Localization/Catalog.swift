import Foundation

/// The translated prose of one knowledge-base entry (its English stays in the entry itself).
package struct KnowledgeText: Sendable, Hashable {
    package let title: String
    package let meaning: String
    package let causes: [String]
    package let checkNext: [String]

    package init(title: String, meaning: String, causes: [String] = [], checkNext: [String] = []) {
        self.title = title
        self.meaning = meaning
        self.causes = causes
        self.checkNext = checkNext
    }

    /// One field of one entry, carrying its English so English never needs a lookup.
    struct Reference: Hashable, Sendable {
        enum Field: Hashable, Sendable {
            case title, meaning, cause(Int), step(Int)
        }
        let entry: String
        let field: Field
        let english: String

        func text(_ language: Language) -> String {
            guard language != .english, let translated = Catalog.knowledge(language)[entry] else { return english }
            switch field {
            case .title: return translated.title
            case .meaning: return translated.meaning
            case .cause(let index): return translated.causes.indices.contains(index) ? translated.causes[index] : english
            case .step(let index): return translated.checkNext.indices.contains(index) ? translated.checkNext[index] : english
            }
        }
    }
}

/// The catalogs: one per language, each with the diagnosis sentences by `PhraseKey` and the
/// knowledge-base texts by entry ID (`KnowledgeEntry.catalogID`). Sentences name their
/// placeholders (`{signal}`); every language's sentence has the same placeholders as the
/// English one (a test checks it, and that no entry is missing or left in English).
package enum Catalog {
    /// Every English sentence: the general catalog and the ones added per topic (`English+<topic>.swift`).
    static let english: [PhraseKey: String] = englishGeneral.merging(englishIssue41) { first, _ in first }
    /// Every Japanese sentence, as `english`.
    static let japanese: [PhraseKey: String] = japaneseGeneral.merging(japaneseIssue41) { first, _ in first }

    /// The sentences of `language`, by key.
    package static func phrases(_ language: Language) -> [PhraseKey: String] {
        switch language {
        case .english: english
        case .japanese: japanese
        }
    }

    /// The translated knowledge-base texts of `language`, by entry ID (empty for English,
    /// whose texts are the entries themselves).
    package static func knowledge(_ language: Language) -> [String: KnowledgeText] {
        switch language {
        case .english: [:]
        case .japanese: japaneseKnowledge
        }
    }

    static func template(_ key: PhraseKey, _ language: Language) -> String {
        phrases(language)[key] ?? english[key] ?? key.rawValue
    }

    /// A sentence of the catalog with its placeholders filled.
    package static func text(_ key: PhraseKey, _ language: Language, _ values: [String: String] = [:]) -> String {
        fill(template(key, language), values)
    }

    /// Replaces each `{name}` by its value in one pass (a value's own braces stay as they are).
    static func fill(_ template: String, _ values: [String: String]) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }

    /// The `{name}` placeholders of a sentence.
    package static func placeholders(in template: String) -> [String] {
        guard let pattern = try? NSRegularExpression(pattern: #"\{([A-Za-z][A-Za-z0-9]*)\}"#) else { return [] }
        let range = NSRange(template.startIndex..., in: template)
        return pattern.matches(in: template, range: range).compactMap { match in
            Range(match.range(at: 1), in: template).map { String(template[$0]) }
        }.sorted()
    }
}
