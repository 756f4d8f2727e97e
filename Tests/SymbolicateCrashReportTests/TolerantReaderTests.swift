import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Crash text that is not a report file (issue 48): messages found under any log prefix, Xcode's
/// annotations, shells' last words and frames in every pasted syntax, read into the same typed
/// facts (`CrashFacts.statedMessages` and the exception, signal, termination they imply). Every
/// example is a real public post, quoted with its URL.
@Suite struct TolerantReaderTests {
    static func read(_ text: String) throws -> CrashReport {
        let reports = try CrashReport.parseAll(data: Data(text.utf8), path: "paste.txt")
        return try #require(reports.first)
    }

    static func refuses(_ text: String) -> Bool {
        do {
            _ = try CrashReport.parseAll(data: Data(text.utf8), path: "paste.txt")
            return false
        } catch {
            return error.kind == .notACrashReport
        }
    }

    // MARK: - The measuring corpus's tune part

    /// Every text of the first gathering's tune part in `Fixtures/crashtexts/tune` (issue 48's
    /// measure; the holdout parts are never opened here) is read or refused as `manifest.json`
    /// says: a text that states a crash is read (partial), a near-miss is refused. The manifest is
    /// the one list of expectations. The later gatherings' tune texts (ids `h2t-` to `h29t-`)
    /// are measured by scripts/measure-crashtexts.py and not yet held to this.
    @Test func tunePartIsReadOrRefusedAsItsManifestSays() throws {
        let folder = TestPaths.fixtures.appendingPathComponent("crashtexts")
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let texts = try #require(manifest["texts"] as? [[String: Any]]).filter {
            $0["part"] as? String == "tune" && ($0["id"] as? String)?.hasPrefix("h2t-") == false
                && ($0["id"] as? String)?.hasPrefix("h3t-") == false && ($0["id"] as? String)?.hasPrefix("h4t-") == false
                && ($0["id"] as? String)?.hasPrefix("h5t-") == false && ($0["id"] as? String)?.hasPrefix("h6t-") == false
                && ($0["id"] as? String)?.hasPrefix("h7t-") == false && ($0["id"] as? String)?.hasPrefix("h8t-") == false
                && ($0["id"] as? String)?.hasPrefix("h9t-") == false && ($0["id"] as? String)?.hasPrefix("h10t-") == false
                && ($0["id"] as? String)?.hasPrefix("h11t-") == false && ($0["id"] as? String)?.hasPrefix("h12t-") == false
                && ($0["id"] as? String)?.hasPrefix("h13t-") == false && ($0["id"] as? String)?.hasPrefix("h14t-") == false
                && ($0["id"] as? String)?.hasPrefix("h15t-") == false && ($0["id"] as? String)?.hasPrefix("h16t-") == false
                && ($0["id"] as? String)?.hasPrefix("h17t-") == false && ($0["id"] as? String)?.hasPrefix("h18t-") == false
                && ($0["id"] as? String)?.hasPrefix("h19t-") == false && ($0["id"] as? String)?.hasPrefix("h20t-") == false
                && ($0["id"] as? String)?.hasPrefix("h21t-") == false && ($0["id"] as? String)?.hasPrefix("h22t-") == false
                && ($0["id"] as? String)?.hasPrefix("h23t-") == false && ($0["id"] as? String)?.hasPrefix("h24t-") == false
                && ($0["id"] as? String)?.hasPrefix("h25t-") == false && ($0["id"] as? String)?.hasPrefix("h26t-") == false
                && ($0["id"] as? String)?.hasPrefix("h27t-") == false && ($0["id"] as? String)?.hasPrefix("h28t-") == false
                && ($0["id"] as? String)?.hasPrefix("h29t-") == false
        }
        #expect(texts.count == 156)
        var wrong: [String] = []
        for text in texts {
            let file = try #require(text["file"] as? String)
            let shouldRead = try #require(text["read"] as? Bool)
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            let read = (try? CrashReport.parseAll(data: bytes, path: file)) != nil
            if read != shouldRead { wrong.append("\(file): \(shouldRead ? "refused" : "read")") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) texts not read or refused as the manifest says:\n\(wrong.joined(separator: "\n"))")
    }

