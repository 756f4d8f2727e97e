import Foundation
import SymbolicateTestSupport
import Testing

/// The `.ips` → text rendering against Apple's own translations in the corpus, line by line
/// (issue 17, item 4).
@Suite(.enabled(if: Corpus.isAvailable, "the shared corpus is not beside the package"), .tags(.launchesBinary))
struct MacTextLayoutTests {
    static func render(_ path: String) throws -> CLIResult {
        try CLI.run([path, "--color", "never"], currentDirectory: TestPaths.packageRoot)
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A Mac process (macOS 12.4): every section Apple's translation has — `Crashed Thread:`,
    /// the thread state with Logical CPU / Error Code / Trap Number, the instruction stream,
    /// External Modification Summary, VM Region Summary — identical line for line.
    @Test func macProcessMatchesAppleTranslationLineByLine() throws {
        let result = try Self.render(Corpus.url("macsym__multi-target-sigill_macos12-4.ips").path)
        #expect(result.status == 0, "\(result.stderr)")
        let twin = try String(contentsOf: Corpus.url("macsym__multi-target-sigill_unsymbolicated_macos12-4.crash"), encoding: .utf8)
        // The twin file starts with an empty line of its own (see SOURCES.md).
        let expected = Array(Self.lines(twin).drop { $0.isEmpty })
        let actual = Self.lines(result.stdout)
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            #expect(a == e, "line \(i + 1)")
        }
        #expect(actual.count == expected.count)
        for section in [
            "Crashed Thread:        0  Dispatch queue: com.apple.main-thread", "Thread 0 instruction stream:",
            "External Modification Summary:", "VM Region Summary:",
        ] {
            #expect(actual.contains(section))
        }
    }

    /// A simulator process on macOS 15: Console prints the device layout; ours matches it up
    /// to the end of the Binary Images (Console's copy stops there, before the Full Report).
    @Test func simulatorOnMacOS15KeepsTheDeviceLayout() throws {
        let result = try Self.render(Corpus.url("ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips").path)
        #expect(result.status == 0)
        let twin = try String(
            contentsOf: Corpus.url("ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash"), encoding: .utf8)
        let twinLines = Self.lines(twin)
        let start = try #require(twinLines.firstIndex { $0.hasPrefix("Incident Identifier:") })
        let end = try #require(twinLines.firstIndex { $0 == "Full Report" })
        var expected = Array(twinLines[start..<end])
        while expected.last?.isEmpty == true || expected.last?.hasPrefix("---") == true { expected.removeLast() }
        let actual = Array(Self.lines(result.stdout).prefix(expected.count))
        #expect(actual == expected)
    }

    /// VM Region Info and the fault reading of the x86 error code, from a report that has them.
    @Test func vmRegionInfoAndErrorCodeNote() throws {
        let work = try TestPaths.temporaryDirectory("mac-layout")
        defer { try? FileManager.default.removeItem(at: work) }
        var text = try String(contentsOf: Corpus.url("macsym__multi-target-sigill_macos12-4.ips"), encoding: .utf8)
        let region =
            #"0x8 is not in any region.  Bytes before following region: 4366024696\n      REGION TYPE                    START - END         [ VSIZE] PRT\/MAX SHRMOD  REGION DETAIL\n      UNUSED SPACE AT START"#
        text = text.replacingOccurrences(
            of: #""err":{"value":0}"#, with: #""err":{"value":6,"description":"(no mapping for user data write)"}"#)
        text = text.replacingOccurrences(of: #""vmSummary""#, with: #""vmRegionInfo":"\#(region)","vmSummary""#)
        #expect(text.contains("no mapping for user data write") && text.contains("vmRegionInfo"), "the corpus file changed shape")
        let file = work.appendingPathComponent("fault.ips")
        try Data(text.utf8).write(to: file)
        let output = try Self.render(file.path).stdout
        #expect(output.contains("\nError Code:      0x00000006 (no mapping for user data write)\n"))
        #expect(
            output.contains("\nVM Region Info: 0x8 is not in any region.  Bytes before following region: 4366024696\n      REGION TYPE "))
        let lines = Self.lines(output)
        let info = try #require(lines.firstIndex { $0.hasPrefix("VM Region Info:") })
        let thread = try #require(lines.firstIndex { $0.hasPrefix("Thread 0 Crashed::") })
        #expect(info < thread, "VM Region Info comes before the threads")
    }

    /// The device layout for a simulator report names the dispatch queue without a stray `)`.
    @Test func triggeredByThreadHasNoStrayParenthesis() throws {
        let work = try TestPaths.temporaryDirectory("mac-layout")
        defer { try? FileManager.default.removeItem(at: work) }
        var text = try String(contentsOf: Corpus.url("mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips"), encoding: .utf8)
        // The same simulator report as macOS 15 would write it: the device layout.
        text = text.replacingOccurrences(of: "macOS 12.4", with: "macOS 15.2")
        let file = work.appendingPathComponent("sim15.ips")
        try Data(text.utf8).write(to: file)
        let output = try Self.render(file.path).stdout
        #expect(output.contains("\nTriggered by Thread:  0, Dispatch Queue: com.apple.main-thread\n"), "\(output.prefix(1500))")
    }
}
