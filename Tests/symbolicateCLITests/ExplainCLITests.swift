import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate explain` through the real binary: terms, unknown terms, reports, formats.
@Suite(.tags(.launchesBinary)) struct ExplainCLITests {
    @Test(arguments: ["EXC_BAD_ACCESS", "SIGABRT", "0x8badf00d", "KERN_INVALID_ADDRESS", "EXC_RESOURCE"])
    func explainsTheIssueTerms(term: String) throws {
        let result = try CLI.run(["explain", term])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(term))
        #expect(result.stdout.contains("Source:"))
    }

    /// Issue 54, finding 18: the parser's cost grows with the square of the word count, so a
    /// term of 50,000 words took 89 s; it is refused before parsing (hang guard, no timing).
    /// 5,000 words: the argument list must fit the 128 KiB that a 512 KiB stack limit leaves
    /// for it (the Mac-shaped lane's `ulimit -s 512`).
    @Test func aTermOfThousandsOfWordsIsRefusedBeforeParsing() throws {
        let words = (0..<5_000).map { ["SIGABRT", "crash", "EXC_BAD_ACCESS", "word\($0)"][$0 % 4] }
        let result = try CLI.run(["explain"] + words, timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("at most 200 words (5000 given)"), "\(result.stderr)")
        let longest = try CLI.run(["explain"] + Array(repeating: "SIGABRT", count: 200))
        #expect(longest.status != 64, "\(longest.stderr)")
    }

    @Test func termWithSpacesIsOneQuery() throws {
        let result = try CLI.run(["explain", "Namespace", "SPRINGBOARD,", "Code", "0x8badf00d"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Watchdog timeout"))
    }

    @Test func unknownTermExitsOneWithNearMatches() throws {
        let result = try CLI.run(["explain", "EXC_BAD_ACESS"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("is not known"))
        #expect(result.stdout.contains("EXC_BAD_ACCESS"))
    }

    @Test func jsonAndMarkdownFormats() throws {
        let json = try CLI.run(["explain", "--format", "json", "0xdead10cc"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let entries = object?["entries"] as? [[String: Any]]
        #expect(entries?.first?["term"] as? String == "0xdead10cc")
        let markdown = try CLI.run(["explain", "--format", "markdown", "SIGSEGV"])
        #expect(markdown.stdout.hasPrefix("# `SIGSEGV`"))
    }

    // Fixtures/reports/watchdog.crash: Termination Reason FRONTBOARD 2343432205 (= 0x8badf00d).
    @Test func diagnosesAReportWithoutSymbolicating() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/watchdog.crash").path
        let result = try CLI.run(["explain", report])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Diagnosis: Watchdog timeout (0x8badf00d)"))
        #expect(result.stdout.contains("Evidence from the report:"))
        #expect(result.stdout.contains("Termination Reason: FRONTBOARD 2343432205"))
    }

    // Fixtures/reports/swift-trap.ips with the fixture dSYMs: the inlined frame
    // 'Swift runtime failure: Unexpectedly found nil…' only exists after symbolication.
    @Test func diagnosisUsesSymbolicationWhenDebugFilesAreGiven() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path
        let dsyms = TestPaths.fixtures.appendingPathComponent("dsyms").path
        let plain = try CLI.run(["explain", "--format", "json", report])
        let symbolicated = try CLI.run(["explain", "--format", "json", report, dsyms])
        #expect(symbolicated.status == 0, "\(symbolicated.stderr)")
        let before = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any]
        let after = try JSONSerialization.jsonObject(with: Data(symbolicated.stdout.utf8)) as? [String: Any]
        #expect(before?["category"] as? String == "swiftTrap")
        #expect(after?["category"] as? String == "swiftRuntimeError")
        #expect((after?["headline"] as? String)?.contains("Unexpectedly found nil while unwrapping an Optional value") == true)
    }

    @Test func unreadableReportIsInvalidInput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explain-cli-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.crash")
        try Data().write(to: empty)
        let result = try CLI.run(["explain", empty.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("empty"))
    }
}

/// Facts the parser carried decide the diagnosis, whatever the file's encoding (issue 15).
@Suite(.tags(.launchesBinary)) struct ExplainCarriedFactsCLITests {
    // A real crash .ips (corpus 2501osx SIGSEGV) with "isNonFatal" : true, saved as UTF-16LE
    // with a byte order mark, as a Windows editor or mail client does.
    @Test func utf16NonFatalIPSIsDiagnosedAsNonFatal() throws {
        let corpus = Corpus.bundled("2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips")
        var text = try String(contentsOf: corpus, encoding: .utf8)
        let headerEnd = try #require(text.firstIndex(of: "\n"))
        let bodyOpen = try #require(text[headerEnd...].firstIndex(of: "{"))
        text.insert(contentsOf: "\n  \"isNonFatal\" : true,", at: text.index(after: bodyOpen))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explain-utf16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nonfatal.ips")
        try (Data([0xFF, 0xFE]) + (try #require(text.data(using: .utf16LittleEndian)))).write(to: file)
        let result = try CLI.run(["explain", "--format", "json", file.path])
        // Explained, then refused as no crash: the report says the process went on.
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("not a crash: the report says the process kept running"), "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["isFatal"] as? Bool == false, "\(result.stdout)")
    }
}

/// Issue 17, "explain that is short and exact", through the real binary on the corpus copies
/// in Fixtures/corpus (real reports; sources in Fixtures/README.md).
@Suite(.tags(.launchesBinary)) struct ExplainShortAndExactCLITests {
    func diagnosis(_ name: String) throws -> [String: Any] {
        let result = try CLI.run(["explain", "--format", "json", Corpus.bundled(name).path])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func texts(_ diagnosis: [String: Any], _ key: String) -> [String] {
        if key == "causes" { return (diagnosis["causes"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
        return diagnosis[key] as? [String] ?? []
    }

    /// Was: 13 possible causes (use-after-free three times, nil among them) and 8 steps,
    /// "Read the fault address" among them though the report has none.
    @Test func generalProtectionFaultIsShort() throws {
        let d = try diagnosis("icdab__gpflt_fud_macos10-13.crash")
        let causes = texts(d, "causes"), steps = texts(d, "nextSteps")
        #expect(causes.count <= 3 && steps.count <= 4, "\(causes) \(steps)")
        #expect(causes.filter { $0.localizedCaseInsensitiveContains("use-after-free") }.count <= 1)
        #expect(!causes.contains { $0.localizedCaseInsensitiveContains("nil") })
        #expect(!steps.contains { $0.contains("fault address") })
    }

    /// Was: "Frames 0/1 give the file and line of the failed check" (they are libswiftCore).
    @Test func swiftTrapNamesFrameTwo() throws {
        let steps = texts(try diagnosis("macsym__exc-breakpoint_symbolicated_iphone14-2_ios15-5.crash"), "nextSteps")
        #expect(steps.contains { $0.contains("thread 0 frame 2") && $0.contains("CrashClass.pleaseCrash()") }, "\(steps)")
        #expect(!steps.contains { $0.contains("Frames 0/1") })
    }

    /// Was: an "ARM:" step on an x86_64 process translated by Rosetta.
    @Test func rosettaHasNoARMStep() throws {
        let d = try diagnosis("icdab__rosetta-avx-sigill_macos11b-dtk.crash")
        #expect(!(texts(d, "nextSteps") + texts(d, "causes")).contains { $0.hasPrefix("ARM") })
    }

    /// Was: "Find the process entry with a reason key" instead of naming it.
    @Test func jetsamReportNamesTheKilledProcess() throws {
        let headline = try diagnosis("icdab__jetsam-event_iphone_ios14-2b.ips")["headline"] as? String ?? ""
        #expect(headline.contains("killed dasd") && headline.contains("highwater"), "\(headline)")
    }

    /// Was: only "Look up the jetsam reason".
    @Test func jetsamTermSaysHowToFindAndFixIt() throws {
        let result = try CLI.run(["explain", "jetsam"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("Look up the jetsam reason"))
        #expect(result.stdout.contains("killed process"))
        #expect(result.stdout.contains("rpages × pageSize"))
    }

    /// Was: "unknown" — the code alone identifies a thermal kill, whatever the type says.
    @Test func thermalCodeUnderANumericType() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explain-thermal-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("thermal.crash")
        try """
        Incident Identifier: 2A3B4C5D-1111-2222-3333-444455556666
        Hardware Model:      iPhone6,1
        Process:         Demo [311]
        Path:            /private/var/mobile/Applications/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo
        Identifier:      com.example.Demo
        Code Type:       ARM-64 (Native)
        OS Version:      iOS 7.1 (11D167)
        Report Version:  104

        Exception Type:  00000020
        Exception Codes: 0xc00010ff
        Highlighted Thread:  0

        Thread 0:
        0   libsystem_kernel.dylib        \t0x0000000197e2ca94 mach_msg_trap + 8
        1   Demo                          \t0x0000000100004010 0x100000000 + 16400

        Binary Images:
        0x100000000 - 0x100007fff Demo arm64  <4c4c443b55553144a1e9455154cffd57> /private/var/mobile/Applications/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo
        0x197e18000 - 0x197e33fff libsystem_kernel.dylib arm64  <3c4c443b55553144a1e9455154cffd5a> /usr/lib/system/libsystem_kernel.dylib

        """.write(to: report, atomically: true, encoding: .utf8)
        let result = try CLI.run(["explain", report.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Diagnosis: Thermal kill (0xc00010ff"), "\(result.stdout)")
        #expect(result.stdout.contains("(category: thermal"))
    }

    /// Was: "not known", though the README says a line from a report works.
    @Test(arguments: [
        "EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=50 MB, unused=0x0)", "Exception Codes: 0xc00010ff",
        "Exception Type:  EXC_CRASH (SIGKILL)", "Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d",
    ])
    func reportLineIsATerm(line: String) throws {
        let result = try CLI.run(["explain", line])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("is not known"))
    }

    /// Was: a decompiled-firmware repository among EXC_RESOURCE's sources.
    @Test func sourcesAreApplesOnly() throws {
        let result = try CLI.run(["explain", "EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=50 MB, unused=0x0)"])
        let urls = result.stdout.split(separator: "\n").filter { $0.contains("Source:") }
            .compactMap { line in line.split(separator: "<").last.map { String($0.dropLast()) } }
        #expect(!urls.isEmpty)
        for url in urls {
            #expect(
                ["https://developer.apple.com/", "https://github.com/apple-oss-distributions/", "https://github.com/swiftlang/swift/"]
                    .contains { url.hasPrefix($0) }, "\(url)")
        }
    }
}
