import Foundation
import SymbolicateCrashReport
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 31: who aborted and why, the crashed thread's role, stack overflow from the frames.
/// The fixtures (`Fixtures/abort-paths/reports`, written by `make_reports.py` from one table)
/// are each a `.crash`, an `.ips` and for two a MetricKit payload of the same crash: every
/// layout must reach the same diagnosis from the same frames.
struct AbortCase: Sendable, CustomTestStringConvertible {
    let name: String
    let category: Diagnosis.Category
    let headline: [String]
    /// Fragments of `field: quote` evidence lines.
    let evidence: [String]
    /// A fragment of a cause, and a fragment of a frame that cause carries.
    let cause: (text: String, frame: String)?
    var layouts: [String] = ["crash", "ips"]
    var testDescription: String { name }
}

let abortCases: [AbortCase] = [
    AbortCase(
        name: "malloc-guard-abort", category: .memoryCorruption, headline: ["malloc's heap check", "ImageCache.store"],
        evidence: ["libsystem_malloc.dylib malloc_vreport", "Crashed thread: Thread 0 (queue com.apple.main-thread): the main thread"],
        cause: ("double free", "Demo ImageCache.store(_:for:)")),
    AbortCase(
        name: "malloc-guard-trap", category: .memoryCorruption, headline: ["malloc_zone_error", "ImageCache.store"],
        evidence: ["Thread 0 frame 0: libsystem_malloc.dylib malloc_zone_error"], cause: ("double free", "malloc_zone_error")),
    AbortCase(
        name: "cfrelease-null-trap", category: .explicitTrap,
        headline: ["CoreFoundation stopped the process with a trap in CFRelease.cold.1", "PhotoExporter.finish()"],
        evidence: ["Thread 0 frame 2: Demo PhotoExporter.finish()"], cause: ("CoreFoundation found a condition", "CFRelease.cold.1")),
    AbortCase(
        name: "cxx-uncaught", category: .uncaughtCppException, headline: ["Uncaught C++ exception", "Engine::loadLevel(int)"],
        evidence: ["libc++abi.dylib __cxa_throw", "Thread 3 (queue com.example.loader): not the main thread"],
        cause: ("no handler caught it", "__cxa_throw")),
    AbortCase(
        name: "cxx-noexcept", category: .uncaughtCppException, headline: ["noexcept", "Cache::~Cache()"],
        evidence: ["Demo __clang_call_terminate"], cause: ("left a noexcept function", "__clang_call_terminate")),
    AbortCase(
        name: "nsassert-off-main", category: .uncaughtObjCException,
        headline: ["NSInternalInconsistencyException", "Invalid update"],
        evidence: [
            "Last Exception Backtrace frame 3: Foundation -[NSAssertionHandler handleFailureInMethod:",
            "Last Exception Backtrace frame 4: UIKitCore -[UITableView _endCellAnimationsWithContext:]",
            "Crashed thread: Thread 5 (queue com.apple.root.default-qos): not the main thread",
        ],
        cause: ("Called off the main thread", "UIKitCore -[UITableView _endCellAnimationsWithContext:]")),
    AbortCase(
        name: "layout-off-main", category: .uncaughtObjCException, headline: ["NSInternalInconsistencyException", "layout engine"],
        evidence: ["Crashed thread: Thread 4 (queue com.example.progress): not the main thread"],
        cause: ("Called off the main thread: the exception's reason says", "Modifications to the layout engine")),
    AbortCase(
        name: "mainactor-off-main", category: .swiftRuntimeError,
        headline: ["Swift runtime", "swift_task_reportUnexpectedExecutor", "LocationDelegate"],
        evidence: ["Thread 2 (queue com.apple.root.user-initiated-qos): not the main thread"],
        cause: ("Called off the main thread", "swift_task_reportUnexpectedExecutor")),
    AbortCase(
        name: "stack-overflow-cycle", category: .stackOverflow, headline: ["Stack overflow", "Node.visit(_:) → Tree.walk(_:)"],
        evidence: ["Stack pointer: sp = 0x16b0fc000; the fault address is 16 bytes below it", "repeat the cycle"],
        cause: ("Unbounded recursion", "Stack pointer")),
    AbortCase(
        name: "stack-overflow-run", category: .stackOverflow, headline: ["Stack overflow", "JSONValue.depth()"],
        evidence: ["100 frames from frame 0 repeat JSONValue.depth()"], cause: ("Unbounded recursion", "JSONValue.depth()")),
]

