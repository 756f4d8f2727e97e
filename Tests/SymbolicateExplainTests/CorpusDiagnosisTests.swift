import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// One real report and the diagnosis a person reaches by reading it.
struct CorpusCase: Sendable, CustomTestStringConvertible {
    let file: String
    let category: Diagnosis.Category
    /// Fragments that must appear in the quoted evidence (`Field: quote`).
    let evidence: [String]
    /// Fragments that must appear in the headline.
    let headline: [String]
    /// Why this is the right answer, from reading the report.
    let why: String
    var fatal: Bool = true

    var testDescription: String { file }
}

/// Expected answers were decided by reading each report in shared/corpus/reports (the `why`
/// says which lines decide it), not by running the tool.
let corpusCases: [CorpusCase] = [
    CorpusCase(
        file: "2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips", category: .nilDereference,
        evidence: ["KERN_INVALID_ADDRESS at 0x0000000000000008"], headline: ["nil", "0x8"],
        why: "subtype KERN_INVALID_ADDRESS at 0x8: a read 8 bytes past NULL, in unordered_map::find called on a null map"),
    CorpusCase(
        file: "driverpay__nsexception-leb_iphone18-4_ios26-3.ips", category: .uncaughtObjCException,
        evidence: ["Last Exception Backtrace frame 1: libobjc.A.dylib objc_exception_throw"], headline: ["Objective-C exception"],
        why:
            "EXC_CRASH (SIGABRT), lastExceptionBacktrace starts __exceptionPreprocess/objc_exception_throw, crashed thread in _objc_terminate; asi has no exception name"
    ),
    CorpusCase(
        file: "electron-symbolicate__code-signature-invalid_slack-electron_macos10-11_collapsed-spaces.crash", category: .codeSigning,
        evidence: ["Exception Type: EXC_BAD_ACCESS (Code Signature Invalid)"], headline: ["signature"],
        why:
            "Exception Type says Code Signature Invalid; codes 0x32 = KERN_CODESIGN_ERROR; dyld validateFirstPages on a dlopen'ed .node file"
    ),
    CorpusCase(
        file: "fb-idb__sim-i386_assetsd-abort_macos10-11.crash", category: .uncaughtObjCException,
        evidence: ["uncaught exception 'NSInternalInconsistencyException'"],
        headline: ["NSInternalInconsistencyException", "notify_get_state() failed."],
        why: "ASI: *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'notify_get_state() failed.'"),
    CorpusCase(
        file: "fb-idb__sim-i386_tablesearch-abort_macos10-11.crash", category: .uncaughtObjCException,
        evidence: ["unrecognized selector sent to instance"], headline: ["NSInvalidArgumentException", "stringWithFormat:"],
        why: "ASI: uncaught NSInvalidArgumentException, -[NSFileManager stringWithFormat:]: unrecognized selector"),
    CorpusCase(
        file: "fb-idb__sim-xctest-brk_macos12-3-arm64_edited-header.ips", category: .explicitTrap,
        evidence: ["-[TpxUnitTests testExample1] (TpxUnitTests.m:15)"], headline: ["C-family", "TpxUnitTests.m:15"],
        why: "EXC_BREAKPOINT whose frame 0 is an Objective-C method in TpxUnitTests.m: a trap in C-family code, not a Swift check"),
    CorpusCase(
        file: "hduhky__abort_ezview_iphone11-8_ios15-2.ips", category: .abort,
        evidence: ["libsystem_c.dylib abort", "Application Specific Information: libsystem_c.dylib: abort() called"],
        headline: ["abort()", "EZView"],
        why: "SIGABRT, asi only 'abort() called', no exception backtrace; frames 3+ are EZView code calling abort"),
    CorpusCase(
        file: "icdab__assert-abort_planets_armv7_ipod5-1_ios9-3-5.crash", category: .assertionFailure,
        evidence: ["__assert_rtn"], headline: ["assert()"],
        why: "crashed thread: abort called from __assert_rtn called from icdab_planets"),
    CorpusCase(
        file: "icdab__assert-abort_planets_ios-app-on-apple-silicon-mac_macos11b.crash", category: .assertionFailure,
        evidence: ["Assertion failed: (pluto_volume != 0.0)"], headline: ["pluto_volume != 0.0"],
        why:
            "ASI: Assertion failed: (pluto_volume != 0.0), function -[PlanetViewController viewDidLoad], file …PlanetViewController.mm, line 33"
    ),
    CorpusCase(
        file: "icdab__assert-abort_planets_symbolicated_ipod9-1_ios13-5.crash", category: .abort,
        evidence: ["-[PlanetViewController viewDidLoad] (PlanetViewController.mm:33)"], headline: ["abort()", "icdab_planets"],
        why:
            "no ASI message; frame 3 is mis-symbolicated as 'err + 0', so only the abort from viewDidLoad at PlanetViewController.mm:33 is visible"
    ),
    CorpusCase(
        file: "icdab__brk1-libdispatch-semaphore_macos11b-arm64.crash", category: .dispatchMisuse,
        evidence: ["BUG IN CLIENT OF LIBDISPATCH: Semaphore object deallocated while in use"],
        headline: ["Semaphore object deallocated while in use"],
        why: "ASI: BUG IN CLIENT OF LIBDISPATCH: Semaphore object deallocated while in use, EXC_BREAKPOINT brk 1"),
    CorpusCase(
        file: "icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash", category: .resourceLimit,
        evidence: ["Event: cpu usage", "Action taken: Process killed"], headline: ["cpu usage", "killed"],
        why: "microstackshot report: Event: cpu usage, Action taken: Process killed"),
    CorpusCase(
        file: "icdab__diskwrites-resource_assetsd_ios14-2b.ips", category: .resourceLimit,
        evidence: ["Event: disk writes", "Action taken: none"], headline: ["disk writes", "not killed"],
        why: "diskwrites_resource report: Event: disk writes, Action taken: none — a warning", fatal: false),
    CorpusCase(
        file: "icdab__exc-resource-cpu_brain_ipad4-4_ios8-1.crash", category: .resourceLimit,
        evidence: ["Exception Message: (Limit 50%) Observed 60% over 180 secs"], headline: ["CPU", "Limit 50%"],
        why: "Exception Type EXC_RESOURCE, Subtype CPU (not CPU_FATAL): a warning about 60% CPU over 180 s", fatal: false),
    CorpusCase(
        file: "icdab__gpflt_fud_macos10-13.crash", category: .badMemoryAccess,
        evidence: ["Exception Codes: EXC_I386_GPFLT"], headline: ["General protection fault"],
        why: "EXC_BAD_ACCESS (SIGSEGV) with code EXC_I386_GPFLT: x86 general protection fault, no address"),
    CorpusCase(
        file: "icdab__insecure-drawing-2bad45ec_mobilesms_ios11-1.crash", category: .securityViolation,
        evidence: ["Termination Reason: SPRINGBOARD 0x2bad45ec"], headline: ["0x2bad45ec", "insecure", "secure"],
        why: "Termination Reason SPRINGBOARD 0x2bad45ec, description 'Process detected doing insecure drawing while in secure mode'"),
    CorpusCase(
        file: "icdab__jetsam-event_iphone_ios14-2b.ips", category: .memoryPressure,
        evidence: [
            "bug_type: 298", "Killed process: dasd (pid 2303): reason highwater, 7.1 MB", "Also killed: wifianalyticsd: reason highwater",
        ],
        headline: ["Jetsam", "not a crash", "killed dasd", "highwater"],
        why:
            "bug_type 298 JetsamEvent, no threads; two processes carry a reason (wifianalyticsd 382 pages, dasd 456 pages × 16 KB, both highwater, neither frontmost): the largest killed one is dasd"
    ),
    CorpusCase(
        file: "icdab__kernel-panic-text_amd-power-state_macos.crash", category: .notACrash,
        evidence: ["Panic: panic(cpu"], headline: ["Kernel panic"],
        why: "the file is kernel panic text starting with panic(cpu 1 caller …), not a process crash", fatal: false),
    CorpusCase(
        file: "icdab__nsexception-leb_nsdata_armv7_ios9-3-5.crash", category: .uncaughtObjCException,
        evidence: ["Last Exception Backtrace frame 0: CoreFoundation __exceptionPreprocess"], headline: ["Objective-C exception"],
        why: "Last Exception Backtrace with objc_exception_throw and doesNotRecognizeSelector:, no ASI message"),
    CorpusCase(
        file: "icdab__pac-failure_icdab-ptr_arm64e-app_ios14-2b.crash", category: .pointerAuthentication,
        evidence: ["KERN_INVALID_ADDRESS at 0x2000000100ae9df8 -> 0x0000000100ae9df8 (possible pointer authentication failure)"],
        headline: ["Pointer authentication", "0x100ae9df8"],
        why: "subtype says 'possible pointer authentication failure': high bits 0x20… stripped to 0x100ae9df8"),
    CorpusCase(
        file: "icdab__rosetta-avx-sigill_macos11b-dtk.crash", category: .illegalInstruction,
        evidence: ["Code Type: X86-64 (Translated)"], headline: ["Rosetta", "AVX"],
        why: "EXC_BAD_INSTRUCTION (SIGILL) in an X86-64 (Translated) process, frame 0 in the app's runVectorOperations code"),
    CorpusCase(
        file: "icdab__rosetta-translated-abort_macos11b.crash", category: .abort,
        evidence: ["multi-threaded process forked"], headline: ["forked child"],
        why: "ASI: *** multi-threaded process forked *** / crashed on child side of fork pre-exec"),
    CorpusCase(
        file: "icdab__sigbus-bus-adraln_jablotron_ios7_thirdparty.crash", category: .badMemoryAccess,
        evidence: ["Exception Codes: BUS_ADRALN at 0xcd0b1c"], headline: ["Misaligned", "0xcd0b1c"],
        why: "third-party report: Exception Type SIGBUS, Codes BUS_ADRALN at 0xcd0b1c — an alignment fault"),
    CorpusCase(
        file: "icdab__sigbus_reportcrash-itself_unsymbolicated_ios13-2.crash", category: .codeSigning,
        evidence: ["UNKNOWN_0x32 at 0x000000017e012290"], headline: ["signature"],
        why: "EXC_BAD_ACCESS (SIGBUS) subtype UNKNOWN_0x32: 0x32 is KERN_CODESIGN_ERROR in kern_return.h"),
    CorpusCase(
        file: "ios-resymbol__exc-guard-fd_iphone9-1_ios12-4.crash", category: .guardViolation,
        evidence: ["Exception Message: CLOSE on file descriptor 63", "Exception Note: SIMULATED (this is NOT a crash)"],
        headline: ["GUARD_TYPE_FD", "Not a crash"],
        why: "EXC_GUARD GUARD_TYPE_FD, message CLOSE on file descriptor 63, note SIMULATED (this is NOT a crash)", fatal: false),
    CorpusCase(
        file: "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips", category: .assertionFailure,
        evidence: ["assertion __n < size() failed: vector[] index out of bounds"], headline: ["vector[] index out of bounds"],
        why: "frame 0 is libc++'s hardening frame 'vector:1393: assertion __n < size() failed: vector[] index out of bounds'"),
    CorpusCase(
        file: "macsym__exc-breakpoint_iphone14-2_ios15-5.ips", category: .swiftTrap,
        evidence: ["libswiftCore.dylib _assertionFailure(_:_:file:line:flags:)"], headline: ["Swift runtime check"],
        why: "EXC_BREAKPOINT, frames 0–1 libswiftCore _assertionFailure, no asi message"),
    CorpusCase(
        file: "macsym__multi-target-sigill_macos12-4.ips", category: .swiftTrap,
        evidence: ["Exception Type: EXC_BAD_INSTRUCTION (SIGILL)", "Code Type: X86-64 (Native)"], headline: ["x86_64", "Swift"],
        why: "EXC_BAD_INSTRUCTION (SIGILL) on X86-64 native: Swift traps are ud2 on Intel (frame 0 in the app's framework)"),
    CorpusCase(
        file: "macsym__sigsegv_unsymbolicated_macos10-15b.crash", category: .nilDereference,
        evidence: ["Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000001"], headline: ["nil", "0x1"],
        why: "older macOS format puts KERN_INVALID_ADDRESS at 0x1 in Exception Codes: one byte past NULL"),
    CorpusCase(
        file: "mdi__sigsegv_reportcrash-daemon_macos12-3.crash", category: .badMemoryAccess,
        evidence: ["KERN_INVALID_ADDRESS at 0x000000012bb9b008"], headline: ["0x12bb9b008", "not nil"],
        why: "KERN_INVALID_ADDRESS at 0x12bb9b008: a heap-range address, not near NULL — a dangling or bad pointer"),
    CorpusCase(
        file: "mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips", category: .signalRaised,
        evidence: ["Exception Type: EXC_CRASH (SIGSEGV)", "raise"], headline: ["raised SIGSEGV"],
        why:
            "EXC_CRASH wrapping SIGSEGV; crashed thread is __pthread_kill ← pthread_kill ← raise ← app code: the app raised the signal itself"
    ),
    CorpusCase(
        file: "plaso__abort_recoverylogd_bridgeos7-5.ips", category: .libsystemFault,
        evidence: ["Termination Reason: LIBSYSTEM 2", "assertion failure: \"fd != -1\""], headline: ["LIBSYSTEM 2", "fd != -1"],
        why: "termination namespace LIBSYSTEM code 2 (Application Triggered Fault), asi libsystem_c assertion failure \"fd != -1\""),
    CorpusCase(
        file: "sentry-acrp__plcrashreporter_ue4-game_macos10-14.crash", category: .nilDereference,
        evidence: ["Exception Codes: SEGV_MAPERR at 0x88"], headline: ["0x88"],
        why: "PLCrashReporter text: SIGSEGV, SEGV_MAPERR at 0x88 — a field at offset 0x88 read through NULL"),
    CorpusCase(
        file: "sentry-acrp__fragment-threads-and-images_image-name-with-space.crash", category: .unknown,
        evidence: [], headline: ["App Namespace", "states no exception, signal or message"],
        why: "fragment: one thread and Binary Images, no exception section at all: the one stack is where it stopped"),
    CorpusCase(
        file: "zqqf16-sym__brk_iphone9-2_ios10-1_legacy-ips.ips", category: .swiftTrap,
        evidence: ["Exception Type: EXC_BREAKPOINT (SIGTRAP)"], headline: ["Swift"],
        why: "EXC_BREAKPOINT with frame 0 in the app 'demo' (unsymbolicated): a trap in app code, most likely a Swift check"),
    CorpusCase(
        file: "zqqf16-sym__tcc-abort_iphone13-4_ios15-2.ips", category: .privacyViolation,
        evidence: ["Termination Reason: TCC 0", "NSCameraUsageDescription"], headline: ["NSCameraUsageDescription"],
        why: "termination namespace TCC, details: Info.plist must contain an NSCameraUsageDescription key"),
    CorpusCase(
        file: "zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash", category: .privacyViolation,
        evidence: ["Termination Reason: TCC 0", "NSCameraUsageDescription"], headline: ["NSCameraUsageDescription"],
        why: "text form of the same incident: 'Termination Reason: TCC 0' followed by the usage-description sentence"),
    CorpusCase(
        file: "kscrash__nsexception_kscrash-generated_iphone3-1_ios4-3.crash", category: .uncaughtObjCException,
        evidence: ["NSInvalidArgumentException"], headline: ["NSInvalidArgumentException", "objectForKey:"],
        why: "KSCrash text: ASI uncaught NSInvalidArgumentException, -[__NSArrayI objectForKey:]: unrecognized selector"),
]

