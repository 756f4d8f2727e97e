import Foundation
import SymbolicateCore

/// What a crash group is keyed by: the parts of batch's crash signature as typed values, never
/// a sentence. Nothing in it moves with a build (no address, no line), so every report of one
/// crash from any build or version gives the same key.
package struct CrashGroupKey: Sendable, Codable, Hashable {
    /// `ReportKind.identifier`: `crash`, `jetsam`, `hang`, …
    package var kind: String
    /// `EXC_BAD_ACCESS (SIGSEGV)`, without codes (they hold fault addresses).
    package var exception: String?
    /// The process name.
    package var app: String?
    /// The first app frame of the crashed thread, normalised (no `+ offset`, no addresses).
    package var function: String?
    /// That frame's source file name (`Profile.swift`).
    package var file: String?
    /// Who stopped the process on an abort path (`malloc`, `cxx-terminate`, …).
    package var via: String?
    /// The named frames that called `function` (at most `neighbourCount`), normalised: what
    /// keeps a group together when the function itself is renamed.
    package var neighbours: [String]

    /// Callers kept for the rename-tolerant identity.
    package static let neighbourCount = 3

    package init(
        kind: String, exception: String?, app: String?, function: String?, file: String?, via: String?, neighbours: [String]
    ) {
        self.kind = kind
        self.exception = exception
        self.app = app
        self.function = function
        self.file = file
        self.via = via
        self.neighbours = neighbours
    }

    /// The exact identity: every part but the neighbours.
    package var exactID: String {
        Self.digest(["exact", kind, exception ?? "", app ?? "", function ?? "", file ?? "", via ?? ""])
    }

    /// The identity that survives a renamed function: the file and the callers in place of the
    /// function's name. Nil when the report names no source file or fewer than
    /// `neighbourCount` callers: too little to tell two crashes of one file apart. The abort
    /// path's system frame is left out: OS builds name it differently for one app line
    /// (`__assert_rtn` on one, `err + 0` on another: the icdab planets reports).
    package var contextID: String? {
        guard let file, !file.isEmpty, neighbours.count >= Self.neighbourCount else { return nil }
        return Self.digest(["context", kind, exception ?? "", app ?? "", file] + neighbours)
    }

    /// The identities a report of this key is looked up by, most specific first.
    package var lookupIDs: [String] { [exactID] + (contextID.map { [$0] } ?? []) }

    private static func digest(_ parts: [String]) -> String {
        // Unit separators between parts: no part can end where another begins.
        SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
    }
}

/// A group's state as a team sets it; `regressed` is set by the inbox itself.
package enum GroupState: String, Sendable, Codable, CaseIterable {
    /// Not yet dealt with.
    case open
    /// Fixed in `resolvedIn`: reports of earlier versions keep it resolved, a later one reopens it.
    case resolved
    /// Resolved, then seen again in a later version (`regressedIn`).
    case regressed
    /// Not to be acted on; reports still count.
    case ignored
}

/// The version a report states, split into the marketing version and the build
/// (`1.2.3 (45)` → `1.2.3`, `45`). Ordered numerically part by part (`1.10` after `1.9`).
package struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var version: String
    package var build: String?

    package init(version: String, build: String? = nil) {
        self.version = version
        self.build = build
    }

    /// `1.2.3 (45)` or `1.2.3`; nil for an empty text.
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
            let version = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            let build = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            self.init(version: version.isEmpty ? build : version, build: build.isEmpty || version.isEmpty ? nil : build)
        } else {
            self.init(version: trimmed)
        }
    }

    package var description: String { build.map { "\(version) (\($0))" } ?? version }

    package static func < (a: AppVersion, b: AppVersion) -> Bool {
        let order = compare(a.version, b.version)
        if order != 0 { return order < 0 }
        guard let left = a.build, let right = b.build else { return false }
        return compare(left, right) < 0
    }

    /// Part by part: numbers as numbers, anything else as text; a missing part is smaller.
    static func compare(_ a: String, _ b: String) -> Int {
        let left = a.split(whereSeparator: { $0 == "." || $0 == "-" }), right = b.split(whereSeparator: { $0 == "." || $0 == "-" })
        for i in 0..<max(left.count, right.count) {
            guard i < left.count else { return -1 }
            guard i < right.count else { return 1 }
            if let x = Int(left[i]), let y = Int(right[i]) {
                if x != y { return x < y ? -1 : 1 }
            } else if left[i] != right[i] {
                return left[i] < right[i] ? -1 : 1
            }
        }
        return 0
    }
}

