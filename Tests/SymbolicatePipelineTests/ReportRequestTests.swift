import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

/// The rules of a `report` run, tested on the request itself: what the CLI prints is these
/// messages and this output, so the end-to-end tests need only check that it prints them.
@Suite struct ReportRequestTests {
    static let reports = TestPaths.fixtures.appendingPathComponent("reports")
    static let swiftTrap = reports.appendingPathComponent("swift-trap.crash").path
    static let crashAppDSYM = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM").path

    static func golden(_ name: String) throws -> String {
        try Golden.text("\(name)")
    }

    @Test func outputIsTheGoldenWithTheHeadlineAskedFor() throws {
        let response = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], headline: true).run()
        #expect(response.status == .success)
        #expect(response.standardOutput == (try Self.golden("swift-trap.crash.txt")))
        #expect(response.output == response.standardOutput)
        #expect(response.reports.count == 1)
    }

    /// A server gets bytes in and must answer exactly as the CLI does for the file.
    @Test func bytesInGiveTheSameBytesOut() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.swiftTrap))
        let fromFile = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], format: .json).run()
        let fromBytes = ReportRequest(report: .bytes(data, name: Self.swiftTrap), debugFiles: [TestPaths.dsyms], format: .json).run()
        #expect(fromBytes.status == .success)
        #expect(fromBytes.output == fromFile.output)
        #expect(fromBytes.messages == fromFile.messages)
    }

    @Test func aDebugFileGivenFirstIsSwappedWithTheReport() throws {
        let swapped = try #require(ReportRequest.swapped(report: Self.crashAppDSYM, debugFiles: ["extra.dSYM", Self.swiftTrap]))
        #expect(swapped.report == Self.swiftTrap)
        #expect(swapped.debugFiles == ["extra.dSYM", Self.crashAppDSYM])
        #expect(ReportRequest.swapped(report: Self.swiftTrap, debugFiles: [Self.crashAppDSYM]) == nil)
        // Two debug files: nothing to swap with.
        #expect(ReportRequest.swapped(report: Self.crashAppDSYM, debugFiles: [TestPaths.dsyms]) == nil)

        let response = ReportRequest(report: .file(Self.crashAppDSYM), debugFiles: [Self.swiftTrap], headline: true).run()
        #expect(response.messages.first == .swappedArguments(debugFile: Self.crashAppDSYM, report: Self.swiftTrap))
        #expect(
            response.messages.first?.text(tool: "symbolicate")
                == "symbolicate: note: \(Self.crashAppDSYM) is a debug file and \(Self.swiftTrap) a crash report; reading them as `symbolicate \(Self.swiftTrap) \(Self.crashAppDSYM)`\n"
        )
        #expect(response.status == .success)
        #expect(response.reports.first?.summary?.appFramesSymbolicated ?? 0 > 0)
        // Read the right way round, nothing is said about the report not being a dSYM, and
        // the output is the one the arguments in order give.
        #expect(!response.messages.contains { if case .debugFileProblem = $0 { return true } else { return false } })
        let straight = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [Self.crashAppDSYM], headline: true).run()
        #expect(response.output == straight.output)
    }

    struct Placement: Sendable, CustomTestStringConvertible {
        var destination: ReportRequest.Destination
        var terminal: Bool
        var headline: Bool
        var format: OutputFormat
        var inOutput: Bool
        var separate: SymbolicatePipeline.OutputStream?
        var testDescription: String { "\(destination) terminal:\(terminal) --headline:\(headline) \(format)" }
    }

    /// The headline is for the person at the terminal: in the output when that is the
    /// terminal (or `--headline`), else on the terminal's stream beside it; JSON and Markdown
    /// carry it themselves.
    @Test(arguments: [
        Placement(destination: .standardOutput, terminal: true, headline: false, format: .text, inOutput: true, separate: nil),
        Placement(destination: .standardOutput, terminal: false, headline: false, format: .text, inOutput: false, separate: .standardError),
        Placement(destination: .standardOutput, terminal: false, headline: true, format: .text, inOutput: true, separate: nil),
        Placement(
            destination: .file("out.crash"), terminal: true, headline: false, format: .text, inOutput: false, separate: .standardOutput),
        Placement(
            destination: .file("out.crash"), terminal: false, headline: false, format: .ips, inOutput: false, separate: .standardError),
        Placement(destination: .file("out.crash"), terminal: true, headline: true, format: .text, inOutput: true, separate: nil),
        Placement(destination: .standardOutput, terminal: false, headline: false, format: .json, inOutput: false, separate: nil),
        Placement(destination: .file("out.md"), terminal: true, headline: false, format: .markdown, inOutput: false, separate: nil),
    ])
    func headlinePlacement(_ case_: Placement) {
        let request = ReportRequest(
            report: .file(Self.swiftTrap), format: case_.format, headline: case_.headline, destination: case_.destination,
            terminal: Terminal(standardOutputIsTerminal: case_.terminal))
        #expect(request.headlineInOutput == case_.inOutput)
        #expect(request.separateHeadlineStream == case_.separate)
    }

    @Test func theSeparateHeadlineIsAMessageOnItsStream() throws {
        let response = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms]).run()
        let headlines = response.messages.filter { if case .headline = $0 { return true } else { return false } }
        #expect(headlines.count == 1)
        #expect(headlines.first?.stream == .standardError)
        let text = try #require(headlines.first?.text(tool: "symbolicate"))
        #expect(!text.hasPrefix("symbolicate:") && text.hasSuffix("\n"))
        #expect(try Self.golden("swift-trap.crash.txt").hasPrefix(text))
        #expect(response.standardOutput.map { !$0.hasPrefix(text) } == true)
    }

    @Test func colourOnlyOnATerminalAndNeverInFiles() {
        let terminal = Terminal(standardOutputIsTerminal: true)
        #expect(ColorChoice.auto.enabled(on: terminal))
        #expect(!ColorChoice.auto.enabled(on: .none))
        #expect(!ColorChoice.auto.enabled(on: Terminal(standardOutputIsTerminal: true, environment: ["NO_COLOR": "1"])))
        #expect(ColorChoice.auto.enabled(on: Terminal(standardOutputIsTerminal: true, environment: ["NO_COLOR": ""])))
        #expect(!ColorChoice.auto.enabled(on: Terminal(standardOutputIsTerminal: true, environment: ["TERM": "dumb"])))
        #expect(ColorChoice.always.enabled(on: Terminal(standardOutputIsTerminal: false, environment: ["NO_COLOR": "1"])))
        #expect(!ColorChoice.never.enabled(on: terminal))
        let toFile = ReportRequest(report: .file(Self.swiftTrap), color: .always, destination: .file("x"), terminal: terminal)
        #expect(!toFile.usesColor)
        #expect(ReportRequest(report: .file(Self.swiftTrap), color: .always).usesColor)
    }

    @Test func anOutputThatWouldReplaceAnInputIsRefused() throws {
        let folder = try TestPaths.temporaryDirectory("request")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("a.crash")
        try FileManager.default.copyItem(atPath: Self.swiftTrap, toPath: report.path)
        let before = try Data(contentsOf: report)
        let link = folder.appendingPathComponent("link.crash")
        try FileManager.default.linkItem(at: report, to: link)
        for output in [report.path, link.path, folder.appendingPathComponent("missing/../a.crash").path] {
            let response = ReportRequest(report: .file(report.path), debugFiles: [TestPaths.dsyms], destination: .file(output)).run()
            #expect(response.status == .usage)
            #expect(response.failure == .outputReplacesInput(output: output, input: report.path))
            #expect(response.output == nil)
        }
        // The debug files are inputs too, down to the DWARF file inside a bundle.
        let dwarf = Self.crashAppDSYM + "/Contents/Resources/DWARF/CrashApp"
        let intoDSYM = ReportRequest(report: .file(report.path), debugFiles: [Self.crashAppDSYM], destination: .file(dwarf)).run()
        #expect(intoDSYM.failure == .outputReplacesInput(output: dwarf, input: dwarf))
        #expect(try Data(contentsOf: report) == before)
    }

    @Test func theOutputFileIsWrittenAndNotReturned() throws {
        let folder = try TestPaths.temporaryDirectory("request")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.crash").path
        let response = ReportRequest(
            report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], destination: .file(output),
            terminal: Terminal(standardOutputIsTerminal: true)
        ).run()
        #expect(response.status == .success)
        #expect(response.standardOutput == nil)
        // Written as it was rendered (issue 54): the response does not hold it as well.
        #expect(response.output == nil)
        let whole = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms]).run()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.output)
        // The terminal gets the headline on standard output, the file the report without it.
        #expect(response.messages.contains { $0.stream == .standardOutput })
        #expect(try !String(contentsOfFile: output, encoding: .utf8).contains("Crashed: Thread"))
        // `--headline`: the file has it on top and the terminal gets nothing beside.
        let asked = ReportRequest(
            report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], headline: true, destination: .file(output),
            terminal: Terminal(standardOutputIsTerminal: true)
        ).run()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == (try Self.golden("swift-trap.crash.txt")))
        #expect(!asked.messages.contains { if case .headline = $0 { return true } else { return false } })

        let unwritable = ReportRequest(
            report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms],
            destination: .file(folder.appendingPathComponent("no/such/out").path)
        ).run()
        #expect(unwritable.status == .cannotWrite)
        guard case .cannotWrite? = unwritable.failure else {
            Issue.record("expected cannotWrite, got \(String(describing: unwritable.failure))")
            return
        }
    }

    @Test func exitStatusesFollowTheFailure() throws {
        let missing = ReportRequest(report: .file(Self.swiftTrap), debugFiles: ["/nonexistent/App.dSYM"]).run()
        #expect(missing.failure == .debugFiles(.notFound(path: "/nonexistent/App.dSYM")))
        #expect(missing.status == .invalidInput)
        #expect(missing.messages.last?.text(tool: "symbolicate") == "symbolicate: error: /nonexistent/App.dSYM: no such file or folder\n")

        let unreadable = ReportRequest(report: .bytes(Data("hello\n".utf8), name: "notes.txt"), debugFiles: [TestPaths.dsyms]).run()
        #expect(unreadable.status == .invalidInput)
        guard case .unreadableReport(let error)? = unreadable.failure else {
            Issue.record("expected unreadableReport")
            return
        }
        #expect(error.path == "notes.txt")

        // `--format ips` of a text report is a usage error.
        let ipsOfText = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], format: .ips).run()
        #expect(ipsOfText.status == .usage)
        guard case .cannotRender? = ipsOfText.failure else {
            Issue.record("expected cannotRender")
            return
        }
        #expect(ipsOfText.messages.last?.text(tool: "symbolicate").contains("--format ips") == true)
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 64, 65, 73])
    }

    @Test func requireAllFailsWhenAnAppImageIsLeftUnsymbolicated() throws {
        let mismatch = Self.reports.appendingPathComponent("uuid-mismatch.crash").path
        let lenient = ReportRequest(report: .file(mismatch), debugFiles: [TestPaths.dsyms]).run()
        #expect(lenient.status == .success)
        #expect(lenient.messages.contains { if case .image(let d) = $0 { return d.isAppImage } else { return false } })
        let strict = ReportRequest(report: .file(mismatch), debugFiles: [TestPaths.dsyms], requireAll: true).run()
        #expect(strict.status == .failed)
        #expect(strict.output == lenient.output)
        let symbolicated = ReportRequest(report: .file(Self.swiftTrap), debugFiles: [TestPaths.dsyms], requireAll: true).run()
        #expect(symbolicated.status == .success)
    }

    /// With no debug-file argument the report's folder is searched (and said so); unreadable
    /// files met there are only mentioned when they concern a dSYM.
    @Test func theImplicitSearchIsSaidAndOnlyDSYMProblemsAreMentioned() throws {
        let folder = try TestPaths.temporaryDirectory("request")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("a.crash")
        try FileManager.default.copyItem(atPath: Self.swiftTrap, toPath: report.path)
        try FileManager.default.copyItem(atPath: Self.crashAppDSYM, toPath: folder.appendingPathComponent("CrashApp.app.dSYM").path)
        try Data("not a zip".utf8).write(to: folder.appendingPathComponent("notes-dSYM.zip"))
        let response = ReportRequest(report: .file(report.path)).run()
        #expect(response.status == .success)
        guard case .searched(let search)? = response.messages.first else {
            Issue.record("expected the search line first, got \(response.messages)")
            return
        }
        #expect(search.nearReport && !search.searchPath && search.found == 1)
        #expect(response.reports.first?.summary?.appFramesSymbolicated ?? 0 > 0)
        let problems = response.messages.compactMap { if case .debugFileProblem(let p) = $0 { return p } else { return nil } }
        #expect(problems.allSatisfy { $0.mentionsDSYM })
    }

    @Test func dsymProblemsAreToldApartByWhatTheyName() {
        #expect(DebugFileProblem.discovery(.notADebugFile(path: "/x/Broken.dSYM")).mentionsDSYM)
        #expect(DebugFileProblem.discovery(.zip(path: "/x/all.zip", entry: "A.dSYM/Contents", message: "bad")).mentionsDSYM)
        #expect(!DebugFileProblem.discovery(.io(path: "/x/notes.txt", message: "permission denied")).mentionsDSYM)
    }
}