@Suite struct CorpusDiagnosisTests {
    @Test(arguments: corpusCases)
    func diagnosisMatchesReadingOfTheReport(_ item: CorpusCase) throws {
        let url = Corpus.reportsDirectory.appendingPathComponent(item.file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("skipped: corpus not found at \(url.path)")
            return
        }
        let (_, diagnosis) = try diagnoseFile(url)
        #expect(diagnosis.category == item.category, "\(item.file): \(diagnosis.headline) — expected because \(item.why)")
        for fragment in item.evidence {
            #expect(diagnosis.hasEvidence(fragment), "\(item.file): no evidence containing \(fragment); got \(diagnosis.evidenceLines)")
        }
        for fragment in item.headline {
            #expect(diagnosis.headline.contains(fragment), "\(item.file): headline \(diagnosis.headline) lacks \(fragment)")
        }
        #expect(diagnosis.isFatal == item.fatal, "\(item.file): isFatal")
        // Every diagnosis of a crash gives the reader somewhere to go next.
        if item.category != .unknown { #expect(!diagnosis.nextSteps.isEmpty || !diagnosis.notes.isEmpty) }
    }

    @Test func atLeastTwentyCorpusReportsAreCovered() {
        #expect(Set(corpusCases.map(\.file)).count >= 20)
    }
}
