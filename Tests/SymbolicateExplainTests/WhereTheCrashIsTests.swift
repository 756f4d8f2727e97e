import Foundation
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Where a diagnosis says the crash is (issue 48): the leading cause carries the app's frame,
/// chosen past compiler glue, standard-library specializations and a reporter's handlers, in
/// frames that name only their function; and the crash facts a text states in the shapes crash
/// services and posters use. Each text is from a real public post (its URL above the test).
@Suite struct WhereTheCrashIsTests {
    static func frames(_ diagnosis: Diagnosis) -> [String] { diagnosis.causes.flatMap { $0.frames ?? [] } }

    /// Compiler glue (an outlined copy, a synthesized getter at `<compiler-generated>`) gives
    /// way to the app's own closure.
    /// https://github.com/brave/brave-ios/issues/1186
    @Test func compilerGlueGivesWayToTheAppsFunction() throws {
        let diagnosis = try diagnoseText(
            """
            * thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x3603c8bf0)
                frame #0: 0x0000000198046e30 libobjc.A.dylib`objc_retain + 16
                frame #1: 0x00000001c77d353c libswiftCore.dylib`swift::metadataimpl::ValueWitnesses<swift::metadataimpl::ObjCRetainableBox>::initializeWithCopy(swift::OpaqueValue*, swift::OpaqueValue*, swift::TargetMetadata<swift::InProcess> const*) + 28
                frame #2: 0x00000001049d6054 Client`outlined init with copy of URL? at <compiler-generated>:0
                frame #3: 0x0000000104d031cc Client`Tab.url.getter(self=0x0000000108c4ec90) at <compiler-generated>:0
              * frame #4: 0x0000000104d2b8bc Client`closure #1 in AdBlockStats.shouldBlock(currentTabUrl=nil) at AdBlockStats.swift:99:84
                frame #5: 0x00000001049cdb38 Client`thunk for @escaping @callee_guaranteed () -> () at <compiler-generated>:0
                frame #6: 0x000000010884f1f8 libdispatch.dylib`_dispatch_call_block_and_release + 32
            """)
        #expect(Self.frames(diagnosis).first?.contains("AdBlockStats.shouldBlock") == true, "\(Self.frames(diagnosis))")
    }

    /// Swift's backtracer with no image list: the frame `in Frontend` is the program's.
    /// https://github.com/peripheryapp/periphery/issues/914
    @Test func aBacktracersFrameInTheProgramIsTheApps() throws {
        let diagnosis = try diagnoseText(
            """
            *** Signal 11: Backtracing from 0x7f8606d48784... done ***
            *** Program crashed: Bad pointer dereference at 0x0000000000000000 ***
            Thread 0 "Frontend_opt":
            0  0x00007f86059fccce <unknown> in libc.so.6
            Thread 9 crashed:
            0      0x00007f8606d48784 swift::RefCounts<swift::RefCountBitsT<(swift::RefCountInlinedness)1> >::incrementSlow(swift::RefCountBitsT<(swift::RefCountInlinedness)1>, unsigned int) + 84 in libswiftCore.so
            1 [ra] 0x00007f8606c48e33 Sequence.contains(where:) + 242 in libswiftCore.so
            2 [ra] 0x000055d1cfc75746 Collection<>.anyMatch(filename:) + 37 in Frontend
            """)
        #expect(diagnosis.category == .nilDereference)
        #expect(Self.frames(diagnosis).contains { $0.contains("anyMatch") }, "\(Self.frames(diagnosis))")
    }

    /// Frames that name only their function: an Objective-C method of a class not Apple's is the app's.
    /// https://github.com/northwind/FlyImage/issues/21
    @Test func aMethodOfAClassNotApplesIsTheApps() throws {
        let diagnosis = try diagnoseText(
            """
            Trapped uncaught exception 'NSGenericException', reason: '*** Collection <__NSArrayM: 0x1708526f0> was mutated while being enumerated.'
            (
               0x00000001896721d8 <redacted> + 148
               0x00000001880ac55c objc_exception_throw + 56
               0x0000000189671c08 <redacted> + 0
               0x000000010029cb48 -[FlyImageRetrieveOperation main]
            )
            """)
        #expect(Self.frames(diagnosis).contains { $0.contains("FlyImageRetrieveOperation") }, "\(Self.frames(diagnosis))")
    }

