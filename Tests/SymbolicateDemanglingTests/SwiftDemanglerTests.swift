import Foundation
import SymbolicateDemangling
import SymbolicateTestSupport
import Testing

/// Swift names as `swift-demangle --simplified` prints them (and atos, and Apple's reports).
@Suite struct SwiftDemanglerTests {
    /// Every name of Fixtures/names/swift.tsv (the Linux fixtures' partial applies, merged
    /// functions, specializations, async and thunk suffixes; Embedded Swift; the Swift 4 `_T0`
    /// and Swift 5 `$s` names of sentry-cocoa's reports), bare and with Mach-O's underscore.
    @Test func everyFixtureNameMatchesSwiftDemangle() throws {
        let pairs = try NameFixtures.pairs("swift.tsv")
        #expect(pairs.count >= 150)
        for suffix in ["TA", "Tm", "Tf4d_n", "Tg5", "TR", "Tu", "To"] {
            #expect(pairs.contains { $0.mangled.contains(suffix) }, "no \(suffix) name in the fixture")
        }
        var differences: [String] = []
        for (mangled, answer) in pairs {
            let names =
                mangled.hasPrefix("_$")
                ? [mangled, String(mangled.dropFirst())] : [mangled, mangled.hasPrefix("$") ? "_" + mangled : mangled]
            for name in names where Demangler.demangle(name) != answer {
                differences.append("\(name)\n  ours           \(Demangler.demangle(name) ?? "nil")\n  swift-demangle \(answer)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(8).joined(separator: "\n"))")
    }

    /// The recorded answers are what the toolchain's swift-demangle prints today.
    @Test func recordedAnswersAreSwiftDemangles() throws {
        guard let tool = ExternalTool.find("swift-demangle") else {
            print("SwiftDemanglerTests: skipped: swift-demangle not found")
            return
        }
        let pairs = try NameFixtures.pairs("swift.tsv")
        let theirs = try ExternalTool.run(tool, ["--simplified"], stdin: pairs.map(\.mangled).joined(separator: "\n") + "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(theirs.count >= pairs.count)
        #expect(zip(pairs, theirs).allSatisfy { $0.0.answer == $0.1 })
    }

    @Test(arguments: [
        ("$s20sentry_ios_cocoapods14ViewControllerC10causeCrashyyypF", "ViewController.causeCrash(_:)"),
        ("_$s20sentry_ios_cocoapods14ViewControllerC10causeCrashyyypF", "ViewController.causeCrash(_:)"),
        ("_T08tadadgsf5TestyC5crashyyF", "Testy.crash()"),
        ("$s15iOSCrashingTest10CrashClassC06pleaseC0yyFZTf4d_n", "specialized static CrashClass.pleaseCrash()"),
    ])
    func simplified(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
    }

    /// Objective-C and C names are never touched.
    @Test(arguments: ["-[UIApplication sendEvent:]", "__44-[SentryBreadcrumbTracker swizzleSendAction]_block_invoke_2", "main", "$", "_$"])
    func notSwift(name: String) {
        #expect(Demangler.demangle(name) == nil)
    }
}
