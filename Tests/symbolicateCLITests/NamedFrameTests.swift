import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 21: frames that arrive named (from a symbol table: the OS, the Swift runtime, another
/// tool) but without a file and line are resolved by default when a matching debug file has
/// DWARF — function, file:line and the whole inline chain — in every layout; frames that already
/// carry a file and line are kept unless `--resymbolicate`.
@Suite(.tags(.launchesBinary)) struct NamedFrameTests {
    // MARK: Apple layouts: text, .ips, sample, spindump, microstackshot

    /// Every named variant (Fixtures/named, app frames named from the binaries' symbol tables)
    /// prints exactly what its unnamed original prints: the same chains, found from the same
    /// addresses, which the golden tests hold to llvm-symbolizer-19.
    @Test(arguments: NamedFrameFixtures.files)
    func namedFramesResolveAsUnnamedOnes(_ name: String) throws {
        let named = NamedFrameFixtures.root.appendingPathComponent(name).path
        let original = NamedFrameFixtures.original(of: name)
        let namedText = try String(contentsOfFile: named, encoding: .utf8)
        #expect(try namedText != String(contentsOfFile: original, encoding: .utf8), "the variant names no frame")
        let expected = try CLI.run([original, TestPaths.dsyms, "--color", "never"])
        let result = try CLI.run([named, TestPaths.dsyms, "--color", "never"])
        #expect(expected.status == 0 && result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected.stdout, "\(name): the named variant did not resolve like its original")
    }

    /// The Apple case: `ProfileLoader.load…` named from the symbol table, the matching
    /// dSYM given, comes out with its file:line and the inline chain above it.
    @Test func appleFrameNamedFromTheSymbolTableGainsItsChain() throws {
        let report = NamedFrameFixtures.root.appendingPathComponent("swift-trap.crash").path
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("0x1002c8410 closure #1 in ProfileLoader.load(from:length:) + 84"))
        let result = try CLI.run([report, TestPaths.dsyms, "--color", "never"])
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("0x1002c8410") }
        #expect(lines.count == 5, "\(result.stdout)")
        #expect(lines.first?.contains("Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value") == true)
        #expect(lines.last?.contains("closure #1 in ProfileLoader.load(from:length:) + 84 (Profile.swift:60)") == true)
    }

    /// `--format json` says where each printed name came from.
    @Test func jsonSaysWhereEachNameCameFrom() throws {
        struct Output: Decodable {
            struct Report: Decodable { var threads: [Thread] }
            struct Thread: Decodable { var frames: [Frame] }
            struct Frame: Decodable {
                var symbol: String?
                var nameSource: String?
                var symbolication: [Level]?
            }
            struct Level: Decodable {
                var function: String
                var nameSource: String?
            }
            var report: Report
        }
        let report = NamedFrameFixtures.root.appendingPathComponent("swift-trap.ips").path
        let resolved = try JSONDecoder().decode(
            Output.self, from: Data(try CLI.run([report, TestPaths.dsyms, "--format", "json"]).stdout.utf8))
        let top = try #require(resolved.report.threads.first?.frames.first)
        #expect(top.symbolication?.dropLast().allSatisfy { $0.nameSource == "debugInfo" } == true)
        // The concrete frame is named by its covering symbol, as llvm-symbolizer does.
        #expect(top.symbolication?.last?.nameSource == "symbolTable")
        #expect(top.nameSource == "symbolTable")
        // Without the dSYM the report's own name is what is printed.
        let unresolved = try JSONDecoder().decode(Output.self, from: Data(try CLI.run([report, "--format", "json"]).stdout.utf8))
        let kept = try #require(unresolved.report.threads.first?.frames.first)
        #expect(kept.symbolication == nil)
        #expect(kept.nameSource == "report")
        #expect(kept.symbol == "closure #1 in ProfileLoader.load(from:length:)")
    }

    // MARK: Swift runtime backtraces on Linux (text and JSON)

    /// The Linux case: a stripped program whose debug file sits beside it; the runtime
    /// named every frame from that file's symbol table. Every frame in the program prints the
    /// chain llvm-symbolizer-19 gives (Fixtures/linux-named/oracle.json), by default.
    @Test(arguments: LinuxNamedFixture.logs)
    func runtimeNamedFramesGainTheirChains(_ log: String) throws {
        let result = try CLI.run([LinuxNamedFixture.log(log), LinuxNamedFixture.debugFile, "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let entries = try #require(LinuxNamedFixture.oracle[log])
        #expect(entries.count == 3)
        for entry in entries {
            let address = String(entry.address.dropFirst(2))
            // Frame lines only (`  0      0x…`), not the banner, registers or captured memory.
            let chain = lines.filter { $0.contains(address) && $0.drop { $0 == " " }.first?.isNumber == true && $0.hasPrefix(" ") }
            #expect(chain.count == entry.frames.count, "\(log) \(entry.address): \(chain)")
            for (line, level) in zip(chain, entry.frames) {
                let inlined = level != entry.frames.last
                #expect(LinuxBacktraceTests.matches(line, level, inlined: inlined), "\(log): expected \(level.text), got \(line)")
            }
        }
    }

    /// Explain and the headline read the resolved frames: the failed check and its line.
    @Test(arguments: LinuxNamedFixture.logs)
    func explainAndHeadlineReadTheResolvedFrames(_ log: String) throws {
        let explain = try CLI.run(["explain", LinuxNamedFixture.log(log), LinuxNamedFixture.debugFile, "--color", "never"])
        #expect(explain.stdout.contains("Unexpectedly found nil while unwrapping an Optional value"), "\(explain.stdout)")
        #expect(explain.stdout.contains("app.swift:10"), "\(explain.stdout)")
        #expect(!explain.stdout.contains("gives no file and line"), "\(explain.stdout)")
        let report = try CLI.run([LinuxNamedFixture.log(log), LinuxNamedFixture.debugFile, "--headline", "--color", "never"])
        let headline = try #require(report.stdout.split(separator: "\n").first)
        #expect(headline.contains("Fuga.init(json:) at app.swift:10"), "\(headline)")
        #expect(headline.contains("Unexpectedly found nil"), "\(headline)")
    }

    /// Batch grouping and GitHub annotations read the resolved frames too.
    @Test func batchGroupsAndAnnotatesByTheResolvedFrame() throws {
        let folder = try TestPaths.temporaryDirectory("named-batch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "batch", LinuxNamedFixture.log("crash.txt"), "--output", folder.path, "--github-annotations", "--no-progress",
            "--dsyms", LinuxNamedFixture.debugFile,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try BatchSummaryJSON.read(from: folder)
        let signatures = summary.groups.map(\.signature)
        #expect(signatures.contains { $0.contains("Fuga.init(json:) (app.swift)") }, "\(signatures)")
        #expect(result.stdout.contains("app.swift,line=10"), "\(result.stdout)")
    }

    // MARK: Frames that already carry a file and line

    /// Kept by default; rewritten with `--resymbolicate`. The report here places the crashing
    /// frame in a file and line of its own (as a tool that symbolicated it would).
    @Test func locatedFramesAreKeptUnlessResymbolicate() throws {
        let folder = try TestPaths.temporaryDirectory("named-located")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: NamedFrameFixtures.root.appendingPathComponent("swift-trap.crash").path, encoding: .utf8)
        let named = "0x1002c8410 closure #1 in ProfileLoader.load(from:length:) + 84"
        #expect(text.contains(named))
        let located = folder.appendingPathComponent("located.crash")
        try Data(text.replacingOccurrences(of: named, with: named + " (Elsewhere.swift:7)").utf8).write(to: located)
        let kept = try CLI.run([located.path, TestPaths.dsyms, "--color", "never"])
        #expect(kept.stdout.contains(named + " (Elsewhere.swift:7)"), "\(kept.stdout)")
        #expect(!kept.stdout.contains("Swift runtime failure"))
        let redone = try CLI.run([located.path, TestPaths.dsyms, "--color", "never", "--resymbolicate"])
        #expect(!redone.stdout.contains("Elsewhere.swift"), "\(redone.stdout)")
        #expect(redone.stdout.contains("closure #1 in ProfileLoader.load(from:length:) + 84 (Profile.swift:60)"))
    }
}

/// Issue 21: C++ names of the GCC LTO fixture, spelled by LLVM's demangler linked into the
/// binary (what `scripts/test-release.sh` checks again with libc++abi hidden).
@Suite(.tags(.launchesBinary)) struct LinkedDemanglerTests {
    static let addresses: [String] = {
        let path = ELFNamingFixtures.root.appendingPathComponent("cxx-addresses.txt").path
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }()

    @Test func cxxNamesMatchTheGolden() throws {
        #expect(Self.addresses.count >= 10)
        let debugFile = ELFNamingFixtures.root.appendingPathComponent("bin/gcc-lto.debug").path
        let result = try CLI.run(["atos", "-o", debugFile, "-l", "0", "-i"] + Self.addresses)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(">>"), "no C++ template name in LLVM's spelling")
        #expect(!result.stdout.contains("> >"), "GNU spelling")
        guard let expected = try Golden.expected("elf-lto/gcc-lto.cxx.atos.txt", output: result.stdout) else { return }
        #expect(result.stdout == expected)
    }

    /// The golden holds llvm-symbolizer-19's names (its own demangler), function by function.
    @Test func goldenAgreesWithOracle() throws {
        guard let symbolizer = ExternalTool.find("llvm-symbolizer-19") else {
            print("LinkedDemanglerTests: skipped: llvm-symbolizer-19 not found")
            return
        }
        let debugFile = ELFNamingFixtures.root.appendingPathComponent("bin/gcc-lto.debug").path
        let oracle = try ExternalTool.run(symbolizer, ["--obj=\(debugFile)", "--inlining"] + Self.addresses)
        let names = oracle.split(separator: "\n", omittingEmptySubsequences: true).enumerated().filter { $0.offset % 2 == 0 }.map {
            String($0.element)
        }
        let golden = try String(
            contentsOfFile: TestPaths.fixtures.appendingPathComponent("expected/elf-lto/gcc-lto.cxx.atos.txt").path, encoding: .utf8)
        let ours = golden.split(separator: "\n").map { line -> String in
            String(line[..<(line.range(of: " (in gcc-lto)")?.lowerBound ?? line.endIndex)])
        }
        #expect(ours == names)
    }
}
