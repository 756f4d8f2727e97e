import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Crash messages a text quotes inside other words (a variables view, a sentence, a JSON string),
/// located by a path in any layout the Swift runtime has printed, stated by a sanitizer or a
/// framework's own format, and frames in the layouts crash services and loggers print (issue 48).
/// Each text is an excerpt of a real public post (its URL above the test).
@Suite struct QuotedAndLocatedMessagesTests {
    static func parseText(_ text: String) throws -> CrashReport {
        try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
    }

    /// The compiler's trap name quoted in a sentence is the stated cause.
    /// https://github.com/nordicsemi/IOS-nRF-Mesh-Library/issues/339
    @Test func aTrapNameQuotedInASentenceIsTheCause() throws {
        let diagnosis = try diagnoseText(
            """
            I crashed on `SegmentedAccessMessage.swift` r:128 SDK 2.2.3. Reason: `"Swift runtime failure: arithmetic overflow"`
            """)
        #expect(diagnosis.headline.contains("arithmetic overflow"), "\(diagnosis.headline)")
    }

    /// Datadog's frame list: the image's offset as a column of its own, the trap's frame first.
    /// https://github.com/DataDog/dd-sdk-ios/issues/1181
    @Test func anImageOffsetColumnIsAFramesOffset() throws {
        let text = """
            0  Datadog +0x181cf4               Swift runtime failure: arithmetic overflow (VitalCPUReader.swift:24:46)
            1  Datadog +0x181df0               protocol witness for SamplingBasedVitalReader.readVitalData() in conformance VitalCPUReader (<compiler-generated>)
            2  Datadog +0x182268               VitalInfoSampler.takeSample() (VitalInfoSampler.swift:86:41)
            """
        let report = try Self.parseText(text)
        let top = try #require(report.crashedThread?.frames.first)
        #expect(top.imageName == "Datadog")
        #expect(top.imageOffset == 0x181cf4)
        #expect(top.symbol?.hasPrefix("Swift runtime failure: arithmetic overflow") == true, "\(top.symbol ?? "")")
        #expect(report.crashedThread?.frames.count == 3)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("arithmetic overflow"), "\(diagnosis.headline)")
    }

    /// The Swift 2–4 runtime's place, `file: line: column: fatal error:`.
    /// https://github.com/smileyborg/TableViewCellWithAutoLayoutiOS8/issues/21
    @Test func theOldRuntimesPlaceIsRead() throws {
        let report = try Self.parseText(
            """
            /path-to/TableViewCellWithAutoLayoutiOS8-master/TableViewCellWithAutoLayout/TableViewController/TableViewController.swift: 10: 7: fatal error: use of unimplemented initializer 'init(nibName:bundle:)' for class 'TableViewCellWithAutoLayout.TableViewController'
            (lldb)
            """)
        let error = try #require(report.exception?.runtimeError)
        #expect(error.file?.hasSuffix("TableViewController/TableViewController.swift") == true, "\(error.file ?? "")")
        #expect(error.line == 10)
        #expect(error.message.hasPrefix("use of unimplemented initializer 'init(nibName:bundle:)'"), "\(error.message)")
    }

    /// A place quoted in a sentence: the path is the last word before the line, not the sentence.
    /// https://github.com/mkrd/Swift-BigInt/issues/76
    @Test func aPlaceQuotedInASentenceIsThePathAlone() throws {
        let report = try Self.parseText(
            """
            ```BigInt(UInt64.max)```, when executed, will crash, throwing "Swift/Integers.swift:3564: Fatal error: Not enough bits to represent the passed value".
            """)
        let error = try #require(report.exception?.runtimeError)
        #expect(error.file == "Swift/Integers.swift")
        #expect(error.line == 3564)
    }