    // MARK: - Messages under log prefixes

    /// The Main Thread Checker's line after a timestamp, the process tag and os_log's `[reports]`
    /// category, its `Backtrace:` frames grouped into one thread.
    /// https://github.com/CocoaLumberjack/CocoaLumberjack/issues/1087
    @Test func mainThreadCheckerAfterConsolePrefixesWithItsBacktrace() throws {
        let text = """
            2019-07-10 14:51:02.906098+0800 SmartCity[14860:2802484] [reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
            PID: 14860, TID: 2802484, Thread name: (none), Queue name: com.alipay.log, QoS: 0
            Backtrace:
            4   WIUUMPJSSBSdk                       0x00000001054f5bd8 __41-[APLogManager setupTimeForCheckFileSize]_block_invoke_2.608 + 140
            5   libdispatch.dylib                   0x0000000105714c74 _dispatch_client_callout + 16

            """
        let report = try Self.read(text)
        let message = try #require(report.facts.statedMessages.first)
        #expect(message.family == .threadChecker)
        #expect(message.text == "Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]")
        #expect(message.line == 1)
        #expect(message.source == .console)
        #expect(report.exception?.message == message.text)
        #expect(report.threads.count == 1)
        #expect(
            report.threads[0].frames.map(\.symbol) == [
                "__41-[APLogManager setupTimeForCheckFileSize]_block_invoke_2.608", "_dispatch_client_callout",
            ])
        #expect(report.crashedThreadIndex == report.threads[0].index)
        #expect(!report.completeness.isComplete)
    }

    /// libmalloc's error under the `name(pid,0xthread)` tag malloc prints, after a shell prompt
    /// line, with the shell's `Abort trap: 6`: the malloc message is the primary one, the signal
    /// is the exception's.
    /// https://github.com/endernewton/tf-faster-rcnn/issues/392
    @Test func mallocErrorUnderItsProcessTagWithTheShellsSignal() throws {
        let text = """
            $ ./tools/demo.py
            python(2656,0x1106895c0) malloc: *** error for object 0x11ea8d3b8: pointer being freed was not allocated
            python(2656,0x1106895c0) malloc: *** set a breakpoint in malloc_error_break to debug
            Abort trap: 6

            """
        let report = try Self.read(text)
        #expect(report.facts.statedMessages.map(\.family) == [.malloc, .signal])
        #expect(StatedMessage.primary(of: report.facts.statedMessages)?.family == .malloc)
        #expect(report.facts.exception?.signal == "SIGABRT")
        #expect(report.exception?.message?.hasPrefix("malloc: *** error for object") == true)
    }

    /// Metal API Validation's assertion, its message going on over the next line.
    /// https://github.com/DiligentGraphics/DiligentSamples/issues/229
    @Test func metalValidationAssertion() throws {
        let text = """
            -[MTLDebugRenderCommandEncoder validateCommonDrawErrors:]:5782: failed assertion `Draw Errors Validation
            Vertex Function(main0): argument vertexBuffer.1[0] from buffer(30) with offset(0) and length(16) has space for 16 bytes, but argument has a length(32).

            """
        let report = try Self.read(text)
        #expect(report.facts.statedMessages.first?.family == .assertion)
        #expect(report.exception?.message?.contains("failed assertion `Draw Errors Validation") == true)
    }

    // MARK: - Xcode's annotation and the Swift runtime

    /// Xcode's annotation holding a Swift exclusivity violation: a Swift runtime message.
    /// https://github.com/tingxins/InputKit/issues/28
    @Test func annotationHoldingAnExclusivityViolation() throws {
        let report = try Self.read("Thread 1: Simultaneous accesses to 0x7ff41c812b18, but modification requires exclusive access\n")
        let message = try #require(report.facts.statedMessages.first)
        #expect(message.family == .swiftRuntime)
        #expect(message.source == .annotation)
        #expect(message.text == "Simultaneous accesses to 0x7ff41c812b18, but modification requires exclusive access")
        #expect(report.exception?.message == message.text)
    }

    /// A named thread's annotation with a Mach exception, and one with a full-width colon.
    /// https://github.com/mapbox/mapbox-unity-sdk/issues/1329, https://github.com/JasonStu/ReactNative_Shopping/issues/4
    @Test func annotationsOfNamedThreadsAndLocalisedColons() throws {
        let named = try Self.read("BackgroundWorker (11): EXC_BAD_ACCESS (code=257, address=0x41)\n")
        #expect(named.facts.exception?.machType == "EXC_BAD_ACCESS")
        #expect(named.facts.statedMessages.first?.family == .machException)
        let localised = try Self.read("Thread 1：EXC_BAD_ACCESS(code=EXC_I386_GPFLT)\n")
        #expect(localised.facts.exception?.machType == "EXC_BAD_ACCESS")
    }

    /// An annotation holding a framework's own reason (Core Data's) is the stated reason, read as
    /// the exception the throw-site catalogue names it by.
    /// https://github.com/vdhamer/Photo-Club-Hub/issues/372
    @Test func annotationWithAFrameworksOwnReason() throws {
        let report = try Self.read(
            "Thread 4: Illegal attempt to establish a relationship 'organizationType_' between objects in different contexts \n")
        let message = try #require(report.facts.statedMessages.first)
        #expect(message.family == .objcException)
        #expect(message.source == .annotation)
        #expect(message.text.contains("between objects in different contexts"))
    }

    /// The continuation check: resuming twice stops the process (read); a leaked continuation is
    /// only logged (refused: no crash fact).
    /// https://github.com/PureSwift/Bluetooth/issues/149, https://github.com/facebook/meta-wearables-dat-ios/issues/61
    @Test func continuationMisuseResumedTwiceIsACrashALeakIsNot() throws {
        let twice = try Self.read(
            "_Concurrency/CheckedContinuation.swift:184: Fatal error: SWIFT TASK CONTINUATION MISUSE: send(_:response:) tried to resume its continuation more than once, throwing CancellationError()!\n"
        )
        #expect(twice.facts.swiftRuntimeError?.message.hasPrefix("SWIFT TASK CONTINUATION MISUSE") == true)
        #expect(twice.facts.statedMessages.first?.family == .swiftRuntime)
        #expect(
            Self.refuses(
                "SWIFT TASK CONTINUATION MISUSE: stop() leaked its continuation without resuming it. This may cause tasks waiting on it to remain suspended forever.\n"
            ))
    }

    /// A standard-library check's message alone, and after an app's own `[tag]` log line.
    /// https://github.com/Sorix/CloudCore/issues/26, https://github.com/AnyImageKit/AnyImageKit/issues/145
    @Test func standardLibraryChecksAloneAndAfterLogLines() throws {
        let alone = try Self.read("Can't form Range with upperBound < lowerBound\n")
        #expect(alone.facts.statedMessages.first?.family == .swiftRuntime)
        let logged = try Self.read(
            "[Data Track] ENTER Page: ANYIMAGEKIT_PAGE_PICKER_ASSET\nSwift/ContiguousArrayBuffer.swift:575: Fatal error: Index out of range\n"
        )
        #expect(logged.facts.swiftRuntimeError?.message == "Index out of range")
        #expect(logged.facts.swiftRuntimeError?.file == "Swift/ContiguousArrayBuffer.swift")
    }

    // MARK: - Exceptions, dyld, TCC, shells

    /// A crash service's `NameException` line with the reason on the next line.
    /// https://github.com/exponea/exponea-ios-sdk/issues/82
    @Test func exceptionNameWithItsReasonOnTheNextLine() throws {
        let report = try Self.read(
            "NSInternalInconsistencyException\nModifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread.\n"
        )
        let uncaught = try #require(report.facts.uncaughtException)
        #expect(uncaught.exception.name == "NSInternalInconsistencyException")
        #expect(uncaught.exception.reason?.hasPrefix("Modifications to the layout engine") == true)
    }

    /// dyld's message with its `Referenced from:` and `Reason:` lines: dyld's termination and the library.
    /// https://github.com/DroidKaigi/conference-app-2020/issues/766
    @Test func dyldLibraryNotLoaded() throws {
        let report = try Self.read(
            """
            dyld: Library not loaded: @rpath/ios_combined.framework/ios_combined
              Referenced from: /Users/x/Library/Developer/CoreSimulator/Devices/DF9B6B85/data/DroidKaigi 2020.app/DroidKaigi 2020
              Reason: image not found

            """)
        #expect(report.facts.termination?.missingLibrary == "@rpath/ios_combined.framework/ios_combined")
        #expect(report.facts.statedMessages.first?.family == .dyld)
        #expect(report.facts.statedMessages.first?.text.contains("Reason: image not found") == true)
    }

    /// TCC's sentence wrapped by the console over four lines: the usage key is on the third.
    /// https://github.com/celestebetancur/CineVivo/issues/3
    @Test func privacyViolationWrappedOverLines() throws {
        let report = try Self.read(
            """
            CineVivoDebug[81771:2756318] [access] This app has crashed because it attempted to access
            privacy-sensitive data without a usage description.  The app's Info.plist must contain an
            NSCameraUsageDescription key with a string value explaining to the user how the app uses this
            data.

            """)
        #expect(report.facts.termination?.usageKey == "NSCameraUsageDescription")
        #expect(report.facts.statedMessages.first?.family == .privacy)
    }

    /// A shell's and an IDE's words for a signal.
    /// https://github.com/1jehuang/jcode/issues/1233, https://github.com/JetBrains/compose-multiplatform/issues/4273
    @Test func shellAndIDESignals() throws {
        #expect(try Self.read("zsh: killed     jcode\n").facts.exception?.signal == "SIGKILL")
        #expect(
            try Self.read("Process finished with exit code 137 (interrupted by signal 9: SIGKILL)\n").facts.exception?.signal == "SIGKILL")
        #expect(try Self.read("Segmentation fault: 11\n").facts.exception?.signal == "SIGSEGV")
    }

    /// Zig's fault handler states the address after the description (Bun's panic is built on it):
    /// `panic(main thread): Segmentation fault at address 0x158`. Its format is std.debug's
    /// `{s} at address 0x{x}` for each fault it handles.
    /// https://github.com/oven-sh/bun/issues/15509
    @Test(arguments: [
        ("panic(main thread): Segmentation fault at address 0x158\n", "SIGSEGV"),
        ("Segmentation fault at address 0x0\n", "SIGSEGV"),
        ("Illegal instruction at address 0x10b4c2f1c\n", "SIGILL"),
        ("Bus error at address 0x7ff7b0a1c000\n", "SIGBUS"),
    ])
    func aFaultDescribedWithItsAddress(_ text: String, _ signal: String) throws {
        #expect(try Self.read(text).facts.exception?.signal == signal)
    }

    /// The description is a fault only where the handler puts it: not in a sentence about one.
    @Test func aFaultDescriptionInASentenceIsNoSignal() {
        #expect(throws: (any Error).self) {
            try Self.read("We fixed the Segmentation fault at address validation last week in the parser.\n")
        }
    }

    // MARK: - Frames in pasted syntaxes

    /// A crash service's frames without addresses, after the thread's `Crashed:` title.
    /// https://github.com/n0an/VivaDicta/pull/316
    @Test func crashServiceFramesWithoutAddresses() throws {
        let report = try Self.read(
            """
            Crashed: com.apple.BGTaskScheduler (…transcription-processing)
            0  _dispatch_assert_queue_fail
            3  dispatch_assert_queue$V2
            6  closure #1 in static BackgroundTaskManager.registerBGTaskHandler()

            """)
        #expect(report.threads.count == 1)
        #expect(report.crashedThreadIndex == report.threads[0].index)
        let frames = report.threads[0].frames
        #expect(
            frames.map(\.symbol) == [
                "_dispatch_assert_queue_fail", "dispatch_assert_queue$V2",
                "closure #1 in static BackgroundTaskManager.registerBGTaskHandler()",
            ])
        #expect(frames.allSatisfy { !$0.hasAddress })
    }

    /// Image and symbol columns without addresses (a crash service's web text).
    /// https://github.com/manaflow-ai/cmux/issues/3316
    @Test func numberedImageAndSymbolColumnsWithoutAddresses() throws {
        let report = try Self.read(
            """
            0  libdispatch.dylib                 DISPATCH_WAIT_FOR_QUEUE + 484
            1  libdispatch.dylib                 _dispatch_sync_f_slow + 148
            2  cmux                              FeedCoordinator.ingestBlocking(event:waitTimeout:) + 960

            """)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.map(\.imageName) == ["libdispatch.dylib", "libdispatch.dylib", "cmux"])
        #expect(frames[2].symbol == "FeedCoordinator.ingestBlocking(event:waitTimeout:)")
        #expect(frames[2].symbolOffset == 960)
    }

    /// Sentry's `File "X", line N, in f` frames under the exception line.
    /// https://github.com/woocommerce/woocommerce-ios/issues/2613
    @Test func sentryFileLineFrames() throws {
        let report = try Self.read(
            """
            NSInvalidArgumentException: Object's persistent store is not reachable from this NSManagedObjectContext's coordinator
              File "ResultsController.swift", line 165, in ResultsController.fetchedObjects.getter
              File "OrderDetailsDataSource.swift", line 629, in OrderDetailsDataSource.reloadSections

            """)
        #expect(report.facts.uncaughtException?.exception.name == "NSInvalidArgumentException")
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.map(\.sourceFile) == ["ResultsController.swift", "OrderDetailsDataSource.swift"])
        #expect(frames.map(\.sourceLine) == [165, 629])
        #expect(frames[0].symbol == "ResultsController.fetchedObjects.getter")
    }

    /// An exported stack of image paths and symbols, and of source places and symbols.
    /// https://github.com/Instabug/Instabug-iOS/issues/170
    @Test func pathAndSymbolFrames() throws {
        let report = try Self.read(
            """
            NSInvalidArgumentException *** -[__NSArrayM insertObject:atIndex:]: object cannot be nil
                Frameworks/CoreFoundation.framework/CoreFoundation ___exceptionPreprocess
                /usr/lib/libobjc.A.dylib objc_exception_throw
                Instabug/Logging/IBGDataStore.m:576:9 -[IBGDataStore userEventLogs]

            """)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.map(\.imageName) == ["CoreFoundation", "libobjc.A.dylib", nil])
        #expect(frames[2].symbol == "-[IBGDataStore userEventLogs]")
        #expect(frames[2].sourceFile == "Instabug/Logging/IBGDataStore.m")
        #expect(frames[2].sourceLine == 576)
    }

    // MARK: - Prefixes and near-misses

    /// Each prefix shape stripped, one after another, and nothing else.
    @Test func logPrefixesAreStrippedByShape() {
        #expect(LogPrefix.strip("2024-05-01 10:00:00.123456+0900 MyApp[12:34] [net] Fatal error: x") == "Fatal error: x")
        #expect(LogPrefix.strip("2024-05-01T10:00:00Z ERROR: boom") == "boom")
        #expect(LogPrefix.strip("Aug  15 06:13:40 arthurpad ReportCrash[6470] <Error>: Dyld Error Message:") == "Dyld Error Message:")
        #expect(LogPrefix.strip("05-01 10:00:00.123  1234  5678 F libc    : Fatal signal 6") == "Fatal signal 6")
        #expect(LogPrefix.strip("E/flutter (12345): [ERROR:flutter/runtime] boom") == "boom")
        #expect(LogPrefix.strip("🔴 [Network] request failed") == "request failed")
        #expect(LogPrefix.strip("10:00:00.123 worker started") == "worker started")
        // Not prefixes: the Swift runtime's own `Fatal error:`, a sentence's first word.
        #expect(LogPrefix.strip("Fatal error: Index out of range") == "Fatal error: Index out of range")
        #expect(LogPrefix.strip("The app quit") == "The app quit")
    }

    /// Texts that mention a crash without stating one stay refused, and prose lists are no frames.
    @Test func nearMissesAreRefused() {
        #expect(Self.refuses("Unable to simultaneously satisfy constraints.\n\tProbably at least one of the constraints is wrong.\n"))
        #expect(Self.refuses("1 Open the app\n2 Tap the button\n3 See the crash\n"))
        #expect(Self.refuses("2024-05-01 10:00:00.1 MyApp[12:34] Received memory warning.\n"))
    }
}
