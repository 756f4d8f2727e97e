import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 17, "explain that is short and exact", checked on every real report at hand: the
/// fixture reports and the corpus copies always, the whole shared corpus (reports and
/// MetricKit payloads) when it sits beside the checkout.
@Suite struct DiagnosisShapeTests {
    static let bundledCorpus =
        ((try? FileManager.default.contentsOfDirectory(
            at: TestPaths.fixtures.appendingPathComponent("corpus"), includingPropertiesForKeys: nil)) ?? [])
        .filter { ["crash", "ips"].contains($0.pathExtension) }

    static let sharedCorpus: [URL] = {
        let metrickit = Corpus.reportsDirectory.deletingLastPathComponent().appendingPathComponent("metrickit")
        let payloads = ((try? FileManager.default.contentsOfDirectory(at: metrickit, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
        return Corpus.allReports.map(Corpus.url) + payloads
    }()

    static let reportFiles: [URL] =
        (Corpus.fixtureReports.filter { ["crash", "ips"].contains($0.pathExtension) }
        + bundledCorpus + sharedCorpus).sorted { $0.lastPathComponent < $1.lastPathComponent }

    /// Every diagnosis of a file (a MetricKit payload has several); none for a file the reader
    /// refuses (its error is tested elsewhere).
    static func diagnoses(_ url: URL) -> [(CrashReport, Diagnosis)] {
        guard let data = try? Data(contentsOf: url),
            let reports = try? CrashReport.parseAll(data: data, path: url.path)
        else { return [] }
        return reports.map { ($0, diagnose($0)) }
    }

    @Test func theCorpusCopiesAreRead() {
        #expect(Self.bundledCorpus.count >= 7)
        for url in Self.bundledCorpus { #expect(!Self.diagnoses(url).isEmpty, "\(url.lastPathComponent)") }
    }

    @Test(arguments: reportFiles)
    func atMostThreeCausesAndFourStepsWithoutRepeats(file: URL) {
        for (_, diagnosis) in Self.diagnoses(file) {
            #expect(diagnosis.causes.count <= 3, "\(file.lastPathComponent): \(diagnosis.causes.map(\.text))")
            #expect(diagnosis.nextSteps.count <= 4, "\(file.lastPathComponent): \(diagnosis.nextSteps)")
            #expect(Set(diagnosis.causes.map(\.text)).count == diagnosis.causes.count)
            #expect(Set(diagnosis.nextSteps).count == diagnosis.nextSteps.count)
        }
    }

    /// A step that sends the reader to a part of the report needs the report to have it.
    @Test(arguments: reportFiles)
    func stepsNeedWhatTheyRead(file: URL) {
        for (report, diagnosis) in Self.diagnoses(file) {
            let faultAddress = [report.exception?.subtype, report.exception?.codes].contains { $0?.contains(" at 0x") == true }
            let needs: [(String, Bool)] = [
                ("fault address", faultAddress),
                ("Last Exception Backtrace", !(report.lastExceptionBacktrace?.frames.isEmpty ?? true)),
                ("Application Specific Information", !(report.applicationSpecificInformation ?? "").isEmpty),
                ("VM Region Info", report.vmRegionInfo != nil),
                ("crashed thread", !(report.crashedThread?.frames.isEmpty ?? true)),
            ]
            for step in diagnosis.nextSteps {
                for (part, present) in needs where step.contains(part) {
                    #expect(present, "\(file.lastPathComponent): '\(step)' but the report has no \(part)")
                }
            }
        }
    }

    /// Advice for one architecture or operating system only on reports from it.
    @Test(arguments: reportFiles)
    func platformAdviceMatchesThePlatform(file: URL) {
        for (report, diagnosis) in Self.diagnoses(file) {
            let codeType = (report.codeType ?? "").uppercased()
            let arch = report.architecture?.name ?? ""
            let intel = codeType.contains("X86") || arch.hasPrefix("x86") || arch == "i386"
            let nativeARM = !intel && (codeType.contains("ARM") || arch.hasPrefix("arm"))
            let os = (report.osVersion ?? "").lowercased()
            for text in diagnosis.causes.map(\.text) + diagnosis.nextSteps {
                if text.hasPrefix("ARM:") { #expect(nativeARM, "\(file.lastPathComponent): '\(text)' on \(codeType)") }
                if text.hasPrefix("x86_64:") { #expect(intel, "\(file.lastPathComponent): '\(text)' on \(codeType)") }
                if text.range(of: #"\bwatchOS\b"#, options: .regularExpression) != nil {
                    #expect(os.contains("watch"), "\(file.lastPathComponent): '\(text)' on \(os)")
                }
                if text.range(of: #"\biOS\b"#, options: .regularExpression) != nil {
                    #expect(
                        os.contains("iphone os") || os.contains("ios") || os.contains("ipados"),
                        "\(file.lastPathComponent): '\(text)' on \(os)")
                }
            }
        }
    }

    /// Every frame the diagnosis names exists, holds the function it says, and is
    /// unsymbolicated when it is to be symbolicated; no frame is named by number alone.
    @Test(arguments: reportFiles)
    func framesNamedAreTheReportsFrames(file: URL) throws {
        let reference = try Regex(#"(thread (\d+)|Last Exception Backtrace) frame (\d+)"#)
        for (report, diagnosis) in Self.diagnoses(file) {
            for text in diagnosis.causes.map(\.text) + diagnosis.nextSteps {
                let plain = text.replacing(reference, with: "")
                #expect(
                    plain.range(of: #"\bframes? [0-9]"#, options: .regularExpression) == nil,
                    "\(file.lastPathComponent): '\(text)' names a frame without its thread")
                for match in text.matches(of: reference) {
                    let frames: [Frame]
                    if let thread = match.output[2].substring.flatMap({ Int($0) }) {
                        frames = report.threads.first { $0.index == thread }?.frames ?? []
                    } else {
                        frames = report.lastExceptionBacktrace?.frames ?? []
                    }
                    let index = Int(match.output[3].substring ?? "") ?? -1
                    let frame = try #require(
                        frames.first { $0.index == index }, "\(file.lastPathComponent): '\(text)' names a missing frame")
                    let names = (frame.symbolication?.map(\.function) ?? []) + [frame.symbol].compactMap { $0 }
                    if text.hasPrefix("Symbolicate") {
                        #expect(
                            frame.symbolication == nil && (frame.symbol == nil || frame.isUnsymbolicated),
                            "\(file.lastPathComponent): '\(text)' but the frame is symbolicated")
                    }
                    if let function = firstMatch(#"^(?:Open \S+ in|Start at) (.+?) \((?:thread|Last Exception)"#, in: text)?.first ?? nil {
                        #expect(
                            names.contains { $0.split(whereSeparator: \.isNewline).joined(separator: " ") == function },
                            "\(file.lastPathComponent): '\(text)' but the frame holds \(names)")
                    }
                }
            }
        }
    }

    /// A fault address that is known and far from zero, or an x86 general-protection fault
    /// (nil raises a page fault, not that), rules out a nil dereference.
    @Test(arguments: reportFiles)
    func noNilCauseWhenTheAddressRulesItOut(file: URL) {
        for (report, diagnosis) in Self.diagnoses(file) where report.exception?.type == "EXC_BAD_ACCESS" {
            let codes = [report.exception?.subtype, report.exception?.codes].compactMap { $0 }.joined(separator: " ")
            let address = (firstMatch(#" at (0x[0-9a-fA-F]+)"#, in: codes)?.first ?? nil).flatMap(parseNumber)
            guard codes.contains("EXC_I386_GPFLT") || (address.map { $0 >= 0x10000 } ?? false) else { continue }
            for cause in diagnosis.causes {
                #expect(
                    cause.text.range(of: #"\bnil\b|NULL"#, options: .regularExpression) == nil,
                    "\(file.lastPathComponent): '\(cause.text)' although the fault is \(codes)")
            }
        }
    }

    /// A watchdog report whose CPU time shows the app computing is not also blamed on a
    /// blocked main thread, nor a waiting one on busy work.
    @Test(arguments: reportFiles)
    func watchdogCausesAgreeWithTheCPUTime(file: URL) {
        for (_, diagnosis) in Self.diagnoses(file) {
            guard let cpu = diagnosis.evidence.first(where: { $0.field == "Watchdog CPU" })?.note else { continue }
            let causes = diagnosis.causes.map { $0.text.lowercased() }
            if cpu.contains("computing") {
                #expect(
                    !causes.contains { $0.contains("deadlock") || $0.contains("blocked") || $0.contains("synchronous") },
                    "\(file.lastPathComponent): \(causes)")
            } else if cpu.contains("waiting") {
                #expect(
                    !causes.contains { $0.contains("busy") || $0.contains("long-running") || $0.contains("heavy work") },
                    "\(file.lastPathComponent): \(causes)")
            }
        }
    }

    @Test func watchdogFixtureIsTheComputingCase() throws {
        let (_, diagnosis) = try #require(Self.diagnoses(TestPaths.fixtures.appendingPathComponent("reports/watchdog.crash")).first)
        #expect(diagnosis.category == .watchdog)
        #expect(diagnosis.evidence.first { $0.field == "Watchdog CPU" }?.note?.contains("computing") == true)
        #expect(diagnosis.nextSteps.first?.contains("thread 0 frame 0") == true)
    }

    // MARK: - The issue's examples, on the corpus copies

    @Test func generalProtectionFault() throws {
        let (_, diagnosis) = try #require(Self.diagnoses(Corpus.bundled("icdab__gpflt_fud_macos10-13.crash")).first)
        #expect(diagnosis.causes.count <= 3)
        #expect(diagnosis.causes.filter { $0.text.localizedCaseInsensitiveContains("use-after-free") }.count == 1)
        #expect(!diagnosis.causes.contains { $0.text.localizedCaseInsensitiveContains("nil") })
        #expect(!diagnosis.nextSteps.contains { $0.contains("fault address") })
    }

    @Test func rosettaReportHasNoARMStep() throws {
        let (_, diagnosis) = try #require(Self.diagnoses(Corpus.bundled("icdab__rosetta-avx-sigill_macos11b-dtk.crash")).first)
        #expect(diagnosis.category == .illegalInstruction)
        #expect(!(diagnosis.nextSteps + diagnosis.causes.map(\.text)).contains { $0.hasPrefix("ARM") })
    }

    /// Frames 0–1 are libswiftCore; the app's check is frame 2, and the step names it.
    @Test func swiftTrapNamesTheAppFrame() throws {
        let (_, diagnosis) = try #require(
            Self.diagnoses(Corpus.bundled("macsym__exc-breakpoint_symbolicated_iphone14-2_ios15-5.crash")).first)
        #expect(diagnosis.category == .swiftTrap)
        let step = try #require(diagnosis.nextSteps.first { $0.contains("thread 0 frame 2") })
        #expect(step.contains("CrashClass.pleaseCrash()"))
        #expect(!diagnosis.nextSteps.contains { $0.contains("frames 0/1") || $0.contains("frame 0") })
    }

    /// The libc++ assertion is inlined into the app's image: the app's line is the caller.
    @Test func inlinedLibraryCodeIsNotTheAppsLine() throws {
        let (_, diagnosis) = try #require(
            Self.diagnoses(Corpus.bundled("ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips")).first)
        #expect(
            diagnosis.nextSteps.first?.hasPrefix(
                "Open EntranceAwarePathfinder.cpp:61 in transitLib::EntranceAwarePathfinder::getPathBetweenStops") == true)
        let call = try #require(diagnosis.evidence.first { $0.note == "the call that failed the check" })
        #expect(call.field == "Thread 13 frame 2")
    }

