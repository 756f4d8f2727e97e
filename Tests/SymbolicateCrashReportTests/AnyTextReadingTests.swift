import Foundation
import SymbolicateCore
import Testing

@testable import SymbolicateCrashReport

/// Issue 48's later classes, each from a real public post (quoted with its URL; the texts were
/// measured once as a held-back set and are tuned on since): prefixes no logger list names, a line
/// quoted whole, a reporter's fields in another case, an issue body at any heading level, a
/// runtime's signal in lower case, diagnostics that are no crash, a layout that recognises a text
/// it then finds empty.
@Suite struct AnyTextReadingTests {
    static func read(_ text: String) throws -> CrashReport {
        try #require(try CrashReport.parseAll(data: Data(text.utf8), path: "paste.txt").first)
    }

    static func refusal(_ text: String) -> CrashReportError? {
        do {
            _ = try CrashReport.parseAll(data: Data(text.utf8), path: "paste.txt")
            return nil
        } catch {
            return error
        }
    }

    /// A test harness's tags, its stream's label and a time column before libmalloc's line and
    /// LLDB's stop: each prefix is looked behind, the lowercase label last.
    /// https://github.com/flutter/flutter/issues/77404
    @Test func harnessPrefixesBeforeAMallocErrorAndADebuggerStop() throws {
        let report = try Self.read(
            """
            [backdrop_filter_perf_ios__timeline_summary] [STDOUT] stdout: [+2234 ms] Runner(923,0x16d98b000) malloc: *** error for object 0x3: pointer being freed was not allocated
            [backdrop_filter_perf_ios__timeline_summary] [STDOUT] stdout: [        ] Runner(923,0x16d98b000) malloc: *** set a breakpoint in malloc_error_break to debug
            [backdrop_filter_perf_ios__timeline_summary] [STDOUT] stdout: [  +62 ms] Process 923 stopped
            [backdrop_filter_perf_ios__timeline_summary] [STDOUT] stdout: [        ] * thread #10, name = 'io.flutter.1.ui', stop reason = signal SIGABRT
            [backdrop_filter_perf_ios__timeline_summary] [STDOUT] stdout: [        ]     frame #0: 0x00000001b3c6c84c libsystem_kernel.dylib`__pthread_kill + 8
            """)
        let malloc = try #require(report.facts.statedMessages.first { $0.family == .malloc })
        #expect(malloc.text.contains("pointer being freed was not allocated"))
        // The label is not taken off a message whose first word it is.
        #expect(
            CrashMessageGrammar.match("malloc: *** error for object 0x3: pointer being freed was not allocated")?.text.hasPrefix("malloc: ")
                == true)
        // A log's closed tag followed by words is no JSON array.
        #expect(DebuggerOutputShape.isTagBeforeWords("[        ] Runner(923,0x16d98b000) malloc: *** error"))
        #expect(!DebuggerOutputShape.isTagBeforeWords("[1, 2, 3]"))
    }

    /// A runtime error quoted whole, as a JSON string would hold it: the quotes are not its place's.
    /// https://github.com/HCYANG2000/Generate_Apple_HDR_Photos/issues/1
    @Test func aLineQuotedWholeIsReadWithoutItsQuotes() throws {
        let report = try Self.read(
            """
            "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range"
            """)
        let error = try #require(report.exception?.runtimeError)
        #expect(error.message == "Index out of range")
        #expect(error.file == "Swift/ContiguousArrayBuffer.swift")
        #expect(error.line == 600)
    }

    /// The backtracer's banner recognises the text, then finds no trace; the runtime's line above
    /// it and the shell's last words still state the crash, so the tolerant reader answers.
    /// https://github.com/swiftlang/swift/issues/77841
    @Test func aBacktracerBannerWithoutItsTraceFallsBackToTheLines() throws {
        let report = try Self.read(
            """
            > ../SwiftFormat/.build/debug/swiftformat --rules unusedArguments .
            Running SwiftFormat...
            Swift/NativeSet.swift:736: Fatal error

            💣 Program crashed: Signal 4: Backtracing from 0xefaea1...swift-backtrace: unable to fetch crash info.
             failed

            [1]    8392 illegal hardware instruction (core dumped)  ../SwiftFormat/.build/debug/swiftformat --rules unusedArguments .
            """)
        #expect(report.exception?.runtimeError?.file == "Swift/NativeSet.swift")
        #expect(report.facts.statedMessages.contains { $0.family == .signal })
    }

    /// Cr4shed, a jailbreak's crash reporter: Apple's fields in its own case, an Objective-C
    /// exception's name where Apple puts the Mach type, its reason under `Reason:`.
    /// https://github.com/midnightchip/Asteroid/issues/103
    @Test func aReportersFieldsInAnotherCase() throws {
        let named = try Self.read(
            """
            Process: SpringBoard
            Bundle id: com.apple.springboard

            Exception type: NSInternalInconsistencyException
            Reason: you can't call this before [SBMainWorkspace start]
            Call stack:
            0  CoreFoundation                      0x00000001ce2969a4 __exceptionPreprocess
            1  libobjc.A.dylib                    0x00000001cd46f9f8 objc_exception_throw
            """)
        #expect(named.facts.uncaughtException?.exception.name == "NSInternalInconsistencyException")
        #expect(named.facts.uncaughtException?.exception.reason == "you can't call this before [SBMainWorkspace start]")
        // https://github.com/tomaszpoliszuk/HomeScreenQuickActions/issues/4
        let fault = try Self.read(
            """
            Process: libnotificationd
            Exception type: EXC_BAD_ACCESS (SIGSEGV)
            Exception subtype: KERN_INVALID_ADDRESS: 0x0
            Exception codes: 0x0000000000000001, 0x0000000000000000

            Triggered by thread: 2
            Call stack:
            0   libsystem_kernel.dylib        \t0x00000001da891078 0x1da869000 + 163960     \t// __sigsuspend_nocancel
            1   libdispatch.dylib             \t0x00000001ae6b9c88 0x1ae6a5000 + 85128      \t// _dispatch_sigsuspend
            """)
        #expect(fault.facts.exception?.machType == "EXC_BAD_ACCESS")
        #expect(fault.facts.exception?.signal == "SIGSEGV")
        #expect(fault.crashedThreadIndex == 2)
        // The one stack printed under the number is that thread's.
        #expect(fault.crashedThread?.frames.count == 2)
    }

    /// HockeyApp's issue body at heading level two, its reason as HockeyApp groups it
    /// (`NAME, reason: …`); and at level three with libobjc's line whose name holds quotes.
    /// https://github.com/sonoramac/Sonora/issues/22 and https://github.com/artsy/eigen/issues/1619
    @Test func hockeyAppBodiesAtAnyHeadingLevel() throws {
        let report = try Self.read(
            """
            Fix NSInternalInconsistencyException in start

            ## Version: 2.0.0 (200) | com.iktm.Sonora
            ## Stacktrace

            <pre>-;start;;</pre>

            ## Reason

             NSInternalInconsistencyException, reason: -[NSViewController loadView] could not load the SNRMetadataViewController nib.
            """)
        #expect(report.bundleIdentifier == "com.iktm.Sonora")
        #expect(report.facts.uncaughtException?.exception.name == "NSInternalInconsistencyException")
        #expect(report.facts.uncaughtException?.exception.reason?.hasSuffix("could not load the SNRMetadataViewController nib.") == true)
        let fatal = try Self.read(
            """
            ### Version: 2.5.0 (2016.06.03) | net.artsy.artsy ###

            ### Reason ###

            *** Terminating app due to uncaught exception 'RCTFatalException: Unhandled JS Exception: undefined is not a function (evaluating 'a.availableTabs().includes(v.WORKS)')', reason: 'Unhandled JS Exception: undefined is not a function (evaluating 'a.availabl..., stack:
            t@14:959
            """)
        #expect(fatal.facts.uncaughtException?.exception.name?.hasPrefix("RCTFatalException: Unhandled JS Exception") == true)
    }

    /// Mono's native crash banner names the signal in lower case; its frames are an address, the
    /// image's path and the symbol.
    /// https://github.com/mono/mono/issues/19860
    @Test func monosLowercaseSignal() throws {
        let report = try Self.read(
            """
            =================================================================
            \tNative Crash Reporting
            =================================================================
            Got a segv while executing native code. This usually indicates
            a fatal error in the mono runtime or one of the native libraries
            used by your application.
            =================================================================
            """)
        #expect(report.exception?.type == "SIGSEGV" || report.exception?.signal == "SIGSEGV")
        #expect(SignalLine.signal(in: "Got a SIGABRT while executing native code") == "SIGABRT")
        #expect(SignalLine.signal(in: "received sigbus in worker") == "SIGBUS")
        // An arrival word before a word that names no fatal signal is none.
        #expect(SignalLine.signal(in: "Got a segment of the file") == nil)
        #expect(SignalLine.signal(in: "caught up with the fatal error handling") == nil)
    }

    /// Diagnostics printed with a backtrace while the process keeps running are no crash: the
    /// Thread Performance Checker's warning, Network's simulated crash.
    /// https://github.com/lwouis/alt-tab-macos/issues/2400 and https://github.com/pusher/NWWebSocket/issues/42
    @Test func diagnosticsWithABacktraceAreNoCrash() throws {
        let checker = Self.refusal(
            """
            Thread Performance Checker: Thread running at QOS_CLASS_USER_INTERACTIVE waiting on a lower QoS thread running at QOS_CLASS_UTILITY. Investigate ways to avoid priority inversions
            PID: 28074, TID: 10541279
            Backtrace
            =================================================================
            3   AltTab                              0x0000000104d9fab1 $s6AltTab27BackgroundThreadWithRunLoopCyACSS_8Dispatch0H3QoSVtcfc + 1089
            4   AltTab                              0x0000000104d9e9e4 $s6AltTab27BackgroundThreadWithRunLoopCyACSS_8Dispatch0H3QoSVtcfC + 68
            """)
        #expect(checker?.kind == .notACrashReport)
        #expect(checker?.message.contains("Thread Performance Checker") == true)
        let simulated = Self.refusal(
            """
            2023-06-23 02:27:32.386121+0400 ListsApp[98466:13695741] [] __nwlog_err_simulate_crash simulate crash already simulated "nw_protocol_default_input_finished called with null protocol->default_input_handler"
            2023-06-23 02:27:32.386338+0400 ListsApp[98466:13695741] [] nw_protocol_default_input_finished called with null protocol->default_input_handler, dumping backtrace:
                    [arm64] libnetcore-3100.120.5
                0   Network                             0x00000001978e18d4 __nw_create_backtrace_string + 192
                1   Network                             0x0000000197593168 _ZL34nw_protocol_default_input_finishedP11nw_protocolS0_ + 444
            """)
        #expect(simulated?.kind == .notACrashReport)
        // A crash beside such a diagnostic is still read.
        let crash = try Self.read(
            """
            Thread Performance Checker: Thread running at QOS_CLASS_USER_INTERACTIVE waiting on a lower QoS thread running at QOS_CLASS_UTILITY.
            Fatal error: Unexpectedly found nil while unwrapping an Optional value
            """)
        #expect(crash.exception?.runtimeError != nil)
    }

    /// A Mach exception named in a sentence is a crash fact; a report field's value is read as
    /// the field, not again as a sentence.
    /// https://github.com/firebase/firebase-unity-sdk/issues/1436 and https://github.com/aslanyanhaik/Quick-Chat/issues/30
    @Test func aMachExceptionNamedInASentence() throws {
        let prose = try Self.read(
            "A share of cold launches crash inside `FirebaseApp.CreateAndTrack` with `EXC_BAD_ACCESS (SIGBUS) / KERN_PROTECTION_FAILURE`.")
        #expect(prose.exception?.type == "EXC_BAD_ACCESS")
        #expect(prose.exception?.signal == "SIGBUS")
        let lowercase = try Self.read(#"I get this "thread 1: EXC_breakpoint code=1 subcode 0x1007951fc""#)
        #expect(lowercase.exception?.type == "EXC_BREAKPOINT")
        #expect(!MachExceptionLine.namedInSentence("Exception Type:  EXC_CRASH (SIGABRT)"))
        #expect(MachExceptionLine.parse("EXC_SOMETHING_ELSE") == "EXC_SOMETHING_ELSE")
        #expect(MachExceptionLine.parse("exc_not_a_type") == nil)
    }

    /// The middle of an `.ips` body pasted alone: its members whole on their lines are read as a
    /// body of their own, the report marked as a part.
    /// https://github.com/telegramdesktop/tdesktop/issues/30086
    @Test func aPartOfAnIPSBody() throws {
        let report = try Self.read(
            #"""
              "sip" : "enabled",
              "exception" : {"codes":"0x0000000000000001, 0x000002a6adb8b9c0","rawCodes":[1,2914902391232],"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","subtype":"KERN_INVALID_ADDRESS at 0x000002a6adb8b9c0"},
              "termination" : {"flags":0,"code":11,"namespace":"SIGNAL","indicator":"Segmentation fault: 11","byProc":"exc handler","byPid":1551},
              "faultingThread" : 36,
              "threads" : [{"id":1,
            """#)
        #expect(report.facts.exception?.machType == "EXC_BAD_ACCESS")
        #expect(report.facts.exception?.fault?.address == 0x2a6adb8b9c0)
        #expect(!report.completeness.isComplete)
        #expect(report.warnings.contains { $0.message.hasPrefix("read as a part of an .ips body") && $0.line == 1 })
    }

    /// Crashlytics' issue written into a tracker: the image, then `#### in FUNCTION`.
    /// https://github.com/wujichao/testddddd/issues/49
    @Test func crashlyticsIssueInATracker() throws {
        let report = try Self.read(
            """
            libdispatch.dylib

            #### in _os_object_release

            * Number of crashes: 1
            * Impacted devices: 1
            """)
        let frame = try #require(report.crashedThread?.frames.first)
        #expect(frame.imageName == "libdispatch.dylib")
        #expect(frame.symbol == "_os_object_release")
    }

    /// One JSON value pasted out of a larger document (its comma kept): no layout's, so its
    /// lines are read for what they state; a memory limit here.
    /// https://github.com/kstenerud/KSCrash/issues/278
    @Test func aJSONValueWithTextAfterItIsReadForWhatItsLinesState() throws {
        let report = try Self.read(
            """
                {
                    "reason" : "per-process-limit",
                    "pid" : 4624,
                    "name" : "RebornTunnel"
                },
            """)
        #expect(report.facts.statedMessages.contains { $0.family == .resource })
        // Without a crash fact the same shape is refused, naming what it is.
        let refusal = Self.refusal(
            """
            {
                "name" : "RebornTunnel"
            },
            """)
        #expect(refusal?.kind == .notACrashReport)
    }

    /// .NET's own exception messages printed without the type (a Xamarin.iOS app's console).
    /// https://github.com/aritchie/userdialogs/issues/48
    @Test func dotNetsOwnMessagesWithoutTheirType() throws {
        let report = try Self.read(
            """
            2015-08-12 15:56:10.912 XFTestiOS[2557:50730] Object reference not set to an instance of an object :   at MessageBar.MessageView.Draw (CGRect rect) [0x000ee] in <filename unknown>:0
              at (wrapper managed-to-native) UIKit.UIApplication:UIApplicationMain (int,string[],intptr,intptr)
            """)
        let message = try #require(report.facts.statedMessages.first)
        #expect(message.family == .managedException)
        #expect(message.text.hasPrefix("Object reference not set to an instance of an object"))
    }

    /// Frame syntaxes without an image column: an address then the symbol (a handler's
    /// `callStackSymbols`, a list cut to `...`), and gdb's `(null)` address before the compiler's
    /// trap name.
    /// https://github.com/northwind/FlyImage/issues/21, https://github.com/sobri909/MGBoxKit/issues/31
    /// and https://github.com/ruddarr/app/issues/260
    @Test func framesWithoutAnImageColumn() throws {
        let throwList = try #require(PastedFrameGrammar.parse("0x00000001880ac55c objc_exception_throw + 56", reportLine: 1))
        #expect(throwList.address == 0x1_880a_c55c)
        #expect(throwList.symbol == "objc_exception_throw")
        let cut = try #require(
            PastedFrameGrammar.parse(
                "... 0x00092311 +[MGLayoutManager layoutBoxesIn:withSpeed:completion:] (MGLayoutManager.m:106)", reportLine: 1))
        #expect(cut.symbol == "+[MGLayoutManager layoutBoxesIn:withSpeed:completion:]")
        #expect(cut.sourceLine == 106)
        let trap = try #require(PastedFrameGrammar.parse("#0    (null) in Swift runtime failure: Index out of range ()", reportLine: 1))
        #expect(trap.symbol?.hasPrefix("Swift runtime failure: Index out of range") == true)
        // Words after an address are no frame.
        #expect(PastedFrameGrammar.parse("0x0 is not in any region", reportLine: 1) == nil)
    }

    /// UIKit's and AppKit's log line for Auto Layout changed off the main thread, with its stack.
    /// https://github.com/thewca/tnoodle/issues/673
    @Test func autoLayoutsBackgroundThreadLine() throws {
        let report = try Self.read(
            """
            2021-06-20 01:21:58.880 java[61378:4172551] This application is modifying the autolayout engine from a background thread after the engine was accessed from the main thread. This can lead to engine corruption and weird crashes.
             Stack:(
            	0   CoreAutoLayout                      0x00007fff2730647f _AssertAutoLayoutOnAllowedThreadsOnly + 189
            )
            """)
        #expect(report.facts.statedMessages.first?.family == .threadChecker)
    }

    /// Labels a poster or a service puts before the crash's own words: a place's `Line 117:`,
    /// `Exception Class:` (Buddybuild); Xcode's annotation with the thread's number replaced by a
    /// placeholder; Mono's message with the managed type last in parentheses. Apple's own fields
    /// stay fields.
    /// https://github.com/AndyQ/NFCPassportReader/issues/86, https://github.com/CatchChat/Yep/issues/687,
    /// https://github.com/husnjak/IGDB-SWIFT-API/issues/33 and https://github.com/dotnet/maui/issues/19522
    @Test func labelsBeforeTheCrashsOwnWords() throws {
        let line = try Self.read("SecureMessaging.swift\nLine 117: Fatal error: Array index is out of range\n")
        #expect(line.facts.statedMessages.contains { $0.text.contains("Array index is out of range") })
        let buddybuild = try Self.read(
            """
            Buddybuild detected a crash
            Exception Class: **NSInternalInconsistencyException**
            Invalid update: invalid number of items in section 0.
            """)
        #expect(buddybuild.facts.uncaughtException?.exception.name == "NSInternalInconsistencyException")
        let annotation = try Self.read("Thread x: EXC_BREAKPOINT (code=1, subcode=0x104ae7bc4)\n")
        #expect(annotation.exception?.type == "EXC_BREAKPOINT")
        let managed = try #require(ManagedExceptionLine.parse("Arg_EnumValueNotFound, Center (System.ArgumentException)"))
        #expect(managed.name == "System.ArgumentException")
        #expect(managed.message == "Arg_EnumValueNotFound, Center")
        #expect(LogPrefix.labelledIntro("Exception Type:  EXC_CRASH (SIGABRT)") == nil)
        #expect(LogPrefix.labelledIntro("Process: SpringBoard") == nil)
    }

    /// What a frame that names only its function says of its owner, and which levels are the
    /// compiler's rather than the app's (issue 48: where the crash is).
    @Test func ownersAndCompilerGlueByName() {
        #expect(AppOwnership.isAppCode(symbol: "-[FlyImageRetrieveOperation main]") == true)
        #expect(AppOwnership.isAppCode(symbol: "-[UIViewController viewDidLoad]") == false)
        #expect(AppOwnership.isAppCode(symbol: "+[_UIAlertControllerShimPresenter f]") == false)
        #expect(AppOwnership.isAppCode(symbol: "objc_msgSend") == nil)
        #expect(AppOwnership.isAppCode(symbol: "specialized Array.subscript.getter") == false)
        #expect(AppOwnership.isAppCode(symbol: "closure #1 in SwiftUI.View.body.getter") == false)
        #expect(
            AppOwnership.isAppCode(symbol: "merged function signature specialization <Arg[0] = Dead> of jimdo.RightMenuView.f() -> ()")
                == true)
        #expect(AppLine.isCompilerGlue("outlined init with copy of URL?"))
        #expect(!AppLine.isCompilerGlue("merged jimdo.RightMenuView.f()"))
        // A specialized copy of the app's own function at `<compiler-generated>` stays the app's line.
        #expect(!AppLine.isSynthesizedAccessor("specialized static CrashClass.pleaseCrash()"))
        #expect(AppLine.isSynthesizedAccessor("Tab.url.getter(self=0x0000000108c4ec90)"))
    }

    /// The syndrome register's classes as the kernel turns them into exceptions.
    @Test func exceptionSyndromeClasses() {
        #expect(ExceptionSyndrome(value: 0xF200_0001).exception(faultAddress: nil)?.type == "EXC_BREAKPOINT")
        let abort = ExceptionSyndrome(value: 0x9200_0006).exception(faultAddress: 0x18)
        #expect(abort?.type == "EXC_BAD_ACCESS" && abort?.subtype == "KERN_INVALID_ADDRESS at 0x18")
        let permission = ExceptionSyndrome(value: 0x9200_004F).exception(faultAddress: 0x1000)
        #expect(permission?.subtype == "KERN_PROTECTION_FAILURE at 0x1000")
        #expect(ExceptionSyndrome(value: 0x0200_0000).exception(faultAddress: nil)?.signal == "SIGILL")
        #expect(ExceptionSyndrome(value: 0x5600_0000).exception(faultAddress: nil) == nil)
    }
}
