import Foundation
import Testing

@testable import SymbolicateExplain

/// Which language `explain` writes in: `--language`, else the environment read as text.
@Suite struct LanguageTests {
    @Test(arguments: [
        ("ja", Language.japanese), ("ja_JP", .japanese), ("ja_JP.UTF-8", .japanese), ("ja-JP", .japanese),
        ("ja_JP.eucJP@euro", .japanese), ("JA", .japanese), ("en", .english), ("en_US.UTF-8", .english),
        ("English", .english),
    ])
    func tags(_ tag: String, _ expected: Language) {
        #expect(Language(tag: tag) == expected)
    }

    @Test(arguments: ["", "C", "POSIX", "C.UTF-8", "fr_FR.UTF-8", "jav", "zh_CN"])
    func tagsExplainDoesNotSpeak(_ tag: String) {
        #expect(Language(tag: tag) == nil)
    }

    @Test func environmentOrder() {
        // SYMBOLICATE_LANGUAGE wins over every locale variable.
        #expect(Language.resolve(environment: ["SYMBOLICATE_LANGUAGE": "ja", "LC_ALL": "en_US.UTF-8"]) == .japanese)
        #expect(Language.resolve(environment: ["SYMBOLICATE_LANGUAGE": "en", "LANG": "ja_JP.UTF-8"]) == .english)
        // POSIX order: LC_ALL, then LC_MESSAGES, then LANG; the first set and non-empty decides.
        #expect(Language.resolve(environment: ["LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"]) == .japanese)
        #expect(Language.resolve(environment: ["LC_ALL": "C", "LANG": "ja_JP.UTF-8"]) == .english)
        #expect(Language.resolve(environment: ["LC_MESSAGES": "ja_JP", "LANG": "en_US"]) == .japanese)
        #expect(Language.resolve(environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja"]) == .japanese)
        #expect(Language.resolve(environment: ["SYMBOLICATE_LANGUAGE": "", "LANG": "ja_JP.UTF-8"]) == .japanese)
        // Anything else, or nothing, is English.
        #expect(Language.resolve(environment: ["LANG": "fr_FR.UTF-8"]) == .english)
        #expect(Language.resolve(environment: ["SYMBOLICATE_LANGUAGE": "klingon", "LANG": "ja_JP.UTF-8"]) == .english)
        #expect(Language.resolve(environment: [:]) == .english)
    }

    @Test func acceptLanguage() {
        #expect(Language.resolve(acceptLanguage: "ja,en-US;q=0.8") == .japanese)
        #expect(Language.resolve(acceptLanguage: "en-US,en;q=0.9,ja;q=0.8") == .english)
        #expect(Language.resolve(acceptLanguage: "fr-FR, ja;q=0.5, en;q=0.4") == .japanese)
        #expect(Language.resolve(acceptLanguage: "ja;q=0, en;q=0.1") == .english)
        #expect(Language.resolve(acceptLanguage: "fr, de;q=0.5") == nil)
        #expect(Language.resolve(acceptLanguage: "*") == nil)
        #expect(Language.resolve(acceptLanguage: "") == nil)
        // Equal weights: the earlier range wins.
        #expect(Language.resolve(acceptLanguage: "en;q=0.7, ja;q=0.7") == .english)
    }

    @Test func placeholdersAreFilledOnceAndOnlyByName() {
        #expect(Catalog.fill("a {x} b {y}", ["x": "{y}", "y": "2"]) == "a {y} b 2")
        #expect(Catalog.fill("{unknown} stays", [:]) == "{unknown} stays")
        #expect(Catalog.placeholders(in: "{b} and {a} and {b}") == ["a", "b", "b"])
    }
}
