import Foundation
import SymbolicateThrowSites
import Testing

@testable import SymbolicateExplain

/// The catalogs: every text has every language, with the same placeholders as its English,
/// and none is left in English; the generated Swift tables match the data files.
@Suite struct CatalogTests {
    /// Hiragana, katakana or kanji: what a Japanese sentence cannot do without.
    static func isJapanese(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value)
        }
    }

    /// True when `english`, without its placeholders, has words to translate (not only
    /// punctuation such as `{term}: {title}`).
    static func hasWords(_ english: String) -> Bool {
        let bare = english.replacingOccurrences(of: #"\{[A-Za-z0-9]+\}"#, with: "", options: .regularExpression)
        return bare.contains { $0.isLetter }
    }

    /// Every text of the catalogs: the sentences and every knowledge-base text.
    static var allTexts: [CatalogText] {
        PhraseKey.allCases.compactMap { Catalog.phraseTexts[$0] }
            + KnowledgeBase.standard.entries.flatMap { [$0.titleText, $0.meaningText] + $0.causeTexts + $0.stepTexts }
    }

    @Test func everyKeyHasAText() {
        let missing = PhraseKey.allCases.filter { Catalog.phraseTexts[$0] == nil }
        #expect(missing.isEmpty, "the catalog lacks \(missing)")
        #expect(Self.allTexts.count > PhraseKey.allCases.count + KnowledgeBase.standard.entries.count * 2)
    }

    @Test(arguments: Language.allCases)
    func everyTextHasEveryLanguage(_ language: Language) {
        for text in Self.allTexts {
            #expect(text.has(language), "\(text.id) has no \(language.rawValue) text")
            let words = text.text(language)
            #expect(
                Set(Catalog.placeholders(in: words)) == Set(Catalog.placeholders(in: text.english)),
                "\(text.id): placeholders in \(language.rawValue) \(Catalog.placeholders(in: words)) differ from English")
            // `languageTags` are spellings to accept (`jpn`, `japanese`), not prose.
            if language == .japanese, Self.hasWords(text.english), text.id != PhraseKey.languageTags.rawValue {
                #expect(Self.isJapanese(words), "\(text.id) is still English in Japanese: \(words)")
            }
        }
    }

    /// One ID, one text: texts that share an ID (the same idea in two entries) have the same words.
    @Test func sharedIDsHaveTheSameWords() {
        var words: [String: [String]] = [:]
        for text in Self.allTexts {
            let all = Language.allCases.map { text.text($0) }
            if let earlier = words[text.id] {
                #expect(earlier == all, "\(text.id) names two texts")
            }
            words[text.id] = all
        }
        let entries = KnowledgeBase.standard.entries
        #expect(Set(entries.map(\.catalogID)).count == entries.count)
    }

    /// Every knowledge text's id is its own name, never its place in the entry (`#cause.0`):
    /// adding or reordering causes and steps renames no other text, so whatever is keyed by an
    /// id (de-duplication, tags, a decision compared across runs) survives an edit.
    @Test func noTextIDIsAPosition() {
        let positional = Self.allTexts.map(\.id).filter {
            $0.range(of: #"#(cause|step)\.[0-9]+$"#, options: .regularExpression) != nil
        }
        #expect(positional.isEmpty, "\(positional.prefix(5))")
        for entry in KnowledgeBase.standard.entries {
            let ids = (entry.causeTexts + entry.stepTexts).map(\.id)
            #expect(Set(ids).count == ids.count, "\(entry.catalogID) repeats a text id")
        }
        // The throw-site table follows the same convention (its languages are `Language`'s).
        #expect(ThrowSiteCatalog.languages == Language.allCases.map(\.rawValue))
    }

    /// The Swift tables are what `make catalogs` makes of the data files: editing a data file
    /// without regenerating fails here (and in CI's format check).
    @Test func generatedTablesAreCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/generate-catalogs.py").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