@Suite struct AbortPathTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("abort-paths/reports")

    static func diagnoses(_ name: String, _ layout: String) throws -> Diagnosis {
        let url = folder.appendingPathComponent("\(name).\(layout)")
        let reports = try CrashReport.parseAll(data: Data(contentsOf: url), path: url.path)
        return try #require(reports.first.map(diagnose))
    }

    @Test(arguments: abortCases)
    func everyLayoutNamesTheStop(_ item: AbortCase) throws {
        for layout in item.layouts {
            let diagnosis = try Self.diagnoses(item.name, layout)
            let label = "\(item.name).\(layout)"
            #expect(diagnosis.category == item.category, "\(label): \(diagnosis.headline)")
            for fragment in item.headline {
                #expect(diagnosis.headline.contains(fragment), "\(label): headline \(diagnosis.headline) lacks \(fragment)")
            }
            for fragment in item.evidence {
                #expect(diagnosis.hasEvidence(fragment), "\(label): no evidence with \(fragment): \(diagnosis.evidenceLines)")
            }
            if let (text, frame) = item.cause {
                let cause = diagnosis.causes.first { $0.text.contains(text) }
                #expect(cause != nil, "\(label): no cause with \(text): \(diagnosis.causes.map(\.text))")
                #expect(cause?.frames?.contains { $0.contains(frame) } == true, "\(label): cause frames \(cause?.frames ?? [])")
            }
            #expect(diagnosis.causes.count <= Diagnosis.maximumCauses && diagnosis.nextSteps.count <= Diagnosis.maximumSteps)
        }
    }

    /// Text and `.ips` of one crash give the same diagnosis, word for word.
    @Test(arguments: abortCases.map(\.name))
    func textAndIpsAgree(name: String) throws {
        let text = try Self.diagnoses(name, "crash")
        let ips = try Self.diagnoses(name, "ips")
        #expect(text.category == ips.category)
        #expect(text.headline == ips.headline)
        #expect(text.causes == ips.causes)
    }

    /// MetricKit carries images and offsets only: the stopping library is named by its image.
    @Test func metricKitNamesTheStoppingLibrary() throws {
        let malloc = try Self.diagnoses("malloc-guard-abort", "metrickit.json")
        #expect(malloc.category == .memoryCorruption)
        #expect(malloc.headline.contains("libsystem_malloc.dylib"))
        #expect(malloc.causes.first?.frames?.contains { $0.contains("libsystem_malloc.dylib") } == true)
        // MetricKit's thread numbers are not the process's: no claim about the main thread.
        #expect(!malloc.hasEvidence("Crashed thread"))
        let overflow = try Self.diagnoses("stack-overflow-run", "metrickit.json")
        #expect(overflow.category == .stackOverflow)
        for diagnosis in [malloc, overflow] {
            #expect(diagnosis.causes.count <= Diagnosis.maximumCauses && diagnosis.nextSteps.count <= Diagnosis.maximumSteps)
        }
    }

    @Test func mallocStepsNameTheMemoryTools() throws {
        let diagnosis = try Self.diagnoses("malloc-guard-abort", "ips")
        let steps = diagnosis.nextSteps.joined(separator: "\n")
        for tool in ["Address Sanitizer", "Guard Malloc", "Malloc Scribble", "Zombies"] {
            #expect(steps.contains(tool), "no step names \(tool): \(diagnosis.nextSteps)")
        }
        #expect(diagnosis.references.contains { $0.term == "malloc_zone_error" && !$0.communityReported })
    }

    /// `--format json`: a cause carries the frames that show it; causes without frames omit the key.
    @Test func jsonCausesCarryTheirFrames() throws {
        let diagnosis = try Self.diagnoses("cxx-uncaught", "ips")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diagnosis.renderJSON().utf8)) as? [String: Any])
        let causes = try #require(object["causes"] as? [[String: Any]])
        let frames = try #require(causes.first?["frames"] as? [String])
        #expect(frames.contains { $0.hasPrefix("Thread 3 frame ") && $0.contains("__cxa_throw") })
        #expect(Set(frames).count == frames.count, "a frame is listed once: \(frames)")
        #expect(diagnosis.renderText().contains("shown by Thread 3 frame"))
        // The leading cause carries the app's frame where to start; a cause that rests on other
        // fields has no "frames" key.
        let fault = try diagnoseFile(TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips")).1
        let faultJSON = try #require(try JSONSerialization.jsonObject(with: Data(fault.renderJSON().utf8)) as? [String: Any])
        let faultCauses = try #require(faultJSON["causes"] as? [[String: Any]])
        let leading = try #require(faultCauses.first?["frames"] as? [String])
        // The app's frame here has no name (no debug file given): the named frame that called it
        // follows; the faulting frame and its caller come after, each frame once.
        #expect(leading.count >= 2 && leading.allSatisfy { $0.hasPrefix("Thread 0 frame ") }, "\(leading)")
        #expect(Set(leading).count == leading.count, "\(leading)")
        #expect(faultCauses.count > 1 && faultCauses.dropFirst().allSatisfy { $0["frames"] == nil })
    }

    /// A main-thread crash in UIKit is not "off the main thread"; the same frames elsewhere are.
    @Test func offMainNeedsAnotherThread() throws {
        let main = try Self.diagnoses("malloc-guard-abort", "crash")
        #expect(!main.causes.contains { $0.text.contains("off the main thread") })
        #expect(main.hasEvidence("the main thread"))
    }

    // MARK: - The path itself

    @Test func pathReadsMachineryStopAndCaller() throws {
        let url = Self.folder.appendingPathComponent("cxx-uncaught.ips")
        let report = try CrashReport.parse(contentsOf: url.path)
        let path = try #require(AbortPath(report: report))
        #expect(path.machinery.compactMap(\.functionNames.first) == ["__pthread_kill", "pthread_kill", "abort"])
        #expect(path.stopper == .cxxTerminate)
        #expect(path.library == "libc++abi.dylib")
        #expect(path.caller?.functionNames.first == "Engine::loadLevel(int)")
        #expect(path.groupingText == "demangling_terminate_handler()")
    }

    @Test func aFaultIsNoAbortPath() throws {
        let url = TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips")
        #expect(AbortPath(report: try CrashReport.parse(contentsOf: url.path)) == nil)
    }

    /// Two frames of mutual recursion on a short thread are not an overflow without a fault
    /// near the stack pointer; with 64 frames they are.
    @Test func cycleThresholds() {
        func frames(_ count: Int) -> [Frame] {
            (0..<count).map { index in
                Frame(index: index, imageName: "Demo", address: 0x1000 + UInt64(index % 2) * 0x10, symbol: index % 2 == 0 ? "a()" : "b()")
            }
        }
        let short = StackEvidence.longestCycle(in: frames(20))
        #expect(short?.functions == ["a()", "b()"])
        #expect(short?.frameCount == 20)
        #expect(StackEvidence.longestCycle(in: frames(3)) == nil)
    }
}

