/// One text of the catalogs: its stable ID, the tags the rules decide on, and its words in
/// every language. The rules compare texts by ID and choose them by tag, never by their
/// words, so rewording a sentence in any language cannot change a diagnosis.
///
/// The tables are generated from the data files in `Catalogs/` (`make catalogs`).
package struct CatalogText: Sendable, Hashable {
    /// `fieldThreadFrame`, or `exceptionType/EXC_BAD_ACCESS#cause.freed-object` for a knowledge-base
    /// text (its own words-with-dashes name, never its position: see scripts/generate-catalogs.py).
    package let id: String
    package let tags: Set<ExplainTag>
    /// The words, by `Language.rawValue`; every language is present (the generator checks).
    let texts: [String: String]

    init(id: String, tags: [ExplainTag], texts: [String: String]) {
        self.id = id
        self.tags = Set(tags)
        self.texts = texts
    }

    /// The text in `language`.
    package func text(_ language: Language) -> String {
        if let words = Catalog.rewording[id] { return words }
        return texts[language.rawValue] ?? texts[Language.english.rawValue] ?? id
    }

    package var english: String { text(.english) }

    /// Whether the data has this text in `language` (every language, unless the data is broken).
    package func has(_ language: Language) -> Bool { texts[language.rawValue] != nil }

    package static func == (lhs: CatalogText, rhs: CatalogText) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Catalog {
    /// Words used instead of the catalogs' for some text IDs, in every language, for the
    /// current task: a test rewords sentences and shows that no decision changes.
    @TaskLocal static var rewording: [String: String] = [:]
}
