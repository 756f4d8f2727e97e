import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Issue 48's families as the tolerant reader meets them: a paste's own frames found without
/// Binary Images, frame lists in crash services' other layouts, messages printed over several
/// lines, annotations typed by hand or after a label, Foundation's exception reasons printed
/// alone. Every example is a real public post, quoted with its URL.
@Suite struct CrashFamiliesTests {
    static func read(_ text: String) throws -> CrashReport { try TolerantReaderTests.read(text) }

    // MARK: - The app's frames in a paste without Binary Images

    /// Frames pasted without their images are the app's when their module is not Apple's by name,
    /// or, with no module, when they name a source file that is not Apple's; the exclusivity
    /// report's three lines are one message (stdlib/public/runtime/Exclusivity.cpp).
    /// https://github.com/hilen/TimedSilver/pull/3
    @Test func modulesNamedInTheFramesTellTheAppsCode() throws {
        let report = try Self.read(
            """
            Simultaneous accesses to 0x103582e90, but modification requires exclusive access.
            Previous access (a modification) started at TimedSilver`ts_observationRemoversForObject(_:) + 292 (0x103510d84).
            Current access (a modification) started at:
            0    libswiftCore.dylib                 0x0000000108cc3f00 swift_beginAccess + 505
            1    TimedSilver                        0x0000000103511580 closure #1 in ts_observationRemoversForObject(_:) + 54
            2    UIKitCore                          0x0000000108cc3f00 -[UIViewController loadViewIfRequired] + 1000

            """)
        let message = try #require(report.facts.statedMessages.first)
        #expect(message.text.contains("Previous access (a modification) started at TimedSilver`ts_observationRemoversForObject(_:)"))
        #expect(message.text.contains("Current access (a modification) started at:"))
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.isAppCodeWithoutImage) == [false, true, false])
        #expect(report.crashedAppLine?.function == "closure #1 in ts_observationRemoversForObject(_:)")
    }

    /// Which pasted frames are the app's, by what their lines name.
    @Test func appCodeByNameFileOrProcess() {
        #expect(AppOwnership.isAppCode(imageName: "Organizer", sourceFile: nil, processName: nil) == true)
        #expect(AppOwnership.isAppCode(imageName: "MetalTools", sourceFile: nil, processName: nil) == false)
        #expect(AppOwnership.isAppCode(imageName: "libdispatch.dylib", sourceFile: nil, processName: nil) == false)
        #expect(AppOwnership.isAppCode(imageName: "libobjc.A", sourceFile: nil, processName: nil) == false)
        #expect(AppOwnership.isAppCode(imageName: "UIKitCore", sourceFile: "UIKitCore.m", processName: "UIKitCore") == true)
        #expect(AppOwnership.isAppCode(imageName: nil, sourceFile: "Instabug/Logging/IBGDataStore.m", processName: nil) == true)
        #expect(AppOwnership.isAppCode(imageName: nil, sourceFile: "Swift/ContiguousArrayBuffer.swift", processName: nil) == false)
        #expect(
            AppOwnership.isAppCode(imageName: nil, sourceFile: "/BuildRoot/Library/Caches/com.apple.xbs/X.m", processName: nil) == false)
        #expect(AppOwnership.isAppCode(imageName: nil, sourceFile: nil, processName: "App") == nil)
    }

    /// One backtrace pasted alone is the crashed thread's.
    /// https://github.com/manaflow-ai/cmux/issues/3316
    @Test func oneBacktracePastedAloneIsTheCrashedThread() throws {
        let report = try Self.read(
            """
            0  libdispatch.dylib                 DISPATCH_WAIT_FOR_QUEUE + 484
            1  libdispatch.dylib                 _dispatch_sync_f_slow + 148
            2  cmux                              FeedCoordinator.ingestBlocking(event:waitTimeout:) + 960

            """)
        #expect(report.crashedThread != nil)
        #expect(report.crashedAppLine?.function == "FeedCoordinator.ingestBlocking(event:waitTimeout:)")
    }

    // MARK: - Frame lists in crash services' other layouts

    /// HockeyApp's `class;method;file;line` columns inside the page's `<pre>`.
    /// https://github.com/dennisreimann/ioctocat/issues/250
    @Test func hockeyAppColumnsWithoutAddresses() throws {
        let report = try Self.read(
            """
            <pre>EventsController;tableView:didSelectRowAtIndexPath:;EventsController.m;152
            -;start;;</pre>

            **\\* Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: invalid number of rows in section 0.'

            """)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.map(\.symbol) == ["[EventsController tableView:didSelectRowAtIndexPath:]", "start"])
        #expect(frames[0].sourceFile == "EventsController.m")
        #expect(frames[0].sourceLine == 152)
        #expect(frames.map(\.isAppCodeWithoutImage) == [true, nil])
        #expect(report.facts.uncaughtException?.exception.name == "NSInternalInconsistencyException")
    }

    /// A service's `N Image "File" line L in symbol` frames among `N Image in 0x…` lines.
    /// https://github.com/OpenTreeMap/otm-ios/issues/362
    @Test func quotedFileAndLineFrames() throws {
        let report = try Self.read(
            """
            NSInvalidArgumentException: Application tried to present modally an active controller <UINavigationController: 0x11a8ad000>.
            1 CoreFoundation in 0x1855ec000
            9 OpenTreeMap "OTMAllInstancesTableViewController.m" line 34 in -[OTMAllInstancesTableViewController viewDidAppear:]

            """)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 2)
        // The image's load address is no frame's address: kept by its image's name only.
        #expect(frames[0].imageName == "CoreFoundation")
        #expect(!frames[0].hasAddress)
        #expect(frames[0].isAppCodeWithoutImage == false)
        #expect(frames[1].index == 9)
        #expect(frames[1].imageName == "OpenTreeMap")
        #expect(frames[1].symbol == "-[OTMAllInstancesTableViewController viewDidAppear:]")
        #expect(frames[1].sourceFile == "OTMAllInstancesTableViewController.m")
        #expect(frames[1].sourceLine == 34)
        #expect(frames[1].isAppCodeWithoutImage == true)
    }

    /// Symbols alone with their offsets, one with its place (a crash service's list copied
    /// without columns), under the service's title naming the failed check.
    /// https://github.com/odyshewroman/AndroidTVRemoteControl/issues/32
    @Test func symbolsWithOffsetsAlone() throws {
        let report = try Self.read(
            """
            EXC_BREAKPOINT range
            Swift runtime failure: Array index is out of range + 0

            specialized Array.subscript.getter + 4 (SecondConfigurationResponse.swift:59)
            specialized SecondConfigurationResponse.parsePowerPart(_:) + 260
            SecondConfigurationResponse.parsePowerPart(_:) + 8 (SecondConfigurationResponse.swift:0)

            """)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 3)
        #expect(frames[1].symbol == "specialized SecondConfigurationResponse.parsePowerPart(_:)")
        #expect(frames[1].symbolOffset == 260)
        #expect(frames[2].sourceFile == "SecondConfigurationResponse.swift")
        #expect(frames[0].isAppCodeWithoutImage == true)
    }

    /// A runtime's own banner saying a signal arrived, over its native stack in Mono's layout
    /// (`0xADDR - image path : symbol`).
    /// https://github.com/dotnet/macios/issues/18809
    @Test func aRuntimesSignalBannerOverItsNativeStack() throws {
        let report = try Self.read(
            """
            =================================================================
            \tNative Crash Reporting
            =================================================================
            Got a SIGABRT while executing native code. This usually indicates
            a fatal error in the mono runtime or one of the native libraries
            used by your application.
            =================================================================

            =================================================================
            \tNative stacktrace:
            =================================================================
            \t0x101fa97e0 - /Users/me/MetaApp.app/libmonosgen-2.0.dylib : mono_dump_native_crash_info
            \t0x101f6869c - /Users/me/MetaApp.app/libmonosgen-2.0.dylib : mono_handle_native_crash
            \t0x10213fd70 - /Users/me/MetaApp.app/libmonosgen-2.0.dylib : sigabrt_signal_handler.cold.1

            """)
        #expect(report.facts.exception?.signal == "SIGABRT")
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 3)
        #expect(frames[0].address == 0x101fa97e0)
        #expect(frames[0].imageName == "libmonosgen-2.0.dylib")
        #expect(frames[2].symbol == "sigabrt_signal_handler.cold.1")
    }

    /// A sentence says a fatal signal arrived, whoever prints it; a service asked to stop is no crash.
    @Test(arguments: [
        ("Got a SIGSEGV while executing native code. This usually indicates", "SIGSEGV"),
        ("A/libc: Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid 1234", "SIGSEGV"),
        ("Program received signal SIGBUS, Bus error.", "SIGBUS"),
        ("Caught signal SIGILL in the render loop", "SIGILL"),
        ("Received SIGTERM, shutting down gracefully", nil),
        ("The SIGSEGV handler is installed", nil),
    ])
    func aSentenceSayingASignalArrived(line: String, signal: String?) {
        #expect(SignalLine.statedArrival(in: Substring(line)) == signal)
    }

    /// A crash service's issue text in Markdown: the exception's name in emphasis, then frames
    /// as `place:line - symbol`.
    /// https://github.com/snmaynard/redis-audit/issues/50 (Bugsnag's issue body)
    @Test func aServicesMarkdownIssueBody() throws {
        let report = try Self.read(
            """
            ## Exception in Bugsnag Example Apps

            **EXC_BAD_INSTRUCTION** in **TTSf4s_s_d_d___TFSs18_fatalErrorMessageFTVSs12StaticStringS_S_Su_T_**

            ## Stacktrace

                Frameworks/libswiftCore.dylib:0 - TTSf4s_s_d_d___TFSs18_fatalErrorMessageFTVSs12StaticStringS_S_Su_T_
                Frameworks/libswiftCore.dylib:0 - TTSg5Si___TFSag9subscriptFSiq_
                bugsnag-example/ViewController.swift:27 - viewDidAppear

            """)
        #expect(report.facts.exception?.machType == "EXC_BAD_INSTRUCTION")
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 3)
        #expect(frames[0].imageName == "libswiftCore.dylib")
        #expect(frames[2].sourceFile == "bugsnag-example/ViewController.swift")
        #expect(frames[2].sourceLine == 27)
        #expect(frames[2].symbol == "viewDidAppear")
        #expect(PastedFrameGrammar.placeDashSymbol("Steps: 1 - open the app", 1) == nil)
    }

    /// A managed runtime's uncaught exception in an app (Xamarin.iOS, .NET, Kotlin/Native): the
    /// runtime's own line states it, and .NET's stack lines are frames with their files.
    /// https://github.com/EgorBo/Toasts.Forms.Plugin/issues/24
    @Test func aManagedRuntimesUncaughtException() throws {
        let report = try Self.read(
            """
            Unhandled Exception:

            System.NullReferenceException: Object reference not set to an instance of an object

            2015-04-01 09:08:51.906 TheAppIos[11654:431130] Unhandled managed exception: Object reference not set to an instance of an object (System.NullReferenceException)
              at Toasts.Forms.Plugin.iOS.MessageView.Draw (CGRect rect) [0x00000] in <filename unknown>:0
              at (wrapper managed-to-native) UIKit.UIApplication:UIApplicationMain (int,string[],intptr,intptr)
              at TheApp.iOS.Application.Main (System.String[] args) [0x00001] in /src/TheApp.iOS/Main.cs:17

            """)
        #expect(report.facts.statedMessages.contains { $0.family == .managedException })
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 3)
        #expect(frames[0].symbol == "Toasts.Forms.Plugin.iOS.MessageView.Draw (CGRect rect)")
        #expect(frames[0].sourceFile == nil)
        #expect(frames[2].sourceFile == "/src/TheApp.iOS/Main.cs")
        #expect(frames[2].sourceLine == 17)
    }

    /// The lines that name a managed runtime's exception, and what does not.
    @Test(arguments: [
        ("Uncaught Kotlin exception: kotlin.RuntimeException: Unexpected receiver type:", true),
        ("Unhandled managed exception: Object reference not set (System.NullReferenceException)", true),
        ("System.InvalidOperationException: Sequence contains no elements", true),
        ("Foundation.MonoTouchException: Objective-C exception thrown.  Name: NSInvalidArgumentException", true),
        // (A JVM's exception with its package is read since holdout23: Android's and the JVM's
        // crashes are crash texts too, issue 48.)
        ("java.lang.NullPointerException: Attempt to invoke virtual method", true),
        ("System.out.println is where it printed", false),
    ])
    func aManagedRuntimesExceptionLine(line: String, stated: Bool) {
        #expect((CrashMessageGrammar.match(line)?.family == .managedException) == stated, "\(line)")
    }

    /// libc++abi's last words before it aborts, whatever they say: it prints nothing else
    /// (`abort_message`), and the process stops after them.
    /// https://github.com/EOSIO/eos/issues/3035 (`Pure virtual function called!`),
    /// https://github.com/vedi/share-bunch-unity3d/issues/10 (the terminate handler threw).
    @Test func libcxxabisLastWordsAreAStop() throws {
        let report = try Self.read(
            """
            libc++abi.dylib: Pure virtual function called!
            Abort trap: 6 (core dumped)
            """)
        let message = try #require(StatedMessage.primary(of: report.facts.statedMessages))
        #expect(message.family == .cxxRuntime)
        #expect(message.text.contains("Pure virtual function called!"))
        #expect(
            try Self.read("libc++abi.dylib: terminate_handler unexpectedly threw an exception").facts.statedMessages.map(\.family) == [
                .cxxRuntime
            ])
    }

    @Test(arguments: [
        ("libc++abi: terminating", StatedMessage.Family.cxxRuntime),
        (
            "libc++abi: __cxa_guard_acquire detected recursive initialization: do you have a function-local static variable whose initialization depends on that function?",
            .cxxRuntime
        ),
        ("2024-05-01 10:00:00.000 App[123:4567] libc++abi: Pure virtual function called!", .cxxRuntime),
        ("libc++abi: terminating due to uncaught exception of type std::runtime_error: boom", .cxxException),
        ("libc++abi.dylib: terminating with uncaught exception of type NSException", .objcException),
    ])
    func libcxxabiLines(line: String, family: StatedMessage.Family) {
        #expect(CrashMessageGrammar.match(line)?.family == family, "\(line)")
        #expect(CrashMessageGrammar.match("Linking against libc++abi: done") == nil)
    }

    /// A message whose backquote is still open goes on to the line that closes it, or to the
    /// paragraph's end (Metal API Validation's `failed assertion \`Draw Errors Validation`).
    /// https://github.com/mousebird-consulting-inc/WhirlyGlobe/issues/1490
    @Test func aMessageWithAnOpenBackquoteGoesOn() throws {
        let report = try Self.read(
            """
            -[MTLDebugRenderCommandEncoder validateCommonDrawErrors:]:5252: failed assertion `Draw Errors Validation
            Fragment Function(fragmentTri_multiTex): the offset into the buffer fragArgs that is bound at buffer index 2 must be a multiple of 256 but was set to 160.

            Some later line of the post.
            """)
        let message = try #require(report.facts.statedMessages.first { $0.family == .assertion })
        #expect(message.text.contains("must be a multiple of 256"))
        #expect(!message.text.contains("later line"))
    }

    /// An older macOS report cut before its Binary Images names the app's image by its bundle
    /// identifier in frames: those frames are the app's.
    /// https://github.com/nwinter/telepath-logger/issues/1
    @Test func framesNamedByTheAppsBundleIdentifier() throws {
        let report = try CrashReport.parse(
            data: Data(
                """
                Process:         Telepath [50525]
                Path:            /Applications/Telepath.app/Contents/MacOS/Telepath
                Identifier:      net.nickwinter.Telepath
                Version:         0.0.0 (1)
                Code Type:       X86-64 (Native)

                Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
                Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000000

                Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
                0   net.nickwinter.Telepath         0x000000010df314b8 -[TPTrackerKeyboard init] + 280 (TPTrackerKeyboard.m:37)
                1   net.nickwinter.Telepath         0x000000010df1c2a4 -[TPTracker init] + 580 (TPTracker.m:86)
                2   com.apple.AppKit                0x00007fff8e5e5a7b -[NSApplication run] + 742
                """.utf8), path: "telepath.crash")
        #expect(report.crashedAppLine?.function == "-[TPTrackerKeyboard init]")
        #expect(report.crashedThread?.frames.map(\.isAppCodeWithoutImage) == [true, true, false])
    }

    /// A crash service's title of the crashed thread without its number, the exception named
    /// after it (Crashlytics' exported issue).
    /// https://github.com/LiveUI/iJenkins/issues/44
    @Test func aThreadTitleWithoutItsNumber() throws {
        let report = try Self.read(
            """
            Thread : Fatal Exception: NSInternalInconsistencyException
            0  CoreFoundation                 0x0000000184a302d8 __exceptionPreprocess
            1  libobjc.A.dylib                0x00000001962040e4 objc_exception_throw
            2  CoreFoundation                 0x0000000184a30218 -[NSException initWithCoder:]
            """)
        #expect(report.facts.uncaughtException?.exception.name == "NSInternalInconsistencyException")
        // Without a crash message of its own, a numberless `Thread :` line states nothing.
        #expect(ThreadAnnotation.reason("Thread : main") == nil)
        #expect(ThreadAnnotation.reason("Thread: 0x16b5c7000 started") == nil)
        #expect(ThreadAnnotation.reason("Thread 1: signal SIGABRT") == "signal SIGABRT")
    }

    /// Prose with a plus sign is no frame.
    @Test func proseWithAPlusIsNoFrame() {
        #expect(PastedFrameGrammar.symbolWithOffset("It crashes when I add 1 + 2", 1) == nil)
        #expect(PastedFrameGrammar.hockeyAppColumns("Steps; then it crashed; sometimes", 1) == nil)
    }

    // MARK: - Messages over several lines, annotations, labels

    /// dyld's `Symbol not found:` block: one message with the line saying where it was expected.
    /// https://github.com/ttlock/iOS_TTLock_Demo_Deprecated/issues/9,
    /// https://github.com/DroidKaigi/conference-app-2020/issues/766
    @Test func dyldBlocksAreOneMessage() throws {
        let report = try Self.read(
            """
            dyld: Symbol not found: _$SBOWV
              Referenced from: /private/var/containers/Bundle/Application/10B8A1AD/TTLockDemo.app/Frameworks/DFUDependence.framework/DFUDependence
              Expected in: /private/var/containers/Bundle/Application/10B8A1AD/TTLockDemo.app/Frameworks/libswiftCore.dylib

            """)
        #expect(report.facts.statements.dyldMessage?.hasPrefix("Symbol not found: _$SBOWV (Expected in: /private/var/") == true)
        #expect(
            FactReading.dyldMessage(in: [
                "dyld: Library not loaded: @rpath/ios_combined.framework/ios_combined", "  Referenced from: /x/App.app/App",
                "  Reason: image not found",
            ]) == "Library not loaded: @rpath/ios_combined.framework/ios_combined (Reason: image not found)")
    }

    /// Xcode's annotation typed by hand (`Thread 1 : …`), its Mach exception inside the words,
    /// and an annotation after a label in Chinese with a full-width colon.
    /// https://github.com/akosma/bluewoki/issues/1, https://github.com/wangzhaode/mnn-llm/issues/193
    @Test func annotationsTypedByHandOrAfterALabel() throws {
        let typed = try Self.read("Thread 1 : program recieved signal : EXC_BAD_ACCESS\n")
        #expect(typed.facts.exception?.machType == "EXC_BAD_ACCESS")
        let labelled = try Self.read(
            "崩溃信息：Thread 2: EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=2098 MB)\n")
        #expect(labelled.facts.statedMessages.first?.family == .resource)
        #expect(labelled.facts.exception?.machType == "EXC_RESOURCE")
    }

    /// `Trapped uncaught exception 'X', reason:` with the quoted reason on the next line.
    /// https://github.com/northwind/FlyImage/issues/21
    @Test func uncaughtExceptionWithItsQuotedReasonOnTheNextLine() throws {
        let report = try Self.read(
            """
            Trapped uncaught exception 'NSGenericException', reason: 
            '*** Collection <__NSArrayM: 0x1708526f0> was mutated while being enumerated.' 

            """)
        let uncaught = try #require(report.facts.uncaughtException)
        #expect(uncaught.exception.name == "NSGenericException")
        #expect(uncaught.exception.reason == "*** Collection <__NSArrayM: 0x1708526f0> was mutated while being enumerated.")
        #expect(uncaught.reasonClass == .mutatedWhileEnumerated)
    }

    /// Foundation's collection and key-value coding reasons printed alone, each read as an
    /// uncaught Objective-C exception of its reason class (CoreFoundation's and Foundation's
    /// messages: nil inserted, index beyond bounds, mutated while enumerated, not KVC-compliant).
    /// https://github.com/ondalabs/OLGhostAlertView/issues/22 (the first; the others are the family's other members)
    @Test(arguments: [
        ("[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]", "nilArgument"),
        ("*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]", "outOfBounds"),
        ("*** Collection <__NSArrayM: 0x13390e70> was mutated while being enumerated.", "mutatedWhileEnumerated"),
        (
            "[<UIViewController 0x109622ec0> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key tableView.",
            "keyValueCoding"
        ),
    ])
    func foundationReasonsAlone(line: String, reasonClass: String) throws {
        let report = try Self.read(line + "\n")
        #expect(report.facts.uncaughtException?.reasonClass?.rawValue == reasonClass)
        #expect(report.facts.statedMessages.first?.family == .objcException)
    }

    /// A sentence about a collection is not Foundation's reason.
    @Test func proseAboutCollectionsIsNoReason() {
        #expect(!CrashMessageGrammar.isFoundationReason("The index was beyond bounds when I scrolled"))
        #expect(CrashMessageGrammar.isFoundationReason("-[__NSCFArray objectAtIndex:]: index (3) beyond bounds (3)"))
    }
}