/// Issue 31 on real reports (sources in Fixtures/README.md, "Corpus copies").
@Suite struct AbortPathCorpusTests {
    static func diagnosis(_ name: String) throws -> Diagnosis {
        try diagnoseFile(Corpus.bundled(name)).1
    }

    /// KSCrash's own example reports (`Fixtures/thirdparty/kscrash`, MIT; Fixtures/README.md):
    /// real crashes of its crash tester, read through the KSCrash reader.
    static func kscrash(_ name: String) throws -> Diagnosis {
        try diagnoseFile(TestPaths.fixtures.appendingPathComponent("thirdparty/kscrash/\(name)")).1
    }

    /// A real heap corruption: malloc's own check (`szone_error`) stopped the process, named with
    /// the frames that show it, and the steps name the tools that find the bad write or free.
    @Test func kscrashCorruptMemoryIsMallocsHeapCheck() throws {
        let diagnosis = try Self.kscrash("CorruptMemory.json")
        #expect(diagnosis.category == .memoryCorruption)
        #expect(diagnosis.headline.contains("szone_error"))
        #expect(diagnosis.causes.contains { $0.frames?.contains { $0.contains("szone_error") } == true })
        #expect(diagnosis.nextSteps.contains { $0.contains("Address Sanitizer") })
    }

