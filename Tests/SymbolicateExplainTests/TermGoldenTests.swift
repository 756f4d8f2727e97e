import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// `explain TERM` for every term the knowledge base documents, in each language, held to
/// `Fixtures/expected/explain/terms.<language>.txt` (the English file pins today's words; the
/// Japanese one is the translation as it was read and reviewed).
@Suite struct TermGoldenTests {
    static func transcript(_ language: Language) -> String {
        KnowledgeBase.standard.entries.map { entry in
            "$ symbolicate explain '\(entry.term)' --language \(language.rawValue)\n"
                + KnowledgeBase.standard.explain(entry.term, language: language).renderText()
        }.joined(separator: "\n")
    }

    @Test(arguments: Language.allCases)
    func everyTermMatchesGolden(_ language: Language) throws {
        let output = Self.transcript(language)
        guard let expected = try Golden.expected("explain/terms.\(language.rawValue).txt", output: output) else { return }
        #expect(output == expected, "explain of the documented terms differs from Fixtures/expected/explain/terms.\(language.rawValue).txt")
    }

    /// Every term is found as in English, and in Japanese every entry it shows is Japanese
    /// from end to end. (`'try!' expression…` is not found in either: the lookup trims quotes.)
    @Test func everyTermIsExplainedInJapanese() {
        for entry in KnowledgeBase.standard.entries {
            let answer = KnowledgeBase.standard.explain(entry.term, language: .japanese)
            #expect(answer.isKnown == KnowledgeBase.standard.explain(entry.term).isKnown, "\(entry.term)")
            #expect(answer.entries.map(\.catalogID) == KnowledgeBase.standard.explain(entry.term).entries.map(\.catalogID))
            for shown in answer.entries {
                for text in [shown.title, shown.meaning] + shown.causes + shown.checkNext {
                    #expect(CatalogTests.isJapanese(text), "\(entry.term): \(text)")
                }
            }
        }
    }
}
