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
    /// A C++ standard library exception type (`std::bad_alloc`), as libc++abi names what it terminated on.
    case cxxException
    case applicationSpecificMessage
    case dyldError
    case frameSymbol
    case faultPattern
    case panicFamily
    case memoryLimit
    /// A framework debug layer's message (Main Thread Checker, Metal API Validation, Core Data's
    /// context checks): the layer stops the process with a message naming the rule.
    case debugLayerMessage
    /// What a stated message no rule knows says went wrong (threading, nil, range, …), read from
    /// its words (issue 48): the class explain quotes the message under.
    case messageClass

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
        case .cxxException: "C++ exception"
        case .applicationSpecificMessage: "Application Specific Information message"
        case .dyldError: "dyld error"
        case .frameSymbol: "backtrace frame"
        case .faultPattern: "fault pattern"
        case .panicFamily: "kernel panic family"
        case .memoryLimit: "process memory limit"
        case .debugLayerMessage: "framework debug-layer message"
        case .messageClass: "kind of stated message"
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
/// why it usually happens and what to look at next. Entries are data (`Catalogs/knowledge-*.json`,
/// generated into Swift by `make catalogs`) so the diagnosis logic never hides knowledge inside
/// conditionals, and every text carries all its languages and the tags the rules decide on.
package struct KnowledgeEntry: Sendable, Hashable {
    /// Canonical spelling, e.g. `EXC_BAD_ACCESS`, `0x8badf00d`, `SIGABRT`.
    package let term: String
    package let kind: TermKind
    /// A few plain words naming the condition ("Watchdog timeout").
    package let titleText: CatalogText
    package let meaningText: CatalogText
    package let causeTexts: [CatalogText]
    package let stepTexts: [CatalogText]
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

    init(
        term: String, kind: TermKind, title: CatalogText, meaning: CatalogText,
        causes: [CatalogText], checkNext: [CatalogText], sources: [Citation],
        provenance: Provenance, aliases: [String], values: [UInt64],
        namespace: String?, patterns: [String]
    ) {
        self.term = term
        self.kind = kind
        self.titleText = title
        self.meaningText = meaning
        self.causeTexts = causes
        self.stepTexts = checkNext
        self.sources = sources
        self.provenance = provenance
        self.aliases = aliases
        self.values = values
        self.namespace = namespace
        self.patterns = patterns
    }

    /// The title in English.
    package var title: String { titleText.english }
    package var meaning: String { meaningText.english }
    package var causes: [String] { causeTexts.map(\.english) }
    package var checkNext: [String] { stepTexts.map(\.english) }

    /// True when the entry's facts are community-reported rather than documented.
    package var isCommunityReported: Bool { provenance.isCommunityReported }
}

/// An entry with its prose in one language: what `explain TERM` shows and writes as JSON.
package struct LocalizedEntry: Codable, Sendable, Hashable {
    package let term: String
    package let kind: TermKind
    package let title: String
    package let meaning: String
    package let causes: [String]
    package let checkNext: [String]
    package let sources: [Citation]
    package let provenance: Provenance
    package let aliases: [String]
    package let values: [UInt64]
    package let namespace: String?
    package let patterns: [String]

    /// True when the entry's facts are community-reported rather than documented.
    package var isCommunityReported: Bool { provenance.isCommunityReported }

    /// The entry's ID in the catalogs (see `KnowledgeEntry.catalogID`).
    package var catalogID: String { "\(kind.rawValue)/\(term)" }
}

extension Citation {
    /// The citation the catalogs name `id` (the generator checks every ID an entry names exists).
    static func named(_ id: String) -> Citation {
        catalog[id] ?? Citation(key: id, title: id, url: "")
    }
}
