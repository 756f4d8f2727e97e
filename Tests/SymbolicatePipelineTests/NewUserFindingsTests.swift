import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

/// What a new user found (issue 39), tested on the request types.
@Suite struct NewUserFindingsTests {
    /// The App Review excerpt of issue 39, finding 4 (the corpus's
    /// `issue__mtadmob-125_appstore-review_ipad_sigabrt.crash`, as pasted into a review reply):
    /// the app's frame has no Binary Images entry to match, and the text stops inside it.
    static let appReviewExcerpt = """
        Incident Identifier: C46C84FE-9579-4D52-B827-2B7D3906507F
        Hardware Model:      iPad11,3
        Process:             Yatzy.iOS [1671]
        Path:                /private/var/containers/Bundle/Application/25DB4695-B7AF-4277-9E2B-4F16DB576C86/Yatzy.iOS.app/Yatzy.iOS
        Identifier:          com.sitesculptors.Yatzy
        Version:             2.4 (2.4)
        Code Type:           ARM-64 (Native)
        OS Version:          iPhone OS 16.2 (20C65)
        Report Version:      104

        Exception Type:  EXC_CRASH (SIGABRT)
        Exception Codes: 0x0000000000000000, 0x0000000000000000
        Triggered by Thread:  0

        Thread 0 name:  tid_103 Dispatch queue: com.apple.main-thread
        Thread 0 Crashed:
        0   libsystem_kernel.dylib        \t       0x1cbba1160 __pthread_kill + 8
        1   libsystem_pthread.dylib       \t       0x1dc1fc1ac pthread_kill + 268
        2   libsystem_c.dylib             \t       0x196154c8c abort + 180
        3   Yatzy.iOS                     \t       0x106f9b448 xama

        """

    /// The header of a report and nothing more (the corpus's
    /// `sentry-acrp__truncated-after-header_iphone8-1_ios13-3.crash`).
    static let headerOnly = """
        Incident Identifier: 6156848E-344E-4D9E-84E0-87AFD0D0AE7B
        Hardware Model:      iPhone8,1
        Process:             TouchCanvas [1052]
        Path:                /private/var/containers/Bundle/Application/51346174-37EF-4F60-B72D-8DE5F01035F5/TouchCanvas.app/TouchCanvas
        Identifier:          com.example.apple-samplecode.TouchCanvas
        Version:             1 (3.0)
        Code Type:           ARM-64 (Native)

        Date/Time:           2020-03-27 18:06:51.4969 -0700
        OS Version:          iPhone OS 13.3.1 (17D50)

        """

    static func request(_ text: String, requireAll: Bool) -> ReportRequest {
        ReportRequest(
            report: .bytes(Data(text.utf8), name: "excerpt.crash"), debugFiles: [TestPaths.dsyms], searchesNearReport: false,
            requireAll: requireAll)
    }

    /// Finding 4: the CI gate never passes a report in which nothing was checked.
    @Test func requireAllFailsOnAnAppFrameNoImageCovers() throws {
        let lenient = Self.request(Self.appReviewExcerpt, requireAll: false).run()
        #expect(lenient.status == .success, "\(lenient.messages)")
        let strict = Self.request(Self.appReviewExcerpt, requireAll: true).run()
        #expect(strict.status == .failed)
        #expect(strict.output == lenient.output)
        #expect(strict.messages.contains(.requireAll(path: "excerpt.crash", .appFramesWithoutImage(image: "Yatzy.iOS", frames: 1))))
        let text = strict.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(text.contains("symbolicate: error: --require-all: excerpt.crash: 1 frame of Yatzy.iOS matches no image"), "\(text)")
    }

    @Test func requireAllFailsOnAReportCutAfterItsHeader() throws {
        let strict = Self.request(Self.headerOnly, requireAll: true).run()
        #expect(strict.reports.count == 1, "\(strict.messages)")
        #expect(strict.status == .failed, "\(strict.messages)")
        #expect(strict.messages.contains { if case .requireAll(_, .nothingChecked) = $0 { return true } else { return false } })
        #expect(Self.request(Self.headerOnly, requireAll: false).run().status == .success)
    }

