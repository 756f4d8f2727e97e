import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Device and sysdiagnose log lines (issue 40): each shape read into typed facts, a pasted
/// excerpt read as a termination, a crash report quoting a log left to the report reader.
@Suite struct DeviceLogReaderTests {
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent("pasted/\(name)"), encoding: .utf8)
    }

    static func read(_ text: String, path: String = "log.txt") throws -> CrashReport {
        let reports = try CrashReport.parseAll(data: Data(text.utf8), path: path)
        return try #require(reports.first)
    }

    @Test func jetsamKillLine() throws {
        let line =
            "1817600.392 memorystatus: killing_specific_process pid 14871 [keyboard] (per-process-limit 100 16s rf:-) 78848KB - memorystatus_available_pages: 121472"
        let event = try #require(DeviceLogLine.event(line, line: 4))
        #expect(event.kind == .jetsamKill && event.line == 4)
        #expect(event.pid == 14871 && event.processName == "keyboard")
        #expect(event.jetsamReason == "per-process-limit" && event.footprintKB == 78848)
        let band = try #require(
            DeviceLogLine.event(
                "memorystatus: killing process 994 [KeyboardSpike] in high band FOREGROUND (100) - memorystatus_available_pages: 113991",
                line: 1))
        #expect(band.pid == 994 && band.processName == "KeyboardSpike" && band.band == "FOREGROUND")
        let analytics = try #require(
            DeviceLogLine.event("ReportSystemMemory  Process KeyboardSpike [994] killed by jetsam reason per-process-limit", line: 1))
        #expect(analytics.kind == .jetsamKill && analytics.pid == 994 && analytics.processName == "KeyboardSpike")
        #expect(analytics.jetsamReason == "per-process-limit")
    }

    @Test func memoryLimitLines() throws {
        let memorystatus = try #require(
            DeviceLogLine.event("memorystatus: keyboard [14871] exceeded mem limit: ActiveHard 77 MB (fatal)", line: 1))
        #expect(memorystatus.kind == .memoryLimit && memorystatus.processName == "keyboard" && memorystatus.pid == 14871)
        #expect(memorystatus.limitKind == "ActiveHard" && memorystatus.limitMB == 77 && memorystatus.isFatal == true)
        let kernel = try #require(
            DeviceLogLine.event("kernel: EXC_RESOURCE -> FamilyControlsAgent[1452] exceeded mem limit: InactiveHard 6 MB (fatal)", line: 1))
        #expect(
            kernel.processName == "FamilyControlsAgent" && kernel.pid == 1452 && kernel.limitKind == "InactiveHard" && kernel.limitMB == 6)
        let warning = try #require(
            DeviceLogLine.event("memorystatus: MyApp [12] exceeded mem limit: ActiveSoft 1000 MB (non-fatal)", line: 1))
        #expect(warning.isFatal == false && !warning.isFatalEnd)
    }

    @Test func runningBoardAndFrontBoardLines() throws {
        let exit = try #require(
            DeviceLogLine.event(
                "ControlCenter[617] [com.apple.FrontBoard:Process] [osservice<com.weto.app>:5877] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:SIGTERM(15)>>",
                line: 1))
        #expect(exit.kind == .processExit && exit.namespace == "SIGNAL" && exit.signal == "SIGTERM" && exit.code == "15")
        #expect(exit.bundleIdentifier == "com.weto.app" && exit.pid == 5877)
        let jetsam = try #require(
            DeviceLogLine.event(
                "runningboardd [app<com.example.MyApp(A1B2)>:1234] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(3)>>.",
                line: 1))
        #expect(jetsam.kind == .jetsamKill && jetsam.jetsamReason == "per-process-limit" && jetsam.bundleIdentifier == "com.example.MyApp")
        let terminate = try #require(
            DeviceLogLine.event(
                "runningboardd [app<com.example.MyApp>:1234] Terminating with context: <RBSTerminateContext| domain:15 code:0xDEAD10CC explanation:[app<com.example.MyApp>:1234] was suspended with locked system files>",
                line: 1))
        #expect(terminate.kind == .termination && terminate.namespace == "RUNNINGBOARD" && terminate.code == "0xdead10cc")
        #expect(terminate.reason == "[app<com.example.MyApp>:1234] was suspended with locked system files" && terminate.pid == 1234)
        let stated = try #require(
            DeviceLogLine.event("FrontBoard [app<com.x.y>:1234] Termination reason: killed with SIGKILL by the user", line: 1))
        #expect(stated.kind == .termination && stated.signal == "SIGKILL" && stated.bundleIdentifier == "com.x.y")
    }

    @Test func watchdogLines() throws {
        let create = try #require(DeviceLogLine.event("SpringBoard[58] <Error>: com.example.MyApp failed to scene-create in time", line: 2))
        #expect(create.kind == .watchdog && create.code == "0x8badf00d" && create.namespace == "FRONTBOARD")
        #expect(create.bundleIdentifier == "com.example.MyApp" && create.reason == "failed to scene-create in time")
        let transgression = try #require(
            DeviceLogLine.event(
                "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: application<site.pixio.pixio>:64385 exhausted real (wall clock) time allowance of 10.00 seconds",
                line: 1))
        #expect(transgression.kind == .watchdog && transgression.pid == 64385 && transgression.bundleIdentifier == "site.pixio.pixio")
        #expect(transgression.reason?.hasPrefix("scene-update watchdog transgression") == true)
    }

    @Test func exitedDueToSignalLines() throws {
        let springBoard = try #require(
            DeviceLogLine.event(
                "backboardd[1663]: Application 'UIKitApplication:com.apple.MobileSMS[0x1bd6]' exited abnormally with signal 6: Abort trap: 6",
                line: 1))
        #expect(springBoard.kind == .signalExit && springBoard.signal == "SIGABRT" && springBoard.code == "6")
        #expect(springBoard.reason == "Abort trap: 6" && springBoard.bundleIdentifier == "com.apple.MobileSMS")
        let launchd = try #require(
            DeviceLogLine.event(
                "Jul  8 08:27:16 peter com.apple.xpc.launchd[1] (com.microsoft.VSCode.12872[1033]): Service exited due to SIGSEGV", line: 1)
        )
        #expect(
            launchd.signal == "SIGSEGV" && launchd.code == "11" && launchd.pid == 1033
                && launchd.processName == "com.microsoft.VSCode.12872")
        let numbered = try #require(DeviceLogLine.event("MyApp[88]: Exited due to signal 9", line: 1))
        #expect(numbered.signal == "SIGKILL" && numbered.pid == 88 && numbered.processName == "MyApp")
        #expect(DeviceLogLine.event("the job exited due to an error", line: 1) == nil)
        #expect(DeviceLogLine.event("Received memory warning.", line: 1) == nil)
    }

    @Test func cpuLimitLine() throws {
        let event = try #require(
            DeviceLogLine.event(
                "kernel[0] <Notice>: process MyApp[1234] caught burning CPU! It used more than 50% CPU over 180 seconds", line: 1))
        #expect(event.kind == .cpuLimit && event.processName == "MyApp" && event.pid == 1234)
        #expect(event.reason == "It used more than 50% CPU over 180 seconds")
    }

    /// fcitx5-ios's README: a keyboard extension killed at its 77 MB limit.
    @Test func jetsamExcerptIsReadAsAJetsamKill() throws {
        let text = try Self.fixture("devicelog__fcitx5-ios_keyboard-jetsam_console.log")
        #expect(ReportReaderTests.chosenReader(text) == "DeviceLogReportReader")
        let report = try Self.read(text)
        #expect(report.kind == .jetsam)
        #expect(report.processName == "keyboard" && report.processID == 14871)
        #expect(report.logEvents.map(\.kind) == [.memoryLimit, .jetsamKill, .jetsamKill])
        #expect(report.logEvents.map(\.line) == [1, 2, 4])
        let victim = try #require(report.jetsamVictim)
        #expect(victim.name == "keyboard" && victim.pid == 14871 && victim.reason == "per-process-limit")
        #expect(victim.residentBytes == 78848 * 1024 && victim.isFrontmost)
        #expect(report.jetsamKilledProcesses.count == 1)
        #expect(!report.completeness.isComplete)
        #expect(report.warnings.contains { $0.kind == .partialReport })
        #expect(report.termination?.namespace == "JETSAM")
    }

    @Test func launchdExcerptIsReadAsASignalExit() throws {
        let report = try Self.read(try Self.fixture("devicelog__ssdpmenabler-19_launchd-sigkill_excerpt.log"))
        #expect(report.kind == .crash)
        #expect(report.logEvents.count == 3 && report.logEvents.allSatisfy { $0.kind == .signalExit })
        #expect(report.processID == 17547)
        #expect(report.exception?.signal == "SIGKILL")
        #expect(report.termination?.namespace == "SIGNAL" && report.termination?.code == "9")
        #expect(report.termination?.text == "sent by mds[111]")
    }

    @Test func watchdogLineIsReadAsAFrontBoardTermination() throws {
        let report = try Self.read("SpringBoard[58] <Error>: com.example.MyApp failed to scene-create in time\n")
        #expect(report.kind == .crash)
        #expect(report.termination?.namespace == "FRONTBOARD" && report.facts.termination?.code == 0x8bad_f00d)
        #expect(report.bundleIdentifier == "com.example.MyApp" && report.processName == "MyApp")
    }

    /// A crash report that quotes the log (its `Filtered syslog:` section) is read as the report.
    @Test func aCrashReportQuotingALogIsAReport() throws {
        let text =
            try ReportReaderTests.fixture("swift-trap.crash")
            + "\nFiltered syslog:\nmemorystatus: CrashApp [1] exceeded mem limit: ActiveHard 77 MB (fatal)\n"
        #expect(ReportReaderTests.chosenReader(text) == "AppleTextReportReader")
    }

    /// Reading a line costs steps linear in its length, whatever it repeats.
    @Test(arguments: ["killing_ pid [", " exceeded mem limit: ]", "exited due to signal: ", "app<a(((", "RBSTerminateContext| domain:"])
    func readingALineIsLinear(_ unit: String) {
        func steps(_ count: Int) -> Int {
            var steps = 0
            _ = DeviceLogLine.event(String(repeating: unit, count: count), line: 1, steps: &steps)
            return steps
        }
        let small = steps(200)
        let large = steps(2000)
        #expect(large <= small * 12, "\(unit): \(small) → \(large) steps")
    }
}
