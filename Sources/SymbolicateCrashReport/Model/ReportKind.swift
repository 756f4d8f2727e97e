import Foundation

/// What a report *is*: a crash, a jetsam event, a hang, a resource report, … Readers set it
/// from `bug_type` and from content (a text report has no `bug_type`, and Apple reuses
/// some bug types for several layouts), so the headline, `explain` and batch grouping can name
/// a diagnostic as what it is instead of treating everything as a crash.
public enum ReportKind: Sendable, Hashable {
    /// A process crash (EXC_*/signal), including watchdog and other terminations.
    case crash
    /// A jetsam / memory-pressure event (`bug_type` 298, legacy `LowMemory` text).
    case jetsam
    /// A hang or spindump report (`Event: hang`, `bug_type` 288/409).
    case hang
    /// A resource report: microstackshot (`Event: cpu usage`, `wakeups`, `disk writes`) or
    /// the crash layout with `EXC_RESOURCE`.
    case resource(ResourceType)
    /// A `sample` / Activity Monitor "Sample Process" call graph of a running process.
    case sample
    /// A stackshot (`Exception Code: 0xbaaaaaad`, `bug_type` 188/288 without a hang event).
    case stackshot
    /// A kernel panic (`panic(cpu …)` text, `bug_type` 210 with a `panicString`).
    case kernelPanic
    /// One diagnostic of a MetricKit `MXDiagnosticPayload`.
    case metricKit(MetricKitDiagnostic)
    /// A Swift runtime backtrace from a Linux (or other non-Apple) process.
    case linuxBacktrace

    public enum ResourceType: String, Sendable, Hashable, CaseIterable {
        case cpu
        case wakeups
        case diskWrites = "disk-writes"
        case memory
    }

    /// The `MXDiagnosticPayload` arrays, one case per diagnostic class.
    public enum MetricKitDiagnostic: String, Sendable, Hashable, CaseIterable {
        case crash
        case hang
        case cpuException = "cpu-exception"
        case diskWriteException = "disk-write-exception"
        case appLaunch = "app-launch"

        /// The payload key holding diagnostics of this class.
        public var payloadKey: String {
            switch self {
            case .crash: "crashDiagnostics"
            case .hang: "hangDiagnostics"
            case .cpuException: "cpuExceptionDiagnostics"
            case .diskWriteException: "diskWriteExceptionDiagnostics"
            case .appLaunch: "appLaunchDiagnostics"
            }
        }
    }

    public static let allCases: [ReportKind] =
        [.crash, .jetsam, .hang] + ResourceType.allCases.map { .resource($0) } + [.sample, .stackshot, .kernelPanic]
        + MetricKitDiagnostic.allCases.map { .metricKit($0) } + [.linuxBacktrace]

    /// Stable machine name (`crash`, `resource-cpu`, `metrickit-hang`, …) used in JSON output
    /// and batch summaries.
    public var identifier: String {
        switch self {
        case .crash: "crash"
        case .jetsam: "jetsam"
        case .hang: "hang"
        case .resource(let r): "resource-" + r.rawValue
        case .sample: "sample"
        case .stackshot: "stackshot"
        case .kernelPanic: "kernel-panic"
        case .metricKit(let d): "metrickit-" + d.rawValue
        case .linuxBacktrace: "linux-backtrace"
        }
    }

    public init?(identifier: String) {
        guard let kind = Self.allCases.first(where: { $0.identifier == identifier }) else { return nil }
        self = kind
    }

    /// What to call it in a sentence: "jetsam event", "CPU resource report".
    public var displayName: String {
        switch self {
        case .crash: "crash report"
        case .jetsam: "jetsam event"
        case .hang: "hang report"
        case .resource(.cpu): "CPU resource report"
        case .resource(.wakeups): "wakeups resource report"
        case .resource(.diskWrites): "disk writes resource report"
        case .resource(.memory): "memory resource report"
        case .sample: "sample (call graph)"
        case .stackshot: "stackshot"
        case .kernelPanic: "kernel panic"
        case .metricKit(.crash): "MetricKit crash diagnostic"
        case .metricKit(.hang): "MetricKit hang diagnostic"
        case .metricKit(.cpuException): "MetricKit CPU exception diagnostic"
        case .metricKit(.diskWriteException): "MetricKit disk write exception diagnostic"
        case .metricKit(.appLaunch): "MetricKit app launch diagnostic"
        case .linuxBacktrace: "Swift runtime backtrace"
        }
    }

    /// Whether the report describes a crashed process with a crashed/faulting thread, so
    /// "Crashed: Thread N" and a crash diagnosis make sense.
    public var isCrash: Bool {
        switch self {
        case .crash, .metricKit(.crash), .linuxBacktrace: true
        default: false
        }
    }
}

extension ReportKind: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ReportKind(identifier: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown report kind \(text)"))
        }
        self = kind
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(identifier)
    }
}

extension ReportKind: CustomStringConvertible {
    public var description: String { identifier }
}