    /// A real stack overflow with no "Thread stack size exceeded" message: recognised from the
    /// run of one method on the crashed thread.
    @Test func kscrashStackOverflowIsReadFromTheFrames() throws {
        let diagnosis = try Self.kscrash("StackOverflow.json")
        #expect(diagnosis.category == .stackOverflow)
        #expect(diagnosis.headline.contains("-[Crasher causeStackOverflow]"))
    }

    /// A graphics driver's abort on a dispatch worker: the deciding library, its function and
    /// the driver that called it, on a thread that is not the main one.
    @Test func graphicsDriverAbortNamesTheLibraryAndCaller() throws {
        let diagnosis = try Self.diagnosis("icdab__kdp-graphics-abort_i386-process_macos10-13.crash")
        #expect(diagnosis.category == .abort)
        #expect(diagnosis.headline.contains("libGPUSupportMercury.dylib in gpusGenerateCrashLog"))
        #expect(diagnosis.headline.contains("gpusKillClientExt (com.apple.AMDRadeonX4000GLDriver)"))
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 16 (queue com.apple.root.default-qos): not the main thread"))
        #expect(diagnosis.causes.first?.frames?.contains { $0.contains("gpusGenerateCrashLog") } == true)
    }

    /// The uncaught Objective-C exception ends in libc++abi's terminate path through
    /// `_objc_terminate`: an Objective-C exception, not a C++ one, on a non-main queue.
    @Test func objcTerminateIsNotACppException() throws {
        let diagnosis = try Self.diagnosis("driverpay__nsexception-leb_iphone18-4_ios26-3.ips")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 1 (queue expo.controller.errorRecoveryQueue): not the main thread"))
        let report = try CrashReport.parse(contentsOf: Corpus.bundled("driverpay__nsexception-leb_iphone18-4_ios26-3.ips").path)
        #expect(AbortPath(report: report)?.stopper == .objcException)
    }

    /// assert() on a 32-bit device: `__assert_rtn` and the app frame that asserted.
    @Test func cAssertNamesTheAssertingFrame() throws {
        let diagnosis = try Self.diagnosis("icdab__assert-abort_planets_armv7_ipod5-1_ios9-3-5.crash")
        #expect(diagnosis.category == .assertionFailure)
        #expect(diagnosis.headline.contains("assert() failed in icdab_planets"))
        #expect(diagnosis.causes.first?.frames?.contains { $0.contains("__assert_rtn") } == true)
    }

    /// A mis-symbolicated libc frame (`err + 0` where `__assert_rtn` was) between abort and the
    /// app: the library and the app method that called it are both named.
    @Test func systemFrameBetweenAbortAndTheApp() throws {
        let diagnosis = try Self.diagnosis("icdab__assert-abort_planets_symbolicated_ipod9-1_ios13-5.crash")
        #expect(diagnosis.category == .abort)
        #expect(diagnosis.headline.contains("libsystem_c.dylib in err"))
        #expect(diagnosis.headline.contains("-[PlanetViewController viewDidLoad] at PlanetViewController.mm:33"))
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 0 (queue com.apple.main-thread): the main thread"))
    }

    // Real reports pasted into public GitHub issues (Fixtures/README.md, "Real reports from
    // public issues"): the three behaviours the corpus had none for.

