import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Texts that state a failure the process survived (refused as no crash), and stops stated in
/// words other layouts had not met: a message quoted in prose, a runtime's own fatal lines, a
/// test tool's report that the process died, frames in table rows and with decimal addresses
/// (issue 48). Each text is an excerpt of a real public post (its URL above the test).
@Suite struct SurvivedAndQuotedStopsTests {
    static func parseText(_ text: String) throws -> CrashReport {
        try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
    }

    /// Whether the text is refused as no crash, with the refusal's words.
    static func refusal(_ text: String) -> String? {
        do {
            _ = try parseText(text)
            return nil
        } catch let error as CrashReportError {
            return error.kind == .notACrashReport ? error.description : nil
        } catch {
            return nil
        }
    }

    // MARK: - Survived: refused

    /// ThreadSanitizer warns and goes on (AddressSanitizer's `ERROR:` ends the process).
    /// https://github.com/xmtp/libxmtp/issues/551
    @Test func aSanitizersWarningIsNoCrash() throws {
        let text = """
            WARNING: ThreadSanitizer: data race (pid=32149)
              Write of size 8 at 0x00011d343f88 by thread T17:
                #0 Swift.withUnsafeContinuation<A>((Swift.UnsafeContinuation<A, Swift.Never>) -> ()) async -> A <null> (LFEWallet:arm64+0x106988a60)
                #1 swift::runJobInEstablishedExecutorContext(swift::Job*) <null> (libswift_Concurrency.dylib:arm64+0x2eb3c)
            """
        let refused = try #require(Self.refusal(text))
        #expect(refused.contains("keeps running after"), "\(refused)")
        #expect(refused.contains("ThreadSanitizer"), "\(refused)")
        // UBSan's check at its source place goes on too; the words alone, elsewhere, are not UBSan's.
        #expect(
            Self.refusal("/src/x.c:12:5: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type int\n")?
                .contains("keeps running after") == true)
        #expect(Self.refusal("panic: runtime error: index out of range [5] with length 3\n")?.contains("keeps running after") != true)
    }

    /// An exception a framework caught and logged, with the throw's frames.
    /// https://github.com/morenoh149/react-native-contacts/issues/521
    @Test func aCaughtAndIgnoredExceptionIsNoCrash() throws {
        let text = """
            [xpc.exceptions] <NSXPCConnection: 0x2804ef720> connection to service on pid 1906 named com.apple.contactsd: Exception caught during invocation of reply block to message 'encodedContactsAndCursorForFetchRequest:withReply:'.

            Ignored Exception: A property was not requested when contact was fetched.
            (
            \t0   CoreFoundation                      0x000000019b940604 409609CD-8410-38E1-BA5D-BDED609D2018 + 1222148
            \t1   libobjc.A.dylib                     0x000000019b662bcc objc_exception_throw + 56
            \t4   GK-Mobile                           0x000000010166f99c -[RCTContacts contactToDictionary:withThumbnails:] + 968
            """
        #expect(Self.refusal(text) != nil)
    }

    /// `dlopen` returns its error to the caller (here a hot-reload tool, which logs it).
    /// https://github.com/johnno1962/InjectionIII/issues/199
    @Test func dlopensReturnedErrorIsNoCrash() throws {
        let text = """
            💉 Loading .dylib ...
            💉 *** dlopen() error: dlopen(/Users/bytegm/Library/Containers/com.johnholdsworth.InjectionIII/Data/eval102.dylib, 2): Symbol not found: _OBJC_CLASS_$_QWAppConfigCenter
              Referenced from: /Users/bytegm/Library/Containers/com.johnholdsworth.InjectionIII/Data/eval102.dylib
              Expected in: flat namespace
            """
        #expect(Self.refusal(text) != nil)
        // dyld's own launch failure is still a crash.
        #expect(Self.refusal("dyld: Symbol not found: _OBJC_CLASS_$_QWAppConfigCenter\n  Referenced from: /App\n") == nil)
    }

    /// A caught exception's log line does not hide an uncaught one below it.
    @Test func anUncaughtExceptionAfterACaughtOneIsACrash() throws {
        let report = try Self.parseText(
            """
            Exception caught during invocation of reply block
            *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[NSNull length]: unrecognized selector sent to instance 0x1'
            """)
        #expect(report.exception?.uncaught?.name == "NSInvalidArgumentException")
    }

    /// A resource report whose system took no action: explained, and marked as the process going on.
    /// https://github.com/firebase/firebase-ios-sdk/issues/6391
    @Test func aResourceReportWithNoActionKeptRunning() throws {
        let diagnosis = try diagnoseText(
            """
            Event:            disk writes
            Action taken:     none
            Writes:           1073.76 MB of file backed memory dirtied over 1537 seconds (698.57 KB per second average), exceeding limit of 12.43 KB per second over 86400 seconds
            Writes limit:     1073.74 MB
            Limit duration:   86400s

            Heaviest stack for the target process:
              103  ??? (libsystem_pthread.dylib + 14600) [0x1e1d3f908]
              103  ??? (libdispatch.dylib + 87336) [0x19a716528]
            """)
        #expect(diagnosis.processKeptRunning)
        #expect(!diagnosis.isFatal)
    }

    /// A memory limit a line states ended the process: not "kept running".
    /// https://github.com/JetBrains/compose-multiplatform/issues/4273 (the tune text's thread)
    @Test func aStatedMemoryLimitEndedTheProcess() throws {
        let diagnosis = try diagnoseText(
            """
            Process finished with exit code 137 (interrupted by signal 9: SIGKILL)
            EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=2867 MB)
            """)
        #expect(diagnosis.isFatal)
        #expect(!diagnosis.processKeptRunning)
    }

    // MARK: - Stops stated in other words

    /// The Swift runtime's line inside a sentence: its `file X.swift, line N` makes it the runtime's.
    /// https://github.com/stripe/stripe-ios/issues/1831
    @Test func aFatalErrorInsideASentenceIsTheRuntimes() throws {
        let report = try Self.parseText(
            """
            Error occurs when I try to launch my app (after installation of your SDK) -> Fatal error: init(coder:) has not been implemented: file Stripe/PaymentMethodTypeCollectionView.swift, line 62
            """)
        let error = try #require(report.exception?.runtimeError)
        #expect(error.message == "init(coder:) has not been implemented")
        #expect(error.file == "Stripe/PaymentMethodTypeCollectionView.swift")
        #expect(error.line == 62)
    }

    /// Xcode's annotation quoted in a sentence names the signal.
    /// https://github.com/open-trackers/Gym-Routine-Tracker-Watch-App/issues/24
    @Test func anAnnotatedSignalInASentenceIsTheSignal() throws {
        let report = try Self.parseText(
            """
            Testing with Xcode 15.0, app crashed with "Thread 1: signal SIGTERM" crash. Will try to reproduce and determine cause.
            """)
        #expect(report.exception?.signal == "SIGTERM" || report.exception?.type == "SIGTERM", "\(String(describing: report.exception))")
        // A thread named in prose with no annotation is nothing.
        #expect(Self.refusal("Thread 1 handles the signal SIGTERM path in our code review\n") != nil)
    }

    /// A sentence that leads to the exception's name, the reason wrapped onto the next line.
    /// https://github.com/mercari/QRScanner/issues/38
    @Test func anExceptionNamedInASentenceWithItsReasonBelow() throws {
        let report = try Self.parseText(
            """
            CrashDoctor Diagnosis: Application threw exception NSGenericException: ***
            -[AVCaptureSession startRunning] startRunning may not be called between calls to beginConfiguration and commitConfiguration
            """)
        let uncaught = try #require(report.exception?.uncaught)
        #expect(uncaught.name == "NSGenericException")
        #expect(
            uncaught.reason?.hasPrefix("-[AVCaptureSession startRunning] startRunning may not be called") == true,
            "\(uncaught.reason ?? "")")
    }

    /// libobjc's fatal line (after its `objc[pid]: ` prefix) is the stop; LLDB's prompt follows.
    /// https://github.com/xhzengAIB/MessageDisplayKit/issues/267
    @Test func libobjcsFatalLineIsTheStop() throws {
        let diagnosis = try diagnoseText(
            """
            objc[5776]: Cannot form weak reference to instance (0x7f836349cd80) of class XHShareMenuView. It is possible that this object was over-released, or is in the process of deallocation.
            (lldb)
            """)
        #expect(diagnosis.headline.contains("Cannot form weak reference"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("XHShareMenuView"))
        // Its warnings are not.
        #expect(
            Self.refusal(
                "objc[123]: Class FooBar is implemented in both /A.framework/A (0x1) and /B.app/B (0x2). One of the two will be used. Which one is undefined.\n"
            ) != nil)
    }

    /// CoreFoundation's forwarding gives up with `-- abort` after the app's own log lines; its
    /// `-- trouble ahead` line is a warning.
    /// https://github.com/wi3land/ionic-appauth-capacitor-demo/issues/10
    @Test func forwardingsAbortIsTheStop() throws {
        let text = """
            2020-03-26 17:22:06.041723+0100 App[98347:2843890] WF: _userSettingsForUser : (null)
            2020-03-26 17:22:06.074770+0100 App[98347:2843890] *** NSForwarding: warning: object 0x7fff89115030 of class 'PFEmbeddedMulticasterImplementation' does not implement methodSignatureForSelector: -- trouble ahead
            2020-03-26 17:22:06.074908+0100 App[98347:2843890] *** NSForwarding: warning: object 0x7fff89115030 of class 'PFEmbeddedMulticasterImplementation' does not implement doesNotRecognizeSelector: -- abort
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("doesNotRecognizeSelector: -- abort"), "\(diagnosis.headline)")
        #expect(Self.refusal(String(text.split(separator: "\n")[1]) + "\n") != nil)
    }

    /// A runtime's assert at its source place (Kotlin/Native's `RuntimeAssert`).
    /// https://github.com/JetBrains/kotlin-native/issues/4002
    @Test func aRuntimeAssertAtItsPlaceIsAnAssertion() throws {
        let report = try Self.parseText(
            """
            /Users/teamcity/buildAgent/work/4d622a065c544371/runtime/src/main/cpp/ObjCExport.mm:332: runtime assert: Unexpected selector clash
            """)
        #expect(report.facts.statedMessages.first?.family == .assertion)
        // A line that only mentions an assert in a sentence is not one.
        #expect(Self.refusal("We assert: this is fine in main.m:12 and nothing crashed\n") != nil)
    }

    /// XCTest's words that the test process died, the test's name after them.
    /// https://github.com/getsentry/sentry-cocoa/pull/5760
    @Test func aTestToolsReportOfTheProcessDyingIsAStop() throws {
        let diagnosis = try diagnoseText(
            """
            Error:     Restarting after unexpected exit, crash, or test timeout in SentryTracerTests.testConcurrentTransactions_OnlyOneGetsMeasurement(); summary will include totals from previous launches.
            """)
        #expect(diagnosis.category == .terminated)
        #expect(diagnosis.headline.contains("SentryTracerTests.testConcurrentTransactions_OnlyOneGetsMeasurement"))
        // The test's name holds "Concurrent": no threading class is read into it.
        #expect(diagnosis.matched?.id != "messageClass/threading message")
    }

    /// SpringBoard's words for a background task that outlived its time: a resource, not an assertion.
    /// https://github.com/mixpanel/mixpanel-iphone/pull/3
    @Test func activeAssertionsBeyondPermittedTimeIsAResourceLimit() throws {
        let diagnosis = try diagnoseText(
            """
            has active assertions beyond permitted time:
                {(
                    <SBProcessAssertion: 0xcdc7ea0> identifier: UIKitBackgroundCompletionTask process: permittedBackgroundDuration: 600.000000 reason: finishTask owner pid:888 preventSuspend  preventIdleSleep
                )}
            """)
        #expect(diagnosis.matched?.id == "messageClass/resource message", "\(String(describing: diagnosis.matched))")
    }

    // MARK: - Frames

    /// A crash service's page copied with its cells joined: the Mach exception glued to the
    /// thread's name, frames as bar-separated rows with `File line N` before the symbol.
    /// https://github.com/airbnb/lottie-ios/issues/538
    @Test func tableRowsAndAGluedExceptionAreRead() throws {
        let text = """
            #0Crashed: com.apple.main-threadEXC_BAD_INSTRUCTION 0x0000000000000000
            --
            0 | Library | LOTAnimatorNode.m line 18-[LOTAnimatorNode initWithInputNode:keyName:]
            1 | Library | LOTRenderNode.m line 15-[LOTRenderNode initWithInputNode:keyName:]
            2 | Library | LOTRenderGroup.m line 39-[LOTRenderGroup initWithInputNode:contents:keyname:]
            """
        let report = try Self.parseText(text)
        #expect(report.exception?.type == "EXC_BAD_INSTRUCTION")
        let top = try #require(report.crashedThread?.frames.first)
        #expect(top.symbol == "-[LOTAnimatorNode initWithInputNode:keyName:]")
        #expect(top.sourceFile == "LOTAnimatorNode.m")
        #expect(top.sourceLine == 18)
        #expect(report.crashedThread?.frames.count == 3)
    }

    /// KSCrash's frames as a Markdown table (`N image | symbol + offset`, a `-- | --` rule).
    /// https://github.com/kstenerud/KSCrash/issues/301
    @Test func markdownTableFramesAreRead() throws {
        let report = try Self.parseText(
            """
            0 libobjc.A.dylib | objc_retain + 16
            -- | --
            1 UIKitCore | -[UIView(Hierarchy) subviews] + 76
            2 UIKitCore | -[UIView(CALayerDelegate) layoutSublayersOfLayer:] + 1460
            """)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.imageName) == ["libobjc.A.dylib", "UIKitCore", "UIKitCore"])
        #expect(frames.first?.symbol == "objc_retain")
        #expect(frames.first?.symbolOffset == 16)
    }

    /// Crashlytics' text with decimal addresses; the stop in libobjc is named with its direct caller.
    /// https://github.com/parse-community/Parse-SDK-iOS-OSX/issues/537
    @Test func decimalAddressesAreAddresses() throws {
        let text = """
              Thread : Crashed: com.apple.main-thread
            0  libobjc.A.dylib                6704609744 objc_msgSend + 16
            1  StoreKit                       6552361264 __34-[SKProductsRequest _handleReply:]_block_invoke + 540
            2  libdispatch.dylib              6710723616 _dispatch_call_block_and_release + 24
            10 AppName                    4296173188 main (main.m:16)
            """
        let report = try Self.parseText(text)
        let top = try #require(report.crashedThread?.frames.first)
        #expect(top.address == 6_704_609_744)
        #expect(top.symbol == "objc_msgSend")
        let diagnosis = try diagnoseText(text)
        #expect(
            diagnosis.headline.contains("called from StoreKit __34-[SKProductsRequest _handleReply:]_block_invoke"), "\(diagnosis.headline)"
        )
    }

    /// Crashlytics' issue page copied two cells a frame: the place over the symbol, a system
    /// image over `(Missing)`, blank lines between; the app's frame is where it stopped.
    /// https://github.com/don/cordova-plugin-ble-central/issues/741
    @Test func placeOverSymbolCellsAreTheCrashedStack() throws {
        let text = """
            Fatal Exception: NSInvalidArgumentException
            -[CBService value]: unrecognized selector sent to instance 0x2823cb880

            CBPeripheral+Extensions.m - Line 195
            -[CBPeripheral(com_megster_ble_extension) serviceAndCharacteristicInfo:] + 195

            CBPeripheral+Extensions.m - Line 70
            -[CBPeripheral(com_megster_ble_extension) asDictionary] + 70

            CoreBluetooth
            (Missing)

            main.m - Line 32
            main + 32
            """
        let report = try Self.parseText(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 4)
        #expect(frames[0].symbol == "-[CBPeripheral(com_megster_ble_extension) serviceAndCharacteristicInfo:]")
        #expect(frames[0].sourceFile == "CBPeripheral+Extensions.m" && frames[0].sourceLine == 195)
        #expect(frames[2].imageName == "CoreBluetooth" && frames[2].symbol == nil)
        #expect(frames.map(\.index) == [0, 1, 2, 3])
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.causes.first?.frames?.first?.contains("serviceAndCharacteristicInfo") == true, "\(diagnosis.causes)")
    }

    /// A Swift runtime message copied from Xcode with its place on lines of its own, below it
    /// (`SCLAlertView.swift` over `Line 712`) or above it (`Timetag.swift Line 35`).
    /// https://github.com/vikmeup/SCLAlertView-Swift/issues/404
    /// https://github.com/ExistentialAudio/SwiftOSC/issues/55
    @Test func aPlaceOnItsOwnLinesIsTheMessagesPlace() throws {
        let below = try Self.parseText(
            """
            "Thread 1: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
            SCLAlertView.swift
            Line 712
            """)
        #expect(below.exception?.runtimeError?.file == "SCLAlertView.swift")
        #expect(below.exception?.runtimeError?.line == 712)
        let above = try diagnoseText(
            """
            Timetag.swift Line 35
            Exception = Swift runtime failure: arithmetic overflow
            self = {Swift.UInt64} 16777216
            """)
        #expect(above.headline.contains("Timetag.swift:35"), "\(above.headline)")
    }

    /// An `.ips` body cut to its crash members (no `threads`, no header): the code-signing kill
    /// its termination states, not the bad access its exception type alone would say.
    /// https://github.com/disorderedmaterials/dissolve/issues/2030
    @Test func anIPSBodyCutToItsCrashMembersIsRead() throws {
        let diagnosis = try diagnoseText(
            """
              "exception" : {"codes":"0x0000000000000032, 0x000000010390c000","rawCodes":[50,4354785280],"type":"EXC_BAD_ACCESS","signal":"SIGKILL (Code Signature Invalid)","subtype":"UNKNOWN_0x32 at 0x000000010390c000"},
              "termination" : {"flags":0,"code":2,"namespace":"CODESIGNING","indicator":"Invalid Page"},
            """)
        #expect(diagnosis.category == .codeSigning, "\(diagnosis.headline)")
        // The same members as a JSON document of their own.
        let document = try diagnoseText(
            """
            {"exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGKILL (Code Signature Invalid)"},
             "termination" : {"code":2,"namespace":"CODESIGNING","indicator":"Invalid Page"}}
            """)
        #expect(document.category == .codeSigning, "\(document.headline)")
    }

    /// Breakpad's `minidump_stackwalk` text: `Crash reason:`/`Crash address:`, `Thread 0
    /// (crashed)`, frames as `module + 0xOFF` and `module!function + 0xOFF`, registers under each.
    /// https://github.com/owncloud/client/issues/6942
    @Test func minidumpStackwalkTextIsRead() throws {
        let text = """
            CPU: amd64
                 family 6 model 70 stepping 1
            Crash reason:  EXC_BAD_ACCESS / KERN_INVALID_ADDRESS
            Crash address: 0xffffffffa7f9bec0
            Process uptime: 101388 seconds

            Thread 0 (crashed)
             0  libobjc.A.dylib + 0x6e9d
                rax = 0x000060800044ace0   rdx = 0x000060800044ace0
                rip = 0x00007fff57015e9d
                Found by: given as instruction pointer in context
             1  CoreFoundation!CFRunArrayInsert + 0x2ca
                rbp = 0x00007ffee3b71c50   rsp = 0x00007ffee3b71bf0
                Found by: previous frame's frame pointer
            """
        let report = try Self.parseText(text)
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0xffffffffa7f9bec0")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 2)
        #expect(frames[0].imageName == "libobjc.A.dylib" && frames[0].imageOffset == 0x6e9d && frames[0].symbol == nil)
        #expect(frames[1].imageName == "CoreFoundation" && frames[1].symbol == "CFRunArrayInsert" && frames[1].symbolOffset == 0x2ca)
        #expect(report.architecture?.name == "x86_64")
        // On x86_64 a high address is no pointer-authentication failure (arm64e only).
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.category == .badMemoryAccess, "\(diagnosis.headline)")
    }
}