    /// A specialization of the standard library in the app's file gives way to the app's function.
    /// https://github.com/odyshewroman/AndroidTVRemoteControl/issues/32
    @Test func aStandardLibrarySpecializationGivesWayToItsCaller() throws {
        let diagnosis = try diagnoseText(
            """
            EXC_BREAKPOINT range
            Swift runtime failure: Array index is out of range + 0

            specialized Array.subscript.getter + 4 (SecondConfigurationResponse.swift:59)
            specialized SecondConfigurationResponse.parsePowerPart(_:) + 260
            SecondConfigurationResponse.parsePowerPart(_:) + 8 (SecondConfigurationResponse.swift:0)
            """)
        #expect(Self.frames(diagnosis).contains { $0.contains("parsePowerPart") }, "\(Self.frames(diagnosis))")
        #expect(!diagnosis.headline.contains("+ 0"), "the trap's name without its offset: \(diagnosis.headline)")
    }

    /// A crash service's web text names an inlined standard-library member without its
    /// arguments (`[inlined] CheckedContinuation.resume<T>`): it gives way to the app's function at
    /// the same address. https://github.com/aws-amplify/amplify-swift/issues/3362 (holdout7, spent)
    @Test func anInlinedStandardLibraryMemberWithoutArgumentsGivesWay() throws {
        #expect(AppLine.isSwiftStandardLibrary("[inlined] CheckedContinuation.resume<T>"))
        #expect(AppLine.isSwiftStandardLibrary("Array.subscript.getter"))
        #expect(!AppLine.isSwiftStandardLibrary("ShowHostedUISignIn.execute"))
        #expect(!AppLine.isSwiftStandardLibrary("CheckedContinuationBox.resume<T>"))
        let (_, diagnosis) = try diagnoseCrashText("holdout7/842-swift-continuation-misuse.txt")
        #expect(diagnosis.said.contains("ShowHostedUISignIn.execute"), "\(diagnosis.said)")
    }

    /// An exception thrown on the crashed thread: the app's line is below the throw, not the
    /// reporter's handler above it.
    /// https://github.com/photo/mobile-ios/issues/54
    @Test func theAppsLineIsBelowTheThrow() throws {
        let diagnosis = try diagnoseText(
            """
            [__NSArrayM insertObject:atIndex:]: object cannot be nil

            Stacktrace (7) 0 OpenPhoto 0x000b6839 OpenPhoto + 743481
            1 OpenPhoto 0x000b6a77 OpenPhoto + 744055
            2 CoreFoundation 0x3105f987 **handleUncaughtException + 74
            3 libobjc.A.dylib 0x382042d1 _objc_terminate + 128
            6 libc++abi.dylib 0x31cfb79f __cxa_throw + 122
            7 libobjc.A.dylib 0x38204223 objc_exception_throw + 94
            8 CoreFoundation 0x30fb420f -[__NSArrayM insertObject:atIndex:] + 186
            9 OpenPhoto 0x00005e87 -[HomeViewController getHomeScreenPicturesOnDetachTread:](HomeViewController.m:104)
            10 Foundation 0x38071a91 -[NSThread main] + 72
            """)
        #expect(diagnosis.causes.first?.frames?.contains { $0.contains("HomeViewController") } == true, "\(diagnosis.causes)")
    }

