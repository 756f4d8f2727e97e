import Foundation
import SymbolicateCore
import Testing

@testable import SymbolicateThrowSites

/// The catalogue's generated table: every entry is complete. (A table stale against its JSON
/// fails `CatalogTests`, which checks every catalogue: run `make catalogs`.)
@Suite struct ThrowSiteTableTests {
    @Test func everyEntryHasARuleAFixASourceAndEveryLanguage() {
        #expect(ThrowSiteCatalog.languages.contains("en"))
        #expect(ThrowSiteCatalog.entries.count >= 60)
        for entry in ThrowSiteCatalog.entries {
            for language in ThrowSiteCatalog.languages {
                #expect(!(entry.rule[language] ?? "").isEmpty, "\(entry.id): no rule in \(language)")
                #expect(!(entry.fix[language] ?? "").isEmpty, "\(entry.id): no fix in \(language)")
                if language != "en" {
                    #expect(entry.rule[language] != entry.rule["en"], "\(entry.id): the \(language) rule is still English")
                    #expect(entry.fix[language] != entry.fix["en"], "\(entry.id): the \(language) fix is still English")
                }
            }
            #expect(Set(entry.rule.keys) == Set(ThrowSiteCatalog.languages), "\(entry.id): rule languages")
            #expect(Set(entry.fix.keys) == Set(ThrowSiteCatalog.languages), "\(entry.id): fix languages")
            #expect(!entry.sources.isEmpty, "\(entry.id): no source")
            #expect(entry.sources.allSatisfy { $0.hasPrefix("https://") }, "\(entry.id): sources are public links")
            #expect(!entry.symbols.isEmpty || !entry.reasons.isEmpty, "\(entry.id): nothing to match by")
            #expect(!entry.framework.isEmpty)
        }
    }

    @Test func idsAreUniqueAndStable() {
        let ids = ThrowSiteCatalog.entries.map(\.id)
        #expect(Set(ids).count == ids.count)
        // Lowercase words separated by dots and dashes: safe in JSON, file names and group keys.
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "." || $0 == "-" }, "\(id)")
            #expect(id.contains("."), "\(id): framework.rule")
        }
        #expect(ThrowSiteCatalog.entry(id: "foundation.kvo.remove-unregistered-observer")?.framework == "Foundation")
        #expect(ThrowSiteCatalog.entry(id: "no.such-entry") == nil)
    }
}

/// The substring search the matcher uses: the same answers as Foundation's, linear in the text.
@Suite struct ThrowSiteSearchTests {
    @Test(arguments: [
        ("abc", "xxabcxx", true), ("abc", "ab", false), ("aab", "aaab", true), ("abab", "abaabab", true),
        ("", "anything", true), ("é", "café", true), ("-[UITableView", "-[UITableViewCell foo]", true), ("zz", "", false),
    ])
    func findsWhatFoundationFinds(needle: String, haystack: String, expected: Bool) {
        #expect(ThrowSiteCatalog.occurs(needle, in: haystack) == expected)
        #expect(ThrowSiteCatalog.occurs(needle, in: haystack) == (needle.isEmpty || haystack.contains(needle)))
    }

    @Test func aRepetitiveTextIsSearchedToTheEnd() {
        // `aaaa…ab` in `aaaa…a` (the case a naive search repeats): KMP answers without re-reading.
        let text = String(repeating: "a", count: 200_000)
        let needle = String(repeating: "a", count: 5_000) + "b"
        #expect(!ThrowSiteCatalog.occurs(needle, in: text))
        #expect(ThrowSiteCatalog.occurs(String(repeating: "a", count: 5_000), in: text))
    }
}

/// The one-pass search finds exactly what a search per needle finds.
@Suite struct NeedleIndexTests {
    @Test func findsWhatASearchPerNeedleFinds() {
        let needles = ThrowSiteCatalog.entries.flatMap { $0.symbols + $0.reasons } + ["", "a", "aa", "aab", "é", "ab", "b"]
        let index = NeedleIndex(needles)
        var texts = ThrowSiteCatalog.entries.flatMap { $0.reasons.map { "x " + $0 + " y" } + $0.symbols }
        texts += [
            "", "a", "aaab", "aab", "ba", "café", "-[UITableView _endCellAnimationsWithContext:]", String(repeating: "ab", count: 300),
        ]
        for text in texts {
            var found = [Bool](repeating: false, count: index.count)
            index.mark(in: text, &found)
            for (id, needle) in needles.enumerated() {
                #expect(found[id] == ThrowSiteCatalog.occurs(needle, in: text), "\(needle) in \(text)")
            }
        }
    }
}
