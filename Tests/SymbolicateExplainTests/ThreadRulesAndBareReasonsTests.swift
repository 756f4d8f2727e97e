import Foundation
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// A framework's words that a main-thread-only call came from another thread, read as a sentence
/// (any framework's wording, not a list of them), and exception reasons printed without libobjc's
/// line: the name and reason cut from it, a method's reason without Foundation's colon, a reason in
/// Application Specific Information above the throw's frames (issue 48). Each text is an excerpt of
/// a real public post (its URL above the test), or a warning in the words Apple's frameworks print.
@Suite struct ThreadRulesAndBareReasonsTests {
    // MARK: - Main-thread-only rules

    /// AppKit's reason alone, as a poster pasted it. https://github.com/aonez/Keka/issues/861
    @Test func appKitsMainThreadRuleAloneIsAStatedCause() throws {
        let diagnosis = try diagnoseText("NSWindow drag regions should only be invalidated on the Main Thread!\n")
        #expect(diagnosis.headline.contains("NSWindow drag regions"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("wrong thread"), "\(diagnosis.said)")
    }

    /// The same words under the unified log's `[General]` prefix, after AppKit's line that an
    /// exception was raised. https://github.com/namhokim/cocoa_app/issues/40
    @Test func appKitsMainThreadRuleUnderALogPrefix() throws {
        let diagnosis = try diagnoseText(
            """
            2020-10-12 15:42:36.835266+0900 Contact[54019:228125] [General] An uncaught exception was raised
            2020-10-12 15:42:36.835646+0900 Contact[54019:228125] [General] NSWindow drag regions should only be invalidated on the Main Thread!
            """)
        #expect(diagnosis.headline.contains("NSWindow drag regions"), "\(diagnosis.headline)")
    }

    /// React Native's log of an exception its bridge caught and made fatal, quoting UIKit's reason.
    /// https://github.com/doefler/react-native-social-share/issues/20
    @Test func aQuotedMainThreadReasonInAFatalLog() throws {
        let diagnosis = try diagnoseText(
            """
            CrashlyticsReactLogFunction_block_invoke line 203 $ REACT LOG: 2016-05-06 19:32:46.904 [fatal][tid:com.facebook.React.KDSocialShareQueue] Exception '-[UIKeyboardTaskQueue waitUntilAllTasksAreFinished] may only be called from the main thread.' was thrown while invoking shareOnFacebook on target KDSocialShare with params
            """)
        #expect(diagnosis.said.contains("waitUntilAllTasksAreFinished"), "\(diagnosis.said)")
    }

    /// The requirement is read from the sentence's parts, whatever the framework's wording; advice
    /// about blocking the main thread, a queue's name and SwiftUI's warning are not such a rule.
    @Test(arguments: [
        ("NSWindow drag regions should only be invalidated on the Main Thread!", true),
        ("-[UIKeyboardTaskQueue waitUntilAllTasksAreFinished] may only be called from the main thread.", true),
        ("Call must be made on main thread", true),
        ("Not on main thread!", true),
        ("UIKit Consistency error: you are calling a UIKit method that can only be invoked from the UI thread.", true),
        (
            "Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread.",
            true
        ),
        ("UIView setAnimationsEnabled being called from a background thread.", true),
        ("This method should not be called on the main thread as it may lead to UI unresponsiveness.", false),
        ("This method must not be called on the main thread", false),
        (
            "Publishing changes from background threads is not allowed; make sure to publish values from the main thread (via operators like receive(on:)) on model updates.",
            false
        ),
        ("Thread 0 Crashed:: Dispatch queue: com.apple.main-thread", false),
        ("Performing I/O on the main thread can cause hangs.", false),
        ("The main thread is blocked.", false),
    ])
    func mainThreadRequirement(line: String, isStatement: Bool) {
        #expect(MainThreadRequirement.isStatement(Substring(line)) == isStatement, "\(line)")
    }