    /// Two processes carry a reason (wifianalyticsd 382 pages, dasd 456 pages, highwater,
    /// neither frontmost): the largest killed one is named, with its reason and size.
    @Test func jetsamNamesTheKilledProcess() throws {
        let (_, diagnosis) = try #require(Self.diagnoses(Corpus.bundled("icdab__jetsam-event_iphone_ios14-2b.ips")).first)
        #expect(diagnosis.category == .memoryPressure)
        #expect(diagnosis.headline.contains("killed dasd"))
        #expect(diagnosis.headline.contains("highwater"))
        #expect(diagnosis.headline.contains("7.1 MB"))
        #expect(!diagnosis.nextSteps.contains { $0.contains("reason\" key") || $0.hasPrefix("Find the process") })
    }

    /// A legacy text jetsam report (iOS 8 layout: the header lines are the corpus report's,
    /// issue__ane-google-analytics-56, whose table is cut) with its table complete: one row
    /// aligned with `|` like the header, one aligned with spaces.
    static let legacyJetsam = """
        Incident Identifier: 4082F993-8075-4007-AE2B-EE25E569D0FA
        CrashReporter Key:   61871a3b45c887f9ab9e93946df0d472a297abae
        Hardware Model:      iPhone7,2
        OS Version:          iPhone OS 8.1 (12B411)
        Kernel Version:      Darwin Kernel Version 14.0.0: Tue Oct  7 00:04:33 PDT 2014; root:xnu-2783.3.13~4/RELEASE_ARM64_T7000
        Date:                2014-10-30 15:44:20 +0100
        Time since snapshot: 23 ms

        Free pages:                              2713
        Page Size:                               16384
        Largest process:   Clash of Clans

        Processes
             Name       |            <UUID>                |     CPU Time|     rpages|       purgeable| recent_max| lifetime_max| fds |  [reason]         | (state)
           Clash of Clans | <e8ac0b8f7a1c3a5b9d3e2f1a0b9c8d7e> |      120.405|      92802|               0|      92802|        92802|  40 |  [per-process-limit] | (frontmost) (resume)
               MobileMail <c5cf7e8ff6c83bd2a6a9b7da5a4d6fd8>      0.370       1474              0        -           2966  100    [vm-pageshortage] (continuous)
                 SpringBoard <a2d7c5ce7a8a3a2b9d4b8d7c0a4e5f3a>     90.120      12001              0        -          14000  200                      (daemon)

        """