    /// C++ terminate read from the frames: std::thread's destructor called std::terminate while
    /// exit() ran the static destructors; libc++abi wrote only "terminating" (no exception).
    /// microsoft/vscode-cpptools#195, as posted (a blank line after the thread's title).
    @Test func cxxTerminateWithoutAThrowIsReadFromTheFrames() throws {
        let diagnosis = try Self.diagnosis("issue__cpptools-195_cxx-terminate-thread-dtor_macos_fragment.crash")
        #expect(diagnosis.category == .abort)
        #expect(diagnosis.certainty == .stated)
        #expect(diagnosis.headline.contains("std::terminate was called by std::thread's destructor"))
        #expect(diagnosis.headline.contains("not by an exception"))
        #expect(!diagnosis.headline.contains("Uncaught C++ exception"))
        #expect(diagnosis.hasEvidence("terminating"))
        let cause = try #require(diagnosis.causes.first)
        #expect(cause.text.contains("A std::thread was destroyed while still joinable"))
        #expect(cause.frames?.contains { $0.contains("std::__1::thread::~thread()") } == true)
        #expect(cause.frames?.contains { $0.contains("std::terminate()") } == true)
        #expect(cause.frames?.contains { $0.contains("vector<std::__1::thread") } == true)
        #expect(diagnosis.nextSteps.first?.contains("Join (or detach) every std::thread") == true)
        #expect(diagnosis.notes.allSatisfy { !$0.contains("exception's type is not in this report") })
    }

