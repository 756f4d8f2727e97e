import Foundation
import Testing
import SymbolicateTestSupport

/// `symbolicate explain` through the real binary: terms, unknown terms, reports, formats.
@Suite struct ExplainCLITests {
    @Test(arguments: ["EXC_BAD_ACCESS", "SIGABRT", "0x8badf00d", "KERN_INVALID_ADDRESS", "EXC_RESOURCE"])
    func explainsTheIssueTerms(term: String) throws {
        let result = try CLI.run(["explain", term])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(term))
        #expect(result.stdout.contains("Source:"))
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
@Suite struct ExplainCarriedFactsCLITests {
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
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["isFatal"] as? Bool == false, "\(result.stdout)")
    }
}
