import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate batch` over the whole shared corpus (../shared/corpus): what a team running it
/// in CI reads — groups that mean one crash each, non-crashes kept apart, a short log and a
/// short summary.md (issue 17, item 2).
@Suite(.enabled(if: Corpus.isAvailable, "the shared corpus is not beside the package"), .tags(.launchesBinary))
struct BatchCorpusTests {
    typealias Summary = BatchSummaryJSON

    static let run: (result: CLIResult, summary: Summary, markdownSize: Int)? = {
        guard let work = try? TestPaths.temporaryDirectory("batch-corpus") else { return nil }
        defer { try? FileManager.default.removeItem(at: work) }
        let corpus = Corpus.reportsDirectory.deletingLastPathComponent()
        let out = work.appendingPathComponent("out")
        guard
            let result = try? CLI.run(
                ["batch", corpus.path, "--output", out.path, "--github-annotations", "--no-progress"],
                currentDirectory: work),
            let data = try? Data(contentsOf: out.appendingPathComponent("summary.json")),
            let summary = try? JSONDecoder().decode(Summary.self, from: data),
            let markdown = try? Data(contentsOf: out.appendingPathComponent("summary.md"))
        else { return nil }
        return (result, summary, markdown.count)
    }()

    func group(of report: String, in summary: Summary) -> Summary.Group? {
        (summary.groups + summary.otherGroups).first { $0.reports.contains("reports/" + report) }
    }

    @Test func copiesOfOneCrashShareAGroupAndDifferentCrashesDoNot() throws {
        let (result, summary, _) = try #require(Self.run)
        #expect(result.status == 0, "\(result.stderr)")
        // The same incident as .ips and as text (Apple's translation or a re-serialisation).
        let twins = [
            ("hduhky__abort_ezview_iphone11-8_ios15-2.ips", "hduhky__abort_ezview_iphone11-8_ios15-2_reserialized.crash"),
            (
                "mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips",
                "mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.crash"
            ),
            ("zqqf16-sym__tcc-abort_iphone13-4_ios15-2.ips", "zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash"),
            ("macsym__multi-target-sigill_macos12-4.ips", "macsym__multi-target-sigill_unsymbolicated_macos12-4.crash"),
            (
                "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips",
                "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash"
            ),
        ]
        for (a, b) in twins {
            let ga = try #require(group(of: a, in: summary), "\(a) is in no group")
            #expect(ga.reports.contains("reports/" + b), "\(a) and \(b) are one crash: \(ga.signature)")
        }
        // Different apps aborting in the same system function are different crashes.
        let assetsd = try #require(group(of: "fb-idb__sim-i386_assetsd-abort_macos10-11.crash", in: summary))
        let tableSearch = try #require(group(of: "fb-idb__sim-i386_tablesearch-abort_macos10-11.crash", in: summary))
        #expect(assetsd.signature != tableSearch.signature)
        // No signature is a bare address.
        #expect(!summary.groups.contains { $0.signature.range(of: #" in 0x[0-9a-fA-F…]+( |$)"#, options: .regularExpression) != nil })
    }

    @Test func nonCrashesHaveTheirOwnSectionAndNoErrorAnnotation() throws {
        let (result, summary, _) = try #require(Self.run)
        for report in [
            "icdab__jetsam-event_iphone_ios14-2b.ips", "icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash",
            "icdab__stackshot-baaaaaad_iphone3-1_ios7.crash", "icdab__diskwrites-resource_assetsd_ios14-2b.ips",
        ] {
            let other = summary.otherGroups.first { $0.reports.contains("reports/" + report) }
            #expect(other != nil, "\(report) is not among the other reports")
            #expect(other?.kind != "crash")
            #expect(!summary.groups.contains { $0.reports.contains("reports/" + report) }, "\(report) is a crash group")
        }
        #expect(summary.groups.allSatisfy { $0.kind == "crash" || $0.kind == "linux-backtrace" || $0.kind == "metrickit-crash" })
        let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") && !$0.contains("Unreadable") }
        #expect(errors.count == summary.groups.count)
        #expect(!errors.contains { $0.contains("jetsam") || $0.contains("stackshot") || $0.contains("resource-") })
    }

    @Test func logAndSummaryStayShort() throws {
        let (result, summary, markdownSize) = try #require(Self.run)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count <= 10, "\(result.stderr)")
        #expect(markdownSize < 8 * 1024)
        // Apple's images are never missing app dSYMs: Swift runtime copies, system frameworks.
        let appImages = summary.missingDebugFiles.filter(\.isAppImage).map(\.image)
        #expect(!appImages.contains { $0.hasPrefix("libswift") || $0.hasPrefix("com.apple.") }, "\(appImages)")
        // One entry per image, however many builds.
        #expect(Set(summary.missingDebugFiles.map(\.image)).count == summary.missingDebugFiles.count)
        // Paths relative to the inputs, and each unreadable report named once.
        #expect(summary.groups.allSatisfy { $0.reports.allSatisfy { !$0.hasPrefix("/") } })
        #expect(summary.unreadable.allSatisfy { !$0.input.hasPrefix("/") && !$0.error.contains($0.input) })
    }
}
