import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 48, items 2 and 3: a message the report states leads the diagnosis, by its family when
/// the knowledge base has one, else quoted under the class its words say. The examples are real
/// crash texts of Fixtures/crashtexts/tune (each file's thread is its `source`).
@Suite struct StatedMessageTests {
    let base = KnowledgeBase.standard

    /// A real message of a family, the entry that must read it, and where the text was posted.
    struct FamilyExample: Sendable, CustomTestStringConvertible {
        let file: String
        let term: String
        let source: String
        var testDescription: String { "\(file) → \(term)" }
    }

    static let familyExamples: [FamilyExample] = [
        // Framework debug layers.
        FamilyExample(
            file: "056-main-thread-checker.txt", term: "Main Thread Checker",
            source: "https://github.com/microsoft/appcenter-sdk-apple/issues/1705"),
        FamilyExample(
            file: "080-metal-validation.txt", term: "Metal API Validation", source: "https://github.com/djphoenix/MoneroKit/issues/10"),
        FamilyExample(
            file: "081-metal-validation.txt", term: "Metal API Validation", source: "https://github.com/FlexMonkey/ParticleLab/issues/29"),
        FamilyExample(
            file: "082-metal-validation.txt", term: "Metal API Validation",
            source: "https://github.com/RobertBeckebans/RBDOOM-3-BFG/issues/824"),
        FamilyExample(
            file: "002-autolayout-background-thread.txt",
            term: "Modifications to the layout engine must not be performed from a background thread",
            source: "https://github.com/exponea/exponea-ios-sdk/issues/82"),
        FamilyExample(
            file: "024-coredata-context-misuse.txt", term: "Core Data context misuse",
            source: "https://github.com/vdhamer/Photo-Club-Hub/issues/372"),
        FamilyExample(
            file: "025-coredata-context-misuse.txt", term: "Core Data context misuse",
            source: "https://github.com/3lvis/SwiftSync/issues/557"),
        FamilyExample(
            file: "181-swiftdata-invalidated-model.txt", term: "SwiftData model instance invalidated",
            source: "https://github.com/brightdigit/DataThespian/issues/49"),
        FamilyExample(
            file: "182-swiftdata-invalidated-model.txt", term: "SwiftData model instance invalidated",
            source: "https://github.com/meshtastic/Meshtastic-Apple/pull/1918"),
        FamilyExample(
            file: "017-bgtask-registration.txt", term: "BGTaskScheduler launch handler",
            source: "https://github.com/transistorsoft/flutter_background_geolocation/issues/1205"),
        FamilyExample(
            file: "190-uikit-invalid-update.txt", term: "UIKit consistency exception",
            source: "https://github.com/dennisreimann/ioctocat/issues/250"),
        FamilyExample(
            file: "198-uikit-present-active-controller.txt", term: "UIKit consistency exception",
            source: "https://github.com/OpenTreeMap/otm-ios/issues/362"),
        // Swift runtime diagnostics.
        FamilyExample(
            file: "151-swift-exclusivity.txt", term: "Simultaneous accesses",
            source: "https://github.com/kodecocodes/swift-algorithm-club/issues/731"),
        FamilyExample(
            file: "143-swift-continuation-misuse.txt", term: "SWIFT TASK CONTINUATION MISUSE",
            source: "https://github.com/PureSwift/Bluetooth/issues/149"),
        FamilyExample(
            file: "140-swift-actor-isolation.txt", term: "Incorrect actor executor assumption",
            source: "https://github.com/realm/realm-swift/issues/8419"),
        FamilyExample(
            file: "178-swift-unowned.txt", term: "Attempted to read an unowned reference but object was already deallocated",
            source: "https://github.com/cmtrounce/SwURL/issues/9"),
    ]

