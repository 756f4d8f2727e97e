import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Explain decides on structure, never on words (issue 37): the rules choose and drop causes
/// and steps by the tags written beside each text in the catalogs, and compare texts by ID.
/// Rewording any sentence, in any language, leaves every decision as it was.
@Suite struct WordingIndependenceTests {
    /// Every report the fixtures and the bundled real corpus hold.
    static let reports = FixtureReports.all

    static func decision(_ report: CrashReport) -> Diagnostician.Decision {
        Diagnostician(report: report, base: KnowledgeBase.standard).decide()
    }

    /// Every text of the catalogs reworded: the sentence is replaced by its ID and a word the
    /// old English filters reacted to ("nil", "symbolicate", "x86_64:"), so a rule still reading
    /// words would now decide differently.
    static let everyTextReworded: [String: String] = {
        var rewording: [String: String] = [:]
        for text in CatalogTests.allTexts {
            rewording[text.id] = "x86_64: see the nil fault address; symbolicate the crashed thread (\(text.id))"
        }
        return rewording
    }()

    @Test func thereAreReports() {
        #expect(Self.reports.count >= 40)
    }

    @Test(arguments: reports)
    func rewordingEveryTextChangesNoDecision(_ path: String) throws {
        let url = TestPaths.fixtures.appendingPathComponent(path)
        let reports = try CrashReport.parseAll(data: Data(contentsOf: url), path: url.path)
        for report in reports {
            let before = Self.decision(report)
            let after = Catalog.$rewording.withValue(Self.everyTextReworded) { Self.decision(report) }
            #expect(before == after, "\(path): the decision changed when the catalogs were reworded")
            // The rewording took effect: the diagnosis reads differently.
            let reworded = Catalog.$rewording.withValue(Self.everyTextReworded) { diagnose(report).renderText() }
            #expect(reworded != diagnose(report).renderText(), "\(path): the rewording did not reach the diagnosis")
        }
    }

    /// One cause's English rewritten without the word its old filter keyed on ("nil"): the
    /// nil-dereference fixture's diagnosis keeps the same causes, in the same order, and shows
    /// the new sentence.
    @Test func rewordingOneCauseKeepsTheDiagnosis() throws {
        let report = try CrashReport.parse(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash").path)
        let before = diagnose(report)
        let newWords = "A member was read through a pointer to address zero"
        let after = Catalog.$rewording.withValue([PhraseKey.causeNilMember.rawValue: newWords]) { diagnose(report) }
        #expect(before.category == after.category)
        #expect(before.causes.count == after.causes.count)
        #expect(before.causes.first?.text == "Reading a member of a nil object or struct pointer")
        #expect(after.causes.first?.text == newWords)
        #expect(Array(before.causes.dropFirst().map(\.text)) == Array(after.causes.dropFirst().map(\.text)))
        #expect(before.nextSteps == after.nextSteps)
    }
}
