import Foundation
import SymbolicateTestSupport
import Testing

/// End to end: reports whose system frames have no names (an iOS 17 `.ips`, an iOS 14
/// MetricKit payload with a crash and a hang, a macOS 14 `sample` log) come out with every
/// system frame named, from Xcode's DeviceSupport folder for the report's OS (`HOME` pointed
/// at `Fixtures/system-symbols/home`) and from the dyld shared cache of the same build, with
/// the same text. The goldens in `Fixtures/expected/system-symbols/` were written by the tool
/// (`SYMBOLICATE_UPDATE_GOLDEN=1`) and are held to the generator's manifest, which says which
/// function and offset each address was made from.
@Suite(.tags(.launchesBinary)) struct SystemSymbolsCLITests {
    enum Source: String, CaseIterable, Sendable {
        /// The default: Xcode's folder for the report's OS, under `$HOME`.
        case deviceSupport
        /// `--system-symbols CACHE_FILE`.
        case cacheFile
        /// `SYMBOLICATE_SYSTEM_SYMBOLS=FOLDER_HOLDING_THE_CACHE`.
        case cacheFolderFromEnvironment
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var report: SystemSymbolsFixtures.Report
        var source: Source
        var testDescription: String { "\(report.report) from \(source.rawValue)" }
    }

    static let cases = SystemSymbolsFixtures.manifest.reports.flatMap { report in Source.allCases.map { Case(report: report, source: $0) } }

    /// Runs `symbolicate ARGUMENTS` with the system symbols of `source` for the report's set.
    static func run(_ arguments: [String], report: SystemSymbolsFixtures.Report, source: Source) throws -> CLIResult {
        let set = try #require(SystemSymbolsFixtures.set(report.set))
        let emptyHome = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-no-home").path
        switch source {
        case .deviceSupport:
            return try CLI.run(
                arguments, environment: ["HOME": SystemSymbolsFixtures.home, "SYMBOLICATE_SYSTEM_SYMBOLS": ""],
                currentDirectory: TestPaths.packageRoot)
        case .cacheFile:
            return try CLI.run(
                arguments + ["--system-symbols", set.cachePath], environment: ["HOME": emptyHome, "SYMBOLICATE_SYSTEM_SYMBOLS": ""],
                currentDirectory: TestPaths.packageRoot)
        case .cacheFolderFromEnvironment:
            let folder = (set.cachePath as NSString).deletingLastPathComponent
            return try CLI.run(
                arguments, environment: ["HOME": emptyHome, "SYMBOLICATE_SYSTEM_SYMBOLS": "/nonexistent:\(folder)"],
                currentDirectory: TestPaths.packageRoot)
        }
    }

    @Test(arguments: cases)
    func everySystemFrameIsNamedAsTheGoldenSays(_ testCase: Case) throws {
        let result = try Self.run(
            [testCase.report.path, "--color", "never", "--headline"], report: testCase.report, source: testCase.source)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("for system symbols: "), "\(result.stderr)")
        let golden = "system-symbols/\(testCase.report.report).txt"
        // One golden for every source: a DeviceSupport folder and a cache name frames alike.
        if testCase.source == .deviceSupport {
            try Golden.check(result.stdout, against: golden)
        } else {
            let expected = try Golden.text("\(golden)")
            #expect(result.stdout == expected, "\(testCase.source) output differs from Fixtures/expected/\(golden)")
        }
    }

    /// The goldens against the generator's manifest: every planned system frame's address is
    /// printed with the function it was made from and its offset in it.
    @Test(arguments: SystemSymbolsFixtures.manifest.reports.map(\.report))
    func goldenNamesEveryPlannedFrame(_ name: String) throws {
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report == name })
        let golden = try Golden.text("system-symbols/\(name).txt")
        let lines = golden.split(separator: "\n").map(String.init)
        for frame in report.threads.joined() {
            // Binary Images lines (`start - end name <UUID>`) may end at a frame address too.
            let printed = lines.filter { $0.contains(frame.address) && !$0.contains(" - 0x") }
            #expect(!printed.isEmpty, "\(name): \(frame.address) not named")
            for line in printed {
                let named =
                    line.contains(" \(frame.function) + \(frame.offset)")
                    || line.contains(" \(frame.function)  (in \(frame.image)) + \(frame.offset) ")
                #expect(named, "\(name): expected \(frame.function) + \(frame.offset) in: \(line)")
            }
        }
        #expect(!golden.contains("???  (in "), "\(name): a sampled frame was left unnamed")
    }

    /// Frames the OS already named are kept; `--resymbolicate` renames them from the system symbols.
    @Test func framesTheOSNamedAreKeptUnlessResymbolicate() throws {
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report.hasSuffix(".ips") })
        let text = try String(contentsOfFile: report.path, encoding: .utf8)
        // The first frame of the crashed thread, as the device would have named it.
        let frame = try #require(report.threads.first?.first)
        let named = text.replacingOccurrences(
            of: "\"frames\": [\n        {\n          \"imageOffset\"",
            with:
                "\"frames\": [\n        {\n          \"symbol\": \"named_by_the_os\",\n          \"symbolLocation\": 8,\n          \"imageOffset\""
        )
        #expect(named != text)
        let folder = try TestPaths.temporaryDirectory("os-named")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("named.ips").path
        try named.write(toFile: path, atomically: true, encoding: .utf8)
        let kept = try Self.run([path, "--color", "never"], report: report, source: .deviceSupport)
        #expect(kept.stdout.contains("named_by_the_os + 8"), "\(kept.stdout.prefix(2000))")
        let renamed = try Self.run([path, "--color", "never", "--resymbolicate"], report: report, source: .deviceSupport)
        #expect(!renamed.stdout.contains("named_by_the_os"))
        #expect(renamed.stdout.contains("\(frame.function) + \(frame.offset)"))
    }

    @Test func withoutSystemSymbolsOneLineSaysWhereTheyWereLookedFor() throws {
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report.hasSuffix(".ips") })
        let home = try TestPaths.temporaryDirectory("empty-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try CLI.run(
            [report.path, "--color", "never"], environment: ["HOME": home.path, "SYMBOLICATE_SYSTEM_SYMBOLS": ""],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("system symbols") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("\(home.path)/Library/Developer/Xcode/iOS DeviceSupport/17.5 (21F79)*/Symbols") == true)
        #expect(!result.stdout.contains("__pthread_kill"))
    }

    @Test func aFolderForAnotherOSBuildIsSaidOnce() throws {
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report.hasSuffix(".ips") })
        let other = try #require(SystemSymbolsFixtures.set("ios14"))
        let result = try CLI.run(
            [report.path, "--system-symbols", other.deviceSupportPath, "--color", "never"],
            environment: ["SYMBOLICATE_SYSTEM_SYMBOLS": ""], currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0)
        let said = result.stderr.split(separator: "\n").filter {
            $0.contains("are for iOS 14.8 (18H17), the report is from iOS 17.5 (21F79)")
        }
        #expect(said.count == 1, "\(result.stderr)")
    }

    /// `explain` reads the names: the frames quoted as evidence are functions, not addresses.
    @Test func explainQuotesSystemFramesByName() throws {
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report.hasSuffix(".ips") })
        let result = try Self.run(["explain", report.path], report: report, source: .cacheFile)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("libsystem_c.dylib abort"), "\(result.stdout)")
    }

    /// `batch` groups by the named crash site.
    @Test func batchSignaturesUseTheNames() throws {
        let output = try TestPaths.temporaryDirectory("batch-system")
        defer { try? FileManager.default.removeItem(at: output) }
        let report = try #require(SystemSymbolsFixtures.manifest.reports.first { $0.report.hasSuffix(".ips") })
        let result = try Self.run(["batch", report.path, "-o", output.path, "--no-progress"], report: report, source: .deviceSupport)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try String(contentsOf: output.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("__pthread_kill"), "\(summary.prefix(3000))")
        #expect(result.stderr.contains("for system symbols"), "\(result.stderr)")
    }

    /// `atos` without -o: the Apple library of `--uuid` in `--system-symbols`.
    @Test(arguments: [false, true])
    func atosFindsASystemImageByUUID(_ fromCache: Bool) throws {
        let set = try #require(SystemSymbolsFixtures.set("ios17"))
        let image = try #require(set.images.first { $0.name == "UIKitCore" })
        let address = try #require(image.symbols["-[UIViewController view]"])
        let load: UInt64 = 0x1_9000_0000
        let result = try CLI.run([
            "atos", "--system-symbols", fromCache ? set.cachePath : set.deviceSupportPath, "--uuid", image.uuid,
            "-l", "0x" + String(load, radix: 16), "0x" + String(address - image.text + load + 32, radix: 16),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "-[UIViewController view] (in UIKitCore) + 32\n")
    }

    @Test func atosWithoutDebugFileOrSystemSymbolsIsAUsageError() throws {
        let result = try CLI.run(
            ["atos", "--uuid", "AFDC5DD5-B153-33FE-8912-09AAFB1CEE5B", "0x1000"], environment: ["SYMBOLICATE_SYSTEM_SYMBOLS": ""])
        #expect(result.status == 64, "\(result.stderr)")
    }
}