/// One frame of the crashed thread as the inbox keeps it: symbolicated, without addresses.
package struct InboxFrame: Sendable, Codable, Equatable {
    package var image: String?
    package var function: String?
    package var file: String?
    package var line: Int?
    package var isApp: Bool
    package var isInlined: Bool

    package init(image: String?, function: String?, file: String?, line: Int?, isApp: Bool, isInlined: Bool = false) {
        self.image = image
        self.function = function
        self.file = file
        self.line = line
        self.isApp = isApp
        self.isInlined = isInlined
    }
}

/// The typed facts a report states (`CrashReport.facts`) that a team filters and reads a group by.
package struct InboxFacts: Sendable, Codable, Equatable {
    package var machException: String?
    package var signal: String?
    package var terminationNamespace: String?
    package var terminationCode: UInt64?
    /// `objc` or `c++`, and the exception's name.
    package var uncaughtLanguage: String?
    package var uncaughtName: String?
    /// `Fatal error`, `Precondition failed`, `Assertion failed`.
    package var swiftRuntimeError: String?
    package var isNonFatal = false

    package init() {}
}

/// explain's decision for a report, by stable IDs (the rule, never its wording): the prose is
/// the catalog's, in the reader's language, when it is shown.
package struct InboxDecision: Sendable, Codable, Equatable {
    /// `Diagnosis.Category`'s raw value (`swiftTrap`).
    package var category: String
    /// `stated`, `likely` or `possible`.
    package var certainty: String
    /// The catalogue entry matched (`rust-panic/index-out-of-bounds`), if any.
    package var matched: String?
    /// The throw-site rule matched (`uikit.tableview.invalid-row-count`), if any.
    package var throwSite: String?

    package init(category: String, certainty: String, matched: String? = nil, throwSite: String? = nil) {
        self.category = category
        self.certainty = certainty
        self.matched = matched
        self.throwSite = throwSite
    }
}

/// One report as ingested: the key it groups by, and what the report states.
package struct InboxReport: Sendable, Codable, Equatable {
    /// SHA-256 of the body as uploaded: a report sent twice is stored once.
    package var id: String
    package var key: CrashGroupKey
    package var version: AppVersion?
    /// `iOS 17.5` (platform and version), else the report's `OS Version` line.
    package var os: String?
    /// `iPhone14,5`.
    package var device: String?
    package var incident: String?
    /// When the report says the crash happened, as it says it.
    package var statedTime: String?
    /// That time read, else when the report was received: what first/last seen are.
    package var seenAt: Date
    package var receivedAt: Date
    package var frames: [InboxFrame]
    package var facts: InboxFacts
    package var decision: InboxDecision?
    /// App images with no debug file yet: the report is symbolicated again when one arrives.
    package var awaiting: [DebugID]

    package init(
        id: String, key: CrashGroupKey, version: AppVersion? = nil, os: String? = nil, device: String? = nil, incident: String? = nil,
        statedTime: String? = nil, seenAt: Date, receivedAt: Date, frames: [InboxFrame] = [], facts: InboxFacts = InboxFacts(),
        decision: InboxDecision? = nil, awaiting: [DebugID] = []
    ) {
        self.id = id
        self.key = key
        self.version = version
        self.os = os
        self.device = device
        self.incident = incident
        self.statedTime = statedTime
        self.seenAt = seenAt
        self.receivedAt = receivedAt
        self.frames = frames
        self.facts = facts
        self.decision = decision
        self.awaiting = awaiting
    }
}

