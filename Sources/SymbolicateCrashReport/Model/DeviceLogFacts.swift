import Foundation

/// One line of a device or sysdiagnose log (Console.app, `log show`, idevicesyslog) that says how
/// a process ended or was warned: the kernel's jetsam and memory-limit lines, RunningBoard's and
/// FrontBoard's terminations and exits, watchdog kills, launchd's and SpringBoard's "exited due to
/// signal". Read by `DeviceLogReportReader`, each fact in its own field, so no later stage reads
/// the line again.
public struct DeviceLogEvent: Sendable, Codable, Equatable {
    /// What the line says happened.
    public enum Kind: String, Sendable, Codable, Equatable {
        /// `memorystatus: killing_specific_process pid 1234 [MyApp] (per-process-limit 3) 1450001KB …`,
        /// `killing process 1234 [MyApp] in high band …`, `Process MyApp [1234] killed by jetsam reason …`.
        case jetsamKill = "jetsam-kill"
        /// `… MyApp [1234] exceeded mem limit: ActiveHard 1450 MB (fatal)` (memorystatus or `EXC_RESOURCE ->`).
        case memoryLimit = "memory-limit"
        /// `process MyApp[1234] caught burning CPU! …`, `… exceeded CPU …`.
        case cpuLimit = "cpu-limit"
        /// A watchdog kill: `0x8badf00d`, `failed to scene-create in time`, `… watchdog transgression`.
        case watchdog
        /// RunningBoard/FrontBoard: `Terminating with context: <RBSTerminateContext| …>`,
        /// `Termination reason: …`.
        case termination
        /// RunningBoard/FrontBoard: `Process exited: <RBSProcessExitContext| … status:<RBSProcessExitStatus| domain:signal(2) code:SIGKILL(9)>>`.
        case processExit = "process-exit"
        /// launchd/SpringBoard: `exited due to signal 9`, `exited abnormally with signal 6: Abort trap: 6`.
        case signalExit = "signal-exit"
    }

    public var kind: Kind
    /// 1-based line of the text it was read from.
    public var line: Int
    public var processName: String?
    public var pid: Int?
    /// From `app<com.example.MyApp>:1234`, `UIKitApplication:com.example.MyApp[0x1a2b]`.
    public var bundleIdentifier: String?
    /// The jetsam reason as the kernel spells it (`per-process-limit`, `vm-pageshortage`, `highwater`).
    public var jetsamReason: String?
    /// The memory limit's kind (`ActiveHard`, `InactiveHard`, `ActiveSoft`…) and size.
    public var limitKind: String?
    public var limitMB: Int?
    /// `(fatal)` / `(non-fatal)` after a memory limit; nil when the line does not say.
    public var isFatal: Bool?
    /// The process's footprint when killed (`1450001KB`).
    public var footprintKB: UInt64?
    /// The jetsam band the kernel killed from (`FOREGROUND`, `IDLE`).
    public var band: String?
    /// Termination namespace (`FRONTBOARD`, `SIGNAL`, `JETSAM`, `RUNNINGBOARD`) with its code as printed (`0x8badf00d`, `9`).
    public var namespace: String?
    public var code: String?
    /// The signal the process ended with (`SIGKILL`).
    public var signal: String?
    /// The system's own words for why (`scene-update watchdog transgression: … exhausted real (wall
    /// clock) time allowance of 10.00 seconds`, `Abort trap: 6`).
    public var reason: String?

    public init(kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }
}

extension DeviceLogEvent {
    /// The footprint in bytes.
    public var footprintBytes: UInt64? {
        footprintKB.map { $0.multipliedReportingOverflow(by: 1024).partialValue }
    }

    /// Whether the line says the process was ended (as opposed to warned).
    public var isFatalEnd: Bool {
        switch kind {
        case .jetsamKill, .watchdog, .termination, .processExit, .signalExit: true
        case .memoryLimit, .cpuLimit: isFatal ?? false
        }
    }
}

extension CrashReport {
    /// Line `number` (1-based) of a text report as read, blanks trimmed and cut at 300
    /// characters, for quoting; nil for JSON reports.
    package func sourceLineText(_ number: Int) -> String? {
        guard let text = sourceLine(number)?.trimmedBlanks else { return nil }
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// Line `number` (1-based) of a text report exactly as read; nil for JSON reports.
    package func sourceLine(_ number: Int) -> String? {
        guard case .text(let document) = source, number >= 1, number <= document.lines.count else { return nil }
        return document.lines[number - 1].text
    }
}