    /// Frames quoted as the strings of a JSON array, `#` before the number, uppercase `0X`; the
    /// list starts at the signal trampoline, so the crash is in the frame under it.
    /// https://github.com/lionheart/openradar-mirror/issues/1553
    @Test func framesQuotedAsJSONStringsAreRead() throws {
        let text = """
             "StackTrace" : [
                    "#2  libsystem_platform.dylib            0X3449E0A3 _sigtramp()",
                    "#3  WebCore                             0X31A3B7DB <redacted>()",
                    "#4  WebCore                             0X31A3B7DB <redacted>()",
                    "#5  WebCore                             0X31803797 <redacted>()",
                    "#6  WebCore                             0X31803375 <redacted>()",
                    "#7  WebCore                             0X31802DCD <redacted>()",
                    "#8  WebCore                             0X3182A01F <redacted>()",
                    "#9  WebCore                             0X31829F3D _ZN7WebCore11FrameLoader4loadERKNS_16FrameLoadRequestE()",
                    "#10 WebKitLegacy                        0X32318253 -[WebFrame _loadData:MIMEType:textEncodingName:baseURL:unreachableURL:]",
            """
        let report = try Self.parseText(text)
        let frames = report.crashedThread?.frames ?? []
        #expect(frames.count == 9)
        #expect(frames.first?.imageName == "libsystem_platform.dylib")
        #expect(frames.first?.address == 0x3449E0A3)
        #expect(CrashReport.pastSignalHandler(try #require(report.crashedThread)) == 1)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("WebCore"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("_sigtramp"), "\(diagnosis.headline)")
    }

    /// Foundation's reason alone, in its own format (`*** -[Class selector]: what`), quoted.
    /// https://github.com/AvdLee/Diagnostics/issues/37
    @Test func foundationsReasonFormatIsAStatedException() throws {
        let diagnosis = try diagnoseText(
            """
            > *** -[NSConcreteFileHandle writeData:]: No space left on device
            """)
        #expect(diagnosis.headline.contains("No space left on device"), "\(diagnosis.headline)")
    }

    /// A crash service's title line holds the reason; the exception's name follows it.
    /// https://github.com/rollbar/rollbar-apple/issues/176
    @Test func aReasonAboveTheNameIsItsReason() throws {
        let text = """
            *** -[NSConcreteFileHandle writeData:]: No space left on device

            Fatal Exception: NSFileHandleOperationException
            0  CoreFoundation                 0x91d3c __exceptionPreprocess
            1  libobjc.A.dylib                0x146a8 objc_exception_throw
            2  Foundation                     0x125264 -[NSConcreteFileHandle offsetInFile]
            3  Foundation                     0x5dff0 -[NSConcreteFileHandle writeData:]
            4  RollbarNotifier                0xf164 -[RollbarLogger queuePayload_OnlyCallOnThread:] + 736 (RollbarLogger.m:736)
            """
        let uncaught = try #require(try Self.parseText(text).exception?.uncaught)
        #expect(uncaught.name == "NSFileHandleOperationException")
        #expect(uncaught.reason?.contains("No space left on device") == true, "\(uncaught.reason ?? "")")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("No space left on device"), "\(diagnosis.headline)")
        #expect(!diagnosis.causes.contains { $0.text.contains("gives no reason") })
    }