extension AppVersion: Codable {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = AppVersion(text) ?? AppVersion(version: text)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A crash group: its key, state, and figures kept as reports arrive.
package struct InboxGroup: Sendable, Codable, Equatable {
    package var id: String
    package var key: CrashGroupKey
    package var state: GroupState
    package var resolvedIn: AppVersion?
    package var regressedIn: AppVersion?
    package var firstSeen: Date
    package var lastSeen: Date
    /// The earliest version a report of it states (what "new in this version" compares).
    package var firstVersion: AppVersion?
    package var lastVersion: AppVersion?
    package var count: Int
    /// The report most recently seen.
    package var newestReport: String
    package var decision: InboxDecision?

    package init(
        id: String, key: CrashGroupKey, state: GroupState = .open, resolvedIn: AppVersion? = nil, regressedIn: AppVersion? = nil,
        firstSeen: Date, lastSeen: Date, firstVersion: AppVersion?, lastVersion: AppVersion?, count: Int, newestReport: String,
        decision: InboxDecision?
    ) {
        self.id = id
        self.key = key
        self.state = state
        self.resolvedIn = resolvedIn
        self.regressedIn = regressedIn
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstVersion = firstVersion
        self.lastVersion = lastVersion
        self.count = count
        self.newestReport = newestReport
        self.decision = decision
    }
}

/// What an ingest did.
package struct IngestOutcome: Sendable, Codable, Equatable {
    package var report: String
    package var group: String
    /// False: the same body was stored before (nothing counted twice).
    package var stored: Bool
    package var newGroup: Bool
    /// The report reopened a resolved group.
    package var regression: Bool
}

/// Which groups a list asks for (`GET /v1/groups?version=&state=&os=&page=`).
package struct GroupQuery: Sendable, Equatable {
    /// What the list is filtered by besides version and OS.
    package enum Filter: String, Sendable, CaseIterable {
        /// First seen in `version` (a release gate's question): needs a version.
        case new
        case open, resolved, regressed, ignored
    }
    /// Only reports of this version (`1.2` or `1.2 (45)`) count.
    package var version: String?
    package var os: String?
    package var filter: Filter?
    /// 1-based.
    package var page = 1
    package var perPage = 50

    package static let largestPage = 200

    package init(version: String? = nil, os: String? = nil, filter: Filter? = nil, page: Int = 1, perPage: Int = 50) {
        self.version = version
        self.os = os
        self.filter = filter
        self.page = page
        self.perPage = perPage
    }
}

/// One row of the inbox: the group and its count under the query's filters, with its count per
/// version (the sparkline).
package struct GroupSummary: Sendable, Codable, Equatable {
    package var group: InboxGroup
    /// Reports under the query's version and OS (all of the group's without them).
    package var count: Int
    package var versions: [VersionCount]
}

package struct VersionCount: Sendable, Codable, Equatable {
    package var version: String
    package var count: Int

    package init(version: String, count: Int) {
        self.version = version
        self.count = count
    }
}

/// A page of groups, most reports first.
package struct GroupPage: Sendable, Codable, Equatable {
    package var groups: [GroupSummary]
    package var page: Int
    package var perPage: Int
    /// Groups under the filters, over all pages.
    package var total: Int
}

/// A group with what its page shows: counts per version, OS and device, the newest report and
/// the latest examples.
package struct GroupDetail: Sendable, Codable, Equatable {
    package var group: InboxGroup
    package var versions: [VersionCount]
    package var systems: [VersionCount]
    package var devices: [VersionCount]
    package var newest: InboxReport?
    package var examples: [InboxReport]
}

/// A change of a group's state (`POST /v1/groups/{id}/state`).
package enum StateChange: Sendable, Equatable {
    case open
    case resolved(in: AppVersion)
    case ignored
}

/// What went wrong with the inbox's database, naming it (a path, or a URL without its password).
package struct InboxError: Error, Sendable, CustomStringConvertible {
    package var location: String
    package var message: String

    package init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    package var description: String { "crash inbox \(location): \(message)" }
}