    /// An NSAssert that failed in the app's own method on a worker thread (NSThread), not the
    /// main one. rowanj/gitx#376 (the assertion is `NSAssert(!enumError, @"Error enumerating
    /// commits")` in -[PBGitRevList addCommitsFromEnumerator:inPBRepo:], gitx/gitx#645).
    @Test func nsAssertNamesTheAssertingMethod() throws {
        let diagnosis = try Self.diagnosis("issue__gitx-376_nsassert-nsthread_macos10-9-4_excerpt.crash")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.headline.contains("NSInternalInconsistencyException: Error enumerating commits"))
        let cause = try #require(diagnosis.causes.first)
        #expect(cause.text.contains("An NSAssert in -[PBGitRevList addCommitsFromEnumerator:inPBRepo:]"))
        #expect(cause.frames?.contains { $0.contains("-[NSAssertionHandler handleFailureInMethod:") } == true)
        #expect(cause.frames?.contains { $0.contains("Thread 19 frame 11") } == true)
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 19: not the main thread"))
        // Nothing in the report says the main thread was needed.
        #expect(!diagnosis.causes.contains { $0.text.hasPrefix("Called off the main thread") })
    }

    /// Code that must run on the main queue ran on thread 3: libdispatch's main-queue check
    /// stopped it. The cause names the library whose call checked, not libdispatch's own frame.
    /// beeper/barcelona#36 (fixed by making the sender `@MainActor`).
    @Test func mainQueueCheckOffTheMainThread() throws {
        let diagnosis = try Self.diagnosis("issue__barcelona-36_main-queue-assert-off-main_macos_excerpt.crash")
        #expect(diagnosis.category == .dispatchMisuse)
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 3: not the main thread"))
        let cause = try #require(diagnosis.causes.first)
        #expect(cause.likelihood == .likely)
        #expect(cause.text.hasPrefix("Called off the main thread: _IMStringFromIMChatJoinState (IMCore) ran on Thread 3"))
        #expect(cause.frames?.contains { $0.contains("_dispatch_assert_queue_fail") } == true)
        #expect(diagnosis.nextSteps.first?.contains("Move the call to the main thread") == true)
    }

    /// A C++ exception nothing caught, on macOS 15 where libobjc's terminate handler
    /// (`_objc_terminate`, frame 5) sits on every uncaught exception's path and the report's
    /// Application Specific Information says only "abort() called": the throw is C++ because
    /// `__cxa_throw` (frame 8) was called by libc++'s `std::__1::__throw_system_error` (frame 9),
    /// not by `objc_exception_throw`. The type is the one that helper throws; the call that threw
    /// is `std::__1::mutex::lock()` (frame 11), made by BambuStudio's own code (frame 12).
    /// bambulab/BambuStudio#8314 (quitting while a worker thread locks a destroyed mutex).
    @Test func cxxThrowPastObjCTerminateIsACppException() throws {
        let name = "issue__bambustudio-8314_cxx-system-error-mutex_macos15-5_excerpt.crash"
        let diagnosis = try Self.diagnosis(name)
        #expect(diagnosis.category == .uncaughtCppException, "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("Objective-C"))
        #expect(diagnosis.headline.hasPrefix("Uncaught C++ exception of type std::system_error"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("thrown from std::__1::mutex::lock() (libc++.1.dylib)"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("called from Slic3r::DeviceManager::parse_user_print_info("), "\(diagnosis.headline)")
        let cause = try #require(diagnosis.causes.first { $0.text.hasPrefix("A C++ exception was thrown and no handler caught it") })
        for fragment in [
            "Thread 53 frame 8: libc++abi.dylib __cxa_throw",
            "Thread 53 frame 9: libc++.1.dylib std::__1::__throw_system_error[abi:ne190102](std::__1::error_code, char const*)",
            "Thread 53 frame 11: libc++.1.dylib std::__1::mutex::lock()",
            "Thread 53 frame 12: BambuStudio Slic3r::DeviceManager::parse_user_print_info(",
        ] {
            #expect(cause.frames?.contains { $0.hasPrefix(fragment) } == true, "no cause frame \(fragment): \(cause.frames ?? [])")
        }
        #expect(
            diagnosis.evidence.contains { $0.field == "Thread 53 frame 9" && $0.note == "libc++'s helper that throws std::system_error" })
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 53: not the main thread"))
        // The type is known; only the message is missing.
        #expect(diagnosis.notes.allSatisfy { !$0.contains("exception's type is not in this report") })
        #expect(diagnosis.notes.contains { $0.contains("message (what()) is not in this report") })
        #expect(diagnosis.causes.count <= Diagnosis.maximumCauses && diagnosis.nextSteps.count <= Diagnosis.maximumSteps)
        let report = try CrashReport.parse(contentsOf: Corpus.bundled(name).path)
        let path = try #require(AbortPath(report: report))
        #expect(path.stopper == .cxxTerminate)
        #expect(path.groupingText == "demangling_terminate_handler()")
        #expect(path.caller?.functionNames.first == "std::__1::mutex::lock()")
    }

    /// The same uncaught Objective-C exception twice in one build of one app (Expo's
    /// error-recovery queue re-raising with `-[NSException raise]`, no Last Exception Backtrace
    /// message): `__cxa_throw` there is called by `objc_exception_throw`, so `_objc_terminate`
    /// stays an Objective-C stop, and both reports give the same path.
    /// EatfitbyMax/Eat-Fit, `attached_assets/` (incidents 564A44E4 and 009A639D).
    @Test func objcThrowThroughCxaThrowStaysObjC() throws {
        var texts: [String] = []
        for incident in ["564a44e4", "009a639d"] {
            let name = "eatfit__nsexception-expo-recovery_iphone14-5_ios18-5_\(incident).crash"
            let diagnosis = try Self.diagnosis(name)
            #expect(diagnosis.category == .uncaughtObjCException, "\(name): \(diagnosis.headline)")
            #expect(diagnosis.hasEvidence("(queue expo.controller.errorRecoveryQueue): not the main thread"))
            let path = try #require(AbortPath(report: try CrashReport.parse(contentsOf: Corpus.bundled(name).path)))
            #expect(path.stopper == .objcException)
            texts.append(try #require(path.groupingText))
        }
        #expect(texts == ["_objc_terminate()", "_objc_terminate()"])
    }

    /// UIKit's view layout and animation on thread 5 (WebCore's web thread): the crash is a
    /// bad read, and the frames show the UI work that ran off the main thread.
    /// rdar://23289373 as mirrored in lionheart/openradar-mirror#6546.
    @Test func uikitLayoutOffTheMainThread() throws {
        let diagnosis = try Self.diagnosis("issue__openradar-23289373_uikit-off-main-webthread_ios_fragment.crash")
        #expect(diagnosis.category == .nilDereference)
        #expect(diagnosis.hasEvidence("Crashed thread: Thread 5: not the main thread"))
        let cause = try #require(diagnosis.causes.first)
        #expect(cause.likelihood == .likely)
        #expect(cause.text.hasPrefix("Called off the main thread: +[UIViewAnimationState popAnimationState] (UIKit) ran on Thread 5"))
        #expect(cause.frames?.contains { $0.contains("animateWithDuration:delay:options:animations:completion:") } == true)
        #expect(diagnosis.nextSteps.first?.contains("Move the call to the main thread") == true)
        #expect(diagnosis.causes.count <= 3 && diagnosis.nextSteps.count <= 4)
    }
}
