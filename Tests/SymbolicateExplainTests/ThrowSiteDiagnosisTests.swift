import Foundation
import SymbolicateCrashReport
import SymbolicateJSON
import SymbolicateTestSupport
import SymbolicateThrowSites
import Testing

@testable import SymbolicateExplain

/// Issue 41: the API that threw and the rule it enforces, read from the report's typed fields
/// (Last Exception Backtrace, crashed thread, exception reason, termination details); and
/// explain's claims about a report's sections depending on the sections it has.
@Suite struct ThrowSiteDiagnosisTests {
    static func abortPath(_ name: String) throws -> Diagnosis {
        try diagnoseFile(TestPaths.fixtures.appendingPathComponent("abort-paths/reports/\(name)")).1
    }

    static func parse(_ text: String) throws -> CrashReport {
        try CrashReport.parse(data: Data(text.utf8), path: "synthetic.crash")
    }

    @Test func everyLanguageExplainSpeaksIsInTheCatalogue() {
        for language in Language.allCases {
            #expect(ThrowSiteCatalog.languages.contains(language.rawValue), "\(language)")
        }
    }

    /// The rule leads: headline, a cause carrying the raising frame, the fix as the first step,
    /// the entry's sources as a reference, its id in the diagnosis. The thread-role cause the
    /// report also shows (the update ran off the main thread) stays first.
    @Test func tableViewBatchUpdateNamesTheRuleAndItsFix() throws {
        let diagnosis = try Self.abortPath("nsassert-off-main.crash")
        #expect(diagnosis.throwSite == "uikit.tableview.invalid-row-count")
        #expect(diagnosis.headline.contains("Rule broken (UIKit): After a table view's batch update"))
        #expect(diagnosis.causes.first?.text.hasPrefix("Called off the main thread") == true)
        let rule = try #require(diagnosis.causes.first { $0.text.hasPrefix("The call broke a rule UIKit enforces") })
        #expect(rule.likelihood == .likely)
        #expect(
            rule.frames?.contains {
                $0.contains("Last Exception Backtrace frame 4: UIKitCore -[UITableView _endCellAnimationsWithContext:]")
            } == true)
        #expect(diagnosis.nextSteps.first?.hasPrefix("To keep the rule: Change the data source's model") == true)
        #expect(diagnosis.nextSteps.count <= Diagnosis.maximumSteps)
        #expect(diagnosis.causes.count <= Diagnosis.maximumCauses)
        let reference = try #require(diagnosis.references.first { $0.term == "uikit.tableview.invalid-row-count" })
        #expect(reference.links.contains("https://github.com/rondinellimorais/ExpandableTableView/issues/4"))
        #expect(diagnosis.hasEvidence("Last Exception Backtrace frame 4: UIKitCore -[UITableView _endCellAnimationsWithContext:]"))
    }

    @Test func theSameReportInJapanese() throws {
        let report = try CrashReport.parse(
            contentsOf: TestPaths.fixtures.appendingPathComponent("abort-paths/reports/nsassert-off-main.ips").path)
        let diagnosis = diagnose(report, language: .japanese)
        #expect(diagnosis.throwSite == "uikit.tableview.invalid-row-count")
        #expect(diagnosis.headline.contains("【破られた規則（UIKit）】テーブルビューの一括更新のあと"))
        #expect(diagnosis.nextSteps.first?.hasPrefix("規則を守るには: 行を挿入・削除する同じ performBatchUpdates") == true)
        #expect(diagnosis.causes.contains { $0.text.hasPrefix("呼び出しが UIKit の定める規則に反しました") })
    }

    @Test func jsonCarriesTheEntryIdOnlyWhenOneMatched() throws {
        let matched = try Self.abortPath("layout-off-main.crash")
        #expect(matched.throwSite == "uikit.autolayout.background-thread")
        let json = try JSONValue(parsing: matched.renderJSON())
        #expect(json["throwSite"]?.stringValue == "uikit.autolayout.background-thread")
        let unmatched = try Self.abortPath("malloc-guard-abort.crash")
        #expect(unmatched.throwSite == nil)
        #expect(!unmatched.renderJSON().contains("throwSite"))
    }

    /// Real reports (Fixtures/corpus, ../shared/corpus): an unrecognized selector, and TCC
    /// stopping an app whose Info.plist lacks NSCameraUsageDescription (the key is in the
    /// termination details; the raising frame is TCC's own).
    @Test func realTCCReportNamesTheMissingKey() throws {
        let diagnosis = try diagnoseFile(Corpus.bundled("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash")).1
        #expect(diagnosis.throwSite == "tcc.camera-usage-description")
        // The TCC rule already states the rule and its fix from the termination details: the
        // entry is cited, not repeated.
        #expect(diagnosis.nextSteps.first?.contains("NSCameraUsageDescription") == true)
        #expect(diagnosis.nextSteps.filter { $0.contains("NSCameraUsageDescription") }.count == 1)
        #expect(!diagnosis.headline.contains("Rule broken"))
        #expect(
            diagnosis.references.contains {
                $0.term == "tcc.camera-usage-description" && $0.links.contains("https://github.com/dokun1/Lumina/issues/45")
            })
        #expect(diagnosis.hasEvidence("Thread 1 frame 3: TCC __TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"))
    }

    @Test(arguments: [
        "kscrash__nsexception_kscrash-generated_iphone3-1_ios4-3.crash", "fb-idb__sim-i386_tablesearch-abort_macos10-11.crash",
        "icdab__nsexception-leb_nsdata_armv7_ios9-3-5.crash",
    ])
    func realUnrecognizedSelectorReports(_ name: String) throws {
        guard Corpus.isAvailable else { return }
        let diagnosis = try diagnoseFile(Corpus.url(name)).1
        #expect(diagnosis.throwSite == "objc.unrecognized-selector")
        #expect(diagnosis.nextSteps.first?.hasPrefix("To keep the rule: Read the receiver's class") == true)
    }

    /// A real report (BambuStudio, Fixtures/corpus): a std::mutex locked after destruction.
    @Test func realMutexReport() throws {
        let diagnosis = try diagnoseFile(Corpus.bundled("issue__bambustudio-8314_cxx-system-error-mutex_macos15-5_excerpt.crash")).1
        #expect(diagnosis.throwSite == "cxx.mutex-lock-after-destruction")
        #expect(diagnosis.headline.contains("Rule broken (libc++): A std::mutex must not be locked after it has been destroyed"))
        #expect(diagnosis.nextSteps.first?.hasPrefix("To keep the rule: Stop and join the background threads") == true)
        #expect(diagnosis.causes.contains { $0.frames?.contains { $0.contains("std::__1::__throw_system_error") } == true })
    }

    /// Reports no catalogue rule explains keep their diagnosis: no id, no rule in the headline.
    @Test(arguments: ["driverpay__nsexception-leb_iphone18-4_ios26-3.ips", "issue__gitx-376_nsassert-nsthread_macos10-9-4_excerpt.crash"])
    func appOwnThrowsMatchNothing(_ name: String) throws {
        let diagnosis = try diagnoseFile(Corpus.bundled(name)).1
        #expect(diagnosis.throwSite == nil)
        #expect(!diagnosis.headline.contains("Rule broken"))
    }

    /// English and Japanese goldens (`Fixtures/expected/throw-sites/`) for a generated fixture
    /// with the table view's frame and a real TCC report.
    @Test(
        arguments: [
            ("abort-paths/reports/nsassert-off-main.crash", "nsassert-off-main"),
            ("corpus/zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash", "tcc-camera"),
            ("abort-paths/reports/layout-off-main.ips", "layout-off-main"),
        ], Language.allCases)
    func goldens(_ fixture: (path: String, name: String), _ language: Language) throws {
        let report = try CrashReport.parse(contentsOf: TestPaths.fixtures.appendingPathComponent(fixture.path).path)
        let output = diagnose(report, language: language).renderText()
        try Golden.check(output, against: "throw-sites/\(fixture.name).\(language.rawValue).txt", what: "explain")
    }

    // MARK: - Raising frames from typed fields

    static let header = """
        Incident Identifier: 6D1E4F2A-1111-2222-3333-444465EB2F6F
        Hardware Model:      iPhone14,2
        Process:             Demo [4242]
        Path:                /private/var/containers/Bundle/Application/0A0B0C0D/Demo.app/Demo
        Identifier:          com.example.Demo
        Version:             1.0 (1)
        Code Type:           ARM-64 (Native)
        Parent Process:      launchd [1]

        Date/Time:           2026-03-19 21:00:54.2455 +0900
        OS Version:          iPhone OS 16.0 (20A362)
        Report Version:      104

        Exception Type:  EXC_CRASH (SIGABRT)
        Exception Codes: 0x0000000000000000, 0x0000000000000000
        Termination Reason: SIGNAL 6 Abort trap: 6

        Triggered by Thread:  2

        """

    static let images = """

        Binary Images:
        0x100000000 - 0x100003fff Demo arm64  <6d1e4f2a1111222233334444655eb2f6> /private/var/containers/Bundle/Application/0A0B0C0D/Demo.app/Demo
        0x18b000000 - 0x18b3fffff CoreFoundation arm64e  <00000000000000000000000000000001> /System/Library/Frameworks/CoreFoundation.framework/CoreFoundation
        0x18a2d0000 - 0x18a31ffff libobjc.A.dylib arm64e  <00000000000000000000000000000002> /usr/lib/libobjc.A.dylib
        0x1cbb90000 - 0x1cbbc7fff libsystem_kernel.dylib arm64e  <00000000000000000000000000000003> /usr/lib/system/libsystem_kernel.dylib
        0x1dc000000 - 0x1dc00ffff libsystem_pthread.dylib arm64e  <00000000000000000000000000000004> /usr/lib/system/libsystem_pthread.dylib
        0x193000000 - 0x19307ffff libsystem_c.dylib arm64e  <00000000000000000000000000000005> /usr/lib/system/libsystem_c.dylib
        0x1a6000000 - 0x1a601ffff libc++abi.dylib arm64e  <00000000000000000000000000000006> /usr/lib/libc++abi.dylib
        0x19a000000 - 0x19a03ffff libdispatch.dylib arm64e  <00000000000000000000000000000007> /usr/lib/system/libdispatch.dylib
        """

    /// Thread 2 ends a dispatch block in the Objective-C runtime's terminate handler after the
    /// throw in the same thread (no Last Exception Backtrace, no message).
    static let terminateThread = """
        Thread 2 name:   Dispatch queue: com.example.sync
        Thread 2 Crashed:
        0   libsystem_kernel.dylib        \t0x00000001cbb9a1d8 __pthread_kill + 8
        1   libsystem_pthread.dylib       \t0x00000001dc001e54 pthread_kill + 268
        2   libsystem_c.dylib             \t0x0000000193003ab4 abort + 128
        3   libc++abi.dylib               \t0x00000001a6004024 abort_message + 132
        4   libc++abi.dylib               \t0x00000001a6002d40 demangling_terminate_handler() + 348
        5   libobjc.A.dylib               \t0x000000018a2e4174 _objc_terminate() + 144
        6   libc++abi.dylib               \t0x00000001a60033e4 std::__terminate(void (*)()) + 16
        7   libc++abi.dylib               \t0x00000001a6003388 std::terminate() + 56
        8   libdispatch.dylib             \t0x000000019a001040 _dispatch_client_callout + 40
        9   libdispatch.dylib             \t0x000000019a004a20 _dispatch_lane_serial_drain + 668
        10  libsystem_pthread.dylib       \t0x00000001dc001b40 start_wqthread + 8

        """

    /// A report without a Last Exception Backtrace whose crashed thread ends a dispatch block in
    /// `_objc_terminate` and `std::terminate`: it is not said to have "an exception backtrace",
    /// and with no Application Specific Information that section is not described either.
    @Test func noExceptionBacktraceIsNeverClaimed() throws {
        let report = try Self.parse(Self.header + Self.terminateThread + Self.images)
        #expect(report.lastExceptionBacktrace == nil)
        #expect(report.applicationSpecificInformation == nil)
        for language in Language.allCases {
            let diagnosis = diagnose(report, language: language)
            #expect(diagnosis.category == .uncaughtObjCException)
            let prose = ([diagnosis.headline] + diagnosis.notes + diagnosis.causes.map(\.text) + diagnosis.nextSteps).joined(
                separator: "\n")
            // Claims that the report has the section (a conditional "without an exception
            // backtrace, …" in general advice is not one).
            let claims = [
                "has an exception backtrace", "has a Last Exception Backtrace", "backtrace but no", "例外のバックトレースはあります",
                "Last Exception Backtrace はあります", "Application Specific Information",
            ]
            for absent in claims {
                #expect(!prose.contains(absent), "\(language): \(absent) is claimed but the report has no such section")
            }
            #expect(!diagnosis.evidence.contains { $0.field.hasPrefix("Last Exception Backtrace") })
        }
        #expect(
            diagnose(report).headline
                == "EXC_CRASH (SIGABRT) — Uncaught Objective-C exception (likely): the runtime's terminate handler stopped the process; the report names neither the exception nor its reason."
        )
    }

    /// The same stop with a Last Exception Backtrace and an Application Specific Information
    /// section that has no exception line: each claim names the section it is about.
    @Test func claimsNameTheSectionTheyAreAbout() throws {
        let backtrace = """
            Application Specific Information:
            abort() called

            Last Exception Backtrace:
            0   CoreFoundation                \t0x000000018b0010a4 __exceptionPreprocess + 164
            1   libobjc.A.dylib               \t0x000000018a2e103c objc_exception_throw + 60
            2   Demo                          \t0x0000000100001154 SyncEngine.apply(_:) + 340

            """
        let report = try Self.parse(Self.header + backtrace + Self.terminateThread + Self.images)
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.contains("the report has a Last Exception Backtrace but no exception message"))
        #expect(diagnosis.notes.contains("The exception name and reason are not in this report's Application Specific Information."))
        let japanese = diagnose(report, language: .japanese)
        #expect(japanese.headline.contains("Last Exception Backtrace はありますが"))
    }

    /// Without a Last Exception Backtrace, the raising frame is read in the crashed thread past
    /// `objc_exception_throw`; the reason comes from Application Specific Information.
    @Test func raisingFrameFromTheCrashedThread() throws {
        let thread = """
            Application Specific Information:
            *** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Demo.PlayerView 0x1056> for the key path "status" from <AVPlayerItem 0x2ff5> because it is not registered as an observer.'

            Thread 2 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001cbb9a1d8 __pthread_kill + 8
            1   libsystem_pthread.dylib       \t0x00000001dc001e54 pthread_kill + 268
            2   libsystem_c.dylib             \t0x0000000193003ab4 abort + 128
            3   libc++abi.dylib               \t0x00000001a6004024 abort_message + 132
            4   libc++abi.dylib               \t0x00000001a6002d40 demangling_terminate_handler() + 348
            5   libobjc.A.dylib               \t0x000000018a2e4174 _objc_terminate() + 144
            6   libc++abi.dylib               \t0x00000001a60033e4 std::__terminate(void (*)()) + 16
            7   libc++abi.dylib               \t0x00000001a6003388 __cxa_throw + 140
            8   libobjc.A.dylib               \t0x000000018a2e103c objc_exception_throw + 60
            9   CoreFoundation                \t0x000000018b002000 +[NSException raise:format:] + 120
            10  CoreFoundation                \t0x000000018b003000 -[NSObject(NSKeyValueObserverRegistration) _removeObserver:forProperty:] + 520
            11  Demo                          \t0x0000000100001154 PlayerView.deinit + 340

            """
        let report = try Self.parse(Self.header + thread + Self.images)
        let diagnosis = diagnose(report)
        #expect(diagnosis.throwSite == "foundation.kvo.remove-unregistered-observer")
        #expect(
            diagnosis.hasEvidence(
                "Thread 2 frame 10: CoreFoundation -[NSObject(NSKeyValueObserverRegistration) _removeObserver:forProperty:]"))
        #expect(diagnosis.nextSteps.first?.hasPrefix("To keep the rule: Pair every addObserver") == true)
    }
}