    /// A crash service's thread title, then its signal line, then a blank line before the frames:
    /// the frames are the crashed thread's, and malloc's check in them is the cause.
    /// https://github.com/Instabug/Instabug-iOS/issues/128
    @Test func aBlankLineBetweenTheThreadTitleAndItsFrames() throws {
        let diagnosis = try diagnoseText(
            """
            Crashed: com.apple.CFNetwork.CustomProtocols
            SIGABRT ABORT 0x000000001aa90ad4

            0  libsystem_kernel.dylib         0x1aa90ad4 __pthread_kill + 8
            1  libsystem_pthread.dylib        0x1ab4718b pthread_kill + 62
            2  libsystem_c.dylib              0x1aa24339 abort + 108
            3  libsystem_malloc.dylib         0x1aad3323 _szone_default_reader.20 + 362
            4  libsystem_malloc.dylib         0x1aad43ad free_small_botch + 110
            5  CFNetwork                      0x1b8de587 <redacted> + 70
            10 Instabug                       0x223fb41 -[IBGURLProtocol startLoading] + 498
            """)
        #expect(diagnosis.category == .memoryCorruption, "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("malloc"))
        #expect(!diagnosis.headline.contains("states the cause"), "the signal line is the crash's name, not its cause in words")
    }

    /// `Crash due to signal: SIGTRAP(TRAP_BRKPT)` above a lone `Thread 0:`: the signal is the
    /// crash's, and the one stack is the crashed thread.
    /// https://github.com/Instabug/Instabug-iOS/issues/405
    @Test func aSignalWithItsCodeAboveTheOnlyStack() throws {
        let diagnosis = try diagnoseText(
            """
            # Cause: Crash due to signal: SIGTRAP(TRAP_BRKPT) at 19288dcb4
            # Reported at: 2021-01-12 21:11:54 UTC

            Thread 0:

            0    Instabug                                 0x1014bd8f4     _hidden#34369_ (__hidden#34603_:80)
            1    Instabug                                 0x1012a3a90     _hidden#6680_ (__hidden#6827_:115) -[IBGPickerCollectionViewCell timerLabel] (in Instabug) + 52
            """)
        #expect(diagnosis.category == .swiftTrap, "\(diagnosis.headline)")
        #expect(diagnosis.headline.hasPrefix("SIGTRAP"))
    }

    /// A poster's label in Markdown emphasis before the exception a crash service printed.
    /// https://github.com/JetBrains/kotlin-native/issues/3469
    @Test func aLabelInEmphasisBeforeTheException() throws {
        let diagnosis = try diagnoseText(
            """
            **Error:** EXC_BAD_ACCESS KERN_INVALID_ADDRESS

            **Stack trace:**

            Crashed: com.apple.main-thread
            0  App                           0x105103e30 (anonymous namespace)::garbageCollect(MemoryState*, bool) + 4369841712
            1  App                           0x105111e64 ObjHeader* (anonymous namespace)::allocInstance<true>(TypeInfo const*, ObjHeader**) + 4369899108
            """)
        #expect(diagnosis.headline.hasPrefix("EXC_BAD_ACCESS"), "\(diagnosis.headline)")
    }

    /// Only the crashed thread's registers: the syndrome register says the CPU took a breakpoint
    /// (`brk 1`, the compiler's trap), quoted as the evidence.
    /// https://github.com/NSAntoine/Antoine/issues/3
    @Test func theSyndromeRegisterOfARegisterDumpAlone() throws {
        let diagnosis = try diagnoseText(
            """
            Thread 0 crashed with ARM Thread State (64-bit):
                x0: 0x8dffdedb1069f08a   x1: 0x0000000203d0b7f8   x2: 0x00000001aac55d24   x3: 0x00000001bb6ca2ec
                sp: 0x000000016ba7b670   pc: 0x000000010439fc14 cpsr: 0xa0001000
               far: 0x000000010438aafc  esr: 0xf2000001 (Breakpoint) brk 1
            """)
        #expect(diagnosis.category == .swiftTrap, "\(diagnosis.headline)")
        #expect(diagnosis.hasEvidence("0xf2000001 (Breakpoint) brk 1"), "\(diagnosis.evidenceLines)")
    }

