import Foundation

/// Why the system ended the process, as numbers and names.
public struct TerminationFacts: Sendable, Hashable {
    /// `FRONTBOARD`, `SIGNAL`, … whatever case the report used.
    public var namespace: String?
    /// The code as a number (`0x8badf00d`, `5`).
    public var code: UInt64?
    /// What a watchdog report counts (0x8badf00d).
    public var watchdog: WatchdogFigures?
    /// The library dyld could not load (`Library not loaded: @rpath/X.framework/X`).
    public var missingLibrary: String?
    /// The Info.plist key a privacy violation names (`NSCameraUsageDescription`).
    public var usageKey: String?
    /// The termination reason or its details count the app's CPU time (a watchdog report).
    public var countsCPUTime = false
    /// A security violation for drawing insecurely (a secure text field captured, 0xbad22222).
    public var isInsecureDrawing = false
    /// dyld's `missing symbol called`: a weakly linked symbol this OS lacks was bound to dyld's
    /// abort stub at launch and called afterwards (`__dyld_missing_symbol_abort`).
    public var isMissingSymbolCalled = false
    /// The system's own reason in its termination context (RunningBoard's `explanation:`, `Failed
    /// to terminate gracefully after 5.0s`).
    public var explanation: String?
    /// A reporter's record that the system ended the app for its memory use (KSCrash's
    /// `memory_termination`), with the figures it kept; nil when no reporter records one.
    public var memoryTermination: [MemoryFigure]?

    public init(namespace: String? = nil, code: UInt64? = nil) {
        self.namespace = namespace
        self.code = code
    }
}

/// A watchdog's figures: which event it timed, its allowance and the CPU the app used meanwhile.
public struct WatchdogFigures: Sendable, Hashable {
    /// `scene-create`, `process-launch`, …
    public var event: String?
    /// The allowance in seconds, as printed (`20.00`).
    public var allowanceSeconds: String?
    /// `Elapsed application CPU time (seconds)`, as printed (`0.180`).
    public var cpuSeconds: String?

    public init(event: String? = nil, allowanceSeconds: String? = nil, cpuSeconds: String? = nil) {
        self.event = event
        self.allowanceSeconds = allowanceSeconds
        self.cpuSeconds = cpuSeconds
    }
}

/// One figure of a reporter's memory record, named and printed as the reporter keeps it
/// (`memory_level` `terminal`, `memory_footprint` `100`).
public struct MemoryFigure: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
