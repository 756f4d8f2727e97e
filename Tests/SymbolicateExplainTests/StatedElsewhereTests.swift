import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Crash texts whose cause is stated in words of their own (issue 48): a reason printed just above
/// a throw's call stack, a Swift fatal error placed at a module with no file, a Mach exception
/// under another tool's label, other runtimes' banners (R's caught signal, GHC's panic), a
/// bridge's report of a native exception, names listed under a stack's heading, a library that
/// raised its own exception, a framework that says it went on, frames of a toolchain's standard
/// library, the command typed before a frameless crash, the code above Xcode's banner and the
/// line after a failed assertion. Real public texts of holdout15 (measured once, then tuned on)
/// and of the tune part; their sources are in `manifest.json`.
@Suite struct StatedElsewhereTests {
    /// `Use of the class INVocabulary requires the entitlement …` over `Call stack: (` and frames
    /// through `objc_exception_throw`: the line is the exception's likely reason.
    /// https://github.com/hugeBlack/LiveContainer/issues/18
    @Test func theLineAboveAThrowsCallStackIsItsReason() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1634-siri-entitlement-missing.txt")
        #expect(report.facts.lastOutput.map(\.text).last?.hasPrefix("Use of the class INVocabulary requires") == true)
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.headline.contains("requires the entitlement com.apple.developer.siri"), "\(diagnosis.headline)")
    }

    /// `SwiftUI:0: Fatal error: …`: the runtime names the module where the binary kept no file.
    /// https://github.com/woocommerce/woocommerce-ios/pull/5824
    @Test func aFatalErrorAtAModuleIsTheSwiftRuntimes() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1643-swiftui-layout-item-once.txt")
        #expect(report.facts.statedMessages.first?.family == .swiftRuntime)
        #expect(diagnosis.category == .swiftRuntimeError)
        #expect(diagnosis.headline.contains("each layout item may only occur once"), "\(diagnosis.headline)")
        #expect(ConsoleLine.swiftRuntimeError("12:34:56: Fatal error: x")?.file == nil)
    }

    /// `Exception: EXC_BREAKPOINT (SIGTRAP)`: a Mach exception under a label no reader reads as
    /// a field is stated; `Exception Type:` stays the field's.
    /// https://github.com/nguyenphutrong/quotio/issues/103
    @Test func aMachExceptionUnderAnotherLabelIsStated() throws {
        let (report, _) = try diagnoseCrashText("holdout15/1640-swift-string-index-out-of-bounds.txt")
        #expect(report.facts.exception?.machType == "EXC_BREAKPOINT" || report.facts.exception?.signalName == "SIGTRAP")
        #expect(MachExceptionLine.namedInSentence("Exception: EXC_BREAKPOINT (SIGTRAP)"))
        #expect(!MachExceptionLine.namedInSentence("Exception Type: EXC_BREAKPOINT (SIGTRAP)"))
        #expect(!MachExceptionLine.namedInSentence("Exception subtype: EXC_UNIX_ABORT"))
        // The names listed under `Call Stack:` are the thread's frames.
        let names = report.crashedThread?.frames.compactMap(\.symbol) ?? []
        #expect(
            names.prefix(3) == [
                "_assertionFailure(_:_:file:line:flags:)", "_StringGuts.validateCharacterIndex(_:)", "String.index(after:)",
            ])
    }

    /// Names listed under a stack's heading, bullets or numbered calls; prose is not.
    @Test func namesListedUnderAHeadingAreFrames() {
        #expect(PastedThreadTitle.parse("Call Stack:")?.name == nil)
        #expect(PastedThreadTitle.parse("Traceback:") != nil)
        #expect(PastedThreadTitle.listedName("- String.index(after:)") == "String.index(after:)")
        #expect(PastedThreadTitle.listedName("1: initMethodDispatch(where)") == "initMethodDispatch(where)")
        #expect(PastedThreadTitle.listedName("- [Quotio app code]") == nil)
        #expect(PastedThreadTitle.listedName("- open the app and tap the button") == nil)
        #expect(PastedThreadTitle.listedName("2. Tap the button (twice)") == nil)
        // A frame line a person pointed at with arrows is the frame.
        let pointed = PastedFrameGrammar.parseNumbered("==> UIKitCore: -[UIView layoutSubviews] + 76 <==", reportLine: 1)?.frame
        #expect(pointed?.symbol == "-[UIView layoutSubviews]" && pointed?.imageName == "UIKitCore")
        #expect(PastedFrameGrammar.pointedFrameLine("->  0x100003f80 <+16>: ldr x8, [x8]") == nil)
    }

    /// R's handler: `*** caught segfault ***` (and its other signals) ends the process.
    /// https://github.com/microsoft/microsoft-r-open/issues/33
    @Test func rsCaughtSignalBannerIsASignal() throws {
        #expect(SignalLine.signal(in: "*** caught segfault ***") == "SIGSEGV")
        #expect(SignalLine.signal(in: " *** caught bus error ***") == "SIGBUS")
        #expect(SignalLine.signal(in: "*** caught illegal operation ***") == "SIGILL")
        #expect(SignalLine.signal(in: "*** caught nothing ***") == nil)
        #expect(CrashMessageGrammar.match(" *** caught segfault ***")?.family == .signal)
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1627-r-caught-segfault.txt")
        #expect(report.facts.exception?.signalName == "SIGSEGV")
        #expect(diagnosis.category != .notACrash)
        // Its `Traceback:` calls are the frames.
        #expect(report.crashedThread?.frames.first?.symbol == "initMethodDispatch(where)")
    }

    /// GHC's `panic! (the 'impossible' happened)` is said beside the dyld failure it reports.
    /// https://github.com/commercialhaskell/stack/issues/236
    @Test func ghcsPanicIsStated() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout15/1613-ghc-panic.txt")
        #expect(diagnosis.said.contains("panic! (the 'impossible' happened)"), "\(diagnosis.said)")
    }

    /// React Native's `Exception 'REASON' was thrown while invoking show on target X with params (`.
    /// https://github.com/naoufal/react-native-safari-view/issues/90
    @Test func aBridgesNativeExceptionIsStated() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1632-safari-vc-unsupported-scheme.txt")
        #expect(report.facts.statedMessages.first?.family == .objcException)
        #expect(diagnosis.headline.contains("unsupported scheme"), "\(diagnosis.headline)")
    }

    /// Zig's frames in its `lib/std/` are the toolchain's: the app's line is the build script's.
    /// https://github.com/ziglang/translate-c/issues/26
    @Test func aToolchainsStandardLibraryIsNotTheAppsCode() throws {
        let (report, _) = try diagnoseCrashText("holdout15/1655-zig-panic.txt")
        let line = try #require(report.crashedAppLine)
        #expect(line.file?.hasSuffix("build.zig") == true && line.line == 124, "\(String(describing: line.file))")
        #expect(AppLine.isLibrary("/Users/x/zig-aarch64-macos/lib/std/debug.zig"))
        #expect(!AppLine.isLibrary("/Users/x/translate-c/build.zig"))
    }

    /// Realm raised `RLMException` from its own functions linked into the app: the app's line is
    /// the first app frame past them, the app delegate's call into Realm.
    /// https://github.com/realm/realm-swift/issues/4630
    @Test func theAppsLineIsPastTheRaisingLibrarysFrames() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout15/1630-realm-schema-version.txt")
        #expect(diagnosis.said.contains("didFinishLaunchingWithOptions"), "\(diagnosis.said)")
        #expect(Diagnostician.vendorPrefix("RLMException") == "RLM")
        #expect(Diagnostician.vendorPrefix("FIRAuthException") == "FIR")
        #expect(Diagnostician.vendorPrefix("NSInvalidArgumentException") == nil)
        #expect(Diagnostician.vendorPrefix("MyException") == nil)
        #expect(Diagnostician.carriesPrefix("+[RLMRealm realmWithConfiguration:error:]", "RLM"))
        #expect(!Diagnostician.carriesPrefix("-[UAGAppDelegate application:didFinishLaunchingWithOptions:]", "RLM"))
    }

    /// AppKit refused a modal run inside a transaction and says it went on (`… The modal dialog
    /// has been suppressed to avoid deadlock.`), with the caller's backtrace: not a crash.
    /// https://github.com/MegaMek/mekhq/issues/953
    @Test func aFrameworkThatSaysItWentOnIsNoCrash() throws {
        let url = TestPaths.fixtures.appendingPathComponent("crashtexts/holdout15/1620-near-miss.txt")
        let outcome = try? diagnoseFile(url)
        #expect(outcome == nil || outcome?.1.category == .notACrash, "\(String(describing: outcome?.1.headline))")
        #expect(NonFatalReport.isReport("The modal dialog has been suppressed to avoid deadlock."))
        #expect(!NonFatalReport.isReport("The request was ignored and the app crashed."))
    }

    /// No frames, and the text shows the command typed at R's prompt just before the crash: that
    /// is where to start.
    /// https://github.com/RevolutionAnalytics/RRO/issues/75
    @Test func theCommandBeforeAFramelessCrashIsWhereToStart() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1628-r-caught-segfault.txt")
        // Typed, not printed: kept apart from what the program printed, which the abort and
        // throw rules quote as its words.
        #expect(report.facts.lastCommand?.text == "> library(dplyr)")
        #expect(report.facts.lastOutput.isEmpty)
        #expect(diagnosis.causes.contains { $0.text.contains("library(dplyr)") }, "\(diagnosis.said)")
        #expect(FactReading.promptCommand(">>> import numpy") == "import numpy")
        #expect(FactReading.promptCommand("> ") == nil)
        #expect(FactReading.promptCommand("> 1") == nil)
    }

    /// Xcode's banner copied under the source line it marked (`let characterIndex = …` over
    /// `Error = "Thread 1: Fatal error: String index is out of bounds"`): that line is the place.
    /// https://github.com/wibosco/GhostTypewriter/issues/33
    @Test func theCodeAboveXcodesBannerIsItsPlace() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout15/1641-swift-string-index-out-of-bounds.txt")
        #expect(report.facts.statedMessages.first?.place?.contains("offsetBy: self.currentCharacterOffset") == true)
        #expect(diagnosis.said.contains("currentCharacterOffset"), "\(diagnosis.said)")
    }

    /// UIKit's `*** Assertion failure in …` then, from the same program, the line that says why.
    /// https://github.com/beeware/toga/issues/634
    @Test func theLineAfterAFailedAssertionSaysWhy() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/1744-uikit-app-delegate-class-not-loaded.txt")
        // A console line's words are read after its log prefix.
        #expect(report.facts.unreadLines.contains { $0.text.hasPrefix("Python runtime error: Unable to instantiate") })
        #expect(diagnosis.said.contains("No class named PythonAppDelegate is loaded"), "\(diagnosis.said)")
    }
}