    /// Crashlytics' title (`File.swift line N function`) above its thread: the crash's place.
    /// https://github.com/prey/prey-swift-client/issues/9
    @Test func crashlyticsTitleIsTheCrashsPlace() throws {
        let diagnosis = try diagnoseText(
            """
            [Crashlytics] HomeVC.swift line 302 specialized HomeVC.checkPassword(UIButton?) -> ()
            Crashed: com.apple.main-thread
            EXC_BREAKPOINT
            """)
        #expect(diagnosis.category == .swiftTrap)
        #expect(diagnosis.headline.contains("checkPassword"), "\(diagnosis.headline)")
    }

    /// Bugsnag's issue text: `image:0 - symbol` frames, an illegal instruction in Swift code with no
    /// architecture named (the Simulator's or an Intel Mac's trap).
    /// https://github.com/xander-jones/bugsnag-testing/issues/28
    @Test func bugsnagsFramesAndASwiftTrapWithoutAnArchitecture() throws {
        let diagnosis = try diagnoseText(
            """
            **EXC_BAD_INSTRUCTION** in **bugsnag_example.ViewController.sendAnError() -> ()**

            ## Stacktrace

                bugsnag-example:0 - bugsnag_example.ViewController.sendAnError() -> ()
                bugsnag-example:0 - bugsnag_example.ViewController.tableView(_: __C.UITableView, didSelectRowAt: Foundation.IndexPath) -> ()
            """)
        #expect(diagnosis.category == .swiftTrap, "\(diagnosis.headline)")
        #expect(Self.frames(diagnosis).first?.contains("sendAnError") == true)
        #expect(!diagnosis.headline.contains("x86_64"), "no architecture is claimed the text does not name")
    }

    /// An exception with no reason that no throw site matches: the API that raised it is named,
    /// with its frame.
    /// https://github.com/banchichen/TZImagePickerController/issues/402
    @Test func theRaisingAPIOfAnExceptionWithNoReason() throws {
        let diagnosis = try diagnoseText(
            """
             0 CoreFoundation	___exceptionPreprocess + 124
            1 libobjc.A.dylib	objc_exception_throw + 56
            2 UIKit	-[UIViewController _presentViewController:withAnimationController:completion:] + 4884
            3 UIKit	-[_UIViewControllerTransitionCoordinator _applyBlocks:releaseBlocks:] + 268
            4 UIKit	-[_UIViewControllerTransitionContext _runAlongsideCompletions] + 148
            """)
        let raised = try #require(diagnosis.causes.first)
        #expect(raised.text.contains("Raised by -[UIViewController _presentViewController:withAnimationController:completion:] (UIKit)"))
        #expect(raised.frames?.first?.contains("frame 2") == true, "\(raised)")
    }

    /// LLDB's selected frame (`down`, `frame select`) printed without its thread's line is a
    /// frame of the stopped thread, read with the annotation's exception.
    /// https://github.com/erikdoe/ocmock/issues/362
    @Test func lldbsSelectedFrameWithoutItsThread() throws {
        let diagnosis = try diagnoseText(
            """
            (lldb) down
            frame #0: 0x00000001042c5fa7 libobjc.A.dylib`objc_retain + 7
            libobjc.A.dylib`objc_retain:
            ->  0x1042c5fa7 <+7>:  movq   (%rdi), %rax              ; Thread 1: EXC_BAD_ACCESS (code=EXC_I386_GPFLT)
                0x1042c5faa <+10>: testb  $0x4, 0x20(%rax)
            """)
        #expect(diagnosis.category == .zombieObject, "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("objc_retain"))
    }

    /// A fault just above NULL inside objc_msgSend (which returns at once for a nil receiver):
    /// a freed object's class read, by the top frame or by libobjc's selector line alone.
    /// https://github.com/flutter/flutter/issues/101488 and https://github.com/jakob/Postico/issues/316
    @Test func aNearNullFaultInsideObjcMsgSendIsAFreedObject() throws {
        let frames = try diagnoseText(
            """
            Crashed: com.apple.main-thread
            EXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x0000000000000010
            Crashed: com.apple.main-thread
            0  libobjc.A.dylib                0x1540 objc_msgSend + 32
            1  Flutter                        0x37504 (missing UUID be105c8b7c053a8ba51f83e291732357)
            """)
        #expect(frames.category == .zombieObject, "\(frames.headline)")
        let selector = try diagnoseText(
            """
            Exception Type:        EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes:       KERN_INVALID_ADDRESS at 0x0000000000000018

            Application Specific Information:
            objc_msgSend() selector name: isKindOfClass:
            """)
        #expect(selector.category == .zombieObject, "\(selector.headline)")
    }