    /// A logger's `Reason:` line, the reason under it.
    /// https://github.com/viezel/TiSocial.Framework/issues/153
    @Test func aReasonLabelOnItsOwnLineIntroducesTheReason() throws {
        let uncaught = try #require(
            try Self.parseText(
                """
                [ERROR] :  The application has crashed with an uncaught exception 'NSGenericException'.
                [ERROR] :  Reason:
                [ERROR] :  UIPopoverPresentationController (<_UIAlertControllerActionSheetRegularPresentationController: 0x79970f20>) should have a non-nil sourceView or barButtonItem set before the presentation occurs.
                [ERROR] :  Stack trace:
                [ERROR] :  0   CoreFoundation                      0x05937a78 __exceptionPreprocess + 152
                """
            ).exception?.uncaught)
        #expect(uncaught.name == "NSGenericException")
        #expect(uncaught.reason?.contains("should have a non-nil sourceView or barButtonItem") == true, "\(uncaught.reason ?? "")")
    }

    /// AddressSanitizer's report is the stated cause; its frames carry their source places.
    /// https://github.com/libimobiledevice/ideviceinstaller/issues/41
    @Test func addressSanitizersReportIsTheCause() throws {
        let text = """
            ==14860==ERROR: AddressSanitizer: heap-use-after-free on address 0x60400001b5a0 at pc 0x0000006aa8af bp 0x7f3a9f0fd2b0 sp 0x7f3a9f0fd2a8
            READ of size 8 at 0x60400001b5a0 thread T2
                #0 0x6aa8ae in xmlCharEncOutput libxml/src/encoding.c:2480:26
                #1 0x7c7f09 in xmlOutputBufferFlush libxml/src/xmlIO.c:3762:16
                #2 0x78461c in xmlDocDumpFormatMemoryEnc libxml/src/xmlsave.c:2465:5
            """
        let top = try #require(try Self.parseText(text).crashedThread?.frames.first)
        #expect(top.symbol == "xmlCharEncOutput")
        #expect(top.sourceFile == "libxml/src/encoding.c")
        #expect(top.sourceLine == 2480)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("heap-use-after-free"), "\(diagnosis.headline)")
    }

    /// XCTest's line for an exception a test did not catch names it and its reason (the post's
    /// inline-code backticks removed).
    /// https://github.com/jwfriese/Fleet/issues/23
    @Test func xctestsCaughtLineNamesTheException() throws {
        let uncaught = try #require(
            try Self.parseText(
                """
                failed: caught "NSInvalidArgumentException", "UICollectionView must be initialized with a non-nil layout parameter"
                """
            ).exception?.uncaught)
        #expect(uncaught.name == "NSInvalidArgumentException")
        #expect(uncaught.reason == "UICollectionView must be initialized with a non-nil layout parameter")
    }

    /// The concurrency runtime's task allocator and SwiftUI's attribute graph stop the process
    /// with a line of their own, read even with a shell's words after it.
    /// https://github.com/MortenGregersen/Bagbutik/issues/246
    /// https://github.com/OpenSwiftUIProject/OpenSwiftUI/issues/632
    @Test func runtimeAndFrameworkStopsAreRead() throws {
        let allocator = try diagnoseText(
            """
            freed pointer was not the last allocationfish: Job 1, 'swift run xxx upda…' terminated by signal SIGABRT (Abort)
            """)
        #expect(allocator.headline.contains("freed pointer was not the last allocation"), "\(allocator.headline)")
        let graph = try diagnoseText(
            """
            AttributeGraph precondition failure: accessing attribute in a different namespace: 36376.
            """)
        #expect(graph.headline.contains("accessing attribute in a different namespace"), "\(graph.headline)")
    }

    /// An older macOS report names the faulting region under `VM Regions Near`, marked `-->`: a
    /// stack guard there is a stack overflow even when the report is cut before its threads.
    /// https://github.com/quackle/quackle/issues/85
    @Test func aStackGuardUnderVMRegionsNearIsAnOverflow() throws {
        let text = """
            Crashed Thread:        19

            Exception Type:        EXC_BAD_ACCESS (SIGBUS)
            Exception Codes:       KERN_PROTECTION_FAILURE at 0x0000700001d53000
            Exception Note:        EXC_CORPSE_NOTIFY

            Termination Signal:    Bus error: 10
            Termination Reason:    Namespace SIGNAL, Code 0xa
            Terminating Process:   exc handler [5728]

            VM Regions Near 0x700001d53000:
                Stack                  0000700001cd1000-0000700001d53000 [  520K] rw-/rwx SM=COW  thread 19
            --> STACK GUARD            0000700001d53000-0000700001d54000 [    4K] ---/rwx SM=NUL  stack guard for thread 2
            """
        let report = try Self.parseText(text)
        #expect(report.facts.exception?.isStackGuard == true)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Stack overflow"), "\(diagnosis.headline)")
    }

    /// A termination code a sentence ends after is the code without the full stop.
    /// https://github.com/TelegramMessenger/Telegram-iOS/issues/473
    @Test func aTerminationCodeBeforeAFullStopIsRead() throws {
        let text = "Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc.\n"
        #expect(try Self.parseText(text).termination?.code == "0xdead10cc")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("0xdead10cc"), "\(diagnosis.headline)")
    }

    /// The region list may mark the faulting region `--->`.
    /// https://github.com/changsanjiang/SJMediaCacheServer/issues/94
    @Test func aLongerArrowMarksTheFaultingRegion() throws {
        let report = try Self.parseText(
            """
            Exception Type:  EXC_BAD_ACCESS (SIGBUS)
            Exception Subtype: KERN_PROTECTION_FAILURE at 0x000000016d913ff8
            Exception Codes: 0x0000000000000002, 0x000000016d913ff8
            VM Region Info: 0x16d913ff8 is in 0x16d910000-0x16d914000;  bytes after start: 16376  bytes before end: 7
                  REGION TYPE                 START - END      [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL
                  Stack                    16d880000-16d884000 [   16K] rw-/rwx SM=PRV  
                  GAP OF 0x8c000 BYTES
            --->  STACK GUARD              16d910000-16d914000 [   16K] ---/rwx SM=NUL  stack guard for thread 11
                  Stack                    16d914000-16d99c000 [  544K] rw-/rwx SM=PRV  thread 11
            """)
        #expect(report.facts.vmRegionArrow?.hasPrefix("STACK GUARD") == true, "\(report.facts.vmRegionArrow ?? "")")
        #expect(report.facts.exception?.isStackGuard == true)
    }

    /// The runtime's check after a deinit that let `self` escape, in an Android-style log line.
    /// https://github.com/swiftlang/swift-corelibs-foundation/issues/5203
    @Test func aDeinitThatLetSelfEscapeIsRead() throws {
        let diagnosis = try diagnoseText(
            """
            2025-04-19 13:04:34.678  6468-6518  SwiftRuntime            com.mediquo.main                     A  Object 0xb400007ab8eaf830 of class _MultiHandle deallocated with non-zero retain count 2. This object's deinit, or something called from it, may have created a strong reference to self which outlived deinit, resulting in a dangling reference.
            """)
        #expect(diagnosis.headline.contains("deallocated with non-zero retain count"), "\(diagnosis.headline)")
    }

    /// HockeyApp's issue summary: its stack's `class;method;file;line` entries are the crashed
    /// thread's frames, and an exception no rule knows still names where it was raised.
    /// https://github.com/artsy/energy-legacy/issues/165
    @Test func hockeyAppsStackIsTheCrashedThread() throws {
        let text = """
            Fix NSDecimalNumberOverflowException in - [Artwork convertFromCMToIN:], line 125
            ### Version: 2.5.0 (2015.12.18) | net.artsy.folio.beta ###

            ### Stacktrace (first of multiple) ###

            <pre>Artwork;convertFromCMToIN:;Artwork.m;125
            Artwork;convertDimensionsToAmericanSystemOfMeasurement;Artwork.m;118
            Artwork;updateWithDictionary:;Artwork.m;84
            ARFeedTranslator;backgroundAddOrUpdateObjects:withClass:inContext:saving:completion:;ARFeedTranslator.m;44
            NSArray(ObjectiveSugar);each:;NSArray+ObjectiveSugar.m;51
            ARFeedTranslator;backgroundAddOrUpdateObjects:withClass:inContext:saving:completion:;ARFeedTranslator.m;27</pre>

            ### Reason ###

            *** Terminating app due to uncaught exception 'NSDecimalNumberOverflowException', reason: 'NSDecimalNumber overflow exception'
            """
        let report = try Self.parseText(text)
        let frames = report.crashedThread?.frames ?? []
        #expect(frames.count == 6)
        #expect(frames.first?.symbol == "[Artwork convertFromCMToIN:]")
        #expect(frames.first?.sourceFile == "Artwork.m")
        #expect(frames.first?.sourceLine == 125)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.causes.first?.frames?.contains { $0.contains("convertFromCMToIN") } == true, "\(diagnosis.causes)")
    }

    /// A component's termination the knowledge base only names is explained in the component's
    /// own words, which the report keeps in the termination's details.
    /// https://github.com/gqrx-sdr/gqrx/issues/1431
    @Test func aComponentsTerminationQuotesItsWords() throws {
        let diagnosis = try diagnoseText(
            #"""
              "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGABRT"},
              "termination" : {"flags":518,"code":0,"namespace":"ROSETTA","details":["rosetta error: unable to mmap __TEXT: 1 \n\/var\/db\/*\/libvorbis.0.4.9.dylib.aot"]},
              "faultingThread" : 0,
            """#)
        #expect(diagnosis.headline.contains("unable to mmap"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("libvorbis"), "\(diagnosis.headline)")
    }
}
