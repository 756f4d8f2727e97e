import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Crash services' issue texts and crash reporters' own readings, as the twenty-fourth gathering
/// showed them after its one measure (issue 48): App Center's crash group as its issue-tracker
/// integration files it (frames `symbol (file:line);image`), and KSCrash's CrashDoctor sentence in
/// the Application Specific Information of KSCrash's and Sentry's Apple-format texts. Each test
/// cites the public thread its lines come from.
@Suite struct ServiceTextsAndReporterReadingsTests {
    /// App Center's issue for a Swift app (https://github.com/charmian-ch/bug-tracker/issues/4):
    /// its stack is the crashed thread's frames, each with its place and image; the signal is the
    /// reason, shown once.
    @Test func appCenterIssueFramesWithTheirImage() throws {
        let text = """
            ### Version 3.3.4 ###

            ### Stacktrace ###

            FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> () (GameViewController.swift:60);FlappyBird

            @objc FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> () (GameViewController.swift:0);FlappyBird

            main (AppDelegate.swift:15);FlappyBird

            ### Reason ###

            SIGABRT
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 3)
        #expect(frames.first?.imageName == "FlappyBird")
        #expect(frames.first?.sourceFile == "GameViewController.swift")
        #expect(frames.first?.sourceLine == 60)
        #expect(frames.first?.symbol == "FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> ()")
        #expect(report.appVersion == "3.3.4")
        #expect(report.facts.exception?.signal == "SIGABRT")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("GameViewController.swift:60"), "\(diagnosis.said)")
        // One line of the text is cited once, however many facts it gave.
        let cited = diagnosis.evidence.map { [$0.field, $0.quote] }
        #expect(Set(cited).count == cited.count, "\(cited)")
    }

    /// The same integration for an Android app (https://github.com/charmian-ch/bug-tracker/issues/3):
    /// managed frames have no image after the semicolon; the reason names the exception.
    @Test func appCenterIssueManagedFramesAndReason() throws {
        let text = """
            ### Version 1.2.2 ###

            ### Stacktrace ###

            com.microsoft.appcenter.crashes.Crashes.generateTestCrash (Crashes.java:223);

            com.example.testing.testingexample.MainActivity.sayHello (MainActivity.java:203);

            ### Reason ###

            com.microsoft.appcenter.crashes.model.TestCrashException
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.sourceLine) == [223, 203])
        #expect(frames.allSatisfy { $0.imageName == nil })
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("TestCrashException"), "\(diagnosis.headline)")
        // A sentence with a semicolon and a place in parentheses is no frame.
        #expect(PastedFrameGrammar.hockeyApp("See the log (Crashes.java:223); it says more", 1) == nil)
    }

    /// Sentry's Apple-format text of a macOS crash (https://github.com/getsentry/sentry-cocoa/issues/603):
    /// CrashDoctor's sentence under the Mach exception's line is the reporter's reading, typed as
    /// such, never the crash's own message, and said.
    @Test func crashDoctorSentenceInApplicationSpecificInformation() throws {
        let text = """
            OS Version: macOS 10.15.5 (19F101)
            Report Version: 104

            Exception Type: EXC_BAD_ACCESS (SIGBUS)
            Exception Codes: BUS_NOOP at 0x00000001092759d0
            Crashed Thread: 10

            Application Specific Information:
            Exception 1, Code 0, Subcode 8 >
            Attempted to dereference garbage pointer 0x1092759d0.

            Thread 10 Crashed:
            0   libobjc.A.dylib                 0xfffeb66d1829      objc_msgSend
            1   Sentry                          0x10927373b         -[SentryClient sendEvent:withScope:alwaysAttachStacktrace:]
            2   Sentry                          0x10927339a         -[SentryClient captureMessage:withScope:]
            """
        let report = try readPasted(text)
        #expect(report.facts.reporterDiagnosis?.lines == ["Attempted to dereference garbage pointer 0x1092759d0."])
        #expect(!report.facts.statedMessages.contains { $0.text.contains("dereference garbage pointer") })
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("Attempted to dereference garbage pointer 0x1092759d0."), "\(diagnosis.said)")
        #expect(!diagnosis.headline.contains("garbage pointer"), "\(diagnosis.headline)")
    }

    /// KSCrash's own Apple-format text labels the diagnosis in its extra information; the labelled
    /// line is read whatever the sentence, and the sentences the doctor writes are its only
    /// unlabelled ones (React Native's `Attempted to dereference an invalid ObjC Object` is not).
    @Test func crashDoctorLabelsAndVocabulary() {
        let labelled = ReporterDiagnosisFact.crashDoctor(in: [
            "CrashDoctor Diagnosis: Application threw exception NSGenericException: *** Collection was mutated"
        ])
        #expect(labelled?.label == "CrashDoctor Diagnosis")
        #expect(labelled?.lines == ["Application threw exception NSGenericException: *** Collection was mutated"])
        let withOrigin = ReporterDiagnosisFact.crashDoctor(in: [
            "Attempted to dereference null pointer.", "Originated at or in a subcall of -[ALAsset(TravelLists) initWithCoder:]",
        ])
        #expect(withOrigin?.lines.count == 2)
        #expect(
            ReporterDiagnosisFact.crashDoctor(in: [
                "Attempted to dereference an invalid ObjC Object or send it an unrecognized selector"
            ]) == nil)
        #expect(ReporterDiagnosisFact.crashDoctor(in: ["Originated at or in a subcall of main"]) == nil)
    }

    /// AddressSanitizer's report of a write to freed memory (https://github.com/HaxeFoundation/hashlink/issues/104):
    /// its kind is known, named in the headline, and read as memory misused, not as an assertion.
    @Test func addressSanitizersKindIsKnown() throws {
        let diagnosis = try diagnoseText(
            """
            =================================================================
            ==23804==ERROR: AddressSanitizer: heap-use-after-free on address 0x621000001558 at pc 0x000000540633 bp 0x7ffe82724870 sp 0x7ffe82724868
            WRITE of size 8 at 0x621000001558 thread T0
                #0 0x540632 in hl_code_read /home/karas/hashlink/src/code.c:458:13
                #1 0x62cd86 in load_code /home/karas/hashlink/src/main.c:65:9
                #2 0x62cd86 in main /home/karas/hashlink/src/main.c:147
            """)
        #expect(diagnosis.category == .memoryCorruption)
        #expect(diagnosis.headline.contains("freed"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id.hasSuffix("/AddressSanitizer use after free") == true, "\(String(describing: diagnosis.matched))")
        #expect(diagnosis.said.contains("code.c:458"), "\(diagnosis.said)")
    }

    /// The same sanitizer on iOS, freeing what malloc never gave (https://github.com/subconsciousnetwork/subconscious/issues/1007),
    /// and HWAddressSanitizer's tag mismatch (https://github.com/python-cffi/cffi/issues/93): each kind by its own entry.
    @Test func everySanitizerKindHasItsEntry() throws {
        let free = try diagnoseText(
            """
            ==26864==ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed: 0x00011a808200 in thread T285
                #0 0x1066a7438 in wrap_free+0x98 (/private/var/containers/Bundle/Application/DF509556-7C0A-45A5-A614-BAE614F194E3/Subconscious.app/Frameworks/libclang_rt.asan_ios_dynamic.dylib:arm64e+0x53438)
                #1 0x102835874 in rocksdb_close+0x14 (/private/var/containers/Bundle/Application/DF509556-7C0A-45A5-A614-BAE614F194E3/Subconscious.app/Subconscious:arm64+0x1023e5874)
            """)
        #expect(free.matched?.id.hasSuffix("/AddressSanitizer invalid free") == true, "\(String(describing: free.matched))")
        let tag = try diagnoseText("==75==ERROR: HWAddressSanitizer: tag-mismatch on address 0xffff7d9c8560 at pc 0xffff7d8a640c")
        #expect(tag.matched?.id.hasSuffix("/HWAddressSanitizer tag mismatch") == true, "\(String(describing: tag.matched))")
        #expect(tag.category == .memoryCorruption)
    }

    /// Android Studio's Logcat window since 2022, compact view (https://github.com/woocommerce/woocommerce-android/issues/633):
    /// the tag and the level are columns, a line going on the entry above keeps only the level; the
    /// uncaught exception and its frames are read behind them.
    @Test func logcatLevelColumn() throws {
        let text = """
             AndroidRuntime  D  Shutting down VM
                             E  FATAL EXCEPTION: main
                             E  Process: com.woocommerce.android, PID: 16599
                             E  java.lang.RuntimeException: Unable to resume activity {com.woocommerce.android/com.woocommerce.android.ui.main.MainActivity}: java.lang.IllegalStateException: badge must not be null
                             E      at android.app.ActivityThread.performResumeActivity(ActivityThread.java:3784)
                             E      at android.app.ActivityThread.handleResumeActivity(ActivityThread.java:3816)
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("badge must not be null"), "\(diagnosis.headline)")
        #expect(LogPrefix.strip("E  FATAL EXCEPTION: main") == "FATAL EXCEPTION: main")
        #expect(LogPrefix.strip("16599-16599 AndroidRuntime  com.example.app  E  FATAL EXCEPTION: main") == "FATAL EXCEPTION: main")
        // One blank after a capital is a sentence's.
        #expect(LogPrefix.strip("A crash happened") == "A crash happened")
    }

    /// Xlib's default error handler (https://github.com/nextfoam/baram/issues/55): the refused
    /// request is the program's last words, its opcode line with it.
    @Test func xlibsFailedRequest() throws {
        let diagnosis = try diagnoseText(
            """
            X Error of failed request:  BadWindow (invalid Window parameter)
              Major opcode of failed request:  12 (X_ConfigureWindow)
              Resource id in failed request:  0x9
              Serial number of failed request:  7
              Current serial number in output stream:  8
            """)
        #expect(diagnosis.headline.contains("BadWindow"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("X_ConfigureWindow"), "\(diagnosis.headline)")
    }

    /// A program with its own X error handler goes on after each error (https://github.com/aesophor/wmderland/issues/23,
    /// Steam's `xerror_handler: X failed, continuing`): no crash, refused as one the process survived.
    @Test func xErrorsAProgramSurvives() {
        #expect(throws: CrashReportError.self) {
            try readPasted(
                """
                Steam: An X Error occurred
                X Error of failed request:  BadWindow (invalid Window parameter)
                Major opcode of failed request:  20 (X_GetProperty)
                Resource id in failed request:  0x3800008
                Serial number of failed request:  1768
                xerror_handler: X failed, continuing
                """)
        }
    }

    /// macOS killing a program whose signature its policy refused (https://github.com/RightNow-AI/openfang/issues/109):
    /// an exec refusal for its signature, the shell's `Killed: 9` said as its SIGKILL.
    @Test func codeSignatureRefusedAtExec() throws {
        let report = try readPasted(
            """
            $ openfang --version
            Killed: 9

            kernel: load code signature error 2 for file "openfang"
            (AppleSystemPolicy) ASP: Security policy would not allow process: ..., .openfang/bin/openfang
            """)
        #expect(report.facts.execRefusal?.reason == .codeSignature)
        let diagnosis = try diagnoseText(
            """
            $ openfang --version
            Killed: 9

            kernel: load code signature error 2 for file "openfang"
            """)
        #expect(diagnosis.category == .execRefused)
        #expect(diagnosis.said.contains("Killed: 9"), "\(diagnosis.said)")
        // A question about the words is no refusal.
        #expect(ExecRefusalFact.parse("Why do I get load code signature error 2?") == nil)
    }

    /// Ruby's backtrace under the exception's message (https://github.com/CocoaPods/CocoaPods/issues/590):
    /// its `file.rb:N:in `method'` frames are read, and the line above them is said as the error.
    @Test func rubyBacktraceUnderItsMessage() throws {
        let text = """
            No such file or directory - /Users/sanjits/Source/ios/apps/Project/Pods/OHAttributedLabel/OHAttributedLabel/LICENSE
            /Users/sanjits/.rvm/gems/ruby-1.9.3-p194/gems/cocoapods-0.13.0/lib/cocoapods/local_pod.rb:318:in `read'
            /Users/sanjits/.rvm/gems/ruby-1.9.3-p194/gems/cocoapods-0.13.0/lib/cocoapods/local_pod.rb:318:in `license_text'
            /Users/sanjits/.rvm/gems/ruby-1.9.3-p194/gems/cocoapods-0.13.0/lib/cocoapods/generator/acknowledgements/plist.rb:37:in `hash_for_pod'
            """
        let report = try readPasted(text)
        #expect(report.crashedThread?.frames.map(\.symbol) == ["read", "license_text", "hash_for_pod"])
        #expect(report.crashedThread?.frames.first?.sourceLine == 318)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("No such file or directory"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("states no exception, signal or message"), "\(diagnosis.headline)")
        // Ruby 3.4's quotes, and `from` before the callers.
        #expect(PastedFrameGrammar.rubyStyle("from /app/lib/x.rb:12:in 'Foo#bar'", 1)?.symbol == "Foo#bar")
        #expect(PastedFrameGrammar.rubyStyle("see notes.txt:12:in `bar'", 1) == nil)
        #expect(PastedFrameGrammar.rubyStyle("notes.txt:12:in 'bar'", 1) == nil)
    }

    /// The same family in threads not tuned on (https://github.com/CocoaPods/CocoaPods/issues/2580):
    /// an executable without `.rb` (`/usr/bin/pod`), and the blank before the backtick lost in a
    /// Markdown paste.
    @Test func rubyFramesOfAnyFileAndAMarkdownPaste() throws {
        let report = try readPasted(
            """
            /usr/bin/pod:23:in `<main>'
            /usr/bin/pod:23:in`load'
            /Library/Ruby/Gems/2.0.0/gems/cocoapods-0.34.1/bin/pod:33:in `<top (required)>'
            /Library/Ruby/Gems/2.0.0/gems/cocoapods-0.34.1/lib/cocoapods/command.rb:48:in`run'
            """)
        #expect(report.crashedThread?.frames.map(\.symbol) == ["<main>", "load", "<top (required)>", "run"])
        #expect(report.crashedThread?.frames.map(\.sourceLine) == [23, 23, 33, 48])
    }

    /// GHC's call stack under the program's error (https://github.com/uds-psl/autosubst2/issues/11):
    /// each `f, called at File.hs:L:C in package:Module` is a frame with its place.
    @Test func haskellCallStack() throws {
        let text = """
            as2-exe: Prelude.head: empty list
            CallStack (from HasCallStack):
              error, called at libraries/ghc-internal/src/GHC/Internal/List.hs:2030:3 in ghc-internal:GHC.Internal.List
              errorEmptyList, called at libraries/ghc-internal/src/GHC/Internal/List.hs:96:11 in ghc-internal:GHC.Internal.List
              badHead, called at libraries/ghc-internal/src/GHC/Internal/List.hs:90:28 in ghc-internal:GHC.Internal.List
              head, called at Src/Autosubst/GenAutomation.hs:107:26 in as2-0.1.0.0-Ll96ItL8HdFBRbHzHX8N4G:Autosubst.GenAutomation
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 4)
        #expect(frames.last?.sourceFile == "Src/Autosubst/GenAutomation.hs")
        #expect(frames.last?.sourceLine == 107)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Prelude.head: empty list"), "\(diagnosis.headline)")
    }

    /// zsh's words for a job's signal after the program's own output (https://github.com/mvdctop/Movie_Data_Capture/issues/887):
    /// the headline names the signal in the shell's words, without the command.
    @Test func theShellsWordsForTheSignalLead() throws {
        let diagnosis = try diagnoseText(
            """
            [+]Successfully downloaded 1 actor photo.
            [+]Use model         hog
            zsh: illegal hardware instruction  ./Movie_Data_Capture
            """)
        #expect(diagnosis.headline.hasPrefix("SIGILL (illegal hardware instruction) — "), "\(diagnosis.headline)")
    }

    /// MPICH's launcher banner for a rank that died (https://github.com/pmodels/mpich/issues/6563):
    /// said as how the process ended, beside the signal its exit string names.
    @Test func mpichBadTerminationBanner() throws {
        let diagnosis = try diagnoseText(
            """
            ===================================================================================
            =   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
            =   PID 5318 RUNNING AT MacBook-Pro-10.local
            =   EXIT CODE: 11
            =   CLEANING UP REMAINING PROCESSES
            =   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
            ===================================================================================
            YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault: 11 (signal 11)
            """)
        #expect(diagnosis.said.contains("BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES"), "\(diagnosis.said)")
        #expect(diagnosis.category == .badMemoryAccess)
    }

    /// An iOS daemon's report (https://github.com/objectbox/objectbox-dart/issues/561): the kernel's
    /// `EXC_GUARD` and libxpc's reason by its name lead the headline.
    @Test func exceptionAndTerminationNameLead() throws {
        let text = """
            Incident Identifier: C20D9BD0-9C0F-4063-BD1A-7BAF510E57E9
            Hardware Model:      iPhone14,5
            Process:             diagnosticd [301]
            Path:                /usr/libexec/diagnosticd
            Identifier:          diagnosticd
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 17.0.3 (21A360)
            Report Version:      104

            Exception Type:  EXC_GUARD
            Exception Subtype: GUARD_TYPE_USER
            Exception Message: namespc 7 reason_code 0x0000000000000009
            Exception Codes: 0x6000000000000007, 0x0000000000000009
            Termination Reason: LIBXPC 9 XPC_EXIT_REASON_FAULT

            Triggered by Thread:  0

            Thread 0 Crashed:
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.hasPrefix("EXC_GUARD"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("XPC_EXIT_REASON_FAULT"), "\(diagnosis.headline)")
    }

    /// A macOS app's own crash issue (https://github.com/SuperCmdLabs/SuperCmd-v2-releases/issues/120):
    /// AVFAudio's `required condition is false:` reason in the app's sentence is the stated cause.
    @Test func avfaudioRequiredCondition() throws {
        let text = """
            ## Summary
            The previous SuperCmd session ended unexpectedly.
            A crash diagnostic is available. Uncaught exception com.apple.coreaudio.avfaudio. required condition is false: isSink || tap != nullptr
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("required condition is false: isSink || tap != nullptr"), "\(diagnosis.headline)")
    }

    /// An Android app's own error report (https://github.com/rastating/DroidBeard/issues/46): frames
    /// not indented, the root cause under `Caused by:`; Android's own `com.android.internal…` frames
    /// are not the app's, so the app's frame under the cause is where to start.
    @Test func androidCausedByFrameIsTheApps() throws {
        let text = """
            java.lang.RuntimeException: Unable to start activity ComponentInfo{com.rastating.droidbeard/com.rastating.droidbeard.MainActivity}: java.lang.NullPointerException
            at android.app.ActivityThread.performLaunchActivity(ActivityThread.java:2216)
            at android.os.Looper.loop(Looper.java:136)
            at com.android.internal.os.ZygoteInit$MethodAndArgsCaller.run(ZygoteInit.java:795)
            at dalvik.system.NativeStart.main(Native Method)
            Caused by: java.lang.NullPointerException
            at com.rastating.droidbeard.fragments.ShowFragment.onRefreshButtonPressed(ShowFragment.java:124)
            at android.app.Fragment.performCreateView(Fragment.java:1700)
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.causes.first?.frames?.first?.contains("ShowFragment.onRefreshButtonPressed") == true, "\(diagnosis.causes)")
    }

    /// An iOS 17 watchdog report (https://github.com/sensorsdata/sa-sdk-ios/issues/155): the code in
    /// decimal with the field's comma after it, RunningBoard's explanation and the `WatchdogEvent:` field.
    @Test func watchdogDecimalCodeAndExplanation() throws {
        let text = """
            Exception Type:    EXC_CRASH (SIGKILL)
            Exception Codes:   0x0000000000000000, 0x0000000000000000

            Termination Reason:  Namespace FRONTBOARD, Code 2343432205,\u{20}
            <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:[app<com.app.team>:66569] Failed to terminate gracefully after 5.0s
            ProcessVisibility: Unknown
            ProcessState: Running
            WatchdogEvent: process-exit
            WatchdogVisibility: Foreground

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t       0x1d7fd9ce4 mach_msg2_trap + 8
            """
        let report = try readPasted(text)
        #expect(report.facts.termination?.code == 0x8bad_f00d)
        #expect(report.facts.termination?.explanation == "Failed to terminate gracefully after 5.0s")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("0x8badf00d"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("process-exit"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("Failed to terminate gracefully after 5.0s"), "\(diagnosis.said)")
    }

    /// dyld's lazy binding failure in a script's output (https://github.com/donnemartin/system-design-primer/issues/353):
    /// said from its own words.
    @Test func dyldLazyBindingFailure() throws {
        let text = """
            dyld: lazy symbol binding failed: Symbol not found: ____chkstk_darwin
              Referenced from: /usr/local/bin/pandoc
              Expected in: /usr/lib/libSystem.B.dylib

            ./generate-epub.sh: line 3:  4889 Abort trap: 6           pandoc --metadata-file=epub-metadata.yaml -o $1 0<&0
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("lazy symbol binding failed: Symbol not found: ____chkstk_darwin"), "\(diagnosis.headline)")
    }

    /// A JVM crash log whose `#` marks were lost in the paste (https://github.com/cjmx/cjmx/issues/19):
    /// the problematic frame is shown as the log prints it, image and offset.
    @Test func jvmProblematicFrameByOffset() throws {
        let text = """
             A fatal error has been detected by the Java Runtime Environment:

              EXCEPTION_ACCESS_VIOLATION (0xc0000005) at pc=0x0000000061fdcab8, pid=12708, tid=2524

             Problematic frame:
             V  [jvm.dll+0x11cab8]
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.causes.first?.frames?.first?.contains("jvm.dll+0x11cab8") == true, "\(diagnosis.causes)")
    }

    /// A runtime's own last words over the shell's line for the job (https://github.com/lapce/lapce/issues/4):
    /// both are said.
    @Test func lastWordsOverTheShellsLine() throws {
        let text = """
            plugin reload from paths
            proxy mainfiest paths []
            memory allocation of 18446744073709551615 bytes failed
            [1]    2296 abort      /Applications/Lapce.app/Contents/MacOS/lapce
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("memory allocation of 18446744073709551615 bytes failed"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("/Applications/Lapce.app/Contents/MacOS/lapce"), "\(diagnosis.said)")
    }

    /// TCC's stop frame as iOS 11 named it, without `TCC_` (https://github.com/wordpress-mobile/WordPress-iOS/issues/8795):
    /// a privacy violation, not the libdispatch queue it ran on.
    @Test func tccStopFrameOlderSpelling() throws {
        let text = """
            Crashed: com.apple.root.default-qos
            0  libsystem_kernel.dylib         0x181893048 __abort_with_payload + 8
            1  libsystem_kernel.dylib         0x18188dbdc abort_with_payload_wrapper_internal + 100
            2  libsystem_kernel.dylib         0x18188dc08 system_set_sfi_window + 10
            3  TCC                            0x18480c980 __TCCAccessRequest_block_invoke_2.85 + 222
            4  TCC                            0x18480c8a0 __CRASHING_DUE_TO_PRIVACY_VIOLATION__ + 722
            5  TCC                            0x18481013c __tccd_send_block_invoke + 316
            6  libxpc.dylib                   0x1819e1d44 _xpc_connection_reply_callout + 60
            7  libdispatch.dylib              0x1816ff134 _dispatch_client_callout3 + 16
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("__CRASHING_DUE_TO_PRIVACY_VIOLATION__"), "\(diagnosis.headline)")
        #expect(diagnosis.category == .privacyViolation)
    }
}