    /// A complete, fully symbolicated report still passes the gate.
    @Test func requireAllPassesAReportWhoseAppFramesWereChecked() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let response = ReportRequest(report: .file(report), debugFiles: [TestPaths.dsyms], requireAll: true).run()
        #expect(response.status == .success)
        #expect(!response.messages.contains { if case .requireAll = $0 { return true } else { return false } })
    }

    /// Finding 10: a report that does not exist is said before any debug file is looked for
    /// (a missing debug-file argument, or a zip that is not one, used to be the error).
    @Test func aMissingReportIsSaidBeforeAnyDebugFileIsLookedFor() throws {
        let folder = try TestPaths.temporaryDirectory("request")
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAZip = folder.appendingPathComponent("symbols.zip")
        try Data("not a zip".utf8).write(to: notAZip)
        let missing = folder.appendingPathComponent("reports/swift-trp.crash").path
        for debugFiles in [[folder.appendingPathComponent("gone.dSYM").path], [notAZip.path]] {
            let response = ReportRequest(report: .file(missing), debugFiles: debugFiles).run()
            guard case .unreadableReport? = response.failure else {
                Issue.record("expected the report's error, got \(response.messages)")
                continue
            }
            #expect(response.status == .invalidInput)
            #expect(response.failure?.description.contains("no such file") == true, "\(response.messages)")
        }
    }

    /// Finding 3: `explain reports/swift-trp.crash` (a typo) is a missing report, not a term.
    @Test(arguments: ["reports/swift-trp.crash", "swift-trp.ips", "./crash.txt"])
    func aPathThatDoesNotExistIsAMissingReport(path: String) throws {
        guard case .report(let source, let debugFiles) = ExplainRequest.subject(arguments: [path]) else {
            Issue.record("expected a report")
            return
        }
        #expect(source.userPath == path && debugFiles.isEmpty)
        let response = ExplainRequest(subject: .report(source, debugFiles: [])).run()
        #expect(response.status == .invalidInput)
        let text = response.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(text.contains("no such file"), "\(text)")
        #expect(!text.contains("knowledge base"))
    }

    /// Terms that look a little like paths stay terms.
    @Test(arguments: ["Trace/BPT trap: 5", "EXC_BAD_ACCESS", "0x8badf00d"])
    func termsStayTerms(term: String) {
        guard case .term = ExplainRequest.subject(arguments: term.split(separator: " ").map(String.init)) else {
            Issue.record("expected a term for \(term)")
            return
        }
    }

    /// Finding 12: `--crashed-only` applies to `--format json` as to the text: the crashed
    /// thread alone.
    @Test func crashedOnlyAppliesToJSON() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        func threads(_ crashedOnly: Bool) throws -> [[String: Any]] {
            let response = ReportRequest(report: .file(report), debugFiles: [TestPaths.dsyms], format: .json, crashedOnly: crashedOnly)
                .run()
            let data = Data((response.standardOutput ?? "").utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let model = try #require(object["report"] as? [String: Any])
            return try #require(model["threads"] as? [[String: Any]])
        }
        let all = try threads(false)
        let crashed = try threads(true)
        #expect(all.count > 1)
        #expect(crashed.count == 1)
        #expect(crashed.first?["crashed"] as? Bool == true)
    }

    /// Finding 11: `-v` says where each image's debug information came from.
    @Test func verboseSaysWhereEachImageCameFrom() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        var request = ReportRequest(report: .file(report), debugFiles: [TestPaths.dsyms])
        #expect(!request.run().messages.contains { if case .debugFileUsed = $0 { return true } else { return false } })
        request.verbose = true
        let used = request.run().messages.compactMap { message -> String? in
            if case .debugFileUsed = message { return message.text(tool: "symbolicate") }
            return nil
        }
        #expect(used.contains("symbolicate: note: CrashApp: symbolicated from \(TestPaths.dsyms)/CrashApp.app.dSYM\n"), "\(used)")
        #expect(used.contains { $0.hasPrefix("symbolicate: note: CrashKit: symbolicated from ") }, "\(used)")
    }

    /// Finding 8: a first app frame named by a placeholder gives way to the next app frame with
    /// a real name; a placeholder is never the headline's function.
    @Test func theHeadlinePrefersARealFrameToAPlaceholder() throws {
        func headline(_ frames: [String]) throws -> String {
            var text = "Incident Identifier: 356753AC-2172-45DC-977A-11F2328980D0\nProcess: MyApp [1]\n"
            text += "Path: /private/var/containers/Bundle/Application/X/MyApp.app/MyApp\nCode Type: ARM-64 (Native)\n\n"
            text += "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)\nTriggered by Thread:  0\n\nThread 0 Crashed:\n"
            for (number, frame) in frames.enumerated() { text += "\(number)   \(frame)\n" }
            text += "\nBinary Images:\n"
            text += "       0x102230000 -        0x102247fff MyApp arm64  <82d13d98219e3040b62a07a297007a7c> "
            text += "/private/var/containers/Bundle/Application/X/MyApp.app/MyApp\n"
            return Headline(report: try CrashReport.parse(data: Data(text.utf8), path: "h.crash")).text
        }
        let deduplicated = try headline([
            "MyApp                         \t       0x102234000 <deduplicated_symbol> + 8",
            "MyApp                         \t       0x102235000 Loader.load(_:) + 20",
        ])
        #expect(deduplicated.contains(" in Loader.load(_:) (MyApp)"), "\(deduplicated)")
        #expect(!deduplicated.contains("deduplicated"))
        let address = try headline([
            "libsystem_kernel.dylib        \t       0x1b9d9e050 mach_msg_trap + 8",
            "MyApp (*)                     \t       0x102234000 0x102230000 + 16384\t// 0x00020d58 + 0x80",
        ])
        #expect(!address.contains("0x00020d58") && !address.contains("(*)"), "\(address)")
        // An unnamed first app frame stays the place to symbolicate: no name from elsewhere.
        let unnamed = try headline([
            "MyApp                         \t       0x102234000 0x102230000 + 16384",
            "MyApp                         \t       0x102235000 Loader.load(_:) + 20",
        ])
        #expect(unnamed.contains(" in MyApp (not symbolicated)"), "\(unnamed)")
    }

    /// Finding 8: `explain` on a file of several reports says which one each diagnosis is for.
    @Test func explainSaysWhichEntryEachDiagnosisIsFor() throws {
        let payload = TestPaths.fixtures.appendingPathComponent("logs/crashapp-metrickit.json").path
        let response = ExplainRequest(subject: .report(.file(payload), debugFiles: [])).run()
        #expect(response.status == .success, "\(response.messages)")
        let count = response.reports.count
        try #require(count > 1)
        let text = response.standardOutput ?? ""
        for number in 1...count { #expect(text.contains("Entry \(number) of \(count): \(payload) ("), "\(text.prefix(400))") }
        let json = ExplainRequest(subject: .report(.file(payload), debugFiles: []), format: .json).run().standardOutput ?? ""
        #expect(json.components(separatedBy: "\"entry\" : {").count - 1 == count, "\(json.prefix(400))")
        // One report: no entry line.
        let single =
            ExplainRequest(
                subject: .report(.file(TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path), debugFiles: [])
            )
            .run().standardOutput ?? ""
        #expect(!single.contains("Entry 1"))
    }
}