    /// An exception's reason that states the rule puts the thread first among the causes.
    /// https://github.com/Tencent/mars/issues/6
    @Test func aMainThreadReasonLeadsTheExceptionsCauses() throws {
        let diagnosis = try diagnoseText(
            """
            'NSInternalInconsistencyException', reason: '-[UIKeyboardTaskQueue waitUntilAllTasksAreFinished] may only be called from the main thread.'
            """)
        #expect(diagnosis.headline.contains("NSInternalInconsistencyException"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("may only be called from the main thread"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.text.contains("main-thread-only") == true, "\(diagnosis.causes.map(\.text))")
    }

    // MARK: - Reasons without libobjc's line

    /// The name and reason with the words before them cut are still the exception's.
    @Test(arguments: [
        ("'NSInternalInconsistencyException', reason: 'Call must be made on main thread'", "NSInternalInconsistencyException"),
        ("App[12:34] 'RLMException', reason: 'Realm accessed from incorrect thread.'", "RLMException"),
    ])
    func anExceptionFragmentIsRead(line: String, name: String) {
        #expect(ConsoleLine.exceptionFragment(line)?.name == name)
        #expect(ConsoleLine.exceptionFragment("it's 'x y', reason: 'z'") == nil)
    }

    /// AVFoundation's reason opens with its method and no colon after it.
    /// https://github.com/SilenceLove/HXPhotoPicker/issues/737
    @Test func aMethodReasonWithoutItsColon() throws {
        let diagnosis = try diagnoseText(
            """
            EXC_CRASH (SIGABRT)
            *** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first
            """)
        #expect(diagnosis.headline.contains("Cannot append sample buffer"), "\(diagnosis.headline)")
    }

    /// Foundation's warnings share the format; only a refusal without the colon is a reason.
    @Test func foundationsWarningInTheSameFormatIsNoReason() {
        let warning =
            "*** -[NSKeyedUnarchiver validateAllowedClass:forKey:] allowed unarchiving safe plist type ''NSString' (0x1f1712fa0)' for key 'NS.keys', even though it was not explicitly included in the client allowed classes set: '{()}'. This will be disallowed in the future."
        #expect(!CrashMessageGrammar.isMethodReason(Substring(warning)))
        #expect(CrashMessageGrammar.isMethodReason("*** -[__NSCFConstantString stringByAppendingString:]: nil argument"))
    }

    /// A crash service's Application Specific Information holding only the reason, above frames
    /// that pass through the throw: the reason is the exception's, and the API that raised it is named.
    /// https://github.com/flutter/flutter/issues/159067
    @Test func aReasonInApplicationSpecificInformationAboveTheThrow() throws {
        let text = """
            OS Version: iOS 17.6.1 (21G93)
            Report Version: 104

            Exception Type: EXC_CRASH (SIGABRT)
            Crashed Thread: 0

            Application Specific Information:
            Cannot finish a purchasing transaction

            Thread 0 Crashed:
            0   CoreFoundation                  0x32c315f20         __exceptionPreprocess
            1   libobjc.A.dylib                 0x31c0bf2b4         objc_exception_throw
            2   CoreFoundation                  0x32c4146d8         +[NSException raise:format:]
            3   StoreKit                        0x37ec437b8         -[SKPaymentQueue finishTransaction:]
            4   in_app_purchase_storekit        0x1021c89ac         <unknown> + 56
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        #expect(report.facts.uncaughtException?.exception.reason == "Cannot finish a purchasing transaction")
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.contains("Cannot finish a purchasing transaction"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("-[SKPaymentQueue finishTransaction:]"), "\(diagnosis.said)")
    }

    /// Without the throw's frames (the Flutter report's reason over an abort's frames), a line of Application
    /// Specific Information is no exception's reason.
    @Test func applicationSpecificInformationWithoutAThrowIsNoReason() throws {
        let text = """
            Exception Type: EXC_CRASH (SIGABRT)
            Crashed Thread: 0

            Application Specific Information:
            Cannot finish a purchasing transaction

            Thread 0 Crashed:
            0   libsystem_kernel.dylib          0x1d5d3a42c         __pthread_kill + 8
            1   libsystem_c.dylib               0x1b0fc0c4c         abort + 180
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        #expect(report.facts.uncaughtException == nil)
    }

