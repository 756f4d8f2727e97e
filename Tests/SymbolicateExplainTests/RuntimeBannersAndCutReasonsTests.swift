import Foundation
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Crash texts whose cause is stated in a form no earlier rule read (issue 48): other runtimes'
/// last words inside Apple processes, reasons cut from libobjc's line, system libraries' own stops
/// in Application Specific Information, C++ exceptions by type, signal codes alone, and frames in
/// more syntaxes. Each text is an excerpt of a real public post (its URL above the test); the
/// grammar's lists are checked against the formats the runtimes print (their sources named).
@Suite struct RuntimeBannersAndCutReasonsTests {
    // MARK: - Reasons cut from libobjc's line

    /// The reason part alone. https://github.com/Christian1313/iOS_Swift_ColorPicker/issues/1
    @Test func aBareReasonLineIsAnUncaughtExceptionsReason() throws {
        let text = """
            reason: 'Could not find a navigation controller for segue 'showColorPicker'. Push segues can only be used when the source controller is managed by an instance of UINavigationController.'
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "paste.txt")
        #expect(report.facts.uncaughtException?.exception.reason?.hasPrefix("Could not find a navigation controller") == true)
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.contains("Could not find a navigation controller for segue"), "\(diagnosis.headline)")
    }

    /// Foundation's reason with the selector before it. https://github.com/palmier-io/palmier-pro/issues/320
    @Test func aSelectorsReasonIsStated() throws {
        let diagnosis = try diagnoseText(
            """
            _endUndoGroupRemovingIfEmpty:: NSUndoManager 0x... is in invalid state,
            endUndoGrouping called with no matching begin
            """)
        #expect(diagnosis.headline.contains("NSUndoManager 0x... is in invalid state"), "\(diagnosis.headline)")
        // A C++ name is no selector.
        #expect(!CrashMessageGrammar.isSelectorReason("std::vector<int>:: size is wrong"))
    }

    /// An app's uncaught-exception handler's `CRASH:` line over a reporter's numbered frames with
    /// bare hex addresses. https://github.com/dzenbot/DZNEmptyDataSet/issues/334
    @Test func aHandlersCrashLineOverBareHexFrames() throws {
        let text = """
             CRASH: Unable to parse constraint format: Unable to interpret '|' character, because the related view doesn't have a superview V:|[imageView]-(11@750)-[titleLabel]| ^ 
             *********** Stack trace: 
             #0 CoreFoundation 000000000182BC2DB0 () 
             #1 libobjc.A.dylib 000000000182227F80 objc_exception_throw() 
             #5 Foundation 0000000001834FD070 +[NSLayoutConstraintParser constraintsWithVisualFormat:options:metrics:views:] 
             #6 iDiskk 00000000010038D634 -[DZNEmptyDataSetView setupConstraints] 
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Unable to parse constraint format"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("DZNEmptyDataSetView setupConstraints"), "\(diagnosis.said)")
        let frame = try #require(
            PastedFrameGrammar.bareHexAddress("#6 iDiskk 00000000010038D634 -[DZNEmptyDataSetView setupConstraints]", 1))
        #expect(frame.index == 6 && frame.imageName == "iDiskk" && frame.address == 0x1_0038_D634)
        #expect(frame.symbol == "-[DZNEmptyDataSetView setupConstraints]")
        // A prose list and a short number are no frame.
        #expect(PastedFrameGrammar.bareHexAddress("1 Open the app and wait 12345678 seconds", 1) == nil)
        #expect(PastedFrameGrammar.bareHexAddress("2 Foundation 1234 +[NSString string]", 1) == nil)
    }

    /// NSAssertionHandler's line with its stars lost names the asserting method.
    /// https://github.com/xiaopin/NavigationContainer/issues/11
    @Test func anAssertionLineWithoutStarsNamesTheMethod() throws {
        let diagnosis = try diagnoseText(
            """
            Assertion failure in -[XPRootNavigationController popToViewController:transition:], /BuildRoot/Library/Caches/com.apple.xbs/Sources/UIKitCore/UIKit-3698.140/UINavigationController.m:8176
            *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Tried to pop to a view controller that doesn't exist.'
            """)
        #expect(diagnosis.said.contains("XPRootNavigationController popToViewController"), "\(diagnosis.said)")
    }

    /// Bugsnag's `Name in function` title puts the reason on the next line.
    /// https://github.com/AtB-AS/mittatb-app/issues/1751
    @Test func bugsnagsTitleKeepsItsReasonLine() throws {
        let diagnosis = try diagnoseText(
            """
            ## Error in MittAtb

            **NSInternalInconsistencyException** in **_mh_execute_header**
            Invalid parameter not satisfying: view != nil

            ## Stacktrace

                AtB:0 - _mh_execute_header
            """)
        #expect(diagnosis.headline.contains("Invalid parameter not satisfying: view != nil"), "\(diagnosis.headline)")
        #expect(ExceptionNameLine.parse("NSInternalInconsistencyException in _mh_execute_header")?.reason == nil)
    }

    /// Crashlytics' title and reason in Markdown's bold. https://github.com/piemonte/PBJVision/issues/313
    @Test func aBoldCrashlyticsTitleKeepsItsReason() throws {
        let diagnosis = try diagnoseText(
            """
            **Fatal Exception: NSInternalInconsistencyException
            Cannot update for observer <PBJVision 0x15c75cfb0> for the key path "currentDevice.torchAvailable" from <PBJVision 0x15c75cfb0>, most likely because the value for the key "currentDevice" has changed without an appropriate KVO notification being sent. Check the KVO-compliance of the PBJVision class.**

            Fatal Exception: NSInternalInconsistencyException
            0  CoreFoundation                 0x182da6e38 __exceptionPreprocess
            1  libobjc.A.dylib                0x18240bf80 objc_exception_throw
            2  CoreFoundation                 0x182da6d80 -[NSException initWithCoder:]
            3  Foundation                     0x18368e6b4 -[NSObject(NSKeyValueObserverNotification) didChangeValueForKey:]
            4  PBJVision                      0x1011e3160 __29-[PBJVision _sessionStarted:]_block_invoke (PBJVision.m:2351)
            """)
        #expect(diagnosis.headline.contains("Cannot update for observer"), "\(diagnosis.headline)")
    }

    /// Sentry's JVM-style frames for native symbols (`at null.X(null:null)`): the asserting method
    /// below NSAssertionHandler is named. https://github.com/wordpress-mobile/MediaPicker-iOS/issues/350
    @Test func sentrysNullFramesNameTheAssertingMethod() throws {
        let diagnosis = try diagnoseText(
            """
            NSInternalInconsistencyException: threading violation: expected the main thread
                at null.__exceptionPreprocess(null:null)
                at null.objc_exception_throw(null:null)
                at null.+[NSException raise:format:arguments:](null:null)
                at null.-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:](null:null)
                at null.-[FBSSerialQueue assertOnQueue](null:null)
                at null.-[FBSSceneImpl updateClientSettings:withTransitionContext:](null:null)
            """)
        #expect(diagnosis.said.contains("FBSSerialQueue assertOnQueue"), "\(diagnosis.said)")
    }

    // MARK: - Runtimes' and tools' last words

    /// The Swift concurrency runtime's `error: <part>: detected …`. https://github.com/swiftlang/swift/issues/73217
    @Test func theConcurrencyRuntimesOwnCheck() throws {
        let diagnosis = try diagnoseText(
            "error: task-local: detected illegal task-local value binding at __lldb_expr_3/TLV.playground:6.\n")
        #expect(diagnosis.headline.contains("detected illegal task-local value binding"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("TLV.playground:6"), "\(diagnosis.headline)")
    }

    /// Each runtime's line is a crash message of its own; the look-alikes are not. Sources of the
    /// formats: Ruby's `rb_bug` (error.c, https://github.com/ruby/b.r-l.o/issues/129), CPython's
    /// `Py_FatalError` (https://github.com/ronaldoussoren/pyobjc/issues/223), Xcode's DVTAssertions
    /// (https://github.com/macfuse/macfuse/issues/312), Go's runtime `throw` (runtime/map.go), the JVM's
    /// hs_err banner, WebKit's `ASSERTION FAILED:` (Assertions.cpp), Qt's `qt_assert` (qglobal.cpp),
    /// CoreFoundation's `HALT_MSG` (CFRuntime.c), libmalloc's region refusal
    /// (https://github.com/davechurchill/commandcenter/issues/93).
    @Test(arguments: [
        ("/Library/Ruby/Gems/2.6.0/gems/ffi-1.15.1/lib/ffi/library.rb:275: [BUG] Bus Error at 0x0000000100ff4000", true),
        ("Fatal Python error: Segmentation fault", true),
        ("ASSERTION FAILURE in /Library/Caches/com.apple.xbs/Sources/DVTFrameworks/DVTFoundation/Utilities/DVTMachOUtilities.m:603", true),
        ("fatal error: concurrent map writes", true),
        ("# A fatal error has been detected by the Java Runtime Environment:", true),
        ("ASSERTION FAILED: !isMainThread()", true),
        ("ASSERT: \"index >= 0\" in file /src/qlist.h, line 459", true),
        ("*** CFRelease() called with NULL ***", true),
        ("CommandCenter(30038,0x10bdd6dc0) malloc: can't allocate region", true),
        (":*** mach_vm_map(size=140732750573568, flags: 100) failed (error code=3)", true),
        ("main.c:3:10: fatal error: 'stdio.h' file not found", false),
        ("error: cannot find 'x' in scope", false),
        ("Ruby version [BUG]fix release", false),
        ("CommandCenter(30038,0x10bdd6dc0) malloc: *** set a breakpoint in malloc_error_break to debug", false),
    ])
    func runtimesLastWords(line: String, isMessage: Bool) {
        #expect((CrashMessageGrammar.match(line) != nil) == isMessage, "\(line)")
    }

    /// A tool's helper that died, in the tool's words (Interface Builder's agent, Xcode's LLDB RPC
    /// server, SourceKit's service), glibc's `assert` line (`__assert_fail`'s format, which Node's
    /// `CHECK` prints too) and Wine's unhandled Windows exception are crash messages; a person's
    /// sentence about an app that crashed, and an assertion named in prose, are not.
    /// https://github.com/Hassan-Aftab/HADropDown/issues/5, https://github.com/lionheart/openradar-mirror/issues/20724,
    /// https://github.com/mattdonnelly/Swifter/issues/20, https://github.com/fsevents/fsevents/issues/263,
    /// https://github.com/Gcenx/homebrew-wine/issues/1 (the daemon's line is macOS's `quit unexpectedly` wording).
    @Test(arguments: [
        (
            "Main.storyboard: error: IB Designables: Failed to update auto layout status: The agent crashed",
            StatedMessage.Family?.some(.processExit)
        ),
        (
            "Message from debugger: The LLDB RPC server has crashed. The crash log is located in ~/Library/Logs/DiagnosticReports",
            .processExit
        ),
        ("SourceKit Service Terminated - Editor functionality temporarily limited", .processExit),
        ("The com.example.sync daemon quit unexpectedly.", .processExit),
        ("prog: ../src/x.c:12: main: Assertion `p != NULL' failed.", .assertion),
        ("node[2607]: ../src/node_api.cc:4168:napi_status f(g): Assertion `func != nullptr' failed.", .assertion),
        (
            "wine: Unhandled page fault on read access to 0xffffffffffffffff at address 0x7fff342dfba7 (thread 001a), starting debugger...",
            .signal
        ),
        ("wine: Unhandled illegal instruction at address 0x7bc4d1f2 (thread 0024), starting debugger...", .signal),
        ("My app crashed when I tap the Save button on the settings screen", nil),
        ("The server crashed when we deployed the new build, see the dashboard", nil),
        ("Assertion `x' failed is what the docs say we should expect", nil),
        ("We saw an unhandled exception in the page fault handler docs", nil),
    ])
    func helpersDeathsAssertionsAndWinesFaults(line: String, family: StatedMessage.Family?) {
        #expect(CrashMessageGrammar.match(line)?.family == family, "\(line)")
    }

    /// libmalloc's refusal before an uncaught `std::bad_alloc` is the likely cause, and the headline
    /// says the process aborted. https://github.com/davechurchill/commandcenter/issues/93
    @Test func badAllocAfterMallocsRefusal() throws {
        let diagnosis = try diagnoseText(
            """
            (base) bob@bob:~/bin/cc_alberta/commandcenter/bin$ ./CommandCenter
            CommandCenter(30038,0x10bdd6dc0) malloc: can't allocate region
            :*** mach_vm_map(size=140732750573568, flags: 100) failed (error code=3)
            CommandCenter(30038,0x10bdd6dc0) malloc: *** set a breakpoint in malloc_error_break to debug
            libc++abi.dylib: terminating with uncaught exception of type std::bad_alloc: std::bad_alloc
            Abort trap: 6
            """)
        #expect(diagnosis.headline.contains("abort()"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.text.contains("can't allocate region") == true, "\(diagnosis.said)")
        #expect(diagnosis.references.contains { $0.term == "std::bad_alloc" })
    }

    /// The standard library's exceptions are known by type, libc++'s inline namespace aside; a
    /// reporter's mangled type name (`type_info::name()`) is read as the type.
    /// https://github.com/software-mansion/react-native-reanimated/issues/5673
    @Test func cxxExceptionsByTypeAndMangledName() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type: EXC_CRASH (SIGABRT)
            Crashed Thread: 0

            Application Specific Information:
            N8facebook3jsi7JSErrorE
            """)
        #expect(diagnosis.headline.contains("facebook::jsi::JSError"), "\(diagnosis.headline)")
        #expect(MangledCxxTypeName.demangle("St9bad_alloc") == "std::bad_alloc")
        #expect(MangledCxxTypeName.demangle("NSt3__112system_errorE") == "std::__1::system_error")
        for other in ["NSException", "N8facebook", "St", "N3fooE", "Structure"] {
            #expect(MangledCxxTypeName.demangle(Substring(other)) == nil, "\(other)")
        }
        let system = try diagnoseText(
            "libc++abi: terminating due to uncaught exception of type std::__1::system_error: mutex lock failed: Invalid argument\n")
        #expect(system.references.contains { $0.term == "std::system_error" }, "\(system.references.map(\.term))")
    }

    // MARK: - System libraries' stops in a report's fields

    /// CoreFoundation's NULL release in Application Specific Information, under a trap: the
    /// library's words lead. https://github.com/datatheorem/TrustKit/issues/249
    @Test func coreFoundationsNullReleaseLeads() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type: EXC_BREAKPOINT (SIGTRAP)
            Crashed Thread: 5

            Application Specific Information:
            *** CFRelease() called with NULL *** > boolValue > containsObject: > hashSubjectPublicKeyInfoFromCertificate:

            Thread 5 Crashed:
            0   CoreFoundation                  0x315fb022c         CFRelease.cold.1
            1   CoreFoundation                  0x315e2c534         CFRelease
            2   TrustKit                        0x1045c79e0         verifyPublicKeyPin (ssl_pin_verifier.m:68)
            """)
        #expect(diagnosis.headline.contains("CFRelease() called with NULL"), "\(diagnosis.headline)")
    }

    /// libobjc's corrupted autorelease pool under SIGILL is memory corruption, as it says.
    /// https://github.com/philburk/hmsl/issues/24
    @Test func aCorruptedAutoreleasePoolLeads() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type:        EXC_BAD_INSTRUCTION (SIGILL)
            Exception Codes:       0x0000000000000001, 0x0000000000000000

            Application Specific Information:
            objc[11712]: autorelease pool page 0x7b311000 corrupted
              magic     0x00000003 0x4f545541 0x454c4552 0x21455341
              should be 0xa1a1a1a1 0x4f545541 0x454c4552 0x21455341
            """)
        #expect(diagnosis.headline.contains("autorelease pool page 0x7b311000 corrupted"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("memory corruption"), "\(diagnosis.headline)")
    }

    /// An `.ips` termination with only its indicator: the indicator names the kill.
    /// https://github.com/SAP/macOS-enterprise-privileges/issues/273
    @Test func aTerminationIndicatorWithoutACode() throws {
        let diagnosis = try diagnoseText(
            """
            {
              "exception": {"type":"EXC_CRASH","signal":"SIGKILL (Code Signature Invalid)"},
              "termination": {"namespace":"CODESIGNING","indicator":"Launch Constraint Violation"}
            }
            """)
        #expect(diagnosis.headline.contains("Launch Constraint Violation"), "\(diagnosis.headline)")
    }

    /// A signal's code on its own line names the fault. https://github.com/KrassOrg/bsTestRepo/issues/2605
    @Test func aSignalCodeAloneNamesTheFault() throws {
        let diagnosis = try diagnoseText("IOS-2829: SIGBUS [Bugsee]\nBUS\\_ADRALN\n")
        #expect(diagnosis.headline.contains("BUS_ADRALN"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Misaligned"), "\(diagnosis.headline)")
        #expect(SignalLine.signal(in: "SEGV_MAPERR") == "SIGSEGV")
        #expect(SignalLine.signal(in: "SEGV_SOMETHING") == nil)
    }

    // MARK: - Where, in the text's own words

    /// A poster's note naming the source file, in a text without frames.
    /// https://github.com/Tencent/mars/issues/6
    @Test func aPostersNoteNamesTheSourceFile() throws {
        let diagnosis = try diagnoseText(
            """
            iOSDemo crash  -- TopicViewController.m  --  line79  [_recvContentField setText:recvtext]; 
            'NSInternalInconsistencyException', reason: '-[UIKeyboardTaskQueue waitUntilAllTasksAreFinished] may only be called from the main thread.'
            """)
        #expect(diagnosis.said.contains("TopicViewController.m"), "\(diagnosis.said)")
    }

    /// A managed runtime's frames behind the system log's prefix are frames.
    /// https://github.com/hbons/SparkleShare/issues/424
    @Test func managedFramesBehindALogPrefix() throws {
        let diagnosis = try diagnoseText(
            """
            11/14/11 9:17:47.396 AM [0x0-0x49049].org.sparkleshare.sparkleshare: Unhandled Exception: System.DllNotFoundException: libc.dylib
            11/14/11 9:17:47.396 AM [0x0-0x49049].org.sparkleshare.sparkleshare:   at Mono.Unix.UnixMarshal.FreeHeap (IntPtr ptr) [0x00000] in <filename unknown>:0 
            11/14/11 9:17:47.396 AM [0x0-0x49049].org.sparkleshare.sparkleshare:   at Mono.Unix.Catalog.GetString (System.String s) [0x00000] in <filename unknown>:0 
            11/14/11 9:17:47.396 AM [0x0-0x49049].org.sparkleshare.sparkleshare:   at SparkleShare.Program.Main (System.String[] args) [0x00000] in <filename unknown>:0 
            """)
        #expect(diagnosis.headline.contains("DllNotFoundException"), "\(diagnosis.headline)")
        let said = diagnosis.said
        #expect(said.contains("SparkleShare.Program.Main") || said.contains("Mono.Unix.Catalog.GetString"), "\(said)")
    }

    /// Core Animation's warning with the backtrace of where the transaction began is no crash.
    /// https://github.com/iris-edu/pyweed/issues/40
    @Test func aWarningWithItsBacktraceIsRefused() {
        let text = """
                CoreAnimation: warning, deleted thread with uncommitted CATransaction; created by:
                0   QuartzCore                          0x00007fff990efe0f _ZN2CA11Transaction4pushEv + 331
                1   QuartzCore                          0x00007fff990f01d3 _ZN2CA11Transaction15ensure_implicitEv + 281
                2   AppKit                              0x00007fff912892da +[NSDisplayCycle currentDisplayCycle] + 44
            """
        #expect(throws: (any Error).self) { try CrashReport.parse(data: Data(text.utf8), path: "paste.txt") }
    }

    // MARK: - More frame syntaxes and system sentences

    /// The JVM's fatal error log names its problematic native frame. https://github.com/nicho92/MtgDesktopCompanion/issues/102
    @Test func theJVMsProblematicFrame() throws {
        let diagnosis = try diagnoseText(
            """
            # A fatal error has been detected by the Java Runtime Environment:
            #
            #  SIGSEGV (0xb) at pc=0x00007fff9c2dc4dd, pid=67337, tid=1295
            #
            # JRE version: OpenJDK Runtime Environment (14.0+36) (build 14+36-1461)
            # Problematic frame:
            # C  [libobjc.A.dylib+0x14dd]  objc_msgSend+0x1d
            """)
        #expect(diagnosis.said.contains("objc_msgSend"), "\(diagnosis.said)")
        let frame = try #require(PastedFrameGrammar.jvmNativeFrame("C  [libjvm.dylib+0x3a1b2c]  jni_GetObjectClass+0x6c", 1))
        #expect(frame.imageName == "libjvm.dylib" && frame.imageOffset == 0x3a_1b2c && frame.symbol == "jni_GetObjectClass")
    }

    /// Decimal addresses (a crash service's export) are not read as bare hex.
    /// https://github.com/parse-community/Parse-SDK-iOS-OSX/issues/537
    @Test func decimalAddressesAreNotBareHex() {
        #expect(
            PastedFrameGrammar.bareHexAddress(
                "1  StoreKit                       6552361264 __34-[SKProductsRequest _handleReply:]_block_invoke + 540", 1) == nil)
    }

    /// Bugsnag's context names where, when the text has no app frame.
    /// https://github.com/NYPL-Simplified/Simplified-iOS/issues/781
    @Test func bugsnagsContextIsWhere() throws {
        let diagnosis = try diagnoseText(
            """
            ## Error in iOS - Simplified

            **NSInvalidArgumentException** in **UIPageViewController**
            The number of view controllers provided (0) doesn't match the number required (1) for the requested transition

            ## Stacktrace

                Frameworks/CoreFoundation.framework/CoreFoundation:0 - ___exceptionPreprocess
            """)
        #expect(diagnosis.headline.contains("The number of view controllers provided (0)"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("UIPageViewController"), "\(diagnosis.said)")
    }

    /// A crash service's termination line with its own separator. https://github.com/0xCUB3/wBlock/issues/385
    @Test func aTerminationReasonWithABar() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type: EXC_CRASH (SIGKILL)
            Termination Reason: RUNNINGBOARD | Code 0xDEAD10CC
            """)
        #expect(diagnosis.headline.lowercased().contains("dead10cc"), "\(diagnosis.headline)")
    }

    /// The system's sentence that it ended the app for its memory, in the words iOS's alert and
    /// Xcode's console use; a memory warning the app survived is no crash.
    @Test func theSystemsMemoryKillSentence() throws {
        let diagnosis = try diagnoseText("The app “Foo” has been killed by the operating system because it is using too much memory.\n")
        #expect(diagnosis.headline.contains("too much memory"), "\(diagnosis.headline)")
        #expect(CrashMessageGrammar.match("Received memory warning.") == nil)
    }

    /// The old Console's prefix (`11/14/11 9:17:47.396 AM [0x0-0x49049].org.x.y: `) is a prefix.
    @Test func theOldConsolesPrefix() {
        #expect(
            LogPrefix.strip(
                "11/14/11 9:17:47.396 AM [0x0-0x49049].org.sparkleshare.sparkleshare:   at Mono.Unix.Catalog.GetString (System.String s)")
                == "at Mono.Unix.Catalog.GetString (System.String s)")
    }

    /// Chromium's and Flutter's `LOG(FATAL)` lines (base/logging.cc's prefix: process, thread,
    /// time, level, file and line) end the process; their ERROR level does not.
    @Test(arguments: [
        ("[12345:0101/000000.000000:FATAL:v8_initializer.cc(630)] Error loading V8 startup snapshot file", true),
        (
            "[FATAL:flutter/shell/platform/darwin/ios/framework/Source/FlutterEngine.mm(1234)] Could not launch engine with configuration.",
            true
        ),
        ("[0101/000000.000000:ERROR:gpu_init.cc(440)] Passthrough is not supported, GL is disabled", false),
    ])
    func chromiumsFatalLog(line: String, isMessage: Bool) {
        #expect((CrashMessageGrammar.match(line) != nil) == isMessage, "\(line)")
    }

    /// UIKit's logged errors that name the function to break in are not crashes.
    @Test func uikitsBreakInLinesAreNotCrashes() {
        let text = """
            -[UIApplication endBackgroundTask:] Can't end BackgroundTask: no background task exists with identifier 12 (0xc), or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug.
            """
        #expect(throws: (any Error).self) { try CrashReport.parse(data: Data(text.utf8), path: "paste.txt") }
    }

    /// libstdc++'s verbose terminate handler (vterminate.cc) names the type and, on the next line, `what()`.
    @Test func libstdcxxsTerminateNamesTheException() throws {
        let diagnosis = try diagnoseText(
            "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\nAbort trap: 6\n")
        #expect(diagnosis.headline.contains("std::runtime_error"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("boom"), "\(diagnosis.headline)")
    }
}