/// `explain`: a term or a report, decided by whether the first argument is a file.
@Suite struct ExplainRequestTests {
    @Test func anExistingFileIsAReportAndAnythingElseATerm() {
        guard case .report(let source, let debugFiles) = ExplainRequest.subject(arguments: [ReportRequestTests.swiftTrap, "a.dSYM"]) else {
            Issue.record("expected a report")
            return
        }
        #expect(source.userPath == ReportRequestTests.swiftTrap && debugFiles == ["a.dSYM"])
        guard case .term(let term) = ExplainRequest.subject(arguments: ["KERN_INVALID_ADDRESS", "at", "0x10"]) else {
            Issue.record("expected a term")
            return
        }
        #expect(term == "KERN_INVALID_ADDRESS at 0x10")
    }

    @Test func anUnknownTermFailsButStillAnswers() {
        let known = ExplainRequest(subject: .term("EXC_BAD_ACCESS")).run()
        #expect(known.status == .success && known.standardOutput?.isEmpty == false)
        let unknown = ExplainRequest(subject: .term("NOT_A_TERM_AT_ALL_XYZ")).run()
        #expect(unknown.status == .failed)
        #expect(unknown.standardOutput?.isEmpty == false)
    }

    @Test func aReportIsDiagnosedAndAnUnreadableOneFails() throws {
        let response = ExplainRequest(subject: .report(.file(ReportRequestTests.swiftTrap), debugFiles: []), format: .json).run()
        #expect(response.status == .success)
        #expect(response.reports.first?.diagnosis != nil)
        #expect(response.standardOutput?.hasPrefix("{") == true)
        let bad = ExplainRequest(subject: .report(.bytes(Data(), name: "empty.crash"), debugFiles: [])).run()
        #expect(bad.status == .invalidInput && bad.standardOutput == nil)
    }
}

