import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// The parts of Fixtures/reports/manifest.json the diagnosis tests read.
struct FixtureManifestEntry: Decodable {
    struct AppFrame: Decodable {
        struct Level: Decodable {
            let function: String
            let file: String?
            let line: Int?
        }
        let frameIndex: Int
        /// llvm-symbolizer-19's answer, innermost first (nil when no dSYM matches).
        let expected: [Level]?
    }
    let file: String
    let scenario: String
    let summary: String
    let crashedThread: Int
    let crashedThreadAppFrames: [AppFrame]
}

/// What a reader concludes from each fixture scenario (manifest `summary`, and the report's
/// exception lines), before and after symbolication.
struct FixtureExpectation: Sendable {
    let category: Diagnosis.Category
    let evidence: [String]
    /// After injecting the oracle's symbolication (when the scenario has one).
    let symbolicatedCategory: Diagnosis.Category
    let symbolicatedHeadline: [String]
    let why: String
}

let fixtureExpectations: [String: FixtureExpectation] = [
    "swift-trap": FixtureExpectation(
        category: .swiftTrap, evidence: ["EXC_BREAKPOINT (SIGTRAP)"],
        symbolicatedCategory: .swiftRuntimeError, symbolicatedHeadline: ["Unexpectedly found nil while unwrapping an Optional value"],
        why:
            "EXC_BREAKPOINT in CrashApp; the dSYM's inline chain starts with 'Swift runtime failure: Unexpectedly found nil…' (force unwrap)"
    ),
    "swift-index-dwarf4": FixtureExpectation(
        category: .swiftTrap, evidence: ["EXC_BREAKPOINT (SIGTRAP)"],
        symbolicatedCategory: .swiftRuntimeError, symbolicatedHeadline: ["Index out of range"],
        why: "EXC_BREAKPOINT; the summary says Swift index out of range in Bucket.element(at:)"),
    "null-deref": FixtureExpectation(
        category: .nilDereference, evidence: ["KERN_INVALID_ADDRESS at 0x0000000000000008"],
        symbolicatedCategory: .nilDereference, symbolicatedHeadline: ["0x8"],
        why: "EXC_BAD_ACCESS (SIGSEGV) at 0x8: NULL dereference of a record field"),
    "uuid-mismatch": FixtureExpectation(
        category: .nilDereference, evidence: ["KERN_INVALID_ADDRESS at 0x0000000000000008"],
        symbolicatedCategory: .nilDereference, symbolicatedHeadline: ["0x8"],
        why: "same crash as null-deref; only the dSYM differs"),
    "objc-exception": FixtureExpectation(
        category: .uncaughtObjCException, evidence: ["objc_exception_throw"],
        symbolicatedCategory: .uncaughtObjCException, symbolicatedHeadline: ["Objective-C exception"],
        why: "EXC_CRASH (SIGABRT) with a Last Exception Backtrace (NSException raised by -[CAProfileStore loadProfileNamed:])"),
    "watchdog": FixtureExpectation(
        category: .watchdog, evidence: ["scene-create watchdog transgression", "main thread"],
        symbolicatedCategory: .watchdog, symbolicatedHeadline: ["0x8badf00d", "scene-create"],
        why: "Termination Reason FRONTBOARD 2343432205 = 0x8badf00d, scene-create watchdog"),
    "macapp-x86_64": FixtureExpectation(
        category: .nilDereference, evidence: ["0x0000000000000000"],
        symbolicatedCategory: .nilDereference, symbolicatedHeadline: ["NULL"],
        why: "EXC_BAD_ACCESS (SIGSEGV), codes 0x1, 0x0: KERN_INVALID_ADDRESS at address 0 on thread 1"),
]

@Suite struct FixtureDiagnosisTests {
    static var manifest: [FixtureManifestEntry] {
        let url = TestPaths.fixtures.appendingPathComponent("reports/manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([FixtureManifestEntry].self, from: data)) ?? []
    }

    @Test func everyFixtureScenarioHasAnExpectation() {
        let manifest = Self.manifest
        #expect(!manifest.isEmpty, "Fixtures/reports/manifest.json is missing or unreadable")
        for entry in manifest {
            #expect(fixtureExpectations[entry.scenario] != nil, "no diagnosis expectation for fixture scenario \(entry.scenario)")
        }
    }

    @Test(arguments: manifest.map(\.file))
    func fixtureIsDiagnosed(file: String) throws {
        guard let entry = Self.manifest.first(where: { $0.file == file }),
            let expected = fixtureExpectations[entry.scenario]
        else { return }
        let (report, diagnosis) = try diagnoseFile(TestPaths.fixtures.appendingPathComponent(file))
        #expect(diagnosis.category == expected.category, "\(file): \(diagnosis.headline) — \(expected.why)")
        for fragment in expected.evidence {
            #expect(diagnosis.hasEvidence(fragment), "\(file): no evidence with \(fragment): \(diagnosis.evidenceLines)")
        }

        // Same report with the crashed thread symbolicated as llvm-symbolizer-19 says.
        var symbolicated = report
        let levelsByFrame = Dictionary(
            entry.crashedThreadAppFrames.compactMap { frame in
                frame.expected.map { (frame.frameIndex, $0) }
            }, uniquingKeysWith: { first, _ in first })
        guard let threadPosition = symbolicated.threads.firstIndex(where: { $0.index == entry.crashedThread }) else {
            Issue.record("\(file): crashed thread \(entry.crashedThread) not parsed")
            return
        }
        for position in symbolicated.threads[threadPosition].frames.indices {
            let index = symbolicated.threads[threadPosition].frames[position].index
            guard let levels = levelsByFrame[index] else { continue }
            symbolicated.threads[threadPosition].frames[position].symbolication = levels.enumerated().map { offset, level in
                SymbolicatedFrame(
                    function: level.function, offsetInFunction: 0, file: level.file, line: level.line,
                    isInlined: offset < levels.count - 1)
            }
        }
        let after = diagnose(symbolicated)
        #expect(after.category == expected.symbolicatedCategory, "\(file) symbolicated: \(after.headline)")
        for fragment in expected.symbolicatedHeadline {
            #expect(after.headline.contains(fragment), "\(file) symbolicated: headline \(after.headline) lacks \(fragment)")
        }
        if entry.scenario == "watchdog" {
            // The summary says the main thread was spinning in ca_wait_for_migration.
            #expect(after.hasEvidence("ca_wait_for_migration"), "\(after.evidenceLines)")
        }
    }
}
