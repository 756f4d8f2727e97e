import Foundation
import SymbolicateCrashReport

/// Decides which knowledge-base causes and steps fit one report, and keeps the diagnosis
/// short: a cause or step that names something the report lacks (a fault address, an
/// exception backtrace), another platform or architecture, or a frame by number it cannot
/// check is dropped; near-duplicates (the same idea in other words) are dropped; at most
/// `Diagnosis.maximumCauses` causes and `Diagnosis.maximumSteps` steps remain (issue 17).
///
/// Knowledge-base texts are written for `explain TERM`, where every case applies; a report
/// settles most of them, so they are filtered here, in one place, by the words they use.
struct Relevance {
    let facts: ReportFacts
    /// Evidence fields the rules quoted: advice to read what the diagnosis already read and
    /// interpreted is dropped.
    var quotedFields: Set<String> = []
    /// A watchdog report's CPU time against its allowance: true when the app was computing,
    /// false when it was mostly waiting, nil when the report does not tell.
    var mainThreadBusy: Bool? = nil

    // MARK: - Platform and architecture

    /// Advice addressed to one architecture or operating system ("ARM: …", "x86_64: …",
    /// "On iOS: …", "arm64e") applies only to reports from it.
    func fitsPlatform(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasPrefix("x86_64:") || lower.contains("on intel") { return facts.isIntel }
        if lower.hasPrefix("arm:") || lower.contains("on arm") { return facts.isNativeARM }
        if lower.contains("arm64e") { return facts.architecture == "arm64e" }
        let mentioned: [(String, ReportFacts.Platform)] = [
            ("ios", .iOS), ("ipados", .iOS), ("macos", .macOS),
            ("watchos", .watchOS), ("tvos", .tvOS), ("visionos", .visionOS),
        ]
        // Apple's tools do not apply to a Linux process.
        if facts.platform == .linux, ["dsym", "xcode", "instruments", "zombies", "organizer"].contains(where: lower.contains) {
            return false
        }
        let platforms = Set(mentioned.filter { containsWord($0.0, in: lower) }.map(\.1))
        return platforms.isEmpty || platforms.contains(facts.platform)
    }

    // MARK: - Evidence

    /// A step that reads a part of the report applies only when the report has that part.
    func stepFitsEvidence(_ step: String, fromKnowledgeBase: Bool) -> Bool {
        let lower = step.lowercased()
        if fromKnowledgeBase {
            // Frame numbers in general advice ("frames 0/1 give the line") are unchecked claims:
            // the diagnosis names the frame itself (see `Diagnostician.whereToLook`).
            if lower.range(of: #"\bframes? [0-9]"#, options: .regularExpression) != nil || lower.contains("the frame below") {
                return false
            }
            // "See EXC_BAD_ACCESS" points at another entry: not something to do with this report.
            if lower.hasPrefix("see ") { return false }
            // The diagnosis has read the fault address already (it is quoted and interpreted in
            // the evidence), or the report has none: either way the advice to read it is moot.
            if lower.hasPrefix("read the fault address") { return false }
            // "Look up the code": the diagnosis has looked it up.
            if lower.hasPrefix("look up the") { return false }
        }
        let hasFault = facts.faultDescription != nil
        let requirements: [(String, Bool)] = [
            ("fault address", hasFault),
            ("pc with the", hasFault && facts.programCounter != nil),
            ("is pc equal", hasFault && facts.programCounter != nil),
            ("stripped address", facts.faultDescription?.stripped != nil),
            ("vm region info", facts.report.vmRegionInfo != nil),
            ("application specific information", !facts.asiLines.isEmpty),
            ("last exception backtrace", !(facts.report.lastExceptionBacktrace?.frames.isEmpty ?? true)),
            ("exception message", facts.message != nil),
            ("termination reason", facts.report.termination != nil),
            (
                "elapsed application cpu time",
                !quotedFields.contains("Watchdog CPU")
                    && (facts.terminationDetails.contains { $0.contains("Elapsed application CPU time") }
                        || facts.terminationText?.contains("Elapsed application CPU time") == true)
            ),
            ("main thread's backtrace", facts.mainThread != nil && !quotedFields.contains { $0.contains("(main thread)") }),
            ("crashed thread", !(facts.crashedThread?.frames.isEmpty ?? true)),
            ("exception name", reportSays("exception")),
            ("top frame objc_msgSend", topFrameIsObjCRuntime),
            ("unrecognized selector", reportSays("unrecognized selector")),
            ("symbolicate", facts.needsSymbolication),
        ]
        return requirements.allSatisfy { phrase, holds in !lower.contains(phrase.lowercased()) || holds }
    }

    /// A cause the evidence rules out: a nil dereference when the fault address is known and
    /// not near zero (or the fault is an x86 general-protection fault, which nil does not
    /// raise); a stack overflow when the crashed thread is short; an exception backtrace or
    /// message the report does not have.
    func causeFitsEvidence(_ cause: String) -> Bool {
        let lower = cause.lowercased()
        if isMemoryFault, nilIsRuledOut, containsWord("nil", in: lower) || lower.contains("null") { return false }
        if lower.contains("stack overflow") || lower.contains("recursion"), stackOverflowIsRuledOut { return false }
        // EXC_CRASH's abort causes do not explain a SIGKILL, SIGQUIT or SIGTERM.
        if lower.contains("abort"), let signal = facts.signal, !signal.hasPrefix("SIGABRT") { return false }
        // Busy (most of the allowance used as CPU time) and blocked (little CPU) exclude each other.
        if let busy = mainThreadBusy {
            let named = Self.topics(of: cause)
            if busy, named.contains("blockedMainThread") { return false }
            if !busy, named.contains("busyMainThread") { return false }
        }
        if lower.contains("last exception backtrace present") { return !(facts.report.lastExceptionBacktrace?.frames.isEmpty ?? true) }
        if lower.contains("libc++abi message") { return reportSays("libc++abi") }
        if lower.contains("non-signal termination reason") { return facts.namespace.map { $0 != "SIGNAL" } ?? false }
        return true
    }

