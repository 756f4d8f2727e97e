import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate batch` end to end through the real binary: every fixture report plus a zip of
/// them, checked against Fixtures/reports/manifest.json (llvm-symbolizer's answers), never
/// against our own earlier output.
@Suite(.tags(.launchesBinary)) struct BatchCLITests {
    struct ManifestLevel: Decodable {
        var function: String
        var file: String?
        var line: Int?
    }
    struct ManifestFrame: Decodable {
        var image: String
        var imageOffset: Int
        var expected: [ManifestLevel]?
    }
    struct ManifestImage: Decodable {
        var name: String
        var dsym: String?
    }
    struct ManifestReport: Decodable {
        var file: String
        var scenario: String
        var exceptionType: String
        var signal: String
        var appImages: [ManifestImage]
        var crashedThreadAppFrames: [ManifestFrame]
        var lastExceptionBacktraceAppFrames: [ManifestFrame]?
        var name: String { URL(fileURLWithPath: file).lastPathComponent }
        var stem: String { URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent }
        var isIPS: Bool { file.hasSuffix(".ips") }
        /// Where batch writes it: `.ips` → `.crash`; the second of `x.crash`/`x.ips` (sorted
        /// input order) gets `-2`.
        var outputName: String { isIPS ? "\(stem)-2.crash" : "\(stem).crash" }
        /// First crashed-thread app frame: its first level with a real source line.
        var expectedFunction: String? {
            crashedThreadAppFrames.first?.expected?.first { ($0.line ?? 0) > 0 && !($0.file ?? "").hasSuffix("<compiler-generated>") }?
                .function
        }
        var expectedLevel: ManifestLevel? {
            crashedThreadAppFrames.first?.expected?.first { ($0.line ?? 0) > 0 && !($0.file ?? "").hasSuffix("<compiler-generated>") }
        }
    }

    typealias Summary = BatchSummaryJSON

    static let manifest: [ManifestReport] = {
        let url = TestPaths.fixtures.appendingPathComponent("reports/manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([ManifestReport].self, from: data)) ?? []
    }()

    /// A zip of every fixture report, made with the system `zip` (Info-ZIP, on Linux and macOS).
    static func zipOfFixtureReports(in folder: URL) throws -> URL {
        let zip = folder.appendingPathComponent("testflight.zip")
        let zipTool = ["/usr/bin/zip", "/bin/zip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let result = try ExternalTool.result(
            try #require(zipTool, "the zip tool is needed to build the test archive"), ["-q", zip.path] + manifest.map(\.name),
            currentDirectory: TestPaths.fixtures.appendingPathComponent("reports"))
        #expect(result.status == 0, "\(result.stderr)")
        return zip
    }

    static func digest(of folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return out
    }

    static func allFiles(in folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            out[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return out
    }

    /// Every app frame llvm-symbolizer resolved appears in the output text, one level per
    /// line, with the function and `(File:line)`.
    static func checkFrames(_ frames: [ManifestFrame], in text: String, report: String) {
        let lines = text.split(separator: "\n").map(String.init)
        for frame in frames {
            guard let levels = frame.expected else { continue }
            for level in levels {
                let wanted: String
                if let file = level.file, let line = level.line, line > 0 {
                    wanted = "(\(URL(fileURLWithPath: file).lastPathComponent):\(line))"
                } else {
                    wanted = ""
                }
                #expect(
                    lines.contains { $0.contains(" \(level.function) + ") && (wanted.isEmpty || $0.contains(wanted)) },
                    "\(report): no line with \(level.function) \(wanted)")
            }
        }
    }

    @Test func fixtureReportsAndAZipOfThem() throws {
        let manifest = Self.manifest
        #expect(manifest.count >= 14)
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let zip = try Self.zipOfFixtureReports(in: work)
        let out = work.appendingPathComponent("out")
        let junit = work.appendingPathComponent("junit.xml")
        let reportsFolder = TestPaths.fixtures.appendingPathComponent("reports")
        let before = try Self.digest(of: reportsFolder)

        let result = try CLI.run(
            [
                "batch", "Fixtures/reports", zip.path, "--dsyms", "Fixtures/dsyms",
                "--output", out.path, "--junit", junit.path, "--jobs", "2",
            ],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.digest(of: reportsFolder) == before, "batch modified its inputs")

        // Every report has its output, in the folder and below the zip's name, and each holds
        // the oracle's frames for the crashed thread and the Last Exception Backtrace.
        for report in manifest {
            for relative in [report.outputName, "testflight/\(report.outputName)"] {
                let url = out.appendingPathComponent(relative)
                let text = try #require(try? String(contentsOf: url, encoding: .utf8), "missing output \(relative)")
                #expect(text.contains("Exception Type:") && text.contains(report.exceptionType))
                Self.checkFrames(report.crashedThreadAppFrames, in: text, report: relative)
                Self.checkFrames(report.lastExceptionBacktraceAppFrames ?? [], in: text, report: relative)
                if report.appImages.contains(where: { $0.dsym == nil }) {
                    // The app image matches no dSYM: its frames must stay unsymbolicated.
                    #expect(!text.contains("Records.c:"), "\(relative) symbolicated an image with a mismatched UUID")
                }
            }
        }
        let written = try Self.allFiles(in: out).keys
        #expect(Set(written) == Set(manifest.flatMap { [$0.outputName, "testflight/\($0.outputName)"] } + ["summary.md", "summary.json"]))

        // Grouping: one group per scenario, holding exactly its .crash and .ips, twice.
        let summary = try Summary.read(from: out)
        let scenarios = Dictionary(grouping: manifest, by: \.scenario)
        #expect(summary.totals.reports == 2 * manifest.count)
        #expect(summary.totals.processed == 2 * manifest.count)
        #expect(summary.totals.unreadable == 0)
        #expect(summary.totals.skipped == 1)  // Fixtures/reports/manifest.json
        #expect(summary.groups.count == scenarios.count)
        for (scenario, reports) in scenarios {
            // Named relative to the inputs: below the folder, and below the zip's name.
            let members = Set(reports.flatMap { [$0.name, "testflight/\($0.name)"] })
            let group = summary.groups.first { Set($0.reports) == members }
            #expect(group != nil, "no group holds exactly the \(scenario) reports")
            guard let group, let first = reports.first else { continue }
            #expect(group.count == members.count)
            #expect(group.signature.hasPrefix("\(first.exceptionType) (\(first.signal))"))
            if let level = first.expectedLevel {
                #expect(group.signature.contains(" in \(level.function) ("), "\(group.signature)")
                #expect(group.sourceFile == level.file && group.sourceLine == level.line)
            } else {
                let frame = try #require(first.crashedThreadAppFrames.first)
                #expect(group.signature.contains(" in \(frame.image) + 0x\(String(frame.imageOffset, radix: 16)) · "), "\(group.signature)")
            }
            #expect(group.diagnosis?.isEmpty == false)
        }
        #expect(summary.groups.map(\.count) == summary.groups.map(\.count).sorted(by: >))

        // summary.md: one table row per group, with its count and function.
        let markdown = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| 4 |") }
        #expect(rows.count == scenarios.count)
        for report in manifest {
            if let function = report.expectedFunction {
                #expect(rows.contains { $0.contains("`\(function)`") }, "summary.md has no row for \(function)")
            }
        }

        // JUnit: one failed test case per group, named by its signature.
        let parsed = JUnitXML(try Data(contentsOf: junit))
        #expect(parsed.parseError == nil)
        #expect(parsed.testcases == summary.groups.map(\.signature))
        #expect(parsed.failures == scenarios.count)
        #expect(parsed.errors == 0)
    }

    @Test func rerunReplacesOutputsIdentically() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out")
        let arguments = ["batch", "Fixtures/reports", "--dsyms", "Fixtures/dsyms", "--output", out.path]
        let first = try CLI.run(arguments, currentDirectory: TestPaths.packageRoot)
        #expect(first.status == 0, "\(first.stderr)")
        let files = try Self.allFiles(in: out)
        // A stale file is replaced, not appended to.
        try Data("stale".utf8).write(to: out.appendingPathComponent("null-deref.crash"))
        let second = try CLI.run(arguments + ["--jobs", "1"], currentDirectory: TestPaths.packageRoot)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Self.allFiles(in: out) == files, "a rerun (with another --jobs) changed the outputs")
    }

    @Test func formatIPSKeepsJSONReports() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let result = try CLI.run(
            [
                "batch", "Fixtures/reports/swift-trap.ips", "Fixtures/reports/swift-trap.crash",
                "--dsyms", "Fixtures/dsyms", "--output", work.path, "--format", "ips",
            ],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let ips = try String(contentsOf: work.appendingPathComponent("swift-trap.ips"), encoding: .utf8)
        let text = try String(contentsOf: work.appendingPathComponent("swift-trap.crash"), encoding: .utf8)
        #expect(ips.hasPrefix("{"))
        #expect(text.contains("Exception Type:"))
        // --format json: one NAME.json per report, a JSON document.
        let json = work.appendingPathComponent("json")
        let jsonRun = try CLI.run(
            ["batch", "Fixtures/reports/swift-trap.ips", "--dsyms", "Fixtures/dsyms", "--output", json.path, "--format", "json"],
            currentDirectory: TestPaths.packageRoot)
        #expect(jsonRun.status == 0, "\(jsonRun.stderr)")
        let document = try Data(contentsOf: json.appendingPathComponent("swift-trap.json"))
        #expect((try? JSONSerialization.jsonObject(with: document)) is [String: Any])
        let report = try #require(Self.manifest.first { $0.file == "reports/swift-trap.ips" })
        for level in report.crashedThreadAppFrames.first?.expected ?? [] {
            // JSON escapes nothing in these names, so the symbol appears verbatim.
            #expect(ips.contains("\"\(level.function)\""), "symbolicated .ips lacks \(level.function)")
        }
    }

    @Test func githubAnnotationsPointAtTheCrashingLine() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let junit = work.appendingPathComponent("junit.xml")
        let result = try CLI.run(
            [
                "batch", "Fixtures/reports", "--dsyms", "Fixtures/dsyms", "--output", work.path,
                "--github-annotations", "--source-root", "/src", "--junit", junit.path,
            ],
            currentDirectory: TestPaths.packageRoot)
        // JUnit `file=` honours --source-root like the annotations do.
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(" file=\""))
        #expect(!xml.contains(" file=\"/src/"), "\(xml)")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let scenarios = Dictionary(grouping: Self.manifest, by: \.scenario)
        #expect(lines.count == scenarios.count)
        for (_, reports) in scenarios {
            guard let level = reports.first?.expectedLevel, let file = level.file, let line = level.line else { continue }
            let relative = String(file.dropFirst("/src/".count))
            #expect(lines.contains { $0.hasPrefix("::error file=\(relative),line=\(line),title=") }, "no annotation at \(relative):\(line)")
        }
        #expect(lines.allSatisfy { $0.hasPrefix("::error ") })
    }

    @Test func failOnPolicies() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        func run(_ inputs: [String], _ extra: [String]) throws -> CLIResult {
            try CLI.run(
                ["batch"] + inputs + ["--dsyms", "Fixtures/dsyms", "--output", work.appendingPathComponent(UUID().uuidString).path] + extra,
                currentDirectory: TestPaths.packageRoot)
        }
        let good = "Fixtures/reports/null-deref.crash"
        let mismatch = "Fixtures/reports/uuid-mismatch.ips"
        #expect(try run([good], []).status == 0)
        #expect(try run([good], ["--fail-on", "never"]).status == 0)
        #expect(try run([good], ["--fail-on", "crash"]).status == 1)
        #expect(try run([good], ["--fail-on", "missing-dsym"]).status == 0)
        #expect(try run([good], ["--fail-on", "unsymbolicated"]).status == 0)
        #expect(try run([good, mismatch], ["--fail-on", "missing-dsym"]).status == 1)
        #expect(try run([good, mismatch], ["--fail-on", "unsymbolicated"]).status == 1)
        #expect(try run([good, mismatch], ["--fail-on", "never"]).status == 0)
    }

    @Test func unreadableReportIsListedAndDoesNotStopTheOthers() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let bad = work.appendingPathComponent("truncated.ips")
        try Data("{\"bug_type\":\"309\",\"os_version\":\"iPhone OS 17.0\"}\n".utf8).write(to: bad)
        let out = work.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch", bad.path, "Fixtures/reports/watchdog.ips", "--dsyms", "Fixtures/dsyms", "--output", out.path],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("truncated.ips"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("watchdog.crash").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("truncated.crash").path))
        let summary = try Summary.read(from: out)
        #expect(summary.unreadable.map(\.input) == ["truncated.ips"], "named relative to its input, once")
        #expect(summary.totals.processed == 1)
        let markdown = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.contains("### Unreadable reports"))
        // Unreadable input trips every policy but never.
        let strict = try CLI.run(
            [
                "batch", bad.path, "Fixtures/reports/watchdog.ips", "--dsyms", "Fixtures/dsyms",
                "--output", out.path, "--fail-on", "missing-dsym",
            ], currentDirectory: TestPaths.packageRoot)
        #expect(strict.status == 1)
    }

    @Test func outputsNeverReplaceInputs() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        // x.ips becomes x.crash in text mode, which is also an input; --format ips would
        // write x.ips over itself.
        for name in ["watchdog.crash", "watchdog.ips"] {
            try FileManager.default.copyItem(
                at: TestPaths.fixtures.appendingPathComponent("reports/\(name)"), to: work.appendingPathComponent(name))
        }
        let before = try Self.digest(of: work)
        let text = try CLI.run(
            [
                "batch", work.appendingPathComponent("watchdog.ips").path, work.appendingPathComponent("watchdog.crash").path,
                "--dsyms", "Fixtures/dsyms", "--output", work.path,
            ], currentDirectory: TestPaths.packageRoot)
        let ips = try CLI.run(
            [
                "batch", work.appendingPathComponent("watchdog.ips").path,
                "--dsyms", "Fixtures/dsyms", "--output", work.path, "--format", "ips",
            ], currentDirectory: TestPaths.packageRoot)
        #expect(text.stderr.contains("would replace an input file"), "\(text.stderr)")
        #expect(ips.status == 65, "\(ips.stderr)")
        var after = try Self.digest(of: work)
        after["summary.md"] = nil
        after["summary.json"] = nil
        #expect(after.filter { $0.key != "watchdog-2.crash" } == before, "batch replaced an input file")
    }

    @Test func exitCodesForNothingReadableAndUsage() throws {
        let work = try TestPaths.temporaryDirectory("batch-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let bad = work.appendingPathComponent("empty.crash")
        try Data().write(to: bad)
        let out = work.appendingPathComponent("out").path
        #expect(try CLI.run(["batch", bad.path, "--output", out]).status == 65)
        #expect(try CLI.run(["batch", work.appendingPathComponent("nope").path, "--output", out]).status == 65)
        #expect(try CLI.run(["batch", bad.path, "--output", out, "--jobs", "0"]).status == 64)
        #expect(try CLI.run(["batch", bad.path, "--output", out, "--fail-on", "sometimes"]).status == 64)
        #expect(try CLI.run(["batch", bad.path]).status == 64)
        #expect(
            try CLI.run(["batch", bad.path, "--output", out, "--dsyms", work.appendingPathComponent("missing.dSYM").path]).status == 64)
        let help = try CLI.run(["batch", "--help"])
        #expect(help.status == 0)
        for flag in [
            "--dsyms", "--output", "--format", "--jobs", "--junit", "--github-annotations", "--fail-on", "--source-root", "--explain",
        ] {
            #expect(help.stdout.contains(flag), "batch --help does not document \(flag)")
        }
        #expect(help.stdout.contains("65"))
    }
}
