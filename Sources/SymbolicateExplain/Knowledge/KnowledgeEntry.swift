/// Where a fact comes from. Kept per entry so the reader can tell Apple's own
/// documentation from things the community observed, which may change or be wrong.
package enum Provenance: String, Codable, Sendable, CaseIterable {
    /// Current Apple developer documentation.
    case documented
    /// Only the archived Technical Note TN2151 (older OS versions).
    case archivedTechNote
    /// Read from Apple open source (xnu, dyld, Swift).
    case openSource
    /// Observed in real crash reports, not explained by Apple.
    case observed
    /// Third-party material only; unverified.
    case thirdParty
    /// The documentation of the project that owns the code (the Rust project's for a Rust panic).
    case projectDocumentation

    /// True when no Apple document or Apple source states the fact.
    package var isCommunityReported: Bool {
        switch self {
        case .observed, .thirdParty: true
        case .documented, .archivedTechNote, .openSource, .projectDocumentation: false
        }
    }

    /// Short label shown next to an entry.
    package var label: String {
        switch self {
        case .documented: "documented by Apple"
        case .archivedTechNote: "archived Apple technote (TN2151)"
        case .openSource: "Apple open source"
        case .observed: "community-reported (observed in real reports)"
        case .thirdParty: "community-reported (third-party, unverified)"
        case .projectDocumentation: "documented by the project that owns the code"
        }
    }
}

/// What kind of term an entry explains; used to scope lookups such as
/// "code 1 in the DYLD namespace" versus "signal 1".
package enum TermKind: String, Codable, Sendable, CaseIterable {
    case exceptionType
    case exceptionCode
    case signal
    case signalCode
    case exceptionNote
    case guardType
    case resourceType
    case terminationNamespace
    case terminationCode
    case namespaceCode
    case jetsamReason
    case reportType
    case swiftRuntimeMessage
    case concurrencyMessage
    case objcException
    case applicationSpecificMessage
    case dyldError
    case frameSymbol
    case faultPattern
    case panicFamily
    case memoryLimit

    /// Human label used in renderers.
    package var label: String {
        switch self {
        case .exceptionType: "Mach exception type"
        case .exceptionCode: "exception code"
        case .signal: "signal"
        case .signalCode: "signal code"
        case .exceptionNote: "exception note"
        case .guardType: "EXC_GUARD type"
        case .resourceType: "EXC_RESOURCE type"
        case .terminationNamespace: "termination namespace"
        case .terminationCode: "termination code"
        case .namespaceCode: "termination reason code"
        case .jetsamReason: "jetsam reason"
        case .reportType: "report type (bug_type)"
        case .swiftRuntimeMessage: "Swift runtime error"
        case .concurrencyMessage: "Swift concurrency / libdispatch message"
        case .objcException: "Objective-C exception"
        case .applicationSpecificMessage: "Application Specific Information message"
        case .dyldError: "dyld error"
        case .frameSymbol: "backtrace frame"
        case .faultPattern: "fault pattern"
        case .panicFamily: "kernel panic family"
        case .memoryLimit: "process memory limit"
        }
    }
}

/// A citation with a link, so every explanation can be checked by the reader.
package struct Citation: Codable, Sendable, Hashable {
    /// Short key as used in the project's reference notes (e.g. `A-SEGV`).
    package let key: String
    package let title: String
    package let url: String

    package init(key: String, title: String, url: String) {
        self.key = key
        self.title = title
        self.url = url
    }
}

/// One fact of the knowledge base: a term as it appears in reports, what it means,
/// why it usually happens and what to look at next. Entries are data so that the
/// diagnosis logic never hides knowledge inside conditionals.
package struct KnowledgeEntry: Codable, Sendable, Hashable {
    /// Canonical spelling, e.g. `EXC_BAD_ACCESS`, `0x8badf00d`, `SIGABRT`.
    package let term: String
    package let kind: TermKind
    /// A few plain words naming the condition ("Watchdog timeout").
    package let title: String
    package let meaning: String
    package let causes: [String]
    package let checkNext: [String]
    package let sources: [Citation]
    package let provenance: Provenance
    /// Other spellings that should find this entry (numbers, indicator texts, old names).
    package let aliases: [String]
    /// Numeric values of the term (exception number, signal number, code).
    package let values: [UInt64]
    /// For namespace-scoped codes: the namespace they belong to (`DYLD`, `CODESIGNING`, …).
    package let namespace: String?
    /// Case-sensitive fragments that identify this entry inside free text
    /// (ASI messages, exception reasons, frame names).
    package let patterns: [String]

    package init(
        term: String, kind: TermKind, title: String, meaning: String,
        causes: [String] = [], checkNext: [String] = [], sources: [Citation],
        provenance: Provenance, aliases: [String] = [], values: [UInt64] = [],
        namespace: String? = nil, patterns: [String] = []
    ) {
        self.term = term
        self.kind = kind
        self.title = title
        self.meaning = meaning
        self.causes = causes
        self.checkNext = checkNext
        self.sources = sources
        self.provenance = provenance
        self.aliases = aliases
        self.values = values
        self.namespace = namespace
        self.patterns = patterns
    }

    /// True when the entry's facts are community-reported rather than documented.
    package var isCommunityReported: Bool { provenance.isCommunityReported }
}
