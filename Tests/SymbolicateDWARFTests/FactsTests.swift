import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateTestSupport
import Testing

/// Checks our lookups against `Fixtures/facts.json`: address → inline chain as printed by
/// llvm-symbolizer-19 (the fixture generator's oracle), independent of our code.
@Suite struct FactsTests {
    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        struct Frame: Decodable, Sendable {
            var function: String
            var file: String?
            var line: Int?
        }
        var dsym: String
        var arch: String
        var uuid: String
        var address: String
        var note: String?
        var frames: [Frame]
        var testDescription: String { "\(dsym) \(arch) \(address)" }
    }

    static let facts: [Fact] = {
        let url = TestPaths.fixtures.appendingPathComponent("facts.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Fact].self, from: data)) ?? []
    }()

    @Test func factsArePresent() {
        #expect(Self.facts.count >= 5, "Fixtures/facts.json missing or unreadable")
    }

    @Test(arguments: facts)
    func lookupMatchesFact(_ fact: Fact) throws {
        let session = try FixtureDebugFiles.open(TestPaths.fixtures.appendingPathComponent(fact.dsym).path, id: DebugID(uuid: fact.uuid))
        #expect(session.architecture == Architecture(fact.arch))
        let address = try #require(UInt64(fact.address.dropFirst(2), radix: 16))
        let result = try #require(session.lookup(fileAddress: address))
        #expect(result.source == .dwarf)
        let got = result.frames.map { "\($0.function) \($0.file ?? "?"):\($0.line ?? -1)" }
        let expected = fact.frames.map { "\($0.function) \($0.file ?? "?"):\($0.line ?? -1)" }
        #expect(got == expected, "\(fact.note ?? "")")
        #expect(result.frames.last?.isInlined == false)
        #expect(result.frames.dropLast().allSatisfy { $0.isInlined })
    }
}