    /// Frames copied from Crashlytics' page one table cell per line (number, image, symbol).
    /// https://github.com/firebase/quickstart-unity/issues/610
    @Test func framesCopiedOneCellPerLine() throws {
        let diagnosis = try diagnoseText(
            """
            Here's the stacktrace from Crashlytics:\u{20}
            0
            UnityFramework
            UnityAdsEngineSetDidFinishCallback + 27372
            1
            UnityFramework
            Firebase_App_FutureVoid_SWIGUpcast + 14940256
            """)
        #expect(diagnosis.headline.contains("UnityFramework UnityAdsEngineSetDidFinishCallback"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("states no exception, signal or message"))
    }

    /// Core Data's log of an exception its fetched-results controller's delegate raised, behind
    /// the framework's own tag and level: the reason's rule is UIKit's.
    /// https://github.com/openHPI/xikolo-ios/issues/382
    @Test func coreDataReportsTheDelegatesException() throws {
        let diagnosis = try diagnoseText(
            """
            CoreData: error: Serious application error.  An exception was caught from the delegate of NSFetchedResultsController during a call to -controllerDidChangeContent:.  Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (1) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (1 inserted, 0 deleted). with userInfo (null)
            """)
        #expect(diagnosis.headline.contains("Invalid update: invalid number of sections"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Rule broken (UIKit)"))
    }

    /// Sentry's issue text with frames in its file-and-line layout, and one with no file.
    /// https://github.com/woocommerce/woocommerce-ios/issues/2612
    @Test func sentrysFramesWithAndWithoutAFile() throws {
        let diagnosis = try diagnoseText(
            """
            EXC_BAD_ACCESS: cpu_subtype > cpu_type > major_version > minor_version > name > revision_version > uuid >
            Attempted to dereference garbage pointer 0x726f77656d617260.
              ?, in _platform_strlen
              File "Sentry/Sources/SentryCrash/Recording/Tools/SentryCrashJSONCodec.c", line 395, in sentrycrashjson_addStringElement
              File "Sentry/Sources/SentryCrash/Recording/SentryCrashReport.c", line 1506, in writeProcessState
            """)
        #expect(
            Self.frames(diagnosis).first?.contains("sentrycrashjson_addStringElement (SentryCrashJSONCodec.c:395)") == true,
            "\(Self.frames(diagnosis))")
    }

    /// Xcode's issue navigator copied: the file alone, then `Line N:` and the runtime's message.
    /// https://github.com/AndyQ/NFCPassportReader/issues/86
    @Test func xcodesIssueNavigatorCopied() throws {
        let diagnosis = try diagnoseText(
            """
            SecureMessaging.swift
            Line 117: Fatal error: Array index is out of range
            """)
        #expect(diagnosis.category == .swiftRuntimeError)
        #expect(diagnosis.headline.contains("array index out of range (at SecureMessaging.swift:117)"), "\(diagnosis.headline)")
    }

    /// A service's exception name, then its reason inside a Markdown code block (measured once in
    /// holdout6, fixed after).
    /// https://github.com/paulsumit1993/DailyFeed/issues/24
    @Test func aReasonInACodeBlockUnderTheName() throws {
        let diagnosis = try diagnoseText(
            """
            Buddybuild detected a crash
            Exception Class: **NSInternalInconsistencyException**
            ```
            Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (4) must be equal to the number of items contained in that section before the update (4), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).
            ```
            """)
        #expect(
            diagnosis.headline.contains("NSInternalInconsistencyException: Invalid update: invalid number of items"),
            "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("```"))
    }
}
