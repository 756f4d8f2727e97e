import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Facts per corpus file, taken by reading the files (a one-off grep/python count of
/// `Thread N:` headers, `Triggered by Thread`/`faultingThread`, `Exception Type`/`exception.type`
/// and `Binary Images` lines/`usedImages`), not from this parser's output. (The brain report's
/// blamed thread is headed `Thread 2 Attributed:`, hence 4 threads.)
struct CorpusFact: Sendable, CustomTestStringConvertible {
    enum Expectation: Sendable {
        case parses(threads: Int, crashed: Int?, exception: String?, images: Int)
        case fails(CrashReportError.Kind, line: Int)
    }
    var file: String
    var expectation: Expectation
    init(_ file: String, threads: Int, crashed: Int?, exception: String?, images: Int) {
        self.file = file
        expectation = .parses(threads: threads, crashed: crashed, exception: exception, images: images)
    }
    init(_ file: String, fails kind: CrashReportError.Kind, atLine line: Int) {
        self.file = file
        expectation = .fails(kind, line: line)
    }
    var testDescription: String { file }
}

let corpusFacts: [CorpusFact] = [
    .init("2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips", threads: 12, crashed: 2, exception: "EXC_BAD_ACCESS", images: 44),
    .init("driverpay__nsexception-leb_iphone18-4_ios26-3.ips", threads: 17, crashed: 1, exception: "EXC_CRASH", images: 20),
    .init(
        "electron-symbolicate__code-signature-invalid_slack-electron_macos10-11_collapsed-spaces.crash", threads: 21, crashed: 0,
        exception: "EXC_BAD_ACCESS", images: 219),
    .init("fb-idb__sim-i386_assetsd-abort_macos10-11.crash", threads: 9, crashed: 5, exception: "EXC_CRASH", images: 195),
    .init("fb-idb__sim-i386_tablesearch-abort_macos10-11.crash", threads: 5, crashed: 0, exception: "EXC_CRASH", images: 124),
    .init("fb-idb__sim-xctest-brk_macos12-3-arm64_edited-header.ips", threads: 3, crashed: 0, exception: "EXC_BREAKPOINT", images: 8),
    .init("hduhky__abort_ezview_iphone11-8_ios15-2.ips", threads: 212, crashed: 114, exception: "EXC_CRASH", images: 15),
    .init("hduhky__abort_ezview_iphone11-8_ios15-2_reserialized.crash", threads: 212, crashed: 114, exception: "EXC_CRASH", images: 15),
    .init("icdab__assert-abort_planets_armv7_ipod5-1_ios9-3-5.crash", threads: 7, crashed: 0, exception: "EXC_CRASH", images: 137),
    .init(
        "icdab__assert-abort_planets_ios-app-on-apple-silicon-mac_macos11b.crash", threads: 10, crashed: 0, exception: "EXC_CRASH",
        images: 581),
    .init("icdab__assert-abort_planets_symbolicated_ipod9-1_ios13-5.crash", threads: 8, crashed: 0, exception: "EXC_CRASH", images: 274),
    .init("icdab__assert-abort_planets_unsymbolicated_ipod9-1_ios13-5.crash", threads: 8, crashed: 0, exception: "EXC_CRASH", images: 274),
    // Cut: read as far as it goes (issue 40).
    .init("icdab__bridgeos-panic_imac_bug210_malformed-json.crash", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("icdab__brk1-libdispatch-semaphore_macos11b-arm64.crash", threads: 1, crashed: 0, exception: "EXC_BREAKPOINT", images: 144),
    // Call graphs: one thread per stack root (9 `Heaviest stack`/`Powerstats for` blocks), images listed + those only named by nodes (54 + 17).
    .init("icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash", threads: 1, crashed: nil, exception: nil, images: 12),
    // the listed images; the heaviest stack belongs to the assetsd block and uses its images
    .init("icdab__diskwrites-resource_assetsd_ios14-2b.ips", threads: 9, crashed: nil, exception: nil, images: 54),
    .init("icdab__exc-resource-cpu_brain_ipad4-4_ios8-1.crash", threads: 4, crashed: 2, exception: "EXC_RESOURCE", images: 79),
    .init("icdab__gpflt_fud_macos10-13.crash", threads: 4, crashed: 1, exception: "EXC_BAD_ACCESS", images: 185),
    .init("icdab__insecure-drawing-2bad45ec_mobilesms_ios11-1.crash", threads: 7, crashed: 0, exception: "EXC_CRASH", images: 536),
    .init("icdab__jetsam-event_iphone_ios14-2b.ips", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("icdab__jetsam-vm-thrashing_ios9-3_elided.crash", fails: .invalidJSON, atLine: 31),
    .init("icdab__kdp-graphics-abort_i386-process_macos10-13.crash", threads: 22, crashed: 16, exception: "EXC_CRASH", images: 332),
    .init("icdab__kernel-panic-text_amd-power-state_macos.crash", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("icdab__nsexception-leb_nsdata_armv7_ios9-3-5.crash", threads: 6, crashed: 0, exception: "EXC_CRASH", images: 135),
    .init("icdab__pac-failure_icdab-ptr_arm64e-app_ios14-2b.crash", threads: 7, crashed: 0, exception: "EXC_BAD_ACCESS", images: 592),
    .init("icdab__rosetta-avx-sigill_macos11b-dtk.crash", threads: 8, crashed: 0, exception: "EXC_BAD_INSTRUCTION", images: 387),
    .init("icdab__rosetta-translated-abort_macos11b.crash", threads: 2, crashed: 0, exception: "EXC_CRASH", images: 387),
    .init("icdab__sigbus-bus-adraln_jablotron_ios7_thirdparty.crash", threads: 8, crashed: 0, exception: "SIGBUS", images: 38),
    .init("icdab__sigbus_reportcrash-itself_unsymbolicated_ios13-2.crash", threads: 6, crashed: 1, exception: "EXC_BAD_ACCESS", images: 77),
    .init("icdab__stackshot-baaaaaad_iphone3-1_ios7.crash", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("ios-resymbol__exc-guard-fd_iphone9-1_ios12-4.crash", threads: 94, crashed: 74, exception: "EXC_GUARD", images: 475),
    .init(
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips", threads: 27, crashed: 13, exception: "EXC_BREAKPOINT", images: 36),
    .init(
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash", threads: 27, crashed: 13,
        exception: "EXC_BREAKPOINT", images: 36),
    .init("issue__ane-google-analytics-56_ios8_legacy-text-jetsam.crash", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("issue__audiobooth-11_watchos10_watch5-2_arm64_32.ips", threads: 0, crashed: nil, exception: nil, images: 0),  // cut mid-string
    .init("issue__dotnet-macios-8254_watchos6_watch5-1_sigabrt.crash", threads: 0, crashed: nil, exception: "EXC_CRASH", images: 0),
    .init("issue__gvr-ios-sdk-288_ios9_armv7_mangled-symbols.crash", threads: 1, crashed: 0, exception: "EXC_BAD_ACCESS", images: 0),
    .init("issue__icontrol-web-12_watchos2_watch1-2_sigabrt.crash", threads: 0, crashed: 0, exception: "EXC_CRASH", images: 0),
    .init("issue__mtadmob-125_appstore-review_ipad_sigabrt.crash", threads: 1, crashed: 0, exception: "EXC_CRASH", images: 0),
    .init("issue__reprovision-105_ipados13_jb-symbolicated-header.crash", threads: 0, crashed: 0, exception: "EXC_CRASH", images: 0),
    .init("kscrash__nsexception_kscrash-generated_iphone3-1_ios4-3.crash", threads: 8, crashed: 0, exception: "EXC_CRASH", images: 123),
    .init("macsym__exc-breakpoint_iphone14-2_ios15-5.ips", threads: 9, crashed: 0, exception: "EXC_BREAKPOINT", images: 16),
    .init("macsym__exc-breakpoint_iphone14-2_ios16-0.ips", threads: 8, crashed: 0, exception: "EXC_BREAKPOINT", images: 17),
    .init("macsym__exc-breakpoint_symbolicated_iphone14-2_ios15-5.crash", threads: 9, crashed: 0, exception: "EXC_BREAKPOINT", images: 16),
    .init(
        "macsym__exc-breakpoint_text-with-json-header_iphone14-2_ios16-0.crash", threads: 8, crashed: 0, exception: "EXC_BREAKPOINT",
        images: 17),
    .init(
        "macsym__exc-breakpoint_text-without-json-header_iphone14-2_ios16-0.crash", threads: 8, crashed: 0, exception: "EXC_BREAKPOINT",
        images: 17),
    .init(
        "macsym__exc-breakpoint_unsymbolicated_iphone10-3_ios13-1.crash", threads: 7, crashed: 0, exception: "EXC_BREAKPOINT", images: 444),
    .init(
        "macsym__exc-breakpoint_unsymbolicated_iphone14-2_ios15-5.crash", threads: 9, crashed: 0, exception: "EXC_BREAKPOINT", images: 16),
    .init("macsym__multi-target-sigill_macos12-4.ips", threads: 1, crashed: 0, exception: "EXC_BAD_INSTRUCTION", images: 4),
    .init("macsym__multi-target-sigill_symbolicated_macos12-4.crash", threads: 1, crashed: 0, exception: "EXC_BAD_INSTRUCTION", images: 4),
    .init(
        "macsym__multi-target-sigill_unsymbolicated_macos12-4.crash", threads: 1, crashed: 0, exception: "EXC_BAD_INSTRUCTION", images: 4),
    .init("macsym__sigsegv_unsymbolicated_macos10-15b.crash", threads: 1, crashed: 0, exception: "EXC_BAD_ACCESS", images: 120),
    .init("mdi__sigsegv_reportcrash-daemon_macos12-3.crash", threads: 6, crashed: 1, exception: "EXC_BAD_ACCESS", images: 9),
    .init("mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.crash", threads: 3, crashed: 0, exception: "EXC_CRASH", images: 11),
    .init("mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips", threads: 3, crashed: 0, exception: "EXC_CRASH", images: 11),
    .init("plaso__abort_recoverylogd_bridgeos7-5.ips", threads: 32, crashed: 5, exception: "EXC_CRASH", images: 16),
    .init("sentry-acrp__fragment-threads-and-images_image-name-with-space.crash", threads: 1, crashed: nil, exception: nil, images: 17),
    .init("sentry-acrp__plcrashreporter_ue4-game_macos10-14.crash", threads: 55, crashed: 5, exception: "SIGSEGV", images: 272),
    .init("sentry-acrp__thirdparty-headerless_xcdyoutubekit_macos10-8.crash", threads: 18, crashed: 0, exception: "SIGSEGV", images: 244),
    .init("sentry-acrp__truncated-after-header_iphone8-1_ios13-3.crash", threads: 0, crashed: nil, exception: nil, images: 0),
    .init("zqqf16-sym__brk_iphone9-2_ios10-1_legacy-ips.ips", threads: 26, crashed: 0, exception: "EXC_BREAKPOINT", images: 344),
    .init("zqqf16-sym__tcc-abort_iphone13-4_ios15-2.ips", threads: 8, crashed: 1, exception: "EXC_CRASH", images: 13),
    .init("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash", threads: 8, crashed: 1, exception: "EXC_CRASH", images: 13),
]

@Suite("Corpus parsing", .enabled(if: Corpus.isAvailable, "corpus not found beside the package (../shared/corpus); skipped"))
struct CorpusParsingTests {
    @Test("the fact table covers every corpus file")
    func tableCoversCorpus() {
        #expect(Set(corpusFacts.map(\.file)) == Set(Corpus.allReports))
    }

    @Test("each corpus report parses to the facts read from the file", arguments: corpusFacts)
    func facts(_ fact: CorpusFact) throws {
        let path = Corpus.url(fact.file).path
        switch fact.expectation {
        case let .parses(threads, crashed, exception, images):
            let report = try CrashReport.parse(contentsOf: path)
            #expect(report.threads.count == threads)
            #expect(report.crashedThreadIndex == crashed)
            #expect(report.exception?.type == exception)
            #expect(report.binaryImages.count == images)
        case let .fails(kind, line):
            do {
                _ = try CrashReport.parse(contentsOf: path)
                Issue.record("expected \(kind) error at line \(line), but the file parsed")
            } catch {
                #expect(error.kind == kind)
                #expect(error.line == line)
                #expect(error.description.hasPrefix("\(path):\(line): "))
            }
        }
    }
}
