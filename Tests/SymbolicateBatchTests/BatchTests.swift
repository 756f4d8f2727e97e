import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateSymbolication
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateBatch

/// Batch engine: which files are reports, where outputs go, how crashes group, and what the
/// summary files say. Expected groupings come from Fixtures/reports/manifest.json.
@Suite struct BatchTests {
    static let reportsFolder = TestPaths.fixtures.appendingPathComponent("reports")

    /// What the manifest says the first app frame of the crashed thread is: the first level
    /// with a real source line (compiler-generated trap levels name the reason, not the place).
    static func expectedFunction(_ report: FixtureManifest.Report) -> String? {
        guard let levels = report.crashedThreadAppFrames.first?.expected else { return nil }
        return levels.first { ($0.line ?? 0) > 0 && !($0.file ?? "").hasSuffix("<compiler-generated>") }?.function
    }

    /// Manifest fields FixtureSupport does not decode: the first crashed-thread app frame's
    /// offset in its image, and the signal.
    static var rawManifest: [[String: Any]] {
        let url = TestPaths.fixtures.appendingPathComponent("reports/manifest.json")
        guard let data = try? Data(contentsOf: url),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return list
    }
    static let imageOffsets: [String: Int] = rawManifest.reduce(into: [:]) { map, entry in
        if let file = entry["file"] as? String, let frames = entry["crashedThreadAppFrames"] as? [[String: Any]],
            let offset = frames.first?["imageOffset"] as? Int
        {
            map[file] = offset
        }
    }
    static let signals: [String: String] = rawManifest.reduce(into: [:]) { map, entry in
        if let file = entry["file"] as? String, let signal = entry["signal"] as? String { map[file] = signal }
    }

    // MARK: Inputs

    @Test func sniffingTellsReportsFromOtherFiles() {
        #expect(ReportSniffer.looksLikeReport(prefix: Data("{\"app_name\":\"X\",\"bug_type\":\"309\"}\n{}".utf8)))
        #expect(ReportSniffer.looksLikeReport(prefix: Data("Incident Identifier: 1\nHardware Model: iPhone14,2\n".utf8)))
        #expect(ReportSniffer.looksLikeReport(prefix: Data("\u{FEFF}Process: X [1]\nException Type: EXC_CRASH\n".utf8)))
        #expect(!ReportSniffer.looksLikeReport(prefix: Data("[{\"file\": \"reports/a.crash\"}]".utf8)))
        #expect(!ReportSniffer.looksLikeReport(prefix: Data("# README\nSome notes.\n".utf8)))
        #expect(!ReportSniffer.looksLikeReport(prefix: Data([0xCF, 0xFA, 0xED, 0xFE, 0, 0, 0, 0])))
        // MetricKit payloads (one, or an array of them) and `sample` output are logs to read.
        #expect(ReportSniffer.looksLikeReport(prefix: Data("{\n  \"timeStampEnd\" : \"x\",\n  \"hangDiagnostics\" : [".utf8)))
        #expect(ReportSniffer.looksLikeReport(prefix: Data("[\n  {\n    \"crashDiagnostics\" : [".utf8)))
        #expect(ReportSniffer.looksLikeReport(prefix: Data("Analysis of sampling MacApp (pid 7788) every 1 millisecond\n".utf8)))
        #expect(!ReportSniffer.looksLikeReport(prefix: Data("{\"appName\": \"CrashApp\", \"filters\": []}".utf8)))
    }

    @Test func folderWalkFindsReportsSkipsTheRest() throws {
        let inputs = ReportInputSet(inputs: [Self.reportsFolder.path])
        let expected = Set(FixtureManifest.reports.map { URL(fileURLWithPath: $0.file).lastPathComponent })
        #expect(!expected.isEmpty)
        #expect(Set(inputs.reports.map(\.relativePath)) == expected)
        // manifest.json sits next to the reports and is not one.
        #expect(inputs.skipped.map { URL(fileURLWithPath: $0).lastPathComponent } == ["manifest.json"])
        #expect(inputs.problems.isEmpty)
    }