    @Test func legacyTextJetsamNamesTheKilledProcess() throws {
        let diagnosis = try diagnoseText(Self.legacyJetsam)
        #expect(diagnosis.category == .memoryPressure)
        // 92,802 pages × 16,384 bytes ≈ 1.4 GB (the reference's worked example).
        #expect(diagnosis.headline.contains("killed Clash of Clans"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("per-process-limit") && diagnosis.headline.contains("1.4 GB"))
        #expect(diagnosis.hasEvidence("Also killed: MobileMail: reason vm-pageshortage"))
        #expect(!diagnosis.hasEvidence("SpringBoard"))
    }

    // MARK: - Swift runtime backtraces from Linux

    static let linuxLogs =
        ((try? FileManager.default.contentsOfDirectory(
            at: TestPaths.fixtures.appendingPathComponent("linux/logs"), includingPropertiesForKeys: nil)) ?? [])
        .filter { ["txt", "json"].contains($0.pathExtension) }.sorted { $0.path < $1.path }

    /// The type field holds a description ("Illegal instruction"); the signal decides, and
    /// the advice is not Apple's tooling.
    @Test(arguments: linuxLogs)
    func linuxBacktraceIsDiagnosedFromItsSignal(file: URL) {
        let diagnoses = Self.diagnoses(file)
        #expect(!diagnoses.isEmpty)
        for (_, diagnosis) in diagnoses {
            #expect(diagnosis.category != .unknown, "\(file.lastPathComponent): \(diagnosis.headline)")
            for text in diagnosis.nextSteps + diagnosis.causes.map(\.text) {
                #expect(!["dSYM", "Xcode", "Instruments", "Zombies"].contains { text.contains($0) }, "\(file.lastPathComponent): \(text)")
            }
        }
    }