    private var isMemoryFault: Bool {
        facts.exceptionType == "EXC_BAD_ACCESS" || ["SIGSEGV", "SIGBUS"].contains(facts.signal?.components(separatedBy: " ").first ?? "")
    }

    private var nilIsRuledOut: Bool {
        if facts.codes?.contains("EXC_I386_GPFLT") == true { return true }
        guard let fault = facts.faultDescription else { return false }
        switch FaultAddress(address: fault.address, stripped: fault.stripped) {
        case .null, .nearNull: return false
        case .objcConcurrentAccess, .highBits, .other: return true
        }
    }

    private var stackOverflowIsRuledOut: Bool {
        guard let thread = facts.crashedThread, !thread.frames.isEmpty else { return false }
        let said = reportSays("stack") || facts.report.vmRegionInfo?.lowercased().contains("stack") == true
        // The rules quoted a fault just below the stack pointer or a repeating stretch of frames.
        let shown = quotedFields.contains("Stack pointer") || quotedFields.contains("Thread \(thread.index)")
        return thread.frames.count < 64 && !said && !shown
    }

    private var topFrameIsObjCRuntime: Bool {
        let names = facts.crashedThread?.frames.first?.functionNames.joined(separator: " ") ?? ""
        return ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "objc_storeStrong"].contains { names.contains($0) }
    }

    private func reportSays(_ fragment: String) -> Bool {
        ([facts.message, facts.subtype, facts.terminationText].compactMap { $0 } + facts.asiLines + facts.terminationDetails)
            .contains { $0.localizedCaseInsensitiveContains(fragment) }
    }

    private func containsWord(_ word: String, in text: String) -> Bool {
        text.range(of: #"\b"# + NSRegularExpression.escapedPattern(for: word) + #"\b"#, options: .regularExpression) != nil
    }

    // MARK: - Shaping

    /// Ideas that different entries word differently; two texts whose first-named idea is the
    /// same say the same thing for a reader.
    static let topics: [(name: String, words: [String])] = [
        ("dangling", ["use-after-free", "dangling", "zombie", "over-released", "deallocated", "freed"]),
        ("nil", ["nil", "null"]),
        ("bounds", ["out-of-bounds", "out of bounds", "beyond bounds", "buffer overflow"]),
        ("stack", ["stack overflow", "recursion"]),
        ("corruption", ["corrupt", "garbage"]),
        ("sanitizer", ["address sanitizer"]),
        ("faultAddress", ["fault address"]),
        ("asi", ["application specific information"]),
        ("exceptionBacktrace", ["last exception backtrace"]),
        ("symbolicate", ["symbolicate"]),
        ("offMain", ["off the main thread", "off main thread"]),
        ("busyMainThread", ["long-running work on the main thread", "main thread was busy", "heavy work on the main thread"]),
        ("blockedMainThread", ["main thread was blocked", "main-thread deadlock", "synchronous networking on the main thread"]),
        (
            "appFrame",
            [
                "first frame in your code", "first frame of your code", "first frame in the app's code", "who called abort",
                "up from abort",
            ]
        ),
    ]

    /// The ideas `text` names.
    static func topics(of text: String) -> Set<String> {
        let lower = text.lowercased()
        return Set(
            topics.filter { _, words in
                words.contains { lower.range(of: #"\b"# + NSRegularExpression.escapedPattern(for: $0), options: .regularExpression) != nil }
            }.map(\.name))
    }

    /// Keeps texts in order, dropping one whose ideas an earlier kept text already named, up to `limit`.
    static func distinct(_ texts: [String], limit: Int) -> [String] {
        var kept: [String] = []
        var covered = Set<String>()
        for text in texts where !kept.contains(text) {
            let named = topics(of: text)
            guard named.isDisjoint(with: covered) else { continue }
            covered.formUnion(named)
            kept.append(text)
            if kept.count == limit { break }
        }
        return kept
    }

    /// Filters and orders causes by their English text (the words these filters know), so the
    /// same causes are kept whatever language the diagnosis is written in.
    func causes(_ causes: [FoundCause]) -> [FoundCause] {
        let fitting = causes.filter { fitsPlatform($0.phrase.english) && causeFitsEvidence($0.phrase.english) }
        // Likely before possible, otherwise in the order the rules found them.
        let ordered = fitting.filter { $0.likelihood == .likely } + fitting.filter { $0.likelihood == .possible }
        let texts = Self.distinct(ordered.map(\.phrase.english), limit: Diagnosis.maximumCauses)
        return texts.compactMap { text in ordered.first { $0.phrase.english == text } }
    }

    /// `ruleSteps` were written from this report's facts; `entrySteps` are general advice.
    func steps(rule ruleSteps: [Phrase], entry entrySteps: [Phrase]) -> [Phrase] {
        let fitting =
            ruleSteps.filter { fitsPlatform($0.english) && stepFitsEvidence($0.english, fromKnowledgeBase: false) }
            + entrySteps.filter { fitsPlatform($0.english) && stepFitsEvidence($0.english, fromKnowledgeBase: true) }
        let texts = Self.distinct(fitting.map(\.english), limit: Diagnosis.maximumSteps)
        return texts.compactMap { text in fitting.first { $0.english == text } }
    }
}
