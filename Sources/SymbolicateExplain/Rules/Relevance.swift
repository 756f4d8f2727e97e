import Foundation
import SymbolicateCrashReport

/// Decides which knowledge-base causes and steps fit one report, and keeps the diagnosis
/// short: a cause or step that needs something the report lacks (a fault address, an
/// exception backtrace), addresses another platform or architecture, or names a frame by
/// number it cannot check is dropped; texts naming an idea an earlier one named are dropped;
/// at most `Diagnosis.maximumCauses` causes and `Diagnosis.maximumSteps` steps remain (issue 17).
///
/// Knowledge-base texts are written for `explain TERM`, where every case applies; a report
/// settles most of them. The decisions read the texts' tags (`ExplainTag`, written beside
/// each text in the catalogs' data), never their words, so they are the same in every language
/// and survive any rewording (issue 37).
struct Relevance {
    let report: CrashReport
    /// The fault as the rules read it (`CrashReport.faultDescription(in:)`).
    let fault: FaultDescription?
    var facts: CrashFacts { report.facts }
    /// Evidence fields the rules quoted: advice to read what the diagnosis already read and
    /// interpreted is dropped.
    var quotedFields: Set<Phrase> = []
    /// A watchdog report's CPU time against its allowance: true when the app was computing,
    /// false when it was mostly waiting, nil when the report does not tell.
    var mainThreadBusy: Bool? = nil

    // MARK: - Platform and architecture

    /// Advice addressed to one architecture or operating system applies only to reports from it.
    func fitsPlatform(_ tags: Set<ExplainTag>) -> Bool {
        if tags.contains(.intel) { return facts.platform.isIntel }
        if tags.contains(.nativeARM) { return facts.platform.isNativeARM }
        if tags.contains(.arm64e) { return facts.platform.architecture?.name == "arm64e" }
        // Apple's tools do not apply to a Linux process.
        if facts.platform.platform == .linux, tags.contains(.appleTools) { return false }
        let platforms = ExplainTag.platforms.filter { tags.contains($0.tag) }.map(\.platform)
        return platforms.isEmpty || facts.platform.platform.map(platforms.contains) == true
    }

    // MARK: - Evidence

    /// A step that reads a part of the report applies only when the report has that part.
    func stepFitsEvidence(_ tags: Set<ExplainTag>, fromKnowledgeBase: Bool) -> Bool {
        if fromKnowledgeBase {
            // Frame numbers in general advice are unchecked claims: the diagnosis names the frame
            // itself (see `Diagnostician.whereToLook`); a pointer to another entry is not something
            // to do with this report; the diagnosis has read the fault address (or the report has
            // none) and looked up the code.
            let settled: Set<ExplainTag> = [.namesFrameByNumber, .pointsToAnotherEntry, .readsFaultAddress, .looksUpCode]
            if !tags.isDisjoint(with: settled) { return false }
        }
        return tags.allSatisfy { reportHas($0) }
    }

    /// Whether the report has what a step tagged `tag` reads (true for tags that are not needs).
    private func reportHas(_ tag: ExplainTag) -> Bool {
        let hasFault = fault != nil
        switch tag {
        case .needsFaultAddress: return hasFault
        case .needsProgramCounter: return hasFault && report.programCounter != nil
        case .needsStrippedAddress: return fault?.stripped != nil
        case .needsVMRegionInfo: return facts.vmRegionLine != nil
        case .needsApplicationSpecificInformation: return !facts.messageLines.isEmpty
        case .needsExceptionBacktrace: return !(report.lastExceptionBacktrace?.frames.isEmpty ?? true)
        case .needsExceptionMessage: return report.exceptionMessage != nil
        case .needsTerminationReason: return report.termination != nil
        case .needsWatchdogCPUTime:
            return !quotedFields.contains(Phrase(.fieldWatchdogCPU))
                && facts.termination?.countsCPUTime == true
        case .needsMainThreadBacktrace:
            return report.mainThread != nil && !quotedFields.contains { $0.catalogKey == .fieldMainThreadFrame }
        case .needsCrashedThread: return !(report.crashedThread?.frames.isEmpty ?? true)
        case .needsExceptionName: return reportSays("exception")
        case .needsObjCRuntimeTopFrame: return topFrameIsObjCRuntime
        case .needsUnrecognizedSelector: return reportSays("unrecognized selector")
        case .needsSymbolication: return report.needsSymbolication
        default: return true
        }
    }

