import Foundation
import SymbolicateTestSupport
import Testing

/// Every file of the shared corpus through the real binary: exit 0 with a headline naming
/// what the report is, or 65 for the three whose JSON is broken beyond recovery — and those
/// still say what their header line reads.
private let sharedCorpus = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

@Suite(
    .enabled(if: FileManager.default.fileExists(atPath: sharedCorpus.path), "../shared/corpus not found; skipped"), .tags(.launchesBinary))
struct CorpusHeadlineTests {
    static var corpus: URL { sharedCorpus }

    static var files: [String] {
        ["reports", "metrickit"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    /// Read off the files: their bug_type/Event/first line (see ReportKindTests for the kinds).
    static let headlines: [String: String] = [
        "reports/icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash":
            "CPU resource (process killed): 48 seconds cpu time over 54 seconds",
        "reports/icdab__diskwrites-resource_assetsd_ios14-2b.ips":
            "Disk writes resource (no action taken): 1073.75 MB of file backed memory dirtied",
        "reports/icdab__exc-resource-cpu_brain_ipad4-4_ios8-1.crash": "CPU resource: (Limit 50%) Observed 60% over 180 secs",
        // dasd: rpages 456 × pageSize 16384 = 7.1 MB; wifianalyticsd (382 pages) is the other one killed.
        "reports/icdab__jetsam-event_iphone_ios14-2b.ips":
            "Killed by jetsam: per-process memory limit (highwater) — dasd, 7.1 MB (and 1 more killed)",
        "reports/issue__ane-google-analytics-56_ios8_legacy-text-jetsam.crash":
            "Killed by jetsam (largest process: Clash of Clans) [partial report: report ends inside the jetsam process table]",
        "reports/icdab__kernel-panic-text_amd-power-state_macos.crash":
            "Kernel panic: panic(cpu 1 caller 0xffffff8003814e17): \"AMDFramebufferSI::setPowerState",
        "reports/icdab__stackshot-baaaaaad_iphone3-1_ios7.crash": "Stackshot: Manually triggered stackshot via backboardd (0xbaaaaaad)",
        // Cut before Binary Images: the app's frame is found by its image's name (the process's),
        // as a complete report's would be by its image.
        "reports/issue__mtadmob-125_appstore-review_ipad_sigabrt.crash":
            "Crashed: Thread 0 (main) in xama (Yatzy.iOS) — EXC_CRASH (SIGABRT) [partial report: report ends inside Thread 0; no Binary Images section]",
        // Cut `.ips` bodies (re-wrapped and cut; cut mid-string): read as far as they go (issue 40).
        "reports/icdab__bridgeos-panic_imac_bug210_malformed-json.crash":
            "Kernel panic: panic(cpu 0 caller 0xfffffff014aae984): x86 CPU CATERR detected [partial report: JSON body is cut;",
        "reports/issue__audiobooth-11_watchos10_watch5-2_arm64_32.ips":
            "Crashed: no crashed thread named in the report [partial report: JSON body is cut at procPath;",
        "metrickit/meter__real_report.json":
            "Crashed (MetricKit): Thread 0 (main) in MetricKitTest (not symbolicated) — EXC_BREAKPOINT (SIGTRAP)",
        "metrickit/meter__xcode_simulated.json":
            "Crashed (MetricKit): Thread 0 (main) in testBinaryName (not symbolicated) — EXC_BAD_ACCESS (SIGSEGV)",
    ]

    static let brokenJSON: Set<String> = [
        "reports/icdab__jetsam-vm-thrashing_ios9-3_elided.crash"  // `...` elisions in the body
    ]

    @Test("every corpus file gives exit 0 and a headline for its kind, or 65 with its readable header", arguments: files)
    func corpusFile(_ file: String) throws {
        let path = Self.corpus.appendingPathComponent(file).path
        let result = try CLI.run([path, "--color", "never", "--headline"])
        if Self.brokenJSON.contains(file) {
            #expect(result.status == 65)
            #expect(result.stderr.contains("the header line reads: "))
            #expect(result.stderr.contains("bug_type "))
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        let headline = result.stdout.prefix(while: { $0 != "\n" })
        #expect(!headline.isEmpty)
        if let expected = Self.headlines[file] {
            #expect(headline.hasPrefix(expected), "\(headline)")
        } else {
            #expect(headline.hasPrefix("Crashed"), "\(headline)")
        }
    }

    @Test("a MetricKit payload prints every diagnostic, each named for its kind")
    func metricKitPayloadKinds() throws {
        let result = try CLI.run([Self.corpus.appendingPathComponent("metrickit/meter__xcode_simulated.json").path, "--format", "json"])
        #expect(result.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let kinds = list.compactMap { ($0["report"] as? [String: Any])?["kind"] as? String }
        #expect(kinds == ["metrickit-crash", "metrickit-hang", "metrickit-cpu-exception", "metrickit-disk-write-exception"])
        let headlines = list.compactMap { $0["headline"] as? String }
        #expect(headlines[1].hasPrefix("Hang (MetricKit): blocked 20 secs."))
        #expect(headlines[2].hasPrefix("CPU exception (MetricKit): 20 secs. of CPU over 20 secs. sampled"))
        // MetricKit writes `2,000 byte`; the sentence says the plural (issue 54).
        #expect(headlines[3].hasPrefix("Disk writes exception (MetricKit): 2,000 bytes written"))
    }
}