    static func tuneText(_ file: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent("crashtexts/tune/\(file)"), encoding: .utf8)
    }

    /// The family's grammar reads the real message: some line of the text names the entry's family,
    /// and no other family of the same kinds reads it first.
    @Test(arguments: familyExamples)
    func aFamilyReadsItsRealMessage(example: FamilyExample) throws {
        let kinds: Set<TermKind> = [.debugLayerMessage, .swiftRuntimeMessage, .concurrencyMessage]
        let lines = try Self.tuneText(example.file).split(whereSeparator: \.isNewline).map(String.init)
        let read = lines.compactMap { line in
            base.entries(matchingText: line, kinds: kinds).first { !$0.patterns.allSatisfy { $0.hasSuffix(":") } }
        }
        #expect(read.first?.term == example.term, "\(example.file) (\(example.source)): read as \(read.map(\.term))")
        let entry = try #require(base.entries.first { $0.term == example.term })
        #expect(entry.sources.allSatisfy { $0.url.hasPrefix("https://") })
        for language in Language.allCases {
            #expect(!entry.localized(language).title.isEmpty)
            #expect(!entry.localized(language).checkNext.isEmpty)
        }
    }

    /// A real message no family knows is classified by its words.
    @Test(arguments: [
        // https://github.com/iina/iina/issues/5561
        (
            "Precondition failed: Failed to obtain path to file IINA.app/Contents/Resources/config/iina-default-input.conf",
            "configuration message"
        ),
        // https://github.com/Tencent/QMUI_iOS/issues/800 (the words, with any thread)
        ("Modifications to the layout engine must not be performed from a background thread", "threading message"),
        // https://github.com/dennisreimann/ioctocat/issues/250
        ("Invalid update: invalid number of rows in section 0.", "state message"),
        // https://github.com/3lvis/SwiftSync/issues/557
        ("Illegal attempt to establish a relationship 'fichas' between objects in different contexts", "threading message"),
        // Xcode's template for a required initialiser, as apps ship it.
        ("Fatal error: init(coder:) has not been implemented", "unimplemented message"),
    ])
    func aMessageIsClassifiedByItsWords(text: String, expected: String) throws {
        let lowered = Array(text.lowercased().utf8)
        let messageClass = base.entries.first { entry in
            entry.kind == .messageClass && entry.patterns.contains { MessageScan.occurs(Array($0.lowercased().utf8), in: lowered) }
        }
        #expect(messageClass?.term == expected)
    }

    /// A Swift runtime error that names its place leads with it (tune 140, RealmSwift's
    /// `Util.swift:169: Fatal error: Incorrect actor executor assumption`).
    @Test func theRuntimeErrorsPlaceIsInTheHeadline() throws {
        let url = TestPaths.fixtures.appendingPathComponent("crashtexts/tune/140-swift-actor-isolation.txt")
        let (_, diagnosis) = try diagnoseFile(url)
        #expect(diagnosis.headline.contains("RealmSwift/Util.swift:169"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Incorrect actor executor assumption"))
        #expect(diagnosis.certainty == .stated)
    }

    /// A framework's message in Application Specific Information leads the headline (tune 035, a real macOS report:
    /// https://github.com/karelia/CurlHandle/issues/23).
    @Test func aDeliberateStopsStatedMessageIsQuoted() throws {
        let url = TestPaths.fixtures.appendingPathComponent("crashtexts/tune/035-dispatch-sync-reentrancy.txt")
        let (report, diagnosis) = try diagnoseFile(url)
        #expect(!report.facts.statedMessages.isEmpty)
        #expect(diagnosis.headline.contains("already owned by current thread"), "\(diagnosis.headline)")
        #expect(diagnosis.certainty == .stated)
    }

    /// A deliberate stop whose message no rule knows: the headline quotes the stated cause, the
    /// exception's rules keep the family (the project's own Linux crash, `Fatal error: record 3 is missing`).
    @Test func aStatedMessageNoRuleKnowsLeadsTheHeadline() throws {
        let url = TestPaths.fixtures.appendingPathComponent("linux/logs/async.txt")
        let (_, diagnosis) = try diagnoseFile(url)
        #expect(diagnosis.headline.contains("record 3 is missing"), "\(diagnosis.headline)")
        #expect(diagnosis.category == .swiftTrap)
        #expect(diagnosis.certainty == .stated)
    }

    /// A throw site matched by its raising frames alone, the report stating no message: the rule
    /// leads as likely, never stated (tune 078, a real macOS report whose Metal validation message
    /// went to the console only: https://github.com/defold/defold/issues/13253).
    @Test func aThrowSiteByFramesAloneIsLikely() throws {
        let url = TestPaths.fixtures.appendingPathComponent("crashtexts/tune/078-metal-validation.txt")
        let (report, diagnosis) = try diagnoseFile(url)
        #expect(report.facts.statedMessages.isEmpty)
        #expect(diagnosis.throwSite == "metal.api-validation", "\(diagnosis.headline)")
        #expect(diagnosis.certainty != .stated)
        #expect(diagnosis.headline.contains("Likely"), "\(diagnosis.headline)")
        #expect(
            diagnosis.causes.contains { cause in (cause.frames ?? []).contains { $0.contains("validateCommonDrawErrors") } },
            "\(diagnosis.causes)")
    }
}