    /// A cause the evidence rules out: a nil dereference when the fault address is known and
    /// not near zero (or the fault is an x86 general-protection fault, which nil does not
    /// raise); a stack overflow when the crashed thread is short; an exception backtrace or
    /// message the report does not have.
    func causeFitsEvidence(_ tags: Set<ExplainTag>) -> Bool {
        if isMemoryFault, nilIsRuledOut, tags.contains(.claimsNil) { return false }
        if tags.contains(.claimsStackOverflow), stackOverflowIsRuledOut { return false }
        // EXC_CRASH's abort causes do not explain a SIGKILL, SIGQUIT or SIGTERM.
        if tags.contains(.claimsAbort), facts.exception?.signal != nil, facts.exception?.signalNumber != 6 { return false }
        // Busy (most of the allowance used as CPU time) and blocked (little CPU) exclude each other.
        if let busy = mainThreadBusy {
            if busy, tags.contains(.topicBlockedMainThread) { return false }
            if !busy, tags.contains(.topicBusyMainThread) { return false }
        }
        if tags.contains(.claimsExceptionBacktrace) { return !(report.lastExceptionBacktrace?.frames.isEmpty ?? true) }
        if tags.contains(.claimsLibcxxabiMessage) { return reportSays("libc++abi") }
        if tags.contains(.claimsNonSignalTermination) { return facts.termination?.namespace.map { $0 != "SIGNAL" } ?? false }
        return true
    }

    private var isMemoryFault: Bool {
        facts.exception?.machType == "EXC_BAD_ACCESS"
            || ["SIGSEGV", "SIGBUS"].contains(facts.exception?.signal?.components(separatedBy: " ").first ?? "")
    }

    private var nilIsRuledOut: Bool {
        if facts.exception?.isGeneralProtectionFault == true { return true }
        guard let fault = fault else { return false }
        switch FaultAddress(address: fault.address, stripped: fault.stripped) {
        case .null, .nearNull: return false
        case .objcConcurrentAccess, .highBits, .other: return true
        }
    }

    private var stackOverflowIsRuledOut: Bool {
        guard let thread = report.crashedThread, !thread.frames.isEmpty else { return false }
        let said = reportSays("stack") || facts.exception?.isInStackRegion == true
        // The rules quoted a fault just below the stack pointer or a repeating stretch of frames.
        let shown =
            quotedFields.contains(Phrase(.fieldStackPointer))
            || quotedFields.contains(Phrase(.fieldThread, ["thread": .text(String(thread.index))]))
        return thread.frames.count < 64 && !said && !shown
    }

    private var topFrameIsObjCRuntime: Bool {
        let names = report.crashedThread?.frames.first?.functionNames.joined(separator: " ") ?? ""
        return ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "objc_storeStrong"].contains { names.contains($0) }
    }

    /// Whether the report's own text (its messages, not the diagnosis's) says `fragment`.
    private func reportSays(_ fragment: String) -> Bool {
        // The uncaught exception's name and reason count wherever the layout states them (a line, or a reporter's data).
        let uncaught = facts.uncaughtException.map { [$0.exception.name, $0.exception.reason].compactMap { $0 } } ?? []
        return
            ([report.exceptionMessage, report.exception?.subtype, report.termination?.text].compactMap { $0 } + uncaught
            + facts.messageLines + (report.termination?.details ?? []))
            .contains { $0.localizedCaseInsensitiveContains(fragment) }
    }

    // MARK: - Shaping

    /// Keeps phrases in order, dropping one already kept or whose ideas (topic tags) an earlier
    /// kept phrase named, up to `limit`.
    static func distinct(_ phrases: [Phrase], limit: Int) -> [Phrase] {
        var kept: [Phrase] = []
        var covered = Set<ExplainTag>()
        for phrase in phrases where !kept.contains(phrase) {
            let named = phrase.tags.intersection(ExplainTag.topics)
            guard named.isDisjoint(with: covered) else { continue }
            covered.formUnion(named)
            kept.append(phrase)
            if kept.count == limit { break }
        }
        return kept
    }

    /// Filters and orders causes by their tags, so the same causes are kept whatever language
    /// the diagnosis is written in.
    func causes(_ causes: [FoundCause]) -> [FoundCause] {
        let fitting = causes.filter { fitsPlatform($0.phrase.tags) && causeFitsEvidence($0.phrase.tags) }
        // Likely before possible, otherwise in the order the rules found them.
        let ordered = fitting.filter { $0.likelihood == .likely } + fitting.filter { $0.likelihood == .possible }
        let kept = Self.distinct(ordered.map(\.phrase), limit: Diagnosis.maximumCauses)
        return kept.compactMap { phrase in ordered.first { $0.phrase == phrase } }
    }

    /// `ruleSteps` were written from this report's facts; `entrySteps` are general advice.
    func steps(rule ruleSteps: [Phrase], entry entrySteps: [Phrase]) -> [Phrase] {
        let fitting =
            ruleSteps.filter { fitsPlatform($0.tags) && stepFitsEvidence($0.tags, fromKnowledgeBase: false) }
            + entrySteps.filter { fitsPlatform($0.tags) && stepFitsEvidence($0.tags, fromKnowledgeBase: true) }
        return Self.distinct(fitting, limit: Diagnosis.maximumSteps)
    }
}
