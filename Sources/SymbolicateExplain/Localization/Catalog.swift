import Foundation

/// The catalogs: every sentence `explain` writes, by `PhraseKey`, and every knowledge-base
/// text, each with all its languages side by side and its tags (`CatalogText`). They are data
/// (`Catalogs/*.json`), turned into Swift tables by `scripts/generate-catalogs.py` (`make catalogs`);
/// the generator checks that every text has every `Language` with the same `{name}` placeholders.
package enum Catalog {
    /// The sentences of `language`, by key.
    package static func phrases(_ language: Language) -> [PhraseKey: String] {
        phraseTexts.mapValues { $0.text(language) }
    }

    /// The tags the rules decide on for the sentence `key`.
    static func tags(_ key: PhraseKey) -> Set<ExplainTag> {
        phraseTexts[key]?.tags ?? []
    }

    static func template(_ key: PhraseKey, _ language: Language) -> String {
        phraseTexts[key]?.text(language) ?? key.rawValue
    }

    /// A sentence of the catalog with its placeholders filled.
    package static func text(_ key: PhraseKey, _ language: Language, _ values: [String: String] = [:]) -> String {
        fill(template(key, language), values)
    }

    /// Replaces each `{name}` by its value in one pass (a value's own braces stay as they are).
    static func fill(_ template: String, _ values: [String: String]) -> String {
        guard template.containsBytes("{") else { return template }
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