// MARK: - Completeness

/// Whether the report reached the reader whole. A pasted, mailed or cut report is read as far
/// as it goes; `missing` says exactly what is not there, so warnings and every output format
/// can say so instead of refusing the report.
public struct Completeness: Sendable, Hashable, Codable {
    public var missing: [MissingPart]

    public init(missing: [MissingPart] = []) { self.missing = missing }

    public static let complete = Completeness()
    public static func partial(_ missing: [MissingPart]) -> Completeness { Completeness(missing: missing) }

    public var isComplete: Bool { missing.isEmpty }

    /// `report ends inside Thread 3; no Binary Images section`.
    public var summary: String { missing.map(\.description).joined(separator: "; ") }
    private enum CodingKeys: String, CodingKey { case complete, missing }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        missing = try c.decodeIfPresent([MissingPart].self, forKey: .missing) ?? []
    }

    /// `{"complete": false, "missing": [{"part": "ends-inside-thread", "thread": 3, "description": …}]}`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isComplete, forKey: .complete)
        try c.encode(missing, forKey: .missing)
    }
}

/// One thing a partial report lacks.
public enum MissingPart: Sendable, Hashable, CustomStringConvertible {
    /// The text stops inside this thread's backtrace (the printed thread number).
    case endsInsideThread(Int)
    case endsInsideLastExceptionBacktrace
    /// The text stops inside the `Binary Images:` list: images after the cut are unknown.
    case endsInsideBinaryImages
    /// The text stops inside a named section (`the jetsam process table`).
    case endsInsideSection(String)
    /// Header only: no exception information, threads or images.
    case endsAfterHeader
    /// The JSON body stops before its end (at the JSON path when known).
    case jsonCut(at: String?)
    case noExceptionInformation
    case noThreads
    /// No `Binary Images:` section (or `usedImages`): images are matched by name, not UUID.
    case noBinaryImages
    /// Frame lines copied without their `Thread N Crashed:` title (pasted from the middle of a
    /// thread): read as one thread, which thread it was and whether it crashed unknown.
    case framesWithoutThreadHeader

    public var description: String {
        switch self {
        case .endsInsideThread(let n): "report ends inside Thread \(n)"
        case .endsInsideLastExceptionBacktrace: "report ends inside the Last Exception Backtrace"
        case .endsInsideBinaryImages: "report ends inside the Binary Images list"
        case .endsInsideSection(let name): "report ends inside \(name)"
        case .endsAfterHeader: "report ends after the header (no exception information, threads or Binary Images)"
        case .jsonCut(let path): "JSON body is cut" + (path.map { " at \($0)" } ?? "")
        case .noExceptionInformation: "no exception information"
        case .noThreads: "no thread backtraces"
        case .noBinaryImages: "no Binary Images section"
        case .framesWithoutThreadHeader: "frames pasted without their thread's title line"
        }
    }

    /// Stable machine name for JSON output.
    public var identifier: String {
        switch self {
        case .endsInsideThread: "ends-inside-thread"
        case .endsInsideLastExceptionBacktrace: "ends-inside-last-exception-backtrace"
        case .endsInsideBinaryImages: "ends-inside-binary-images"
        case .endsInsideSection: "ends-inside-section"
        case .endsAfterHeader: "ends-after-header"
        case .jsonCut: "json-cut"
        case .noExceptionInformation: "no-exception-information"
        case .noThreads: "no-threads"
        case .noBinaryImages: "no-binary-images"
        case .framesWithoutThreadHeader: "frames-without-thread-header"
        }
    }
}

extension MissingPart: Codable {
    private enum CodingKeys: String, CodingKey { case part, thread, jsonPath, section, description }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let part = try c.decode(String.self, forKey: .part)
        switch part {
        case "ends-inside-thread": self = .endsInsideThread(try c.decode(Int.self, forKey: .thread))
        case "ends-inside-last-exception-backtrace": self = .endsInsideLastExceptionBacktrace
        case "ends-inside-binary-images": self = .endsInsideBinaryImages
        case "ends-inside-section": self = .endsInsideSection(try c.decode(String.self, forKey: .section))
        case "ends-after-header": self = .endsAfterHeader
        case "json-cut": self = .jsonCut(at: try c.decodeIfPresent(String.self, forKey: .jsonPath))
        case "no-exception-information": self = .noExceptionInformation
        case "no-threads": self = .noThreads
        case "no-binary-images": self = .noBinaryImages
        case "frames-without-thread-header": self = .framesWithoutThreadHeader
        default:
            throw DecodingError.dataCorruptedError(forKey: .part, in: c, debugDescription: "unknown missing part \(part)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .part)
        if case .endsInsideThread(let n) = self { try c.encode(n, forKey: .thread) }
        if case .jsonCut(let path) = self { try c.encodeIfPresent(path, forKey: .jsonPath) }
        if case .endsInsideSection(let name) = self { try c.encode(name, forKey: .section) }
        try c.encode(description, forKey: .description)
    }
}