    /// `Bad pointer dereference at 0x0000000000000020`: a field read through nil.
    @Test func linuxBadPointerNearZeroIsNil() throws {
        let (_, diagnosis) = try #require(Self.diagnoses(TestPaths.fixtures.appendingPathComponent("linux/logs/pointer.txt")).first)
        #expect(diagnosis.category == .nilDereference)
        #expect(diagnosis.headline.contains("0x20"))
    }

    // MARK: - Codes recognised whatever the type field says

    static func oldReport(type: String, codes: String) -> String {
        RuleDiagnosisTests.report(
            exception: ["Exception Type:  \(type)", "Exception Codes: \(codes)"],
            frames: RuleDiagnosisTests.appFrames)
    }

    @Test(arguments: [
        ("0xc00010ff", Diagnosis.Category.thermal), ("0x000000008badf00d", .watchdog),
        ("0xdead10cc", .lockedFileAtSuspension),
    ])
    func systemCodeUnderANumericType(code: String, category: Diagnosis.Category) throws {
        let diagnosis = try diagnoseText(Self.oldReport(type: "00000020", codes: code))
        #expect(diagnosis.category == category, "\(diagnosis.headline)")
        #expect(diagnosis.hasEvidence("Exception Codes: \(code)"))
    }

    @Test func thermalKillIsExplained() throws {
        let diagnosis = try diagnoseText(Self.oldReport(type: "00000020", codes: "0xc00010ff"))
        #expect(diagnosis.headline.contains("too hot"))
        #expect(!diagnosis.causes.isEmpty)
        #expect(diagnosis.nextSteps.contains { $0.contains("thermalState") })
        #expect(diagnosis.references.contains { $0.term == "0xc00010ff" })
    }

