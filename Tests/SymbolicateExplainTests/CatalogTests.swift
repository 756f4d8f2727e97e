import Foundation
import Testing

@testable import SymbolicateExplain

/// The catalogs: every language has every sentence and every knowledge-base entry, with the
/// same placeholders as the English twin, and none is left in English. No exceptions.
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

    @Test func everyKeyHasEnglish() {
        let missing = PhraseKey.allCases.filter { Catalog.english[$0] == nil }
        #expect(missing.isEmpty, "English catalog lacks \(missing)")
    }

    @Test(arguments: Language.allCases.filter { $0 != .english })
    func everySentenceIsTranslated(_ language: Language) {
        let catalog = Catalog.phrases(language)
        for key in PhraseKey.allCases {
            guard let english = Catalog.english[key] else { continue }
            guard let text = catalog[key] else {
                Issue.record("\(language) catalog lacks \(key.rawValue)")
                continue
            }
            #expect(
                Set(Catalog.placeholders(in: text)) == Set(Catalog.placeholders(in: english)),
                "\(key.rawValue): placeholders \(Catalog.placeholders(in: text)) differ from English \(Catalog.placeholders(in: english))")
            if Self.hasWords(english) {
                #expect(Self.isJapanese(text), "\(key.rawValue) is still English: \(text)")
            }
        }
    }

    @Test(arguments: Language.allCases.filter { $0 != .english })
    func everyKnowledgeEntryIsTranslated(_ language: Language) {
        let catalog = Catalog.knowledge(language)
        let entries = KnowledgeBase.standard.entries
        // IDs are unique, and the catalog holds nothing the knowledge base lacks.
        #expect(Set(entries.map(\.catalogID)).count == entries.count)
        let stale = Set(catalog.keys).subtracting(entries.map(\.catalogID))
        #expect(stale.isEmpty, "\(language) catalog has entries the knowledge base lacks: \(stale.sorted())")
        for entry in entries {
            guard let text = catalog[entry.catalogID] else {
                Issue.record("\(language) catalog lacks \(entry.catalogID)")
                continue
            }
            #expect(text.causes.count == entry.causes.count, "\(entry.catalogID): causes")
            #expect(text.checkNext.count == entry.checkNext.count, "\(entry.catalogID): steps")
            let pairs =
                [(entry.title, text.title), (entry.meaning, text.meaning)] + Array(zip(entry.causes, text.causes))
                + Array(zip(entry.checkNext, text.checkNext))
            for (english, translated) in pairs {
                #expect(
                    Set(Catalog.placeholders(in: translated)) == Set(Catalog.placeholders(in: english)),
                    "\(entry.catalogID): placeholders of \(translated)")
                if Self.hasWords(english) {
                    #expect(Self.isJapanese(translated), "\(entry.catalogID) is still English: \(translated)")
                }
            }
        }
    }
}