    /// The method's reason opening the line, its stars and sign lost, above a crash service's
    /// exception title and frames. https://github.com/NextLevel/NextLevelSessionExporter/issues/13
    @Test func aMethodReasonOpeningTheLine() throws {
        let diagnosis = try diagnoseText(
            """
            [AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first
            NextLevelSessionExporterencodetoWriterInput(_:_:)

            Fatal Exception: NSInternalInconsistencyException
            0  CoreFoundation                 0x22015bf50 __exceptionPreprocess
            1  libobjc.A.dylib                0x21f358284 objc_exception_throw
            2  AVFoundation                   0x2262d0bcc __41-[AVAssetWriterInput appendSampleBuffer:]_block_invoke
            3  NextLevelSessionExporter       0x1010fc704 NextLevelSessionExporterencodetoWriterInput(_:_:) (NextLevelSessionExporter.swift:429)
            """)
        #expect(diagnosis.headline.contains("NSInternalInconsistencyException"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Cannot append sample buffer"), "\(diagnosis.headline)")
        #expect(!CrashMessageGrammar.isMethodReason("[General] An uncaught exception was raised"))
    }

    /// A crash service's Application Specific Information holding a method's reason, above frames
    /// through the throw. https://github.com/onfido/onfido-ios-sdk/issues/220
    @Test func aMethodReasonInApplicationSpecificInformation() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type: EXC_CRASH (SIGABRT)
            Crashed Thread: 13

            Application Specific Information:
            *** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first