/// Markdown's backslash escapes, taken away before a text is read, and only then.
@Suite struct MarkdownTextTests {
    static func document(_ text: String) -> TextDocument { TextDocument(text: text, hasBOM: false) }

    @Test func escapesOfPunctuationAreTakenAway() throws {
        let plain = try #require(
            MarkdownText.unescaped(Self.document("frame \\#1: 0x1 libc.so.6\\`\\_\\_GI_raise + 55\n**\\* Collection\n")))
        #expect(plain.lines.map(\.text) == ["frame #1: 0x1 libc.so.6`__GI_raise + 55", "*** Collection"])
        #expect(plain.lines.map(\.terminator) == ["\n", "\n"])
        // A backslash before anything but ASCII punctuation stays; `\\` is one backslash.
        #expect(MarkdownText.unescaped("C:\\Users\\me \\\\ \\_x") == "C:\\Users\\me \\ _x")
    }

    @Test func textWithoutMarkupEscapesOrJSONIsLeftAlone() {
        #expect(MarkdownText.unescaped(Self.document("Path: C:\\Users\\me\\App.exe\nregex \\. and \\d")) == nil)
        #expect(MarkdownText.unescaped(Self.document("{\"app_name\":\"A\\_B\"}\n{\"x\": \"\\#\"}")) == nil)
        #expect(MarkdownText.unescaped(Self.document("  [\"a\\_b\"]")) == nil)
    }
}
