import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 48's families as explain states them: a paste's leading cause names the app's frame,
/// dyld's headline states its message, libdispatch's raising frames name their check when the
/// text states nothing. The examples are real crash texts of Fixtures/crashtexts/tune (each
/// file's thread is its `source`).
@Suite struct CrashFamilyDiagnosisTests {
    static func diagnoseTune(_ file: String) throws -> Diagnosis {
        try diagnoseFile(TestPaths.fixtures.appendingPathComponent("crashtexts/tune/\(file)")).1
    }

    /// Frames alone that pass through a library's own check the throw-site catalogue knows
    /// (holdout2's texts, measured once in session 3 and kept since as examples): the process
    /// stopped itself, likely, and the catalogue's rule leads. A Last Exception Backtrace given
    /// alone is the throw's own frames.
    @Test(arguments: [
        // https://github.com/getsentry/sentry-cocoa/issues/3336 (Crashlytics; no exception line)
        ("339-os-unfair-lock-corruption.txt", Diagnosis.Category.abort, "libplatform.unfair-lock-corrupt"),
        // https://github.com/WalletConnect/WalletConnectSwiftV2/issues/1046 (Crashlytics, cut)
        ("345-swift-continuation-misuse.txt", .abort, "swift.checked-continuation-resumed-twice"),
        // https://github.com/transistorsoft/flutter_background_fetch/issues/414 (the backtrace only)
        ("305-bgtask-registration.txt", .uncaughtObjCException, "backgroundtasks.register-launch-handler"),
    ])
    func framesThroughALibrarysCheckNameItsRule(file: String, category: Diagnosis.Category, rule: String) throws {
        let (_, diagnosis) = try diagnoseFile(TestPaths.fixtures.appendingPathComponent("crashtexts/holdout2/\(file)"))
        #expect(diagnosis.category == category, "\(file): \(diagnosis.headline)")
        #expect(diagnosis.certainty == .likely)
        #expect(diagnosis.throwSite == rule, "\(file): \(diagnosis.headline)")
    }

    /// A paste without Binary Images: a cause carries the app's frame, found by what the frame
    /// lines name (a module, a source file), whichever rule leads.
    @Test(arguments: [
        // https://github.com/dennisreimann/ioctocat/issues/250 (HockeyApp columns)
        ("190-uikit-invalid-update.txt", "EventsController"),
        // https://github.com/hilen/TimedSilver/pull/3 (callStackSymbols)
        ("153-swift-exclusivity.txt", "ts_observationRemoversForObject"),
        // https://github.com/Instabug/Instabug-iOS/issues/170 (source places and symbols)
        ("111-objc-nil-insert.txt", "userEventLogs"),
        // https://github.com/Instabug/Instabug-Cordova/issues/90 (Main Thread Checker's backtrace)
        ("057-main-thread-checker.txt", "updateNetworkActivityIndicator"),
        // https://github.com/OpenTreeMap/otm-ios/issues/362 (quoted file and line)
        ("198-uikit-present-active-controller.txt", "OTMAllInstancesTableViewController"),
    ])
    func aPastesCauseNamesTheAppsFrame(file: String, function: String) throws {
        let diagnosis = try Self.diagnoseTune(file)
        #expect(diagnosis.causes.contains { ($0.frames ?? []).contains { $0.contains(function) } }, "\(file): \(diagnosis.causes)")
    }

    /// dyld's message leads its headline, the library and dyld's reason with it.
    /// https://github.com/DroidKaigi/conference-app-2020/issues/766
    /// LLDB text that went through Markdown (`thread \#1`, `libc.so.6\`\_\_GI_raise`, `+` list
    /// marks) is read without the escapes, and glibc's `__assert_fail` is C `assert()`'s stop as
    /// Apple's `__assert_rtn` is (holdout3's text, measured once in session 4 and kept since).
    /// https://github.com/swiftlang/llvm-project/issues/4515
    @Test func markdownEscapedLLDBTextWithGlibcsAssert() throws {
        let (report, diagnosis) = try diagnoseFile(TestPaths.fixtures.appendingPathComponent("crashtexts/holdout3/401-assert-fail.txt"))
        #expect(report.warnings.contains { $0.message.contains("Markdown") })
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.contains { $0.symbol?.hasPrefix("__assert_fail_base") == true })
        #expect(diagnosis.category == .assertionFailure, "\(diagnosis.headline)")
    }

    /// Android bionic's, newlib's and musl's assert handlers, as frames alone.
    @Test(arguments: ["__assert2", "__assert_func", "__assert_fail"])
    func eachCLibrarysAssertHandlerIsAnAssertion(handler: String) throws {
        let text = """
            Thread 0 Crashed:
            0   libc.so                       0x0000000000001000 abort + 16
            1   libc.so                       0x0000000000002000 \(handler) + 40
            2   MyApp                         0x0000000000003000 parse_header + 12
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.category == .assertionFailure, "\(handler): \(diagnosis.headline)")
    }

    /// A framework's reason printed alone above frames that pass through the throw (an
    /// exception handler's log line, then `callStackSymbols`): the message the knowledge names is
    /// the throw's reason, though no reader read the line as anything.
    /// https://github.com/Tencent/QMUI_iOS/issues/800
    @Test func aKnownReasonAloneAboveTheThrowFrames() throws {
        let diagnosis = try Self.diagnoseTune("004-autolayout-background-thread.txt")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.headline.contains("background thread"), "\(diagnosis.headline)")
        // Prose that names no message the knowledge has stays the generic throw.
        let plain = try diagnoseText(
            """
            It crashed again when I tapped the button twice
            0   CoreFoundation                0x00000001974f9820 __exceptionPreprocess + 220
            1   libobjc.A.dylib               0x0000000197221fa4 objc_exception_throw + 56
            2   MyApp                         0x0000000104a2c1f0 -[ViewController tap:] + 40
            """)
        #expect(plain.category == .uncaughtObjCException)
        #expect(!plain.headline.contains("tapped"))
    }

    @Test func dyldsMessageLeadsTheHeadline() throws {
        let diagnosis = try Self.diagnoseTune("040-dyld-library-not-loaded.txt")
        #expect(diagnosis.category == .missingLibrary)
        #expect(
            diagnosis.headline.contains("Library not loaded: @rpath/ios_combined.framework/ios_combined (Reason: image not found)"),
            "\(diagnosis.headline)")
    }

    /// libdispatch's raising frame alone names its check (likely, never stated), and the cause
    /// carries that frame and the app's.
    @Test(arguments: [
        // https://github.com/manaflow-ai/cmux/issues/3316
        ("034-dispatch-sync-reentrancy.txt", "DISPATCH_WAIT_FOR_QUEUE", "ingestBlocking"),
        // https://github.com/n0an/VivaDicta/pull/316
        ("032-dispatch-assert-queue.txt", "_dispatch_assert_queue_fail", nil),
    ])
    func libdispatchsRaisingFrameNamesItsCheck(file: String, frame: String, appFunction: String?) throws {
        let diagnosis = try Self.diagnoseTune(file)
        #expect(diagnosis.category == .dispatchMisuse, "\(diagnosis.headline)")
        #expect(diagnosis.certainty == .likely)
        let frames = diagnosis.causes.flatMap { $0.frames ?? [] }
        #expect(frames.contains { $0.contains(frame) }, "\(diagnosis.causes)")
        if let appFunction { #expect(frames.contains { $0.contains(appFunction) }, "\(diagnosis.causes)") }
    }
}
