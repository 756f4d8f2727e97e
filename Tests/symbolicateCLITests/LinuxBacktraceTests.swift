import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 12 end to end: the real binary symbolicates the Swift runtime's backtraces (text and
/// JSON) of the stripped Linux fixture program from its separate debug file — named directly,
/// only a folder holding it, zlib-compressed, or found through the binary's .gnu_debuglink —
/// and every frame in the program prints the inline chain llvm-symbolizer-19 gives
/// (Fixtures/linux/oracle.json; rerun live when llvm-symbolizer-19 is installed).
@Suite(.tags(.launchesBinary)) struct LinuxBacktraceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var log: String
        var debugInput: String
        var testDescription: String { "\(log) with \(debugInput)" }
    }

    static let logs = LinuxFixtures.modes.flatMap { ["\($0).txt", "\($0).json"] }
    /// How the user may point at the debug information (paths relative to the package root).
    static let inputs = [
        "Fixtures/linux/bin/crashy.debug",
        "Fixtures/linux/bin/crashy-zlib.debug",
        // A folder: discovered by build ID among everything in it.
        "Fixtures/linux/bin",
        // The stripped binary only: its .gnu_debuglink leads to crashy.debug beside it.
        "Fixtures/linux/bin/crashy",
    ]
    static let cases = logs.flatMap { log in inputs.map { Case(log: log, debugInput: $0) } }

    static func basename(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The levels as the Apple-style rewrite prints them after the address:
    /// `function + N (file:line)`, `[inlined]` on all but the last.
    static func matches(_ line: String, _ level: LinuxFixtures.OracleFrame.Level, inlined: Bool) -> Bool {
        guard let range = line.range(of: " \(level.function) + ") else { return false }
        let rest = line[range.upperBound...]
        guard rest.contains("(\(basename(level.file)):\(level.line))") else { return false }
        return rest.hasSuffix(" [inlined]") == inlined
    }

    @Test(arguments: cases)
    func crashingFramesMatchOracle(_ item: Case) throws {
        let result = try CLI.run(
            ["Fixtures/linux/logs/\(item.log)", item.debugInput, "--color", "never"], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let entries = try #require(LinuxFixtures.oracle[item.log])
        for entry in entries {
            let address = String(entry.address.dropFirst(2))
            // The chain's lines all carry the frame's address; the first is the innermost.
            guard
                let start = lines.firstIndex(where: {
                    $0.contains(address) && Self.matches($0, entry.frames[0], inlined: entry.frames.count > 1)
                })
            else {
                Issue.record("\(item.log): no line for \(entry.address) starting \(entry.frames[0].text) in:\n\(result.stdout)")
                continue
            }
            for (offset, level) in entry.frames.enumerated() {
                let index = start + offset
                #expect(
                    index < lines.count && lines[index].contains(address)
                        && Self.matches(lines[index], level, inlined: offset < entry.frames.count - 1),
                    "\(item.log) \(entry.address) level \(offset): expected \(level.text), got \(index < lines.count ? lines[index] : "end of output")"
                )
            }
        }
        #expect(!result.stderr.contains("no debug file"), "\(result.stderr)")
    }

    /// Whole output against the goldens (written by this tool, SYMBOLICATE_UPDATE_GOLDEN=1),
    /// which `crashingFramesMatchOracle` ties to llvm-symbolizer.
    @Test(arguments: logs)
    func outputMatchesGolden(_ log: String) throws {
        let result = try CLI.run(
            ["Fixtures/linux/logs/\(log)", "Fixtures/linux/bin/crashy.debug", "--color", "never", "--headline"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        try Golden.check(result.stdout, against: "linux/\(log).symbolicated.txt")
    }

    /// The headline names the crashing function with its file:line and the crash reason.
    @Test func headlineReadsTheCrashReason() throws {
        let result = try CLI.run(
            ["Fixtures/linux/logs/index.json", "Fixtures/linux/bin", "--headline", "--color", "never"],
            currentDirectory: TestPaths.packageRoot)
        let headline = try #require(result.stdout.split(separator: "\n").first)
        #expect(headline.contains("Router.route(at:)"))
        #expect(headline.contains("crashy.swift:28"))
        #expect(headline.contains("Index out of range"))
        #expect(headline.contains("SIGILL"))
    }

    /// A debug file of another build: said as loudly as a dSYM UUID mismatch, naming both IDs.
    @Test func buildIDMismatchIsSaid() throws {
        let folder = try TestPaths.temporaryDirectory("linux-mismatch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOfFile: LinuxFixtures.log("pointer.txt"), encoding: .utf8)
        let line = try #require(original.split(separator: "\n").first { $0.hasSuffix("/srv/crashy") })
        let realID = String(line.split(separator: " ")[1])
        let otherID = String(realID.reversed())
        let log = folder.appendingPathComponent("other-build.txt")
        try Data(original.replacingOccurrences(of: realID, with: otherID).utf8).write(to: log)
        let result = try CLI.run([log.path, LinuxFixtures.debugFile, "--color", "never"])
        #expect(result.stderr.contains(realID), "\(result.stderr)")
        #expect(result.stderr.contains(otherID), "\(result.stderr)")
        #expect(result.stderr.contains("build ID"), "\(result.stderr)")
        #expect(!result.stdout.contains("readField"))
    }

    /// zstd-compressed debug sections cannot be read by Debian 12's libelf: a clear error
    /// naming the file, not a silent unsymbolicated report.
    @Test func zstdDebugFileIsNamed() throws {
        let result = try CLI.run(
            ["Fixtures/linux/logs/index.txt", "Fixtures/linux/bin/crashy-zstd.debug", "--color", "never"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.stderr.contains("crashy-zstd.debug"), "\(result.stderr)")
        #expect(result.stderr.contains("zstd"), "\(result.stderr)")
    }

    /// `atos` on the ELF debug file, with the load address from the log's Images list: the
    /// same chains as llvm-symbolizer.
    @Test(arguments: logs)
    func atosMatchesOracle(_ log: String) throws {
        let text = try String(contentsOfFile: LinuxFixtures.log(log), encoding: .utf8)
        let base: String
        if log.hasSuffix(".json") {
            let start = try #require(
                text.range(
                    of: "\"baseAddress\": \"", options: .backwards,
                    range: text.range(of: "\"name\": \"crashy\"").map { $0.lowerBound..<text.endIndex }))
            base = String(text[start.upperBound...].prefix { $0 != "\"" })
        } else {
            let line = try #require(text.split(separator: "\n").first { $0.hasSuffix("/srv/crashy") })
            base = String(line.prefix(18))
        }
        let entries = try #require(LinuxFixtures.oracle[log])
        for entry in entries {
            // atos takes the address to look up (a return address already minus 1 here).
            let baseValue = try #require(UInt64(base.dropFirst(2), radix: 16))
            let fileAddress = try #require(UInt64(entry.fileAddress.dropFirst(2), radix: 16))
            let lookup = "0x" + String(baseValue + fileAddress, radix: 16)
            let result = try CLI.run(["atos", "-o", LinuxFixtures.debugFile, "-l", base, "-i", lookup])
            #expect(result.status == 0, "\(result.stderr)")
            let expected = entry.frames.map { "\($0.function) (in crashy) (\(Self.basename($0.file)):\($0.line))" }
            #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        }
    }

    /// `atos -o` on the stripped binary answers from the debug file its `.gnu_debuglink`
    /// names (same build ID), as llvm-symbolizer and addr2line do and as reports always have;
    /// it used to echo every address.
    @Test func atosOnTheStrippedBinaryFollowsItsDebugLink() throws {
        let entries = try #require(LinuxFixtures.oracle[Self.logs[0]])
        let addresses = entries.map(\.fileAddress)
        let result = try CLI.run(["atos", "-o", LinuxFixtures.binary, "-i"] + addresses)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = entries.flatMap { entry in entry.frames.map { "\($0.function) (in crashy) (\(Self.basename($0.file)):\($0.line))" } }
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }

    /// Batch mode takes the logs from a folder: 8 reports, and the text and JSON log of each
    /// crash share one signature (4 groups of 2).
    @Test func batchGroupsTextAndJSONLogsTogether() throws {
        let output = try TestPaths.temporaryDirectory("linux-batch")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(
            ["batch", "Fixtures/linux/logs", "--dsyms", "Fixtures/linux/bin", "-o", output.path, "--no-progress"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try String(contentsOf: output.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("8 reports processed, 8 crashes in 4 groups"), "\(summary)")
        for function in ["loadRecord(_:)", "Router.route(at:)", "readField(at:)", "contentLength(of:)"] {
            #expect(summary.contains("| 2 | ") && summary.contains("`\(function)`"), "\(function) missing in \(summary)")
        }
    }

    /// The runtime's marker decides how an address is looked up, not the frame's position:
    /// a `[ra]` return address one byte back, an unmarked (program counter) or `[async]`
    /// (resume point) address as is. The unwrap log's top frame, relabelled `[ra]`, must give
    /// llvm-symbolizer's chain one byte before it (another trap: arithmetic overflow).
    @Test func returnAddressMarkerDecidesTheLookup() throws {
        guard let symbolizer = ExternalTool.find("llvm-symbolizer-19"), let demangler = ExternalTool.find("swift-demangle") else {
            print("LinuxBacktraceTests: llvm-symbolizer-19 or swift-demangle not found; [ra] marker not checked")
            return
        }
        let entry = try #require(LinuxFixtures.oracle["unwrap.txt"]?.first)
        let original = try String(contentsOfFile: LinuxFixtures.log("unwrap.txt"), encoding: .utf8)
        let address = String(entry.address.dropFirst(2))
        let padded = String(repeating: "0", count: max(0, 16 - address.count)) + address
        let line = try #require(original.split(separator: "\n").first { $0.hasPrefix("  0  0x" + padded) })
        let folder = try TestPaths.temporaryDirectory("linux-ra")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("unwrap-ra.txt")
        try Data(original.replacingOccurrences(of: String(line), with: "  0 [ra] 0x" + padded + " <unknown> in crashy").utf8).write(to: log)
        let before = try #require(UInt64(entry.fileAddress.dropFirst(2), radix: 16)) - 1
        let raw = try ExternalTool.run(symbolizer, ["--obj=\(LinuxFixtures.debugFile)", "--inlining", "0x" + String(before, radix: 16)])
        let oracle = try ExternalTool.run(demangler, ["--simplified"], stdin: raw).split(separator: "\n").map(String.init)
        let functions = stride(from: 0, to: oracle.count - 1, by: 2).map { oracle[$0] }
        #expect(functions != entry.frames.map(\.function), "the byte before the PC should be another trap")
        let result = try CLI.run([log.path, LinuxFixtures.debugFile, "--color", "never"])
        let ours = result.stdout.split(separator: "\n").filter { $0.contains(address) && $0.contains("[ra]") }
        #expect(ours.count == functions.count, "\(ours) vs \(functions)")
        for (printed, function) in zip(ours, functions) {
            #expect(printed.contains(" \(function) + "), "\(printed) vs \(function)")
        }
    }

    /// With llvm-symbolizer-19 installed, the recorded oracle is rerun: the committed answers
    /// still are what the oracle says for the committed debug file.
    @Test func recordedOracleIsCurrent() throws {
        guard let symbolizer = ExternalTool.find("llvm-symbolizer-19"), let demangler = ExternalTool.find("swift-demangle") else {
            print("LinuxBacktraceTests: llvm-symbolizer-19 or swift-demangle not found; recorded oracle not rechecked")
            return
        }
        for (log, entries) in LinuxFixtures.oracle {
            for entry in entries {
                let raw = try ExternalTool.run(symbolizer, ["--obj=\(LinuxFixtures.debugFile)", "--inlining", entry.fileAddress])
                let text = try ExternalTool.run(demangler, ["--simplified"], stdin: raw)
                let lines = text.split(separator: "\n").map(String.init)
                let expected = entry.frames.flatMap { [$0.function, "\($0.file):\($0.line):"] }
                #expect(lines.count == expected.count, "\(log) \(entry.fileAddress): \(lines)")
                for (ours, theirs) in zip(expected, lines) {
                    #expect(theirs.hasPrefix(ours), "\(log) \(entry.fileAddress): \(theirs) vs \(ours)")
                }
            }
        }
    }
}