            Thread 13 Crashed:
            0   CoreFoundation                  0x3189989d8         <redacted>
            1   libobjc.A.dylib                 0x3411b8b54         objc_exception_throw
            2   AVFCore                         0x32753d7bc         <redacted>
            3   Onfido                          0x1029b3158         __swift_memcpy17_8
            """)
        #expect(diagnosis.headline.contains("Cannot append sample buffer"), "\(diagnosis.headline)")
    }

    /// libobjc's line wrapped after the name, the reason's label opening the next line and the
    /// reason running over three. https://github.com/FLEXTool/FLEX/pull/700
    @Test func aReasonWrappedUnderItsName() throws {
        let diagnosis = try diagnoseText(
            """
            *** Assertion failure in void _UIGraphicsBeginImageContextWithOptions(CGSize, BOOL, CGFloat, BOOL)(),
                UIGraphics.m:410
            *** Terminating app due to uncaught exception 'NSInternalInconsistencyException',
                reason: 'UIGraphicsBeginImageContext() failed to allocate CGBitampContext:
                size={0, 0}, scale=3.000000, bitmapInfo=0x2002.
                Use UIGraphicsImageRenderer to avoid this assert.'
            libc++abi: terminating due to uncaught exception of type NSException
            """)
        #expect(diagnosis.headline.contains("failed to allocate CGBitampContext"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("UIGraphicsImageRenderer"), "\(diagnosis.headline)")
    }

    // MARK: - Last words after the first failure

    /// Rust's runtime aborting after UIKit's assertion and Foundation's complaint: the assertion
    /// is the verdict, Rust's words what ended the process. https://github.com/ryanmcgrath/cacao/pull/85
    @Test func rustsRuntimeWordsAfterAnAssertion() throws {
        let diagnosis = try diagnoseText(
            """
            *** Assertion failure in Class _UIApplicationGetPrincipalClass(NSString *__strong)(), UIApplication.m:5111
            *** -[NSAutoreleasePool release]: This pool has already been drained, do not release it (double release).
            fatal runtime error: Rust cannot catch foreign exceptions
            """)
        #expect(diagnosis.headline.contains("Assertion failure"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.contains { $0.text.contains("Rust cannot catch foreign exceptions") }, "\(diagnosis.causes.map(\.text))")
    }

    /// A panic whose unwinding could not start: both statements are said, the panic first.
    /// https://github.com/juchiast/boxcrash/issues/2
    @Test func aPanicThenTheRuntimesFailure() throws {
        let diagnosis = try diagnoseText(
            """
            thread '<unnamed>' panicked at 'called `Option::unwrap()` on a `None` value', src/libcore/option.rs:323
            note: Run with `RUST_BACKTRACE=1` for a backtrace.
            fatal runtime error: failed to initiate panic, error 5
            """)
        #expect(diagnosis.headline.contains("Option::unwrap()"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.contains { $0.text.contains("failed to initiate panic") }, "\(diagnosis.causes.map(\.text))")
    }

    // MARK: - Frames and names after other tools' words

    /// gdb's frames print each function's arguments after its name (`__pthread_kill ()`,
    /// `std::terminate() ()`): the name is read without them, so the abort path is seen.
    /// https://github.com/rust-lang/rust/issues/46796
    @Test func gdbsArgumentListsAreNotPartOfTheName() throws {
        let text = """
            #0	0x00000001838e9348 in __pthread_kill ()
            #1	0x00000001839fd354 in pthread_kill$VARIANT$mp ()
            #2	0x0000000183858fd8 in abort ()
            #3	0x00000001832bc068 in abort_message ()
            #4	0x00000001832bc16c in default_terminate_handler() ()
            #5	0x00000001832d454c in std::__terminate(void (*)()) ()
            #6	0x00000001832d45c0 in std::terminate() ()
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        let names = report.crashedThread?.frames.compactMap(\.symbol) ?? []
        #expect(names.prefix(3) == ["__pthread_kill", "pthread_kill$VARIANT$mp", "abort"], "\(names)")
        #expect(names.last == "std::terminate()", "\(names)")
        #expect(diagnose(report).headline.contains("terminate"))
        let swift = try #require(
            PastedFrameGrammar.parse(
                "#3 0x00000001045e8e6c in MyApp.ViewController.viewDidLoad() -> () at ViewController.swift:20", reportLine: 1))
        #expect(swift.symbol == "MyApp.ViewController.viewDidLoad() -> ()")
    }

    /// Kotlin/Native's exception after a logger's own words on the line.
    /// https://github.com/rsocket/rsocket-kotlin/issues/150
    @Test func aKotlinExceptionAfterALoggersWords() throws {
        let line =
            "Mon, 19 Apr 2021 08:25:38 UTC ❌ APP: kotlin.native.concurrent.InvalidMutabilityException: mutation attempt of frozen my.namespace.sdk.APP@5040d6d8"
        let parsed = ManagedExceptionLine.parse(Substring(line))
        #expect(parsed?.name == "kotlin.native.concurrent.InvalidMutabilityException")
        #expect(parsed?.message == "mutation attempt of frozen my.namespace.sdk.APP@5040d6d8")
        #expect(ManagedExceptionLine.parse("at 0 APP Demo 0x10d4af1ff kfun:kotlin.Throwable#<init>(kotlin.String?){} + 95") == nil)
        let diagnosis = try diagnoseText(line + "\n")
        #expect(diagnosis.headline.contains("InvalidMutabilityException"), "\(diagnosis.headline)")
    }

    /// A reporter that puts the exception's name where Apple puts the Mach exception puts its
    /// reason under `Exception Subtype:`. https://github.com/tigerAndBull/TABAnimated/issues/214
    @Test func theSubtypeUnderAnExceptionsNameIsItsReason() throws {
        let text = """
            Hardware Model:      iPhone14,5
            Code Type:           arm64
            OS Version:          iOS 15.6.1 (19G82)
            Report Version:      105

            Exception Type:  NSInternalInconsistencyException
            Exception Subtype: UITableView dataSource returned a nil cell for row at index path: <NSIndexPath: 0x9f8f65ddc8230d42> {length = 2, path = 0 - 0}.

            Thread 0 name:
            Thread 0 Crashed:
            0   CoreFoundation                 \t 0x00000001cb05d288 __exceptionPreprocess (CoreFoundation)
            1   libobjc.A.dylib                \t 0x00000001e3d8d744 objc_exception_throw (libobjc.A.dylib)
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.crash")
        #expect(report.exception?.uncaught?.reason?.hasPrefix("UITableView dataSource returned a nil cell") == true)
        #expect(diagnose(report).headline.contains("returned a nil cell"))
    }
}
