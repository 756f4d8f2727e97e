import Foundation
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Kinds of the corpus files, read off each file by hand (its `bug_type`, `Event:` line,
/// `Exception Type`, or first body line): every file not listed is a crash report.
let corpusKinds: [String: ReportKind] = [
    "icdab__cpu-usage-kill_mapmyrun_ios11-4_microstackshot.crash": .resource(.cpu),  // Event: cpu usage, bug_type 206
    "icdab__diskwrites-resource_assetsd_ios14-2b.ips": .resource(.diskWrites),  // Event: disk writes, bug_type 145
    "icdab__exc-resource-cpu_brain_ipad4-4_ios8-1.crash": .resource(.cpu),  // EXC_RESOURCE / Subtype CPU, bug_type 185
    "icdab__jetsam-event_iphone_ios14-2b.ips": .jetsam,
    // Largest process + Processes table; bug_type 298, memoryStatus + processes
    "issue__ane-google-analytics-56_ios8_legacy-text-jetsam.crash": .jetsam,
    "icdab__kernel-panic-text_amd-power-state_macos.crash": .kernelPanic,  // starts with panic(cpu 1 caller …)
    "icdab__stackshot-baaaaaad_iphone3-1_ios7.crash": .stackshot,  // bug_type 188, Exception Code 0xbaaaaaad
    "icdab__bridgeos-panic_imac_bug210_malformed-json.crash": .kernelPanic,  // bug_type 210, cut after its panicString
]

/// What each cut corpus report lacks, read off the file's last lines. Every other readable
/// corpus report is complete.
let corpusGaps: [String: [MissingPart]] = [
    // cut at the table header
    "issue__ane-google-analytics-56_ios8_legacy-text-jetsam.crash": [.endsInsideSection("the jetsam process table")],
    "issue__dotnet-macios-8254_watchos6_watch5-1_sigabrt.crash": [.noThreads, .noBinaryImages],  // cut mid-line in the exception block
    "issue__gvr-ios-sdk-288_ios9_armv7_mangled-symbols.crash": [.endsInsideThread(0), .noBinaryImages],  // cut inside Thread 0 Crashed
    "issue__icontrol-web-12_watchos2_watch1-2_sigabrt.crash": [.endsInsideLastExceptionBacktrace, .noBinaryImages],  // cut mid address list
    // cut at frame 3 of the crashed thread
    "issue__mtadmob-125_appstore-review_ipad_sigabrt.crash": [.endsInsideThread(0), .noBinaryImages],
    "issue__reprovision-105_ipados13_jb-symbolicated-header.crash": [.noThreads, .noBinaryImages],  // cut after Triggered by Thread
    "sentry-acrp__truncated-after-header_iphone8-1_ios13-3.crash": [.endsAfterHeader],  // ends after OS Version
    // `.ips` bodies cut before their threads (issue 40: read as far as their JSON goes)
    "icdab__bridgeos-panic_imac_bug210_malformed-json.crash": [.jsonCut(at: nil), .noExceptionInformation, .noThreads, .noBinaryImages],
    "issue__audiobooth-11_watchos10_watch5-2_arm64_32.ips": [
        .jsonCut(at: "procPath"), .noExceptionInformation, .noThreads, .noBinaryImages,
    ],
]

@Suite("Report kinds")
struct ReportKindTests {
    @Test(
        "each readable corpus report gets the kind read off the file",
        .enabled(if: Corpus.isAvailable, "corpus not found beside the package (../shared/corpus); skipped"),
        arguments: corpusFacts.filter { if case .parses = $0.expectation { true } else { false } }.map(\.file))
    func corpusKind(_ file: String) throws {
        let report = try CrashReport.parse(contentsOf: Corpus.url(file).path)
        #expect(report.kind == (corpusKinds[file] ?? .crash))
        #expect(report.completeness.missing == (corpusGaps[file] ?? []))
        if !report.completeness.isComplete {
            #expect(report.warnings.contains { $0.message.hasPrefix("partial report: " + report.completeness.summary) })
        }
    }

    @Test("identifiers are unique and round-trip", arguments: ReportKind.allCases)
    func identifierRoundTrip(_ kind: ReportKind) throws {
        #expect(ReportKind(identifier: kind.identifier) == kind)
        #expect(ReportKind.allCases.filter { $0.identifier == kind.identifier }.count == 1)
        let data = try JSONEncoder().encode([kind])
        #expect(try JSONDecoder().decode([ReportKind].self, from: data) == [kind])
    }

    static func parse(_ lines: [String], bugType: String? = nil) throws -> CrashReport {
        var text = lines.joined(separator: "\n") + "\n"
        if let bugType { text = "{\"bug_type\":\"\(bugType)\",\"os_version\":\"iPhone OS 17.0 (21A329)\"}\n" + text }
        return try CrashReport.parse(data: Data(text.utf8), path: "t.crash")
    }

    static let imageLine =
        "0x100000000 - 0x100ffffff MyApp arm64  <4c4c443b55553144a1e9455154cffd57> /private/var/containers/Bundle/Application/X/MyApp.app/MyApp"

    @Test("content decides where Apple reuses a bug type")
    func contentOverBugType() throws {
        let hang = try Self.parse(
            [
                "Date/Time: 2024-01-01", "Event: hang", "Duration: 2.10s", "Steps: 21", "",
                "Binary Images:", Self.imageLine,
            ], bugType: "288")
        #expect(hang.kind == .hang)
        let stackshot = try Self.parse(
            [
                "Incident Identifier: X", "Exception Code: 0xbaaaaaad", "",
                "Binary Images:", Self.imageLine,
            ], bugType: "288")
        #expect(stackshot.kind == .stackshot)
        let wakeups = try Self.parse(
            [
                "Process: MyApp [1]", "Code Type: ARM-64", "Exception Type: EXC_RESOURCE",
                "Exception Subtype: WAKEUPS", "Triggered by Thread: 0", "",
                "Thread 0 Attributed:", "0   MyApp  0x100000010 0x100000000 + 16", "",
                "Binary Images:", Self.imageLine,
            ], bugType: "185")
        #expect(wakeups.kind == .resource(.wakeups))
        let crash = try Self.parse([
            "Process: MyApp [1]", "Code Type: ARM-64", "Exception Type: EXC_CRASH (SIGABRT)",
            "Triggered by Thread: 0", "", "Thread 0 Crashed:", "0   MyApp  0x100000010 0x100000000 + 16", "",
            "Binary Images:", Self.imageLine,
        ])
        #expect(crash.kind == .crash)
        #expect(crash.kind.isCrash)
        #expect(!hang.kind.isCrash)
    }

    @Test("completeness says what is missing and encodes it")
    func completenessDescribesGaps() throws {
        let partial = Completeness.partial([.endsInsideThread(3), .noBinaryImages])
        #expect(!partial.isComplete)
        #expect(partial.summary == "report ends inside Thread 3; no Binary Images section")
        #expect(Completeness.complete.isComplete)
        let data = try JSONEncoder().encode(partial)
        #expect(try JSONDecoder().decode(Completeness.self, from: data) == partial)
    }
}

@Suite("MetricKit payloads")
struct MetricKitTests {
    static let folder = Corpus.reportsDirectory.deletingLastPathComponent().appendingPathComponent("metrickit")

    @Test(
        "iOS 14 payloads put the load address in offsetIntoBinaryTextSegment; the offset is address − that",
        .enabled(if: Corpus.isAvailable, "corpus not found; skipped"))
    func iOS14LoadAddressReading() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("meter__real_report.json"))
        let reports = try CrashReport.parseAll(data: data, path: "real_report.json")
        #expect(reports.count == 2)
        #expect(reports.allSatisfy { $0.kind == .metricKit(.crash) })
        // First frame: address 6859816880, offsetIntoBinaryTextSegment 6859616256 (libswiftCore).
        let top = try #require(reports[0].crashedThread?.frames.first)
        #expect(top.address == 6859816880)
        #expect(top.imageOffset == 6859816880 - 6859616256)
        #expect(reports[0].image(for: top)?.loadAddress == 6859616256)
        #expect(reports[0].image(for: top)?.debugID?.description.isEmpty == false)
        #expect(reports[0].exception?.type == "EXC_BREAKPOINT")
        #expect(reports[0].exception?.signal == "SIGTRAP")
    }

    /// A MetricKit call stack `frames` deep: each frame's caller nested in its `subFrames`.
    static func deepPayload(frames: Int) -> String {
        let frame =
            "{\"binaryUUID\":\"4C4C443B-5555-3144-A1E9-455154CFFD57\",\"binaryName\":\"CrashApp\",\"address\":4096,\"offsetIntoBinaryTextSegment\":0"
        let tree =
            String(repeating: frame + ",\"subFrames\":[", count: frames - 1) + frame + "}" + String(repeating: "]}", count: frames - 1)
        return "{\"crashDiagnostics\":[{\"callStackTree\":{\"callStacks\":[{\"callStackRootFrames\":[\(tree)]}]}}]}"
    }

    /// Runs `body` on a thread with a 512 KiB stack, the size of a batch worker's on macOS.
    static func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try body() }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        return try #require(box.result).get()
    }

    /// Issue 26: the JSON reader recursed and stopped at 512 levels, so a call tree deeper
    /// than about 250 frames was refused (as an ".ips header line"). Now it reads with an
    /// explicit stack: a 10,000-frame tree (20,000 levels) is read on a 512 KiB stack.
    @Test("a 10,000-frame call tree is read on a 512 KiB stack")
    func deepCallTree() throws {
        let json = Self.deepPayload(frames: 10_000)
        let frames = try Self.onSmallStack {
            let reports = try CrashReport.parseAll(data: Data(json.utf8), path: "deep.json")
            return reports.map { $0.threads.map(\.frames.count) }
        }
        #expect(frames == [[10_000]])
    }

    /// Deeper than the reader's bound: refused, as a MetricKit payload (not an `.ips` header
    /// line), with a path that stays readable.
    @Test("a call tree deeper than the JSON nesting bound is refused, named as MetricKit")
    func tooDeepCallTree() throws {
        let json = Self.deepPayload(frames: JSONParser.deepMaxDepth / 2 + 10)
        let error = try #require(
            #expect(throws: CrashReportError.self) { try CrashReport.parseAll(data: Data(json.utf8), path: "deep.json") })
        #expect(
            error.message.hasPrefix("MetricKit payload does not parse: nesting deeper than \(JSONParser.deepMaxDepth)"), "\(error.message)")
        let path = try #require(error.jsonPath)
        #expect(path.hasPrefix("crashDiagnostics[0].callStackTree.callStacks[0].callStackRootFrames[0].subFrames[0]×"), "\(path)")
        #expect(path.count < 120, "\(path)")
        // Cut short: also named as what it is.
        let cut = try #require(
            #expect(throws: CrashReportError.self) {
                try CrashReport.parseAll(data: Data(Self.deepPayload(frames: 3).dropLast(5).utf8), path: "cut.json")
            })
        #expect(cut.message.hasPrefix("MetricKit payload does not parse: unexpected end of input"), "\(cut.message)")
    }

    @Test("iOS 15+ payloads carry the offset itself")
    func offsetReading() throws {
        let frame = { (address: Int, offset: Int, sub: String) in
            "{\"binaryUUID\":\"4C4C443B-5555-3144-A1E9-455154CFFD57\",\"binaryName\":\"CrashApp\",\"address\":\(address),\"offsetIntoBinaryTextSegment\":\(offset),\"sampleCount\":1\(sub)}"
        }
        let inner = frame(4_297_032_604, 17564, "")
        let outer = frame(4_297_032_720, 17680, ",\"subFrames\":[\(inner)]")
        let json =
            "{\"crashDiagnostics\":[{\"version\":\"1.0.0\",\"callStackTree\":{\"callStackPerThread\":true,\"callStacks\":[{\"threadAttributed\":true,\"callStackRootFrames\":[\(outer)]}]},\"diagnosticMetaData\":{\"exceptionType\":1,\"signal\":11,\"osVersion\":\"iPhone OS 17.0 (21A329)\",\"platformArchitecture\":\"arm64\"}}]}"
        let reports = try CrashReport.parseAll(data: Data(json.utf8), path: "p.json")
        #expect(reports.count == 1)
        let frames = try #require(reports[0].crashedThread?.frames)
        #expect(frames.map(\.imageOffset) == [17680, 17564])
        #expect(reports[0].image(for: frames[0])?.loadAddress == 4_297_015_040)
        #expect(reports[0].exception?.type == "EXC_BAD_ACCESS")
    }
}

/// What a thread of `onSmallStack` hands back.
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