    @Test func nestedFoldersKeepRelativePathsAndOutputFolderIsExcluded() throws {
        let root = try TestPaths.temporaryDirectory("batch-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let week = root.appendingPathComponent("week1/day2")
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: week, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.reportsFolder.appendingPathComponent("null-deref.ips"),
            to: week.appendingPathComponent("a.ips"))
        try FileManager.default.copyItem(
            at: Self.reportsFolder.appendingPathComponent("watchdog.crash"),
            to: out.appendingPathComponent("old.crash"))
        // A link to a report is read; a link back to the root is not walked again.
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("linked.crash"),
            withDestinationURL: Self.reportsFolder.appendingPathComponent("swift-trap.crash"))
        try FileManager.default.createSymbolicLink(at: week.appendingPathComponent("loop"), withDestinationURL: root)
        let inputs = ReportInputSet(inputs: [root.path, root.appendingPathComponent("missing.ips").path], excluding: [out.path])
        #expect(inputs.reports.map(\.relativePath) == ["linked.crash", "week1/day2/a.ips"])
        #expect(inputs.problems.map(\.input) == [root.appendingPathComponent("missing.ips").path])
    }

    @Test func zipOfReportsGoesBelowItsName() throws {
        let root = try TestPaths.temporaryDirectory("batch-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("rejections.zip")
        let real = try Archive(url: zipURL, accessMode: .create)
        for name in ["swift-trap.ips", "null-deref.crash"] {
            let data = try Data(contentsOf: Self.reportsFolder.appendingPathComponent(name))
            try real.addEntry(with: "logs/\(name)", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let inputs = ReportInputSet(inputs: [zipURL.path])
        #expect(inputs.reports.map(\.relativePath) == ["rejections/logs/null-deref.crash", "rejections/logs/swift-trap.ips"])
        #expect(inputs.reports.map(\.displayPath) == ["\(zipURL.path)!logs/null-deref.crash", "\(zipURL.path)!logs/swift-trap.ips"])
        for report in inputs.reports {
            #expect(
                FileManager.default.contents(atPath: report.path)
                    == (try Data(contentsOf: Self.reportsFolder.appendingPathComponent(URL(fileURLWithPath: report.path).lastPathComponent)))
            )
        }
        inputs.removeTemporaryFiles()
        #expect(!FileManager.default.fileExists(atPath: inputs.reports[0].path))
    }

    @Test func aReportNamedTwiceIsProcessedOnce() throws {
        let file = Self.reportsFolder.appendingPathComponent("watchdog.ips").path
        let inputs = ReportInputSet(inputs: [file, Self.reportsFolder.path, file])
        #expect(inputs.reports.filter { $0.path.hasSuffix("/watchdog.ips") }.count == 1)
        #expect(inputs.reports.first?.displayPath == file)
    }

    @Test func progressLine() {
        let line = BatchProgressLine(width: 10)
        #expect(line.render(done: 250, total: 1000, elapsed: 2) == "[##--------]  250/1000  125.0/s  ETA 6s")
        #expect(line.render(done: 1000, total: 1000, elapsed: 8) == "[##########] 1000/1000  125.0/s  8s")
        #expect(line.render(done: 0, total: 5, elapsed: 0) == "[----------] 0/5  0.0/s")
        #expect(BatchProgressLine.duration(125) == "2m05s")
    }

    // MARK: Output names

    @Test func outputNamesFollowTheFormat() {
        let input = ReportInput(path: "/x/a.ips", displayPath: "a.ips", relativePath: "d/a.ips")
        let text = ReportInput(path: "/x/b.txt", displayPath: "b.txt", relativePath: "b.txt")
        #expect(BatchOptions(outputDirectory: "/o", format: .text).outputRelativePath(for: input) == "d/a.crash")
        #expect(BatchOptions(outputDirectory: "/o", format: .text).outputRelativePath(for: text) == "b.txt")
        #expect(BatchOptions(outputDirectory: "/o", format: .ips).outputRelativePath(for: input) == "d/a.ips")
        #expect(BatchOptions(outputDirectory: "/o", format: .json).outputRelativePath(for: text) == "b.json")
        #expect(BatchOptions(outputDirectory: "/o", format: .markdown).outputRelativePath(for: input) == "d/a.md")
    }

    @Test func collidingOutputNamesAreNumberedInInputOrder() {
        let names = BatchRunner.uniqueOutputPaths(
            ["a.crash", "A.crash", "a.crash", "a-2.crash", "summary.md", "b"],
            reserved: BatchRunner.summaryFileNames)
        #expect(names == ["a.crash", "A-3.crash", "a-4.crash", "a-2.crash", "summary-2.md", "b"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }

    // MARK: Signatures

    /// Text reports print termination codes in decimal (`FRONTBOARD 2343432205`), `.ips` in hex: the
    /// signature takes the reader's number, so both group together.
    @Test func terminationCodesGroupWhateverTheirSpelling() throws {
        func signature(_ code: String) throws -> String? {
            let text = """
                Incident Identifier: 6A1C47D3-7C2D-4E4B-9D8D-2D5B6C1E9F01
                Process:             MyApp [412]
                OS Version:          iPhone OS 17.5 (21F79)
                Exception Type:      EXC_CRASH (SIGKILL)
                Termination Reason:  FRONTBOARD \(code)

                Thread 0 Crashed:
                0   libsystem_kernel.dylib        \t0x00000001e5c0a0a0 mach_msg_trap + 8

                """
            var result = BatchReportResult(input: "r.crash")
            result.record(report: try CrashReport.parse(data: Data(text.utf8), path: "r.crash"), summary: SymbolicationSummary())
            return result.signature?.description
        }
        let decimal = try signature("2343432205")
        #expect(decimal == (try signature("0x8BADF00D")))
        #expect(decimal?.contains("FRONTBOARD 0x8badf00d") == true, "\(decimal ?? "nil")")
    }

    @Test func signaturesAgreeAcrossFormatsAndBuilds() {
        #expect(
            CrashSignature(exception: "EXC_BAD_ACCESS (SIGSEGV)", function: "-[A b:] + 36").description
                == "EXC_BAD_ACCESS (SIGSEGV) in -[A b:]")
        #expect(CrashSignature(exception: nil, function: "App + 0x4410").description == "no exception in App + 0x4410")
        #expect(CrashSignature(exception: "EXC_BAD_ACCESS", function: nil).description == "EXC_BAD_ACCESS in an unknown frame")
        #expect(
            CrashSignature(exception: "EXC_BAD_ACCESS", function: "a")
                != CrashSignature(exception: "EXC_BAD_ACCESS", function: "b"))
        // Different apps crashing in `main (main.m)` are different crashes; kinds never merge.
        #expect(
            CrashSignature(exception: "EXC_CRASH (SIGABRT)", function: "main", file: "main.m", app: "A")
                != CrashSignature(exception: "EXC_CRASH (SIGABRT)", function: "main", file: "main.m", app: "B"))
        #expect(
            CrashSignature(kind: .jetsam, exception: nil, function: nil, app: "A")
                != CrashSignature(kind: .hang, exception: nil, function: nil, app: "A"))
        #expect(
            CrashSignature(exception: "EXC_BAD_ACCESS (SIGSEGV)", function: "f", file: "F.swift", app: "App").description
                == "EXC_BAD_ACCESS (SIGSEGV) in f (F.swift) · App")
        #expect(CrashSignature(kind: .jetsam, exception: nil, function: nil).description == "jetsam: no exception in an unknown frame")
        #expect(CrashSignature.isBareAddress("0x00020d58") && !CrashSignature.isBareAddress("0xfoo"))
    }

    /// The key is compared by its parts, not its text: a function whose name reads like the
    /// text's own punctuation (` in `, ` · `) is no other crash's key, and every part counts.
    @Test func theSignatureIsATypedKey() {
        let a = CrashSignature(exception: "SIGABRT", function: "f in an unknown frame")
        let b = CrashSignature(exception: "SIGABRT in f", function: nil)
        #expect(a.description == b.description)
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        let viaA = CrashSignature(exception: "SIGABRT", function: "f", file: "F.swift", app: "A", via: "abort")
        let viaB = CrashSignature(exception: "SIGABRT", function: "f", file: "F.swift", app: "A", via: "__assert_rtn")
        #expect(viaA != viaB)
        // The stop's function is left out when it is the frame already named; offsets never count.
        #expect(CrashSignature(exception: "SIGABRT", function: "f + 12", via: "f") == CrashSignature(exception: "SIGABRT", function: "f"))
        #expect(
            CrashSignature(exception: "EXC_BAD_ACCESS  (SIGSEGV)", function: "f")
                == CrashSignature(exception: "EXC_BAD_ACCESS (SIGSEGV)", function: "f"))
        // Crash kinds are one key; other kinds keep theirs.
        #expect(
            CrashSignature(kind: .linuxBacktrace, exception: "SIGSEGV", function: "f")
                == CrashSignature(exception: "SIGSEGV", function: "f"))
        #expect(CrashSignature(kind: .jetsam, exception: nil, function: nil).kind == "jetsam")
    }

    // MARK: Runner over the fixtures

    @Test(arguments: [1, 3])
    func runnerGroupsFixtureReportsByScenario(jobs: Int) throws {
        let out = try TestPaths.temporaryDirectory("batch-test")
        defer { try? FileManager.default.removeItem(at: out) }
        let index = try DebugFileIndex(inputs: [TestPaths.dsyms])
        let inputs = ReportInputSet(inputs: [Self.reportsFolder.path])
        let runner = BatchRunner(annotator: Annotator(index: index), options: BatchOptions(outputDirectory: out.path, jobs: jobs))
        let results = runner.run(inputs.reports)
        #expect(results.map(\.input) == inputs.reports.map(\.relativePath))
        #expect(results.allSatisfy { $0.error == nil && $0.output != nil })
        // Each dSYM slice was opened once for the whole run (CrashApp, CrashKit,
        // CrashApp-dwarf4, MacApp x86_64), not once per report.
        #expect(runner.annotator.sessions.openedCount == 4)

        let summary = BatchSummary(results: results, skipped: inputs.skipped)
        let scenarios = Dictionary(grouping: FixtureManifest.reports, by: \.scenario)
        #expect(summary.groups.count == scenarios.count)
        for (scenario, reports) in scenarios {
            let files = Set(reports.map { URL(fileURLWithPath: $0.file).lastPathComponent })
            let group = summary.groups.first { Set($0.reports) == files }
            #expect(group != nil, "no group holds exactly the \(scenario) reports")
            guard let group, let first = reports.first else { continue }
            #expect(group.count == reports.count)
            #expect(group.signature.hasPrefix(first.exceptionType))
            if let function = Self.expectedFunction(first) {
                #expect(group.signature.contains(" in " + function + " ("), "\(group.signature)")
                #expect(group.function == function)
            } else {
                // No dSYM for the app image: the image and its offset stand in.
                let frame = try #require(first.crashedThreadAppFrames.first)
                let image = try #require(first.appImages.first { $0.name == frame.image })
                #expect(image.dsym == nil)
                let offset = try #require(Self.imageOffsets[first.file])
                #expect(
                    group.signature
                        == "\(first.exceptionType) (\(try #require(Self.signals[first.file]))) in \(frame.image) + 0x\(String(offset, radix: 16)) · \(frame.image)"
                )
            }
        }
        #expect(
            summary.totals.reportsMissingDebugFiles == scenarios.values.joined().filter { $0.appImages.contains { $0.dsym == nil } }.count)
        #expect(summary.skipped.count == 1)
        // Every group has a diagnosis from the knowledge base, taken from its first report;
        // the other reports are not diagnosed again (reports of one signature share it).
        #expect(summary.groups.allSatisfy { $0.diagnosis?.isEmpty == false })
        let diagnosed = results.filter { $0.diagnosis != nil }.map(\.input)
        #expect(
            diagnosed
                == summary.groups.map(\.example).sorted { a, b in
                    (results.firstIndex { $0.input == a } ?? 0) < (results.firstIndex { $0.input == b } ?? 0)
                })
    }

    @Test func unreadableReportDoesNotStopTheOthers() throws {
        let root = try TestPaths.temporaryDirectory("batch-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let bad = root.appendingPathComponent("truncated.ips")
        try Data("{\"bug_type\":\"309\"}\n".utf8).write(to: bad)
        let good = Self.reportsFolder.appendingPathComponent("null-deref.crash").path
        let runner = BatchRunner(
            annotator: Annotator(index: try DebugFileIndex(inputs: [TestPaths.dsyms])),
            options: BatchOptions(outputDirectory: root.appendingPathComponent("out").path, jobs: 2))
        let inputs = [
            ReportInput(path: bad.path, displayPath: "truncated.ips", relativePath: "truncated.ips"),
            ReportInput(path: good, displayPath: "null-deref.crash", relativePath: "null-deref.crash"),
        ]
        let results = runner.run(inputs)
        #expect(results[0].error != nil)
        #expect(results[0].error?.contains("truncated.ips") == false, "the summary names the report once, not again in its error")
        #expect(results[0].output == nil)
        #expect(results[1].error == nil)
        let summary = BatchSummary(results: results)
        #expect(summary.totals.unreadable == 1 && summary.totals.processed == 1)
        #expect(BatchFailurePolicy.never.violation(in: summary) == nil)
        #expect(BatchFailurePolicy.missingDSYM.violation(in: summary) != nil)
    }

    // MARK: Summary and policy

    static func result(
        _ input: String, exception: String, function: String?, app: String? = nil, os: String? = nil,
        file: String? = nil, line: Int? = nil, missing: Bool = false, unsymbolicated: Bool = false
    ) -> BatchReportResult {
        var r = BatchReportResult(input: input)
        r.output = input
        r.exception = exception
        r.function = function
        r.signature = CrashSignature(exception: exception, function: function)
        r.appVersion = app
        r.osVersion = os
        r.sourceFile = file
        r.sourceLine = line
        r.location = file.map { "\(URL(fileURLWithPath: $0).lastPathComponent):\(line ?? 0)" }
        r.isCrash = true
        r.appFrames = 3
        r.appFramesSymbolicated = unsymbolicated ? 1 : 3
        if missing {
            r.diagnostics = [
                ImageDiagnostic(kind: .missingDebugFile, imageName: "App", uuid: DebugID(buildID: "0a"), arch: .arm64, isAppImage: true)
            ]
        }
        return r
    }

    @Test func groupsSortByCountThenFirstSeenWithNumericVersionRanges() {
        let results = [
            Self.result("1", exception: "EXC_A", function: "f", app: "1.10", os: "17.2"),
            Self.result("2", exception: "EXC_B", function: "g", app: "1.9", file: "/s/G.swift", line: 7),
            Self.result("3", exception: "EXC_B", function: "g", app: "1.10"),
            Self.result("4", exception: "EXC_C", function: "h"),
        ]
        let summary = BatchSummary(results: results)
        #expect(summary.groups.map(\.signature) == ["EXC_B in g", "EXC_A in f", "EXC_C in h"])
        #expect(summary.groups[0].count == 2)
        #expect(summary.groups[0].appVersionRange == "1.9 – 1.10")
        #expect(summary.groups[0].example == "2")
        #expect(summary.groups[0].sourceFile == "/s/G.swift" && summary.groups[0].sourceLine == 7)
        #expect(summary.groups[1].appVersionRange == "1.10" && summary.groups[1].osVersionRange == "17.2")
        #expect(summary.groups[2].appVersionRange == nil)
    }

    @Test func policies() {
        let clean = BatchSummary(results: [Self.result("1", exception: "E", function: "f")])
        #expect(BatchFailurePolicy.never.violation(in: clean) == nil)
        #expect(BatchFailurePolicy.crash.violation(in: clean) != nil)
        #expect(BatchFailurePolicy.unsymbolicated.violation(in: clean) == nil)
        #expect(BatchFailurePolicy.missingDSYM.violation(in: clean) == nil)
        let partial = BatchSummary(results: [Self.result("1", exception: "E", function: "f", unsymbolicated: true)])
        #expect(BatchFailurePolicy.unsymbolicated.violation(in: partial) != nil)
        #expect(BatchFailurePolicy.missingDSYM.violation(in: partial) == nil)
        let missing = BatchSummary(results: [Self.result("1", exception: "E", function: "f", missing: true, unsymbolicated: true)])
        #expect(BatchFailurePolicy.missingDSYM.violation(in: missing) != nil)
        #expect(missing.missingDebugFiles.map(\.reports) == [1])
    }

    @Test func junitIsWellFormedWithOneFailedCasePerGroup() throws {
        let summary = BatchSummary(
            results: [
                Self.result("a<1>.ips", exception: "EXC_\"Q\" & <x>", function: "f'", file: "/s/F.swift", line: 3),
                Self.result("b.ips", exception: "EXC_B", function: "g\u{1}"),
            ],
            inputProblems: [BatchInputProblem(input: "c.zip", message: "not a zip")])
        let xml = summary.renderJUnit()
        let junit = JUnitXML(Data(xml.utf8))
        #expect(junit.parseError == nil, "JUnit XML does not parse: \(junit.parseError ?? "")\n\(xml)")
        #expect(junit.testcases.count == 3)
        #expect(junit.failures == 2)
        #expect(junit.errors == 1)
        #expect(junit.testcases.contains("EXC_\"Q\" & <x> in f'"))
        #expect(junit.rootAttributes["failures"] == "2" && junit.rootAttributes["errors"] == "1")
    }

    /// summary.json is written in pieces; it must be exactly what encoding the whole summary
    /// with sorted keys gives (which is what consumers would get from any JSON library).
    @Test(arguments: [0, 1, 3])
    func streamedJSONEqualsWholeEncoding(reportCount: Int) throws {
        let results = (0..<reportCount).map {
            Self.result("r\($0).ips", exception: "EXC_\($0 % 2)", function: "f/\($0)", app: "1.\($0)", missing: $0 == 1)
        }
        let summary = BatchSummary(
            results: results, inputProblems: [BatchInputProblem(input: "z.zip", message: "bad")], skipped: ["README"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let whole = String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n"
        #expect(try summary.renderJSON() == whole)
        let folder = try TestPaths.temporaryDirectory("batch-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("summary.json").path
        try summary.writeJSON(to: path)
        #expect(FileManager.default.contents(atPath: path) == Data(whole.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["summary.json"])
    }

    @Test func githubAnnotationsEscapeAndPointAtTheLine() {
        let summary = BatchSummary(results: [
            Self.result("x.ips", exception: "EXC, A: 100%", function: "f", file: "/build/src/App/F.swift", line: 12),
            Self.result("y.ips", exception: "EXC_B", function: "g"),
        ])
        let lines = summary.renderGitHubAnnotations(sourceRoot: "/build/src").split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("::error file=App/F.swift,line=12,title=Crash (1 report)%3A EXC%2C A%3A 100%25::"))
        #expect(lines[0].contains("%0AExample: x.ips"))
        #expect(lines[1].hasPrefix("::error title="))
        #expect(!lines[1].contains("file="))
    }

    @Test func markdownTableEscapesCells() {
        let summary = BatchSummary(results: [Self.result("a|b.ips", exception: "EXC_A", function: "operator|(_:_:)", app: "2.0")])
        let markdown = summary.renderMarkdown()
        let row = markdown.split(separator: "\n").first { $0.hasPrefix("| 1 |") }
        #expect(row == "| 1 | `EXC_A` in `operator\\|(_:_:)` | a\\|b.ips | 2.0 | – |")
    }
}

/// Issue 31: aborts are grouped by the path that stopped the process, in every layout.
@Suite struct AbortPathGroupingTests {
    @Test func reportsAbortingOnTheSamePathGroupTogether() throws {
        let folder = TestPaths.fixtures.appendingPathComponent("abort-paths/reports")
        let out = try TestPaths.temporaryDirectory("batch-abort-paths")
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = ReportInputSet(inputs: [folder.path])
        let runner = BatchRunner(
            annotator: Annotator(index: try DebugFileIndex(inputs: [TestPaths.dsyms])),
            options: BatchOptions(outputDirectory: out.path, jobs: 2))
        let results = runner.run(inputs.reports)
        func signature(_ file: String) -> String? { results.first { $0.input == file }?.signature?.description }
        // The text and .ips of one crash share a signature.
        for name in ["malloc-guard-abort", "assert-same-caller", "cxx-uncaught", "nsassert-off-main", "mainactor-off-main"] {
            let text = signature("\(name).crash")
            #expect(text != nil && text == signature("\(name).ips"), "\(name): \(text ?? "-") vs \(signature("\(name).ips") ?? "-")")
        }
        // Same exception, same first app frame, different stop: two groups, each naming its stop.
        let malloc = try #require(signature("malloc-guard-abort.crash"))
        let assert = try #require(signature("assert-same-caller.crash"))
        #expect(malloc != assert)
        #expect(malloc.contains("in ImageCache.store(_:for:)") && malloc.contains("via malloc_vreport"), "\(malloc)")
        #expect(assert.contains("in ImageCache.store(_:for:)") && assert.contains("via __assert_rtn"), "\(assert)")
        let summary = BatchSummary(results: results, skipped: inputs.skipped)
        #expect(summary.groups.first { $0.signature == malloc }?.count == 2)
    }

    /// Real reports (Fixtures/corpus, sources in Fixtures/README.md): two crashes of one build of
    /// EatfitbyMax/Eat-Fit that both stop in `_objc_terminate` after the same app frame
    /// (`0x104530000 + 311840` and `0x102388000 + 311840`: offset 0x4c220), and
    /// bambulab/BambuStudio#8314, a C++ exception that passes `_objc_terminate` too but is stopped
    /// by libc++abi's `demangling_terminate_handler()` for a C++ throw.
    @Test func realReportsOnTheSameAbortPathGroupTogether() throws {
        let pair = [
            "eatfit__nsexception-expo-recovery_iphone14-5_ios18-5_564a44e4.crash",
            "eatfit__nsexception-expo-recovery_iphone14-5_ios18-5_009a639d.crash",
        ]
        let other = "issue__bambustudio-8314_cxx-system-error-mutex_macos15-5_excerpt.crash"
        let out = try TestPaths.temporaryDirectory("batch-abort-paths-corpus")
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = ReportInputSet(inputs: (pair + [other]).map { Corpus.bundled($0).path })
        #expect(inputs.reports.count == 3)
        let runner = BatchRunner(
            annotator: Annotator(index: try DebugFileIndex(inputs: [TestPaths.dsyms])),
            options: BatchOptions(outputDirectory: out.path, jobs: 2))
        let results = runner.run(inputs.reports)
        func signature(_ file: String) -> String? { results.first { $0.input.hasSuffix(file) }?.signature?.description }
        let first = try #require(signature(pair[0]))
        #expect(signature(pair[1]) == first)
        #expect(first.hasPrefix("EXC_CRASH (SIGABRT) in EatFitByMax + 0x4c220"), "\(first)")
        #expect(first.contains("via _objc_terminate()"), "\(first)")
        let third = try #require(signature(other))
        #expect(third != first)
        #expect(third.contains("via demangling_terminate_handler()") && !third.contains("_objc_terminate"), "\(third)")
        let summary = BatchSummary(results: results, skipped: inputs.skipped)
        let group = try #require(summary.groups.first { $0.signature == first })
        #expect(group.count == 2)
        // The excerpt has no Binary Images: it is a group of its own among the partial ones.
        #expect((summary.groups + summary.partialGroups).first { $0.signature == third }?.count == 1)
    }
}
