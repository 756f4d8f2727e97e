import Foundation
import SymbolicateCrashReport

/// A plain-language diagnosis of one crash report, grounded in lines quoted from it.
public struct Diagnosis: Codable, Sendable {
    /// The family of problem the evidence points at. Stable names: tests and JSON consumers use them.
    public enum Category: String, Codable, Sendable, CaseIterable {
        case swiftRuntimeError
        case swiftTrap
        case explicitTrap
        case dispatchMisuse
        case uncaughtObjCException
        case uncaughtCppException
        case assertionFailure
        case abort
        case signalRaised
        case memoryCorruption
        case nilDereference
        case pointerAuthentication
        case objcConcurrentPropertyAccess
        case zombieObject
        case stackOverflow
        case badMemoryAccess
        case codeSigning
        case illegalInstruction
        case arithmetic
        case watchdog
        case thermal
        case lockedFileAtSuspension
        case voipPush
        case backgroundTimeLimit
        case securityViolation
        case systemTermination
        case missingLibrary
        case privacyViolation
        case guardViolation
        case resourceLimit
        case memoryPressure
        case libsystemFault
        case killed
        case terminated
        case notACrash
        /// A compiler or another build tool crashed while building the code (a toolchain bug).
        case toolchainCrash
        /// The system refused to start the program (`bad CPU type in executable`, `exec format
        /// error`): none of its code ran.
        case execRefused
        case unknown
    }

    /// How sure the diagnosis is; rendered as "likely"/"possible" in the headline.
    public enum Certainty: String, Codable, Sendable {
        /// The report states it (a message, a termination code).
        case stated
        /// Inferred from strong evidence (frames, address patterns).
        case likely
        /// Inferred from weak evidence only.
        case possible
    }

    public enum Likelihood: String, Codable, Sendable {
        case likely, possible
    }

    /// A line of the report the diagnosis relies on.
    public struct Evidence: Codable, Sendable, Hashable {
        /// Where it is in the report (`Exception Type`, `Thread 0 frame 3`, `Application Specific Information`).
        public var field: String
        /// The text as the report has it.
        public var quote: String
        /// What it tells us, in plain words.
        public var note: String?
        public init(field: String, quote: String, note: String? = nil) {
            self.field = field
            self.quote = quote
            self.note = note
        }
    }

    public struct Cause: Codable, Sendable, Hashable {
        public var text: String
        public var likelihood: Likelihood
        /// The frames that show it (`Thread 16 frame 12: UIKitCore -[UIView setNeedsLayout]`),
        /// as the evidence quotes them; absent when the cause rests on other fields.
        public var frames: [String]?
        public init(_ text: String, _ likelihood: Likelihood, frames: [String]? = nil) {
            self.text = text
            self.likelihood = likelihood
            // Each frame once, in the order the rules quoted them.
            var seen = Set<String>()
            let unique = (frames ?? []).filter { seen.insert($0).inserted }
            self.frames = unique.isEmpty ? nil : unique
        }
    }

    public struct Reference: Codable, Sendable, Hashable {
        public var term: String
        public var title: String
        public var communityReported: Bool
        public var links: [String]
    }

    /// Issue 17: a diagnosis a team can act on is short.
    public static let maximumCauses = 3
    public static let maximumSteps = 4

    public var category: Category
    public var certainty: Certainty
    /// One sentence: what happened.
    public var headline: String
    /// False when the report itself says the process kept running (or it is not a crash report).
    public var isFatal: Bool
    /// The report says the process went on: a non-fatal exception or a resource report with no
    /// action taken (not a report kind that is no crash at all, such as a hang or a panic).
    public var processKeptRunning: Bool { !isFatal && category != .notACrash }
    public var evidence: [Evidence]
    /// Most likely first.
    public var causes: [Cause]
    public var nextSteps: [String]
    /// Knowledge-base entries the diagnosis used, with their sources.
    public var references: [Reference]
    /// Caveats: what the report does not show, format quirks.
    public var notes: [String]
    /// The language of the prose (headline, notes, causes, steps, evidence notes, titles);
    /// `category` and the other enumerations are the same in every language.
    public var language: Language = .english
    /// The catalogue entry or family the diagnosis matched (a Rust panic's kind, a kernel panic's
    /// family, a process kind's memory limit), by stable ID, so reports can be grouped by it.
    public var matched: Match?

    /// `{"catalogue": "kernel-panic", "id": "watchdog-timeout", "subject": "com.apple.WindowServer"}`.
    public struct Match: Codable, Sendable, Hashable {
        /// `rust-panic`, `kernel-panic`, `memory-limit`.
        public var catalogue: String
        /// The entry's stable ID within the catalogue (`index-out-of-bounds`, `gpu`, `extension/broadcast-upload`).
        public var id: String
        /// What the report names for it: the panicking function, the kext, service or
        /// controller, the extension's bundle.
        public var subject: String?
        public init(catalogue: String, id: String, subject: String? = nil) {
            self.catalogue = catalogue
            self.id = id
            self.subject = subject
        }
    }

    /// Which report of a file holding several (a MetricKit payload's diagnostics, an
    /// `.xccrashpoint`'s logs) the diagnosis is for; nil for a file of one report.
    public var entry: Entry?
    /// The throw-site catalogue entry the report matched (`uikit.tableview.invalid-row-count`):
    /// the rule the API that threw enforces. Stable, so a team can group reports by it; absent
    /// (not null) in JSON when nothing matched.
    public var throwSite: String?

    /// One report among the several a file holds.
    public struct Entry: Codable, Sendable, Hashable {
        /// 1-based position, and how many there are.
        public var number: Int
        public var count: Int
        /// The report's name (an `.xccrashpoint` log's path inside the bundle, else the file).
        public var path: String
        /// What the report is (`crash`, `metrickit-crash`, `hang`…).
        public var kind: String
        /// When it happened, as the report says.
        public var dateTime: String?
        public init(number: Int, count: Int, path: String, kind: String, dateTime: String?) {
            self.number = number
            self.count = count
            self.path = path
            self.kind = kind
            self.dateTime = dateTime
        }

        /// `swift-trap.ips (metrickit-crash, 2026-11-20 10:00:00)`.
        var described: String {
            path + " (" + ([kind] + (dateTime.map { [$0] } ?? [])).joined(separator: ", ") + ")"
        }
    }
}

/// Diagnoses a parsed report from the facts its reader carried (never from its text again),
/// with the prose in `language`.
package func diagnose(_ report: CrashReport, language: Language) -> Diagnosis {
    Diagnostician(report: report, base: KnowledgeBase.standard).run(language: language)
}

/// Diagnoses a parsed report, in English.
package func diagnose(_ report: CrashReport) -> Diagnosis {
    diagnose(report, language: .english)
}
