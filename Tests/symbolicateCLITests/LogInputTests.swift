import Foundation
import SymbolicateTestSupport
import Testing

/// End to end on the logs that are not crash reports (`Fixtures/logs/`: macOS `sample`,
/// spindump, a microstackshot cpu-usage report, MetricKit payloads from iOS 17 and iOS 14): the real binary symbolicates them
/// against the fixture dSYMs. The goldens in `Fixtures/expected/logs/` were written by the tool
/// (`SYMBOLICATE_UPDATE_GOLDEN=1 swift test --filter LogInputTests`) and are held to
/// llvm-symbolizer by `goldenFramesAgreeWithOracle` (`Fixtures/logs/manifest.json`), which is
/// itself rechecked against the installed oracle by `manifestAgreesWithOracle`.
@Suite(.tags(.launchesBinary)) struct LogInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var expected: String
        var testDescription: String { expected }
    }

    static let logNames = LogManifest.logs.map(\.name)

    static var cases: [Case] {
        var cases = logNames.map { name in
            Case(arguments: ["Fixtures/logs/\(name)", "Fixtures/dsyms", "--color", "never", "--headline"], expected: "logs/\(name).txt")
        }
        cases.append(
            Case(
                arguments: ["Fixtures/logs/crashapp-metrickit.json", "Fixtures/dsyms", "--format", "markdown"],
                expected: "logs/crashapp-metrickit.json.md"))
        return cases
    }

    @Test func everyProducerHasALog() {
        let producers = Set(LogManifest.logs.map(\.producer))
        #expect(producers.contains("macOS sample"))
        #expect(producers.contains("spindump"))
        #expect(producers.contains { $0.hasPrefix("microstackshot") })
        #expect(producers.contains { $0.hasPrefix("MXDiagnosticPayload") && $0.contains("iOS 14") })
        #expect(producers.contains { $0.hasPrefix("MXDiagnosticPayload") && $0.contains("iOS 17") })
        #expect(LogManifest.logs.allSatisfy { !$0.appFrames.isEmpty })
    }

    @Test(arguments: cases)
    func outputMatchesGolden(_ testCase: Case) throws {
        let result = try CLI.run(testCase.arguments, currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(testCase.arguments): \(result.stderr)")
        try Golden.check(
            result.stdout, against: testCase.expected, what: "output of `symbolicate \(testCase.arguments.joined(separator: " "))`")
    }

    /// Every occurrence of every app address in the golden text is the oracle's inline chain:
    /// one line per level, innermost first, each with the function and `File:line`, every
    /// level but the last marked `[inlined]`.
    @Test(arguments: logNames)
    func goldenFramesAgreeWithOracle(_ name: String) throws {
        let log = try #require(LogManifest.logs.first { $0.name == name })
        let golden = try Golden.text("logs/\(name).txt")
        let lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for frame in log.appFrames {
            let indices = lines.indices.filter { Self.mentions(lines[$0], address: frame.address) }
            #expect(!indices.isEmpty, "\(name): address \(frame.address) not in the output")
            for group in Self.runs(indices) {
                #expect(
                    group.count == frame.expected.count,
                    "\(name): \(frame.address) printed on \(group.count) lines, the oracle has \(frame.expected.count) levels")
                for (level, index) in zip(frame.expected, group) {
                    let line = lines[index]
                    let file = URL(fileURLWithPath: level.file ?? "??").lastPathComponent
                    let location = "\(file):\(level.line ?? 0)"
                    let named = line.contains(" \(level.function) + ") || line.contains(" \(level.function)  (in ")
                    #expect(named && line.contains(location), "\(name): expected \(level.function) at \(location) in: \(line)")
                    #expect(line.hasSuffix(" [inlined]") == (index != group.last), "\(name): inline marker wrong in: \(line)")
                }
            }
        }
    }

    /// The manifest against llvm-symbolizer-19 as installed now (skipped where it is not).
    @Test(
        .enabled(
            if: ExternalTool.find("llvm-symbolizer-19") != nil && ExternalTool.find("swift-demangle") != nil,
            "llvm-symbolizer-19 or swift-demangle not installed"),
        arguments: logNames)
    func manifestAgreesWithOracle(_ name: String) throws {
        let log = try #require(LogManifest.logs.first { $0.name == name })
        let symbolizer = try #require(ExternalTool.find("llvm-symbolizer-19"))
        let demangler = try #require(ExternalTool.find("swift-demangle"))
        for (dsym, frames) in Dictionary(grouping: log.appFrames, by: { "\($0.dsym) \($0.arch)" }) {
            let first = try #require(frames.first)
            let dwarfName = URL(fileURLWithPath: first.dsym).lastPathComponent.split(separator: ".").first.map(String.init) ?? ""
            let dwarf = TestPaths.fixtures.appendingPathComponent("\(first.dsym)/Contents/Resources/DWARF/\(dwarfName)").path
            let input = frames.map(\.lookupFileAddress).joined(separator: "\n") + "\n"
            let raw = try ExternalTool.run(symbolizer, ["--obj=\(dwarf)", "--inlining", "--default-arch=\(first.arch)"], stdin: input)
            let text = try ExternalTool.run(demangler, ["--simplified"], stdin: raw)
            let blocks = text.components(separatedBy: "\n\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            #expect(blocks.count == frames.count, "\(dsym): \(blocks.count) answers for \(frames.count) addresses")
            for (frame, block) in zip(frames, blocks) {
                let got = block.split(separator: "\n").map(String.init)
                var want: [String] = []
                for level in frame.expected {
                    want.append(level.function)
                    want.append("\(level.file ?? "??"):\(level.line ?? 0)")
                }
                // Columns are not in the manifest's levels: compare "file:line" prefixes.
                let trimmed = got.enumerated().map {
                    $0.offset % 2 == 1 ? String($0.element.split(separator: ":").dropLast().joined(separator: ":")) : $0.element
                }
                #expect(trimmed == want, "\(name) \(frame.address) (lookup \(frame.lookupFileAddress))")
            }
        }
    }

    /// `sample`'s top-of-stack list names its entries by load address and offset only: each
    /// becomes the oracle's chain for that address (one line per level, innermost first), with
    /// the entry's count kept at the end of every line.
    @Test func sampleTopOfStackListIsSymbolicated() throws {
        let log = try #require(LogManifest.logs.first { $0.name == "macapp-sample.txt" })
        let input = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("logs/macapp-sample.txt"), encoding: .utf8)
        let golden = try Golden.text("logs/macapp-sample.txt.txt")
        func section(_ text: String) -> [String] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("Sort by top of stack") }) else { return [] }
            return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
        }
        let entries = section(input).filter { $0.contains("load address") }
        #expect(entries.count == 4)
        var output = section(golden)[...]
        output = output.drop { !$0.contains("(in MacApp)") }
        for entry in entries {
            let words = entry.split(separator: " ")
            // `???  (in MacApp)  load address 0xBASE + 0xOFF   COUNT`
            let at = try #require(words.firstIndex(of: "address"))
            try #require(words.count == at + 5)
            let load = try #require(UInt64(words[at + 1].dropFirst(2), radix: 16))
            let offset = try #require(UInt64(words[at + 3].dropFirst(2), radix: 16))
            let count = try #require(words.last)
            let frame = try #require(log.appFrames.first { $0.address == "0x" + String(load + offset, radix: 16) })
            for level in frame.expected {
                guard let line = output.popFirst() else {
                    Issue.record("top-of-stack list ends before \(level.function)")
                    return
                }
                let file = URL(fileURLWithPath: level.file ?? "??").lastPathComponent
                #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("\(level.function)  (in MacApp) + "), "\(line)")
                #expect(line.contains("  \(file):\(level.line ?? 0)") && line.hasSuffix(" \(count)"), "\(line)")
            }
        }
    }

    /// Without debug files a call graph is printed as it came, with no warning about it.
    @Test func callGraphWithoutDebugFilesPassesThrough() throws {
        for name in ["macapp-sample.txt", "macapp-spindump.txt"] {
            let empty = try TestPaths.temporaryDirectory("logs-no-dsyms")
            defer { try? FileManager.default.removeItem(at: empty) }
            let path = TestPaths.fixtures.appendingPathComponent("logs/\(name)").path
            let result = try CLI.run([path], environment: ["SYMBOLICATE_DSYM_PATH": ""], currentDirectory: empty)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == (try String(contentsOfFile: path, encoding: .utf8)))
            #expect(!result.stderr.contains("wrapped"), "\(result.stderr)")
        }
    }

    /// Every MetricKit diagnostic is its own report: one headline each, named by kind.
    @Test func metricKitHeadlinesEveryDiagnostic() throws {
        let result = try CLI.run(
            ["Fixtures/logs/crashapp-metrickit.json", "Fixtures/dsyms", "--format", "json"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let headlines = list.compactMap { $0["headline"] as? String }
        #expect(headlines.count == 6)
        #expect(headlines.filter { $0.hasPrefix("Crashed (MetricKit)") }.count == 2)
        #expect(headlines.contains { $0.hasPrefix("Hang (MetricKit)") && $0.contains("ca_wait_for_migration") })
        #expect(headlines.contains { $0.hasPrefix("CPU exception (MetricKit)") })
        #expect(
            headlines.contains { $0.hasPrefix("Disk writes exception (MetricKit)") && $0.contains("-[CAProfileStore loadProfileNamed:]") })
        #expect(headlines.contains { $0.hasPrefix("Slow app launch (MetricKit): 6.1 sec") && $0.contains("ca_wait_for_migration") })
    }

    @Test(arguments: logNames)
    func explainReadsTheLog(_ name: String) throws {
        let result = try CLI.run(["explain", "Fixtures/logs/\(name)", "Fixtures/dsyms"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Diagnosis:"))
    }

    /// Whether a line shows `address` as a frame's address (not a longer number, not the end
    /// of a Binary Images range, which MetricKit's image list takes from the highest frame).
    static func mentions(_ line: String, address: String) -> Bool {
        var rest = Substring(line)
        while let range = rest.range(of: address) {
            let isLonger = rest[range.upperBound...].first?.isHexDigit ?? false
            let isRangeEnd = rest[..<range.lowerBound].hasSuffix("- ")
            if !isLonger && !isRangeEnd { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// Consecutive runs of indices.
    static func runs(_ indices: [Int]) -> [[Int]] {
        var out: [[Int]] = []
        for i in indices {
            if let last = out.last?.last, last == i - 1 { out[out.count - 1].append(i) } else { out.append([i]) }
        }
        return out
    }
}
