import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 31, "no diagnosis gets worse": every real report in the shared corpus (reports and
/// MetricKit payloads), the corpus copies and the fixture reports, with the categories explain
/// gave before the abort-path work (main at 9e63bd6) and after it, one per diagnosis in the
/// file. A file the reader refuses has none. A change is either none or one of the listed
/// refinements (a generic abort, trap or bad access that the frames now name).
@Suite struct CategoryTableTests {
    typealias Row = (file: String, before: [Diagnosis.Category], after: [Diagnosis.Category])

    static let table: [Row] = [
        ("2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips", [.nilDereference], [.nilDereference]),
        ("driverpay__nsexception-leb_iphone18-4_ios26-3.ips", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("eatfit__nsexception-expo-recovery_iphone14-5_ios18-5_009a639d.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("eatfit__nsexception-expo-recovery_iphone14-5_ios18-5_564a44e4.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("electron-symbolicate__code-signature-invalid_slack-electron_macos10-11_collapsed-spaces.crash", [.codeSigning], [.codeSigning]),
        ("fb-idb__sim-i386_assetsd-abort_macos10-11.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("fb-idb__sim-i386_tablesearch-abort_macos10-11.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("fb-idb__sim-xctest-brk_macos12-3-arm64_edited-header.ips", [.explicitTrap], [.explicitTrap]),
        ("hduhky__abort_ezview_iphone11-8_ios15-2.ips", [.abort], [.abort]),
        ("hduhky__abort_ezview_iphone11-8_ios15-2_reserialized.crash", [.abort], [.abort]),
        ("icdab__assert-abort_planets_armv7_ipod5-1_ios9-3-5.crash", [.assertionFailure], [.assertionFailure]),
        ("icdab__assert-abort_planets_ios-app-on-apple-silicon-mac_macos11b.crash", [.assertionFailure], [.assertionFailure]),
        ("icdab__assert-abort_planets_symbolicated_ipod9-1_ios13-5.crash", [.abort], [.abort]),
        ("icdab__assert-abort_planets_unsymbolicated_ipod9-1_ios13-5.crash", [.abort], [.abort]),
        ("icdab__bridgeos-panic_imac_bug210_malformed-json.crash", [], [.notACrash]),  // cut .ips: read since issue 40
        ("icdab__brk1-libdispatch-semaphore_macos11b-arm64.crash", [.dispatchMisuse], [.dispatchMisuse]),
        ("icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash", [.resourceLimit], [.resourceLimit]),
        ("icdab__diskwrites-resource_assetsd_ios14-2b.ips", [.resourceLimit], [.resourceLimit]),
        ("icdab__exc-resource-cpu_brain_ipad4-4_ios8-1.crash", [.resourceLimit], [.resourceLimit]),
        ("icdab__gpflt_fud_macos10-13.crash", [.badMemoryAccess], [.badMemoryAccess]),
        ("icdab__insecure-drawing-2bad45ec_mobilesms_ios11-1.crash", [.securityViolation], [.securityViolation]),
        ("icdab__jetsam-event_iphone_ios14-2b.ips", [.memoryPressure], [.memoryPressure]),
        ("icdab__jetsam-vm-thrashing_ios9-3_elided.crash", [], []),
        ("icdab__kdp-graphics-abort_i386-process_macos10-13.crash", [.abort], [.abort]),
        ("icdab__kernel-panic-text_amd-power-state_macos.crash", [.notACrash], [.notACrash]),
        ("icdab__nsexception-leb_nsdata_armv7_ios9-3-5.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("icdab__pac-failure_icdab-ptr_arm64e-app_ios14-2b.crash", [.pointerAuthentication], [.pointerAuthentication]),
        ("icdab__rosetta-avx-sigill_macos11b-dtk.crash", [.illegalInstruction], [.illegalInstruction]),
        ("icdab__rosetta-translated-abort_macos11b.crash", [.abort], [.abort]),
        ("icdab__sigbus-bus-adraln_jablotron_ios7_thirdparty.crash", [.badMemoryAccess], [.badMemoryAccess]),
        ("icdab__sigbus_reportcrash-itself_unsymbolicated_ios13-2.crash", [.codeSigning], [.codeSigning]),
        ("icdab__stackshot-baaaaaad_iphone3-1_ios7.crash", [.notACrash], [.notACrash]),
        ("ios-resymbol__exc-guard-fd_iphone9-1_ios12-4.crash", [.guardViolation], [.guardViolation]),
        ("ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips", [.assertionFailure], [.assertionFailure]),
        ("ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash", [.assertionFailure], [.assertionFailure]),
        ("issue__ane-google-analytics-56_ios8_legacy-text-jetsam.crash", [.memoryPressure], [.memoryPressure]),
        ("issue__audiobooth-11_watchos10_watch5-2_arm64_32.ips", [], [.unknown]),  // cut .ips: read since issue 40
        // Added with issue 31's real reports from public issues; "before" is main before them.
        ("issue__barcelona-36_main-queue-assert-off-main_macos_excerpt.crash", [.dispatchMisuse], [.dispatchMisuse]),
        // A C++ throw whose path passes libobjc's terminate handler was read as Objective-C.
        ("issue__bambustudio-8314_cxx-system-error-mutex_macos15-5_excerpt.crash", [.uncaughtObjCException], [.uncaughtCppException]),
        ("issue__cpptools-195_cxx-terminate-thread-dtor_macos_fragment.crash", [.abort], [.abort]),
        ("issue__gitx-376_nsassert-nsthread_macos10-9-4_excerpt.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("issue__openradar-23289373_uikit-off-main-webthread_ios_fragment.crash", [.nilDereference], [.nilDereference]),
        ("issue__dotnet-macios-8254_watchos6_watch5-1_sigabrt.crash", [.abort], [.abort]),
        ("issue__gvr-ios-sdk-288_ios9_armv7_mangled-symbols.crash", [.nilDereference], [.nilDereference]),
        ("issue__icontrol-web-12_watchos2_watch1-2_sigabrt.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("issue__mtadmob-125_appstore-review_ipad_sigabrt.crash", [.abort], [.abort]),
        ("issue__reprovision-105_ipados13_jb-symbolicated-header.crash", [.abort], [.abort]),
        ("kscrash__nsexception_kscrash-generated_iphone3-1_ios4-3.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("macsym__exc-breakpoint_iphone14-2_ios15-5.ips", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_iphone14-2_ios16-0.ips", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_symbolicated_iphone14-2_ios15-5.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_text-with-json-header_iphone14-2_ios16-0.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_text-without-json-header_iphone14-2_ios16-0.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_unsymbolicated_iphone10-3_ios13-1.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__exc-breakpoint_unsymbolicated_iphone14-2_ios15-5.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__multi-target-sigill_macos12-4.ips", [.swiftTrap], [.swiftTrap]),
        ("macsym__multi-target-sigill_symbolicated_macos12-4.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__multi-target-sigill_unsymbolicated_macos12-4.crash", [.swiftTrap], [.swiftTrap]),
        ("macsym__sigsegv_unsymbolicated_macos10-15b.crash", [.nilDereference], [.nilDereference]),
        ("mdi__sigsegv_reportcrash-daemon_macos12-3.crash", [.badMemoryAccess], [.badMemoryAccess]),
        ("mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.crash", [.signalRaised], [.signalRaised]),
        ("mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips", [.signalRaised], [.signalRaised]),
        ("plaso__abort_recoverylogd_bridgeos7-5.ips", [.libsystemFault], [.libsystemFault]),
        ("sentry-acrp__fragment-threads-and-images_image-name-with-space.crash", [.unknown], [.unknown]),
        ("sentry-acrp__plcrashreporter_ue4-game_macos10-14.crash", [.nilDereference], [.nilDereference]),
        ("sentry-acrp__thirdparty-headerless_xcdyoutubekit_macos10-8.crash", [.nilDereference], [.nilDereference]),
        ("sentry-acrp__truncated-after-header_iphone8-1_ios13-3.crash", [.unknown], [.unknown]),
        ("zqqf16-sym__brk_iphone9-2_ios10-1_legacy-ips.ips", [.swiftTrap], [.swiftTrap]),
        ("zqqf16-sym__tcc-abort_iphone13-4_ios15-2.ips", [.privacyViolation], [.privacyViolation]),
        ("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash", [.privacyViolation], [.privacyViolation]),
        ("meter__ios_uncaugh_exception_payload.json", [.badMemoryAccess], [.nilDereference]),
        ("meter__real_report.json", [.swiftTrap, .badMemoryAccess], [.swiftTrap, .nilDereference]),
        (
            "meter__xcode_simulated.json", [.badMemoryAccess, .notACrash, .resourceLimit, .resourceLimit],
            [.nilDereference, .notACrash, .resourceLimit, .resourceLimit]
        ),
        (
            "meter__xcode_simulated_macOS_12.json", [.badMemoryAccess, .notACrash, .resourceLimit, .resourceLimit],
            [.nilDereference, .notACrash, .resourceLimit, .resourceLimit]
        ),
        ("macapp-x86_64.crash", [.nilDereference], [.nilDereference]),
        ("null-deref.crash", [.nilDereference], [.nilDereference]),
        ("objc-exception.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("swift-index-dwarf4.crash", [.swiftTrap], [.swiftTrap]),
        ("swift-trap.crash", [.swiftTrap], [.swiftTrap]),
        ("uuid-mismatch.crash", [.nilDereference], [.nilDereference]),
        ("watchdog.crash", [.watchdog], [.watchdog]),
        ("macapp-x86_64.ips", [.nilDereference], [.nilDereference]),
        ("null-deref.ips", [.nilDereference], [.nilDereference]),
        ("objc-exception.ips", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("swift-index-dwarf4.ips", [.swiftTrap], [.swiftTrap]),
        ("swift-trap.ips", [.swiftTrap], [.swiftTrap]),
        ("uuid-mismatch.ips", [.nilDereference], [.nilDereference]),
        ("watchdog.ips", [.watchdog], [.watchdog]),
        ("assert-same-caller.crash", [.assertionFailure], [.assertionFailure]),
        ("assert-same-caller.ips", [.assertionFailure], [.assertionFailure]),
        ("cfrelease-null-trap.crash", [.swiftTrap], [.explicitTrap]),
        ("cfrelease-null-trap.ips", [.swiftTrap], [.explicitTrap]),
        ("cxx-noexcept.crash", [.uncaughtCppException], [.uncaughtCppException]),
        ("cxx-noexcept.ips", [.uncaughtCppException], [.uncaughtCppException]),
        ("cxx-uncaught.crash", [.uncaughtCppException], [.uncaughtCppException]),
        ("cxx-uncaught.ips", [.uncaughtCppException], [.uncaughtCppException]),
        ("layout-off-main.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("layout-off-main.ips", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("mainactor-off-main.crash", [.abort], [.swiftRuntimeError]),
        ("mainactor-off-main.ips", [.abort], [.swiftRuntimeError]),
        ("malloc-guard-abort.crash", [.abort], [.memoryCorruption]),
        ("malloc-guard-abort.ips", [.abort], [.memoryCorruption]),
        ("malloc-guard-abort.metrickit.json", [.abort], [.memoryCorruption]),
        ("malloc-guard-trap.crash", [.swiftTrap], [.memoryCorruption]),
        ("malloc-guard-trap.ips", [.swiftTrap], [.memoryCorruption]),
        ("nsassert-off-main.crash", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("nsassert-off-main.ips", [.uncaughtObjCException], [.uncaughtObjCException]),
        ("stack-overflow-cycle.crash", [.badMemoryAccess], [.stackOverflow]),
        ("stack-overflow-cycle.ips", [.badMemoryAccess], [.stackOverflow]),
        ("stack-overflow-run.crash", [.badMemoryAccess], [.stackOverflow]),
        ("stack-overflow-run.ips", [.badMemoryAccess], [.stackOverflow]),
        ("stack-overflow-run.metrickit.json", [.badMemoryAccess], [.stackOverflow]),
    ]

    /// Before → after changes that say more, not less: the same crash, named by its frames.
    static let refinements: Set<String> = [
        "abort→memoryCorruption", "abort→swiftRuntimeError", "abort→uncaughtCppException", "abort→assertionFailure",
        "swiftTrap→memoryCorruption", "swiftTrap→explicitTrap", "badMemoryAccess→stackOverflow",
        // Issue 41: a MetricKit crash whose `virtualMemoryRegionInfo` puts the address in no region near 0.
        "badMemoryAccess→nilDereference",
        // `_objc_terminate` on the path with a C++ `__cxa_throw` (not `objc_exception_throw`) under it.
        "uncaughtObjCException→uncaughtCppException",
    ]

    static let folders: [URL] = [
        TestPaths.fixtures.appendingPathComponent("corpus"), TestPaths.fixtures.appendingPathComponent("reports"),
        TestPaths.fixtures.appendingPathComponent("abort-paths/reports"), Corpus.reportsDirectory,
        Corpus.reportsDirectory.deletingLastPathComponent().appendingPathComponent("metrickit"),
    ]

    static func url(_ file: String) -> URL? {
        folders.map { $0.appendingPathComponent(file) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    static func categories(_ url: URL) -> [Diagnosis.Category] {
        guard let data = try? Data(contentsOf: url), let reports = try? CrashReport.parseAll(data: data, path: url.path) else { return [] }
        return reports.map { diagnose($0).category }
    }

    @Test func noChangeIsForTheWorse() {
        // A file refused before and read now (a cut `.ips`, issue 40) has gained its diagnoses.
        for row in Self.table where row.before != row.after && !row.before.isEmpty {
            #expect(row.before.count == row.after.count, "\(row.file)")
            for (old, new) in zip(row.before, row.after) where old != new {
                #expect(Self.refinements.contains("\(old.rawValue)→\(new.rawValue)"), "\(row.file): \(old) → \(new)")
            }
        }
    }

    @Test func theTableIsWhatExplainSaysNow() {
        var checked = 0
        for row in Self.table {
            guard let url = Self.url(row.file) else { continue }
            checked += 1
            #expect(Self.categories(url) == row.after, "\(row.file)")
        }
        // The bundled files are always there; the shared corpus adds the rest when present.
        #expect(checked >= 30)
    }

    /// A report added to the fixtures or the corpus copies must be added to the table.
    @Test func everyBundledReportIsListed() throws {
        let listed = Set(Self.table.map(\.file))
        for folder in Self.folders.prefix(3) {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".crash") || $0.hasSuffix(".ips") || $0.hasSuffix(".json") && $0 != "manifest.json" }
            for name in names { #expect(listed.contains(name), "\(folder.lastPathComponent)/\(name) is not in the table") }
        }
    }
}
