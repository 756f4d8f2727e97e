import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Texts whose crash another runtime states (.NET, Mono, Unity, React Native) or whose stop a
/// debugger shows without a thread's frames (Xcode's annotation beside the source line, LLDB's
/// disassembly at the stop), and the frame a diagnosis names when no app frame is known (issue
/// 48). Each text is an excerpt of a real public post (its URL above the test).
@Suite struct RuntimesAndStopsTests {
    static func parseText(_ text: String) throws -> CrashReport {
        try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
    }

    static func frames(_ diagnosis: Diagnosis) -> [String] { diagnosis.causes.flatMap { $0.frames ?? [] } }

    /// .NET's frames print no blank before the parameters; Xamarin hands the exception on as an
    /// Objective-C one named after the signal. The managed exception is the stated cause, and the
    /// method that threw leads.
    /// https://github.com/dotnet/maui/issues/30563
    @Test func aManagedExceptionHandedOnAsObjectiveCIsTheCause() throws {
        let diagnosis = try diagnoseText(
            """
            Application Specific Information:
            *** Terminating app due to uncaught exception 'SIGABRT', reason: 'Arg_NullReferenceException'

            Xamarin Exception Stack:
            System.NullReferenceException: Arg_NullReferenceException
              at Microsoft.Maui.Controls.Platform.Compatibility.ShellSectionRenderer.ElementForViewController(UIViewController viewController)
              at UIKit.UIApplication.UIApplicationMain(Int32 , String[] , IntPtr , IntPtr )
            """)
        #expect(diagnosis.headline.contains("System.NullReferenceException"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("Objective-C"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id == "messageClass/nil message")
        #expect(
            Self.frames(diagnosis).first?.contains("ShellSectionRenderer.ElementForViewController") == true, "\(Self.frames(diagnosis))")
    }

    /// Mono's (Unity's) name without a namespace is a managed exception, not an Objective-C one.
    /// https://github.com/amazon-archives/aws-sdk-unity/issues/28
    @Test func monosUndottedExceptionNameIsManaged() throws {
        let diagnosis = try diagnoseText(
            """
            NullReferenceException: A null value was found where an object instance was required.
              at Mono.Globalization.Unicode.SimpleCollator+Context..ctor (CompareOptions opt, System.Byte* alwaysMatchFlags) [0x00000] in <filename unknown>:0
              at Amazon.Runtime.Internal.Transform.WWWRequestData.FireRequest () [0x00000] in <filename unknown>:0
            """)
        #expect(!diagnosis.headline.contains("Objective-C"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id == "messageClass/nil message")
        // Mono's own class library is the platform's: the first frame outside it is where.
        #expect(Self.frames(diagnosis).first?.contains("WWWRequestData.FireRequest") == true, "\(Self.frames(diagnosis))")
    }

    /// App Center's issue text: `Type.Method() in File.cs:line N;Assembly`, with no `at`.
    /// https://github.com/SimpleAppProjects/SimpleWeather-NET/issues/1197
    @Test func appCentersManagedFramesNameTheirLines() throws {
        let report = try Self.parseText(
            """
            Fix System.NullReferenceException: Object reference not set to an instance of an object. in Crash Group # 3430661038u

            ### Stacktrace ###

            SimpleWeather.Maui.App..ctor() in /Users/USER/SimpleWeather/SimpleWeather.Maui/App.xaml.cs:line 88;SimpleWeather.Maui.App

            SimpleWeather.Maui.AppDelegate.FinishedLaunching(UIApplication application, NSDictionary launchOptions) in /Users/USER/SimpleWeather/SimpleWeather.Maui/MaciOS/AppDelegate.cs:line 27;SimpleWeather.Maui
            """)
        let frames = report.threads.flatMap(\.frames)
        #expect(frames.count == 2)
        #expect(frames.first?.symbol == "SimpleWeather.Maui.App..ctor()")
        #expect(frames.first?.sourceFile == "/Users/USER/SimpleWeather/SimpleWeather.Maui/App.xaml.cs")
        #expect(frames.first?.sourceLine == 88)
        let diagnosis = diagnose(report)
        #expect(Self.frames(diagnosis).first?.contains("App..ctor()") == true, "\(Self.frames(diagnosis))")
    }

    /// A wrapper exception's line and the wrapped one's: the line whose words say what went wrong.
    /// https://github.com/microsoft/appcenter-sdk-dotnet/issues/1687
    @Test func theWrappedManagedExceptionLeads() throws {
        let diagnosis = try diagnoseText(
            """
            ObjCRuntime.ObjCException
              Nachricht = Objective-C exception thrown.  Name: System.NotImplementedException Reason: The method or operation is not implemented. (System.NotImplementedException)
            at Edelweiss.GO.Presentation.Pages.Develop.DevelopViewModel.SendPingAsync() in C:\\git\\edw\\DevelopViewModel.cs:53
            """)
        #expect(diagnosis.headline.contains("NotImplementedException"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id == "messageClass/unimplemented message")
    }

    /// Xcode's annotation copied beside the source line: a crash fact, and the line it stood
    /// beside (after the file's name above it) is where the diagnosis points.
    /// https://github.com/danielamitay/DAAppsViewController/issues/35
    @Test func anAnnotationBesideItsSourceLineIsRead() throws {
        let diagnosis = try diagnoseText(
            """
            DAAppsViewCell.m

            self.nameLabel.text = appObject.name;  //Thread 1: EXC_BAD_ACCESS (code=1, address=0x25b8bbec8)
            self.genreLabel.text = appObject.genre;
            """)
        #expect(diagnosis.category == .badMemoryAccess)
        #expect(
            Self.frames(diagnosis).first?.contains("DAAppsViewCell.m: self.nameLabel.text = appObject.name;") == true,
            "\(Self.frames(diagnosis))")
    }

    /// The annotation beside a disassembly line, and React Native's fatal banner below it.
    /// https://github.com/react/react-native/pull/17465
    @Test func reactNativesFatalBannerIsTheCause() throws {
        let diagnosis = try diagnoseText(
            """
            0x10c0bde3e <+10>: jae    0x10c0bde48               ; <+20> //Thread 12: signal SIGABRT

            **Unhandled JS Exception: undefined is not an object (evaluating 'v.View.propTypes.style')**
            """)
        #expect(diagnosis.headline.contains("Unhandled JS Exception: undefined is not an object"), "\(diagnosis.headline)")
    }

    /// `Thread 1:` inside prose is no annotation: a near-miss stays refused.
    @Test func threadInsideProseIsNoAnnotation() {
        #expect(throws: (any Error).self) {
            try diagnoseText("We saw it on Thread 1: the login screen froze for a while, then it came back.")
        }
    }

    /// LLDB's disassembly of the function the thread stopped in: its heading is frame 0, and the
    /// Swift runtime's exclusivity check names the rule (likely: nothing states a message).
    /// https://github.com/microsoft/clarity-apps/issues/213
    @Test func aDisassemblyAtTheStopNamesTheFunction() throws {
        let diagnosis = try diagnoseText(
            """
            libswiftCore.dylib`swift::runtime::AccessSet::insert:
                0x19ad38404 <+0>:   pacibsp
                0x19ad38450 <+76>:  b.eq   0x19ad38474               ; <+112>
            ->  0x19ad38454 <+80>:  ldr    x12, [x10]
                0x19ad38458 <+84>:  ldr    x11, [x10, #0x10]
            """)
        #expect(diagnosis.headline.contains("exclusivity"), "\(diagnosis.headline)")
        #expect(diagnosis.certainty == .likely)
        let report = try Self.parseText(
            """
            libswiftCore.dylib`swift::runtime::AccessSet::insert:
            ->  0x19ad38454 <+80>:  ldr    x12, [x10]
            """)
        let frame = try #require(report.crashedThread?.frames.first ?? report.threads.first?.frames.first)
        #expect(frame.symbol == "swift::runtime::AccessSet::insert")
        #expect(frame.imageName == "libswiftCore.dylib")
        #expect(frame.address == 0x19ad38454)
        #expect(frame.symbolOffset == 80)
    }

    /// A disassembly listing without the stop arrow shows no stop: no frame, no crash fact.
    @Test func aDisassemblyWithoutTheArrowIsNoStop() {
        #expect(throws: (any Error).self) {
            try diagnoseText(
                """
                libswiftCore.dylib`swift::runtime::AccessSet::insert:
                    0x19ad38404 <+0>:   pacibsp
                    0x19ad38408 <+4>:   sub    sp, sp, #0x1b0
                """)
        }
    }

    /// A reason pasted alone above frames that pass through the throw, in words no catalogue
    /// names: quoted as the throw's likely reason, with the app's frame.
    /// https://github.com/element-hq/element-ios/issues/453
    @Test func aReasonAboveThrowFramesIsQuoted() throws {
        let diagnosis = try diagnoseText(
            """
            Cannot remove an observer <RoomViewController 0x136848600> for the key path ""isOffline"" from <AppDelegate 0x135e22e60> because it is not registered as an observer.
            Application: Vector (im.vector.app)
            (
            	0   CoreFoundation                      0x00000001812eadc8 <redacted> + 148
            	1   libobjc.A.dylib                     0x000000018094ff80 objc_exception_throw + 56
            	2   CoreFoundation                      0x00000001812eacf8 <redacted> + 0
            	3   Foundation                          0x0000000181c010a8 <redacted> + 496
            	4   Vector                              0x00000001000e6438 Vector + 402488 -> -[RoomViewController viewDidDisappear:] (in Vector) (RoomViewController.m:350)
            	5   UIKit                               0x0000000186459314 <redacted> + 532
            )
            """)
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.headline.contains("not registered as an observer"), "\(diagnosis.headline)")
    }

    /// No app frame and no cause naming one: the leading cause names where the thread stopped,
    /// past the abort machinery.
    /// https://github.com/swiftlang/swift/issues/87033
    @Test func withoutAnAppFrameTheStopFrameIsNamed() throws {
        let diagnosis = try diagnoseText(
            """
            *** Signal 11: Backtracing from 0x7fbb5e5cc9ba... done ***

            *** Program crashed: Bad pointer dereference at 0xffff8044a1a74710 ***

            Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

            Thread 2 "-qos.overcommit" crashed:

              0      0x00007fbb5e5cc9ba _dispatch_event_loop_drain + 1130 in libdispatch.so
              1 [ra] 0x00007fbb5e5c1fe2 _dispatch_mgr_invoke + 129 in libdispatch.so
              2 [ra] 0x00007fbb5e5c1f4d _dispatch_mgr_thread + 108 in libdispatch.so
              3 [ra] 0x00007fbb5e5c5185 _dispatch_worker_thread + 676 in libdispatch.so
            """)
        #expect(Self.frames(diagnosis).first?.contains("_dispatch_event_loop_drain") == true, "\(Self.frames(diagnosis))")
    }

    /// A reporter's handler prints the signal by number and the stack it captured: the signal is
    /// the crash fact, and the frames above the trampoline are the handler's, not the crash's.
    /// https://github.com/react/react-native/issues/39573
    @Test func aHandlersOwnBacktraceIsReadBelowTheTrampoline() throws {
        let diagnosis = try diagnoseText(
            """
                Signal 11 was raised
                (
                    0   Detox                               0x0000000109ff5cc0 +[NSThread(DetoxUtils) dtx_demangledCallStackSymbols] + 36
                    1   Detox                               0x0000000109ff88d0 __DTXHandleCrash + 440
                    2   Detox                               0x0000000109ff8f00 __DTXHandleSignal + 72
                    3   libsystem_platform.dylib            0x0000000108defc60 _sigtramp + 52
                    4   hermes                              0x000000010a2a6c48 facebook::jsi::JSError::~JSError() + 1088444
                    5   Curriculify                         0x00000001043c0ff0 facebook::hermes::inspector::Inspector::getScriptInfoFromTopCallFrame() + 276
                )
            """)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        #expect(!Self.frames(diagnosis).contains { $0.contains("Detox") }, "\(Self.frames(diagnosis))")
        #expect(!diagnosis.headline.contains("Detox"), "\(diagnosis.headline)")
    }

    /// A reporter that crashed while writing its report: its frames above the trampoline are
    /// where the crash is, and stay.
    /// https://github.com/getsentry/sentry-cocoa/issues/299
    @Test func aHandlerThatCrashedIsWhereTheCrashIs() throws {
        let diagnosis = try diagnoseText(
            """
            Crashed: com.apple.main-thread
            0 myApp 0x105210380 writeUnknownObjectContents (SentryCrashReport.c:576)
            1 myApp 0x105210088 writeMemoryContents (SentryCrashReport.c:694)
            2 myApp 0x10520a9d4 handleSignal (SentryCrashMonitor_Signal.c:108)
            3 libsystem_platform.dylib 0x2051c6a20 _sigtramp + 56
            4 libdispatch.dylib 0x204fa08d0 _dispatch_main_queue_callback_4CF$VARIANT$mp + 784
            5 CoreFoundation 0x20554a1bc CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE + 12
            """)
        #expect(diagnosis.headline.contains("writeUnknownObjectContents"), "\(diagnosis.headline)")
    }

    /// libc++abi's line for an exception of type `NSException` is an Objective-C exception's,
    /// as libc++abi's terminate handler prints it (libcxxabi/src/cxa_default_handlers.cpp).
    @Test func libcxxabisLineForNSExceptionIsObjectiveC() throws {
        let diagnosis = try diagnoseText("libc++abi: terminating due to uncaught exception of type NSException")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(!diagnosis.headline.contains("C++"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("terminate"), "\(diagnosis.headline)")
    }

    /// V8's fatal banner (Metro, the React Native bundler, run by Xcode's build) behind a
    /// stream label it prefixes: a stated cause, in the resource class.
    /// https://github.com/react/react-native/issues/25004
    @Test func v8sFatalBannerIsAStatedResourceLimit() throws {
        let diagnosis = try diagnoseText(
            "transform[stderr]: FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory")
        #expect(diagnosis.headline.contains("JavaScript heap out of memory"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id == "messageClass/resource message")
    }

    /// NSZombie's line for a message to a freed object (`*** -[X y]: message sent to deallocated
    /// instance 0x…`), as Apple documents it:
    /// https://developer.apple.com/documentation/xcode/investigating-crashes-for-zombie-objects
    @Test func nsZombiesLineIsAZombie() throws {
        let diagnosis = try diagnoseText("*** -[ViewController respondsToSelector:]: message sent to deallocated instance 0x7fa3d1e05a40")
        #expect(diagnosis.category == .zombieObject)
        #expect(diagnosis.headline.contains("deallocated object"), "\(diagnosis.headline)")
    }

    /// A framework's reason printed alone, in the throw-site catalogue's words, under the name
    /// on the line above: the exception's reason, and the catalogue's rule.
    /// https://github.com/innovian/HVTableView/issues/27
    @Test func aReasonUnderTheNameIsItsReason() throws {
        let diagnosis = try diagnoseText(
            """
            Fatal Exception: NSInternalInconsistencyException
            UITableView (<HVTableView: 0x106088e00; baseClass = UITableView; frame = (0 0; 375 574)>) failed to obtain a cell from its dataSource (<HVTableView: 0x106088e00>)
            """)
        #expect(diagnosis.headline.contains("failed to obtain a cell"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("UIKit"), "\(diagnosis.headline)")
    }

    /// The same reason with no name above it is still a crash fact.
    /// https://github.com/udesk/UdeskSDK-iOS/issues/21
    @Test func aCataloguedReasonAloneIsRead() throws {
        let diagnosis = try diagnoseText(
            "UITableView (<UdeskMessageTableView: 0x10c220600; baseClass = UITableView>) failed to obtain a cell from its dataSource (<UdeskChatViewController: 0x10da4b0f0>)"
        )
        #expect(diagnosis.headline.contains("failed to obtain a cell"), "\(diagnosis.headline)")
    }

    /// The compiler driver's line for a frontend that died of a signal, by number: the
    /// toolchain's crash, with the signal named (ToolchainCrashTests).
    /// https://github.com/swiftlang/swift/issues/87033 (the signal's form, as `swiftc` prints it)
    @Test func aSignalNamedByNumberAfterDueToIsRead() throws {
        let diagnosis = try diagnoseText("error: compile command failed due to signal 11 (use -v to see invocation)")
        #expect(diagnosis.category == .toolchainCrash)
        #expect(diagnosis.headline.contains("(SIGSEGV)"), "\(diagnosis.headline)")
    }

    /// Core Data's concurrency-debug trap named in a poster's sentence: the function exists to be
    /// where that stop is seen.
    /// https://github.com/JohnEstropia/CoreStore/issues/485
    @Test func aTrapFunctionNamedInProseIsACrashFact() throws {
        let diagnosis = try diagnoseText(
            "After adding `-com.apple.CoreData.ConcurrencyDebug 1` in launch arguments, playing around the demo, and soon the Xcode will stop at `CoreData +[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]:`."
        )
        #expect(diagnosis.headline.contains("Core Data"), "\(diagnosis.headline)")
    }

    /// Kotlin/Native's line for an exception that crossed into Swift without `@Throws`.
    /// https://github.com/touchlab/CrashKiOS/issues/85
    @Test func kotlinNativesThrowsLineIsRead() throws {
        let kotlin = try diagnoseText(
            """
            Function doesn't have or inherit @Throws annotation and thus exception isn't propagated from Kotlin to Objective-C/Swift as NSError.
            It is considered unexpected and unhandled instead. Program will be terminated.
            """)
        #expect(kotlin.headline.contains("@Throws"), "\(kotlin.headline)")
    }

    /// The engine's failed check after its `[FATAL:…]` tag (the form Flutter's engine logs).
    /// https://github.com/flutter/flutter/issues/71579
    @Test func flutterEnginesFailedCheckIsRead() throws {
        let flutter = try diagnoseText(
            "[FATAL:flutter/shell/platform/android/platform_view_android_jni_impl.cc(1062)] Check failed: CheckException(env).")
        #expect(flutter.headline.contains("Check failed: CheckException(env)."), "\(flutter.headline)")
    }

    /// Xcode's annotation a poster quoted in parentheses after the source line it stood beside.
    /// https://github.com/cl7/CLTypingLabel/issues/27
    @Test func anAnnotationQuotedInParenthesesIsRead() throws {
        let diagnosis = try diagnoseText(
            """
            titleLable.text = "Grow Up" (shows this error here :Thread 1: Fatal error: Unexpectedly found nil while implicitly unwrapping an Optional value)
            """)
        #expect(
            diagnosis.headline.contains("Unexpectedly found nil while implicitly unwrapping an Optional value"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.hasSuffix("value)"), "\(diagnosis.headline)")
    }

    /// The Swift driver's line for a frontend that died, the shell's description after its label.
    /// https://github.com/indragiek/SwiftAutoLayout/issues/8
    @Test func aSignalDescriptionAfterALabelIsRead() throws {
        let diagnosis = try diagnoseText("<unknown>:0: error: unable to execute command: Segmentation fault: 11")
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        // The evidence is the tool's sentence, cited by its line, not the signal's name read out of it.
        #expect(
            diagnosis.evidence.contains { $0.quote == "<unknown>:0: error: unable to execute command: Segmentation fault: 11" },
            "\(diagnosis.evidence)")
        #expect(!diagnosis.evidence.contains { $0.quote == "SIGSEGV" }, "\(diagnosis.evidence)")
    }

    /// Godot's crash handler names the signal in its sentence above its own backtrace.
    /// https://github.com/godotengine/godot/issues/75568 (its `handle_crash` prints `Program crashed with signal %d`)
    @Test func aCrashHandlersSentenceIsTheEvidence() throws {
        let diagnosis = try diagnoseText(
            """
            ================================================================
            handle_crash: Program crashed with signal 11
            Engine version: Godot Engine v4.2.1.stable.official
            Dumping the backtrace. Please include this when reporting the bug to the project developer.
            """)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        #expect(diagnosis.evidence.contains { $0.quote == "handle_crash: Program crashed with signal 11" }, "\(diagnosis.evidence)")
        // Its sentence says who died and how: the first cause, beside the signal's own.
        #expect(diagnosis.causes.first?.text.contains("handle_crash: Program crashed with signal 11") == true, "\(diagnosis.causes)")
        #expect(diagnosis.causes.count > 1, "\(diagnosis.causes)")
    }

    /// Who died is stated by a runtime's panic line (Bun's, over Zig's fault handler) or by the
    /// shell's line naming the command: each leads the causes in its own words. A bare signal or
    /// its shell description says nothing more, and a JSON field's name is no sentence. (A
    /// compiler driver's sentence for its frontend is the toolchain's crash: ToolchainCrashTests.)
    /// https://github.com/oven-sh/bun/issues/15509
    @Test(arguments: [
        ("panic(main thread): Segmentation fault at address 0x158\noh no: Bun has crashed.\n", "Segmentation fault at address 0x158"),
        ("zsh: trace trap  bun run index.mjs  ./Fraunces\n", "bun run index.mjs"),
    ])
    func aSentenceNamingTheSignalLeadsTheCauses(_ text: String, _ stated: String) throws {
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.causes.first?.text.contains(stated) == true, "\(diagnosis.causes)")
    }

    @Test(arguments: [
        "Segmentation fault: 11\n", "signal SIGABRT\n",
        "* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x0)\n",
        "\"exception_name\": \"EXC_CRASH\",\n\"name\": \"SIGABRT\",\n",
    ])
    func aBareSignalStatesNoStop(_ text: String) throws {
        let diagnosis = try diagnoseText(text)
        #expect(!diagnosis.causes.contains { $0.text.contains("in its own words") }, "\(diagnosis.causes)")
    }
}
