import Foundation
import SymbolicateCrashReport

/// The rules, in the order the reference's decision hints give (§9): report type, non-fatal
/// notes, non-SIGNAL termination namespaces, then the exception refined by messages, frames
/// and the fault address.
struct Diagnostician {
    let facts: ReportFacts
    let base: KnowledgeBase
    let found = Findings()

    init(report: CrashReport, base: KnowledgeBase) {
        facts = ReportFacts(report: report)
        self.base = base
    }

    func run() -> Diagnosis {
        let verdict = classify()
        let category = verdict.category
        if Self.crashesInRunningCode.contains(category) { readThreadRole() }
        let relevance = Relevance(facts: facts, quotedFields: Set(found.evidence.map(\.field)), mainThreadBusy: found.mainThreadBusy)
        var ruleSteps = found.steps
        if let look = whereToLook(category), !ruleSteps.contains(where: { mentionsSameFrame($0, look) }) {
            ruleSteps.append(look.text)
        }
        // The generic entries (exception type, signal) speak only when nothing more specific fits.
        var causes = relevance.causes(found.causes)
        if causes.isEmpty { causes = relevance.causes(found.backgroundCauses) }
        var steps = relevance.steps(rule: ruleSteps, entry: found.entrySteps)
        if steps.isEmpty { steps = relevance.steps(rule: [], entry: found.backgroundSteps) }
        let isFatal =
            !facts.isNonFatal && ![.notACrash].contains(category)
            && !(category == .resourceLimit && !resourceIsFatal)
        let references = found.entries.map {
            Diagnosis.Reference(
                term: $0.term, title: $0.title, communityReported: $0.isCommunityReported,
                links: $0.sources.map(\.url))
        }
        return Diagnosis(
            category: category, certainty: verdict.certainty, headline: verdict.headline, isFatal: isFatal,
            evidence: found.evidence, causes: causes, nextSteps: steps,
            references: references, notes: found.notes)
    }

    var report: CrashReport { facts.report }

    /// Problems whose cause is in code the crashed thread was running: for them the frame that
    /// holds the app's line is where to start reading.
    static let crashesInRunningCode: Set<Diagnosis.Category> = [
        .swiftRuntimeError, .swiftTrap, .explicitTrap, .dispatchMisuse, .uncaughtObjCException, .uncaughtCppException,
        .assertionFailure, .abort, .signalRaised, .memoryCorruption, .nilDereference, .pointerAuthentication,
        .objcConcurrentPropertyAccess, .zombieObject, .stackOverflow, .badMemoryAccess, .illegalInstruction, .arithmetic,
        .guardViolation, .libsystemFault, .privacyViolation,
    ]

    /// The step naming the frame that holds the app's line (issue 17: every claim about a frame
    /// is checked against the frames): the first app frame of the exception backtrace for an
    /// Objective-C exception (where it was thrown), else of the crashed thread.
    func whereToLook(_ category: Diagnosis.Category) -> (text: String, frame: Frame)? {
        guard Self.crashesInRunningCode.contains(category) else { return nil }
        if category == .uncaughtObjCException, let frame = report.lastExceptionBacktrace?.frames.first(where: facts.isAppOwned) {
            return (
                describe(frame, at: "Last Exception Backtrace frame \(frame.index)", role: "the app's call that led to the throw"), frame
            )
        }
        guard let thread = facts.crashedThread, let frame = facts.firstAppFrame else { return nil }
        return (describe(frame, at: "thread \(thread.index) frame \(frame.index)", role: "where to start reading"), frame)
    }

    private func describe(_ frame: Frame, at place: String, role: String) -> String {
        let (function, location) = frame.appLine
        if let function, let location {
            return "Open \(location) in \(function) (\(place), the first frame in the app's code): \(role)"
        }
        if let function {
            return "Start at \(function) (\(place), the first frame in the app's code; the report gives no file and line for it)"
        }
        let offset = frame.imageOffset.map { " + " + hex($0) } ?? ""
        return "Symbolicate \(place) (\(frame.imageName ?? "?")\(offset)) with \(facts.debugFile): it is the first frame in the app's code"
    }

    /// A rule's step already names the frame (its file and line, or its function).
    private func mentionsSameFrame(_ step: String, _ look: (text: String, frame: Frame)) -> Bool {
        let (function, location) = look.frame.appLine
        if let location, step.contains(location) { return true }
        return function.map { step.contains($0) } ?? false
    }

    var resourceIsFatal: Bool {
        if let subtype = facts.subtype, subtype.contains("FATAL") { return true }
        if let action = header("Action taken"), action.lowercased().contains("killed") { return true }
        return false
    }

    func header(_ key: String) -> String? {
        report.headerFields.first { $0.key == key }?.value
    }

    // MARK: - Classification

    func classify() -> Verdict {
        if let result = classifyReportType() { return result }
        if facts.exceptionLine == nil, facts.namespace == nil {
            if let panic = facts.panicLine {
                found.quote("Panic", panic)
                found.notes.append(
                    "A kernel panic is diagnosed from the panic string and the kernel extension backtrace in the report; an app can only trigger one through a driver or OS bug."
                )
                found.use(base.entry(.kernelPanicReport))
                return Verdict(.notACrash, .stated, "Kernel panic: the whole system restarted; this is not an app crash report.")
            }
            found.notes.append("The report has no exception or termination information; it may be truncated or a fragment.")
            return Verdict(.unknown, .possible, "Not enough information in the report to diagnose a crash.")
        }
        quoteException()
        if facts.isNonFatal {
            found.use(facts.note.flatMap { base.entries(named: $0).first } ?? base.entry(.nonFatalCondition))
        }
        if let namespace = facts.namespace, namespace != "SIGNAL", let result = classifyTermination(namespace) {
            return result
        }
        // Older reports carry the system's code in Exception Codes under a numeric type
        // (`Exception Type: 00000020`, `Exception Codes: 0xc00010ff`): the code alone identifies it.
        if let entry = systemCodeInExceptionCodes() {
            found.quote("Exception Codes", facts.codes, "\(entry.term): \(entry.title)")
            found.use(entry, causes: 0)
            let text = ([facts.terminationText ?? ""] + facts.terminationDetails + facts.asiLines).joined(separator: "\n")
            return classifySystemCode(entry, text: text)
        }
        if let result = classifyByMessages() { return result }
        return classifyByException()
    }

    func quoteException() {
        found.quote("Exception Type", facts.exceptionLine)
        found.quote("Exception Subtype", facts.subtype)
        found.quote("Exception Message", facts.message)
        found.quote("Exception Note", facts.note)
        if let line = facts.terminationLine, facts.namespace != nil { found.quote("Termination Reason", line) }
        for detail in facts.terminationDetails { found.quote("Termination Details", detail) }
    }

}
