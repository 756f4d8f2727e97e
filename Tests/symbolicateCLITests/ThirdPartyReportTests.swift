import Foundation
import SymbolicateTestSupport
import Testing

/// KSCrash reports, Sentry events and PLCrashReporter `.plcrash` files through the real binary:
/// the same crash read from its `.ips`, KSCrash, Sentry and PLCrashReporter forms prints the same
/// frame lines; unknown JSON exits 65.
@Suite(.tags(.launchesBinary)) struct ThirdPartyReportTests {
    static let own = "Fixtures/thirdparty/own"

    /// Every frame line (`N   Image   0x… rest`) of every thread, in order.
    static func frameLines(_ output: String) -> [String] {
        let lines = output.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.hasPrefix("Thread ") }),
            let images = lines.firstIndex(where: { $0.hasPrefix("Binary Images:") })
        else { return [] }
        return lines[first..<images].filter { $0.first?.isNumber == true }
    }

    static func run(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments + ["--color", "never"], currentDirectory: TestPaths.packageRoot)
    }

    @Test(
        "the same crash in .ips, KSCrash, Sentry and PLCrashReporter form symbolicates to identical frame lines",
        arguments: ["null-deref", "swift-trap"])
    func identicalFrameLines(_ scenario: String) throws {
        let ips = try Self.run(["Fixtures/reports/\(scenario).ips", "Fixtures/dsyms"])
        #expect(ips.status == 0)
        let expected = Self.frameLines(ips.stdout)
        #expect(expected.count > 10)
        // The app's frames came from the dSYM (file and line), not from the report.
        #expect(expected.contains { $0.contains("CrashApp") && $0.contains(".c:") || $0.contains(".swift:") })
        for form in ["kscrash.json", "sentry.json", "sentry.envelope", "plcrash"] {
            let other = try Self.run(["\(Self.own)/\(scenario).\(form)", "Fixtures/dsyms"])
            #expect(other.status == 0, "\(form): \(other.stderr)")
            #expect(Self.frameLines(other.stdout) == expected, "\(scenario).\(form)")
        }
    }

    @Test func jsonAndMarkdownFormats() throws {
        let json = try Self.run(["\(Self.own)/null-deref.kscrash.json", "Fixtures/dsyms", "--format", "json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["report"] as? [String: Any])?["format"] as? String == "kscrash")
        let markdown = try Self.run(["\(Self.own)/null-deref.sentry.json", "Fixtures/dsyms", "--format", "markdown"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("ca_record_body"))
    }

    /// `--format ips` gives the report back in its own layout with the symbols filled in.
    @Test func writesBackInItsOwnLayout() throws {
        let ks = try Self.run(["\(Self.own)/null-deref.kscrash.json", "Fixtures/dsyms", "--format", "ips"])
        #expect(ks.status == 0, "\(ks.stderr)")
        let ksObject = try #require(try JSONSerialization.jsonObject(with: Data(ks.stdout.utf8)) as? [String: Any])
        let crash = try #require(ksObject["crash"] as? [String: Any])
        let threads = try #require(crash["threads"] as? [[String: Any]])
        let top = try #require(((threads[0]["backtrace"] as? [String: Any])?["contents"] as? [[String: Any]])?.first)
        #expect(top["symbol_name"] as? String == "ca_record_checksum")
        // The top frame sits at its function's first instruction (`+ 0`).
        #expect(top["symbol_addr"] as? Int == top["instruction_addr"] as? Int)

        let sentry = try Self.run(["\(Self.own)/null-deref.sentry.json", "Fixtures/dsyms", "--format", "ips"])
        #expect(sentry.status == 0, "\(sentry.stderr)")
        let event = try #require(try JSONSerialization.jsonObject(with: Data(sentry.stdout.utf8)) as? [String: Any])
        let values = try #require((event["threads"] as? [String: Any])?["values"] as? [[String: Any]])
        let frames = try #require((values[0]["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        // Callers first: the crashing frame's inline chain ends the list, innermost last.
        let last = try #require(frames.last)
        #expect(last["function"] as? String == "ca_record_body")
        #expect(last["filename"] as? String == "Records.c")
        #expect(last["lineno"] as? Int == 43)
        #expect(frames.dropLast().last?["function"] as? String == "ca_record_count")
    }

    @Test func explainNamesTheExceptionAndTheMemoryTermination() throws {
        let ns = try Self.run(["explain", "Fixtures/thirdparty/kscrash/NSException.json"])
        #expect(ns.status == 0)
        #expect(ns.stdout.contains("NSInvalidArgumentException"))
        #expect(ns.stdout.contains("-[__NSArrayI objectForKey:]: unrecognized selector sent to instance 0x1e59bc50"))
        let oom = try Self.run(["explain", "Fixtures/thirdparty/kscrash/oom.json"])
        #expect(oom.status == 0, "\(oom.stderr)")
        #expect(oom.stdout.contains("category: memoryPressure"))
        #expect(oom.stdout.contains("memory termination"))
    }

    /// KSCrash's handler crash (`recrash_report`) lists one thread, which KSCrash numbers 7.
    @Test func handlerCrashKeepsKSCrashsThreadNumber() throws {
        let result = try Self.run(["Fixtures/thirdparty/kscrash/CrashInHandler.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Crashed: Thread 7 (KSCrash Exception Handler (Primary)) in onCrash"))
        #expect(result.stdout.contains("Triggered by Thread:  7"))
        #expect(result.stdout.contains("Thread 7 Crashed:"))
        #expect(result.stdout.contains("Thread 7 crashed with X86 Thread State"))
        // The first report's crashed thread is still its thread 0.
        #expect(result.stderr.contains("Crashed: Thread 0 (apple.main-thread) in -[Crasher dereferenceBadPointer]"))
    }

    /// KSCrash's deadlock monitor ends the process with no signal: explain says what the
    /// report says (a main-thread deadlock) and reads the main thread for what it waited on.
    @Test func explainReadsAMainThreadDeadlock() throws {
        let result = try Self.run(["explain", "Fixtures/thirdparty/kscrash/MainThreadDeadlock.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("Not enough information"))
        #expect(result.stdout.contains("Diagnosis: Main-thread deadlock, as the report states"))
        #expect(result.stdout.contains("category: watchdog, confidence: stated"))
        #expect(result.stdout.contains("CrashDoctor: Main thread deadlocked in __19-[Crasher deadlock]_block_invoke"))
        #expect(result.stdout.contains("frame 0: libsystem_kernel.dylib semaphore_wait_signal_trap"))
        #expect(result.stdout.contains("[likely] The main thread was blocked waiting (semaphore_wait"))
    }

    /// A memory termination records no thread: the headline says how the process ended.
    @Test func memoryTerminationHeadlineSaysHowTheProcessEnded() throws {
        for arguments in [["Fixtures/thirdparty/kscrash/oom.json"], ["--explain", "Fixtures/thirdparty/kscrash/oom.json"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let all = result.stderr + result.stdout
            #expect(!all.contains("no crashed thread named"))
            #expect(
                all.contains(
                    "Terminated: JETSAM: memory termination (the system ended the app for its memory use): memory_level terminal, memory_footprint 100, memory_limit 100"
                ))
            #expect(all.contains("; the report records no threads"))
        }
    }

    /// `0x100a401bc CrashApp + 16828` (the image named where the symbol goes, as KSCrash's and
    /// Sentry's text write an unsymbolicated frame) in a report without Binary Images: the frame
    /// gives its image's load address and resolves like Apple's `0x100a3c000 + 16828`.
    @Test func imageNameAndOffsetFrameIsSymbolicated() throws {
        let folder = try TestPaths.temporaryDirectory("image-name-frames")
        let source = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash"), encoding: .utf8)
        let head = try #require(source.components(separatedBy: "\nBinary Images:").first) + "\n"
        let apple = folder.appendingPathComponent("apple.crash")
        let named = folder.appendingPathComponent("named.crash")
        try Data(head.utf8).write(to: apple)
        let renamed = try NSRegularExpression(pattern: #"0x([0-9a-f]+) 0x100a3c000 \+ ([0-9]+)"#)
            .stringByReplacingMatches(
                in: head, range: NSRange(head.startIndex..., in: head), withTemplate: "0x0000000$1 CrashApp + $2")
        #expect(renamed.contains("0x0000000100a401bc CrashApp + 16828"))
        try Data(renamed.utf8).write(to: named)
        let plain = try Self.run([apple.path, "Fixtures/dsyms"])
        let other = try Self.run([named.path, "Fixtures/dsyms"])
        #expect(other.status == 0, "\(other.stderr)")
        // Neither prints a Binary Images section: every frame line after the first thread's.
        func rests(_ output: String) -> [String] {
            output.components(separatedBy: "\n").drop { !$0.hasPrefix("Thread ") }.filter { $0.first?.isNumber == true }
                .map { line in line.split(whereSeparator: \.isWhitespace).dropFirst(3).joined(separator: " ") }
        }
        let expected = rests(plain.stdout)
        #expect(expected.contains { $0.hasPrefix("Engine::Storage::RecordStore::importAll(char const* const*, int) + 48 (Engine.cpp:21)") })
        #expect(rests(other.stdout) == expected)
    }

    /// A `.plcrash` with an uncaught NSException: explain names it from the report's data, and
    /// the frames of its throw are symbolicated from the dSYM like the threads.
    @Test func plcrashExceptionIsExplainedAndItsThrowSymbolicated() throws {
        let explained = try Self.run(["explain", "\(Self.own)/objc-exception.plcrash"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("NSInternalInconsistencyException"))
        #expect(explained.stdout.contains("profile store is corrupt"))
        let report = try Self.run(["\(Self.own)/objc-exception.plcrash", "Fixtures/dsyms"])
        #expect(report.status == 0, "\(report.stderr)")
        let ips = try Self.run(["Fixtures/reports/objc-exception.ips", "Fixtures/dsyms"])
        func backtrace(_ output: String) -> [String] {
            let lines = output.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: "Last Exception Backtrace:") else { return [] }
            return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
        }
        #expect(backtrace(report.stdout).count == 9)
        #expect(backtrace(report.stdout) == backtrace(ips.stdout))
    }

    /// A cut `.plcrash`: exit 65, the file and the byte named, nothing on standard output.
    @Test func damagedPlcrashExits65NamingTheByte() throws {
        let folder = try TestPaths.temporaryDirectory("damaged-plcrash")
        let file = folder.appendingPathComponent("cut.plcrash")
        let whole = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("\(Self.own)/null-deref.plcrash"))
        try whole.prefix(whole.count / 2).write(to: file)
        let result = try Self.run([file.path, "Fixtures/dsyms"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cut.plcrash"))
        #expect(result.stderr.contains("PLCrashReporter report cut short"))
        #expect(result.stderr.contains("(at byte "))
    }

    @Test func unknownJSONExits65NamingTheLayoutsTried() throws {
        let folder = try TestPaths.temporaryDirectory("unknown-json")
        let file = folder.appendingPathComponent("package.json")
        try Data("{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": {}\n}\n".utf8).write(to: file)
        let result = try Self.run([file.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("package.json"))
        #expect(result.stderr.contains("KSCrash report") && result.stderr.contains("Sentry event") && result.stderr.contains(".ips"))
    }

    @Test func pointerAuthenticatedTextFrameResolvesLikeThePlainOne() throws {
        let plain = try Self.run(["Fixtures/reports/null-deref.crash", "Fixtures/dsyms"])
        let signed = try Self.run(["\(Self.own)/null-deref-pac.crash", "Fixtures/dsyms"])
        #expect(signed.status == 0)
        #expect(signed.stderr.contains("pointer-authentication bits"))
        // Same symbols, file and line; only the address column keeps what the report printed.
        func rests(_ lines: [String]) -> [String] {
            lines.map { line in line.split(whereSeparator: \.isWhitespace).dropFirst(3).joined(separator: " ") }
        }
        #expect(rests(Self.frameLines(signed.stdout)) == rests(Self.frameLines(plain.stdout)))
    }

    @Test func batchReadsThemAndGroupsTheThreeFormsOfOneCrash() throws {
        let folder = try TestPaths.temporaryDirectory("thirdparty-batch")
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for name in ["null-deref.kscrash.json", "null-deref.sentry.json", "null-deref.plcrash"] {
            try FileManager.default.copyItem(
                at: TestPaths.packageRoot.appendingPathComponent("\(Self.own)/\(name)"), to: inputs.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips"), to: inputs.appendingPathComponent("null-deref.ips"))
        // KSCrash 2.x sorts its keys: the first 16 KiB the batch sniffer reads are binary images.
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("thirdparty/kscrash/NSException.json"),
            to: inputs.appendingPathComponent("ks.json"))
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(
            ["batch", inputs.path, "--dsyms", "Fixtures/dsyms", "--output", out.path, "--github-annotations", "--source-root", "/src"],
            currentDirectory: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("::error file=CrashApp/Records.c,line=43,title=Crash (4 reports)"))
        let summary = try JSONDecoder().decode(BatchSummaryJSON.self, from: Data(contentsOf: out.appendingPathComponent("summary.json")))
        #expect(summary.totals.processed == 5)
        #expect(summary.groups.count == 2)
        #expect(summary.groups.contains { $0.count == 4 })
    }
}
