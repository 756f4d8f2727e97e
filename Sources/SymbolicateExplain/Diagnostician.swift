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
        found.completeFromBackground()
        if facts.crashedThread?.frames.first?.symbolication != nil {
            // Already symbolicated: advice to symbolicate would only distract.
            found.steps.removeAll { $0.hasPrefix("Symbolicate") }
        }
        found.causes.sort { $0.likelihood == .likely && $1.likelihood == .possible }
        let isFatal = !facts.isNonFatal && ![.notACrash].contains(category)
            && !(category == .resourceLimit && !resourceIsFatal)
        let references = found.entries.map {
            Diagnosis.Reference(term: $0.term, title: $0.title, communityReported: $0.isCommunityReported,
                                links: $0.sources.map(\.url))
        }
        return Diagnosis(category: category, certainty: verdict.certainty, headline: verdict.headline, isFatal: isFatal,
                         evidence: found.evidence, causes: found.causes, nextSteps: found.steps,
                         references: references, notes: found.notes)
    }

    var report: CrashReport { facts.report }

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
                found.notes.append("A kernel panic is diagnosed from the panic string and the kernel extension backtrace in the report; an app can only trigger one through a driver or OS bug.")
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