    /// The SIGQUIT entry has an iOS-only cause (a keyboard extension quit by its host app).
    @Test func iOSOnlyCauseIsNotOfferedOnMacOS() throws {
        let mac = RuleDiagnosisTests.report(exception: ["Exception Type:  EXC_CRASH (SIGQUIT)"], frames: RuleDiagnosisTests.appFrames)
            .replacingOccurrences(of: "iPhone OS 16.0 (20A362)", with: "macOS 13.0 (22A380)")
            .replacingOccurrences(of: "iPhone14,2", with: "MacBookPro18,1")
        let iPhone = RuleDiagnosisTests.report(exception: ["Exception Type:  EXC_CRASH (SIGQUIT)"], frames: RuleDiagnosisTests.appFrames)
        let onMac = try diagnoseText(mac).causes.map(\.text)
        let onIPhone = try diagnoseText(iPhone).causes.map(\.text)
        #expect(!onMac.contains { $0.contains("iOS") })
        #expect(onIPhone.contains { $0.contains("iOS") })
    }
}

/// `symbolicate explain "<a line from a report>"` (the README says a line from a report works).
@Suite struct ReportLineTermTests {
    static let labels = [
        "Exception Type:", "Exception Codes:", "Exception Subtype:", "Exception Note:",
        "Termination Reason:", "Termination Description:",
    ]

    /// The term-bearing lines of every text report at hand (codes that are all zero say nothing).
    static let reportLines: [String] = {
        let files = DiagnosisShapeTests.reportFiles.filter { $0.pathExtension == "crash" }
        var lines = Set<String>()
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) where labels.contains(where: { line.hasPrefix($0) }) {
                let numbers = line.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { parseNumber(String($0)) }
                let words = line.split(separator: ":", maxSplits: 1).last.map { $0.contains { $0.isLetter && $0 != "x" } } ?? false
                if !words, numbers.allSatisfy({ $0 == 0 }) { continue }
                lines.insert(String(line))
            }
        }
        return lines.sorted()
    }()

    @Test func thereAreLinesToTry() { #expect(Self.reportLines.count >= 8) }

    @Test(arguments: reportLines)
    func aReportLineIsATerm(line: String) {
        #expect(KnowledgeBase.standard.explain(line).isKnown, "\(line)")
    }

    @Test func theIssuesExample() {
        let answer = KnowledgeBase.standard.explain("EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=50 MB, unused=0x0)")
        #expect(answer.entries.map(\.term).contains("EXC_RESOURCE"))
        #expect(answer.entries.map(\.term).contains("RESOURCE_TYPE_MEMORY"))
    }

    @Test func aThermalCodeLine() {
        #expect(KnowledgeBase.standard.explain("Exception Codes: 0xc00010ff").entries.first?.term == "0xc00010ff")
    }

    /// `explain jetsam` tells how to find the killed process and what to do, not "look it up".
    @Test func jetsamTermSaysWhatToDo() throws {
        let entry = try #require(KnowledgeBase.standard.explain("jetsam").entries.first)
        #expect(!entry.checkNext.contains { $0.localizedCaseInsensitiveContains("look up") })
        #expect(entry.checkNext.contains { $0.contains("killed process") })
        #expect(entry.meaning.contains("reason"))
    }
}
