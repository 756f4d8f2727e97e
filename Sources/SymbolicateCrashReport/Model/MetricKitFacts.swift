import Foundation

/// What one MetricKit diagnostic (`MXCrashDiagnostic`, `MXHangDiagnostic`,
/// `MXCPUExceptionDiagnostic`, `MXDiskWriteExceptionDiagnostic`, `MXAppLaunchDiagnostic`) says,
/// read from its `jsonRepresentation()` keys into typed fields: its `diagnosticMetaData` (the
/// keys of `MXMetaData` and of each diagnostic class, up to iOS 26) and the payload's time
/// window. Nothing here is parsed again from text the reader rendered.
public struct MetricKitFacts: Sendable, Codable, Equatable {
    /// The diagnostic class.
    public var diagnostic: ReportKind.MetricKitDiagnostic
    /// Whether the diagnostic came inside an `MXDiagnosticPayload` (`crashDiagnostics` …) or
    /// alone, as apps log `MXDiagnostic.jsonRepresentation()`.
    public var inPayload: Bool
    /// The diagnostic's `version` (`1.0.0`).
    public var version: String?
    /// The payload's `timeStampBegin`/`timeStampEnd` (absent for a diagnostic on its own).
    public var timeStampBegin: String?
    public var timeStampEnd: String?

    // MXMetaData
    public var appVersion: String?
    public var appBuildVersion: String?
    /// `iPhone OS 26.0 (23A341)`.
    public var osVersion: String?
    /// `iPhone17,1`.
    public var deviceType: String?
    /// `arm64`, `arm64e`.
    public var platformArchitecture: String?
    public var regionFormat: String?
    /// iOS 26.
    public var bundleIdentifier: String?
    /// iOS 17.
    public var isTestFlightApp: Bool?
    /// iOS 17.
    public var lowPowerModeEnabled: Bool?
    /// iOS 17.
    public var pid: Int?

    // MXCrashDiagnostic
    /// The Mach exception type number (`1` = `EXC_BAD_ACCESS`).
    public var exceptionType: Int?
    /// The first Mach exception code.
    public var exceptionCode: Int64?
    /// The signal number (`11` = `SIGSEGV`).
    public var signal: Int?
    /// The Objective-C exception that ended the process (iOS 17, `MXCrashDiagnosticObjectiveCExceptionReason`).
    public var exceptionReason: ExceptionReason?
    /// `Namespace SIGNAL, Code 0xb`.
    public var terminationReason: String?
    public var virtualMemoryRegionInfo: String?

    // MXHangDiagnostic, MXCPUExceptionDiagnostic, MXDiskWriteExceptionDiagnostic, MXAppLaunchDiagnostic
    public var hangDuration: Measurement?
    public var totalCPUTime: Measurement?
    public var totalSampledTime: Measurement?
    public var writesCaused: Measurement?
    public var launchDuration: Measurement?

    /// `diagnosticMetaData` keys not listed above, in the diagnostic's order, as text.
    public var otherMetaData: [HeaderField]

    public init(diagnostic: ReportKind.MetricKitDiagnostic, inPayload: Bool) {
        self.diagnostic = diagnostic
        self.inPayload = inPayload
        self.otherMetaData = []
    }

    /// `MXCrashDiagnosticObjectiveCExceptionReason`.
    public struct ExceptionReason: Sendable, Codable, Equatable {
        /// The message with its arguments put in (`*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]`).
        public var composedMessage: String?
        /// The format before its arguments (`*** -[__NSArrayM objectAtIndex:]: index %lu beyond bounds [0 .. %lu]`).
        public var formatString: String?
        public var arguments: [String]
        /// `NSException`'s class (`NSException`).
        public var className: String?
        /// `NSRangeException`.
        public var exceptionName: String?
        /// `Error` (the kind of Objective-C exception, as MetricKit names it).
        public var exceptionType: String?
        public init(
            composedMessage: String? = nil, formatString: String? = nil, arguments: [String] = [], className: String? = nil,
            exceptionName: String? = nil, exceptionType: String? = nil
        ) {
            self.composedMessage = composedMessage
            self.formatString = formatString
            self.arguments = arguments
            self.className = className
            self.exceptionName = exceptionName
            self.exceptionType = exceptionType
        }
    }

    /// A `Measurement` as MetricKit writes it in JSON (`"20 sec"`, `"1,234.5 ms"`, `"42 MB"`):
    /// the text, and its number and unit when the text is a number followed by a unit.
    public struct Measurement: Sendable, Codable, Equatable {
        public var text: String
        public var value: Double?
        public var unit: String?

        public init(text: String) {
            self.text = text
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let number = trimmed.prefix { $0.isNumber || $0 == "." || $0 == "," || $0 == "-" }
            value = Double(number.filter { $0 != "," })
            let rest = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
            unit = value != nil && !rest.isEmpty ? rest : nil
        }

        /// The text for a sentence, its unit word agreeing with the number: MetricKit writes
        /// `2,000 byte`, which a headline then said as "2,000 byte written". A unit spelled as a
        /// lowercase word (not an abbreviation with a dot, not already plural) gets its plural
        /// unless the value is one; everything else is the report's text as it was.
        public var countedText: String {
            guard let value, value != 1, let unit, unit.count >= 3, !unit.hasSuffix("s"),
                unit.allSatisfy({ $0.isLetter && $0.isLowercase && $0.isASCII })
            else { return text }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasSuffix(unit) else { return text }
            return trimmed + "s"
        }

        /// The duration in seconds when the unit is one of time (`sec`, `secs.`, `ms`, `min`, `h`).
        public var seconds: Double? {
            guard let value, let unit else { return nil }
            switch unit.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) {
            case "s", "sec", "secs", "second", "seconds": return value
            case "ms", "msec", "millisecond", "milliseconds": return value / 1000
            case "µs", "us", "microsecond", "microseconds": return value / 1_000_000
            case "min", "mins", "minute", "minutes": return value * 60
            case "h", "hr", "hour", "hours": return value * 3600
            default: return nil
            }
        }
    }
}

/// Written as its machine name (`crash`, `cpu-exception`, …) in the JSON dump.
extension ReportKind.MetricKitDiagnostic: Codable {}
