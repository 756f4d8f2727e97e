import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Issue 54, findings 11 and 18: `explain` looked every number of `Exception Codes` up by
/// filtering the whole knowledge base (1 MB of codes: 11 s), and `explain TERM…` compared the
/// whole query with every known spelling, character by character (50,000 words: 89 s). Work
/// is counted here, never timed.
@Suite struct ExplainCostTests {
    /// The index answers every value lookup exactly as the scan it replaces.
    @Test func valueLookupsAnswerAsAScanOfEveryEntry() {
        let base = KnowledgeBase.standard
        var asked = 0
        for entry in base.entries {
            for value in entry.values + [0, 1, 0xdead_beef] {
                for namespace in [nil, entry.namespace, entry.namespace?.lowercased(), "NONE"] {
                    let scanned = base.entries.filter {
                        $0.kind == entry.kind && $0.values.contains(value)
                            && (namespace == nil || $0.namespace?.uppercased() == namespace?.uppercased())
                    }
                    #expect(base.entries(kind: entry.kind, value: value, namespace: namespace).map(\.term) == scanned.map(\.term))
                    asked += 1
                }
            }
        }
        #expect(asked > 100)
    }

    /// A field of a thousand times more codes is looked up the same number of times.
    @Test func codesLookedUpDoNotGrowWithTheField() {
        let kilobyte = [UInt64](repeating: 1, count: 50)
        let megabyte = [UInt64](repeating: 1, count: 50_000)
        #expect(Diagnostician.consideredCodes(kilobyte).count == Diagnostician.codesConsidered)
        #expect(Diagnostician.consideredCodes(megabyte).count == Diagnostician.codesConsidered)
        #expect(Array(Diagnostician.consideredCodes([0x8bad_f00d])) == [0x8bad_f00d])
        #expect(Array(Diagnostician.consideredCodes([1, 0x10])) == [1, 0x10])
    }

    /// An old-style report naming its termination code in `Exception Codes`, then a megabyte
    /// of numbers: diagnosed as with the code alone.
    @Test func aMegabyteOfCodesIsDiagnosedAsTheFirstFew() throws {
        func report(_ codes: String) -> String {
            RuleDiagnosisTests.report(
                exception: ["Exception Type:  00000020", "Exception Codes: " + codes], frames: RuleDiagnosisTests.appFrames)
        }
        let short = try diagnoseText(report("0x000000008badf00d"))
        let long = try diagnoseText(report("0x000000008badf00d" + String(repeating: ", 0x0000000000000001", count: 50_000)))
        #expect(short.category == .watchdog)
        #expect(short.category == long.category)
        #expect(short.headline == long.headline)
    }

    /// `explain` with 50,000 words on the command line (they are joined into one query):
    /// answered, with no suggestions built from the whole text.
    @Test func fiftyThousandWordsAreExplained() {
        let words = (0..<50_000).map { ["SIGABRT", "crash", "EXC_BAD_ACCESS", "0x8badf00d", "word\($0)"][$0 % 5] }
        let explanation = KnowledgeBase.standard.explain(words.joined(separator: " "))
        #expect(explanation.isKnown)
        let unknown = KnowledgeBase.standard.explain((0..<50_000).map { "zzq\($0)" }.joined(separator: " "))
        #expect(!unknown.isKnown)
        #expect(unknown.nearMatches.count <= 6)
    }

    /// Suggestions for short queries are what they were: near spellings and containing keys.
    @Test func suggestionsForShortQueriesAreUnchanged() {
        let base = KnowledgeBase.standard
        #expect(base.nearMatches(for: "EXC_BAD_ACCES").contains("EXC_BAD_ACCESS"))
        #expect(base.nearMatches(for: "SIGABR").contains("SIGABRT"))
        #expect(base.nearMatches(for: "BAD_ACCESS").contains("EXC_BAD_ACCESS"))
    }
}
