import Testing

@testable import SymbolicateExplain

/// The rules name knowledge-base entries through `KnownTerm`; each name must resolve to
/// exactly the entry it spells, or a rule would silently lose its causes and citations.
@Suite struct KnownTermTests {
    @Test(arguments: KnownTerm.allCases)
    func everyNameUsedByTheRulesResolves(term: KnownTerm) throws {
        let entry = try #require(KnowledgeBase.standard.entry(term), "\(term.rawValue) is not in the knowledge base")
        #expect(entry.is(term))
    }
}
