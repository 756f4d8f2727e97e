import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Runtimes' and libraries' own last words (issue 48), from holdout18 once it was measured:
/// Crystal's fault handler and its `CallStack` frames, any engine's `Assertion failed:`,
/// wxWidgets' `file(line): assert`, libc++'s hardening assertion, libobjc's refusal of a Swift
/// category's `+load`, AVAssetWriter's refused append. Sources in `manifest.json`.
@Suite struct RuntimesLastWordsTests {
    /// https://github.com/crystal-lang/crystal/issues/7098
    @Test func crystalsFaultHandlerIsTheSignalAndItsAddress() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1911-crystal-invalid-memory-access.txt")
        #expect(report.exception?.type == "SIGSEGV")
        #expect(report.exception?.codes == "0x7ffff0")
        #expect(diagnosis.category == .badMemoryAccess)
        let frame = try #require(report.allBacktraces.flatMap(\.frames).first { $0.symbol == "*Crystal::Scheduler#reschedule:Nil" })
        #expect(frame.address == 0x10cdf065a && frame.symbolOffset == 266)
        #expect(PastedFrameGrammar.bracketedAddress("[0x10cdf065a]", 1) == nil)
    }

    /// Unreal's `Assertion failed: EXPR [File:…] [Line: N]`.
    /// https://github.com/OldUnreal/UnrealTournamentPatches/issues/1240
    @Test func anEnginesAssertionFailedLine() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1950-unreal-assertion.txt")
        #expect(report.facts.statedMessages.first?.family == .assertion)
        #expect(diagnosis.headline.contains("GetPropertiesSize()>=sizeof(UObject)"), "\(diagnosis.headline)")
    }

    @Test(arguments: [
        ("src/osx/menuitem_osx.cpp(39): assert \"id != 0\" failed in wxMenuItem(): A MenuItem ID of Zero", true),
        ("/usr/include/c++/v1/vector:1459: assertion __n < size() failed: vector[] index out of bounds", true),
        ("objc[21581]: Swift class extensions and categories on Swift classes are not allowed to have +load methods", true),
        ("QWidget: Must construct a QApplication before a QWidget", true),
        ("The assertion in vector:12 was fine", false),
        ("Read chapter(3): assert yourself", false),
    ])
    func librariesLastWords(line: String, stated: Bool) {
        #expect((CrashMessageGrammar.match(line) != nil) == stated, "\(line)")
    }

    /// AVAssetWriter's reason alone, in the throw-site table's words.
    /// https://github.com/Vodolazkyi/VAVideoCompressor/issues/1
    @Test func anAssetWritersRefusedAppend() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout18/1905-avassetwriter-input-append-rejected.txt")
        #expect(diagnosis.throwSite == "avfoundation.assetwriter.append-rejected")
        #expect(diagnosis.headline.contains("readyForMoreMediaData is NO"), "\(diagnosis.headline)")
    }
}