/// `atos`: arguments that make no request are usage errors; the rest are input errors.
@Suite struct AtosRequestTests {
    static let dwarf = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM").path

    @Test func badArgumentsAreUsageErrors() {
        let notHex = AtosRequest(debugFile: Self.dwarf, loadAddress: "xyz", addresses: ["0x1"]).run()
        #expect(notHex.failure == .invalidArgument("-l: not a hex address: xyz") && notHex.status == .usage)
        let both = AtosRequest(debugFile: Self.dwarf, loadAddress: "0x1000", offsets: true, addresses: ["0x1"]).run()
        #expect(both.failure == .invalidArgument("-l and --offset cannot be used together"))
        let uuid = AtosRequest(debugFile: Self.dwarf, uuid: "nope", addresses: ["0x1"]).run()
        #expect(uuid.failure == .invalidArgument("--uuid: not a UUID or build ID: nope"))
    }

    @Test func addressesComeFromArgumentsElseTheFileElseStandardInput() {
        let fromInput = AtosRequest(debugFile: Self.dwarf, standardInput: { Data("0x1 0x2,0x3\n".utf8) }).run()
        #expect(fromInput.status == .success)
        #expect(fromInput.output?.split(separator: "\n").count == 3)
        let unreadable = AtosRequest(debugFile: Self.dwarf, addressFile: "/nonexistent/addresses.txt").run()
        #expect(unreadable.status == .invalidInput)
        #expect(unreadable.messages.last?.text(tool: "symbolicate atos") == "symbolicate atos: cannot read /nonexistent/addresses.txt\n")
        let missing = AtosRequest(debugFile: "/nonexistent/App.dSYM", addresses: ["0x1"]).run()
        #expect(missing.status == .invalidInput && missing.output == nil)
    }
}
