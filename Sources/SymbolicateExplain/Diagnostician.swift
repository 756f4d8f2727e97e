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

    /// The diagnosis with its prose in `language`. The rules and their filters run on the
    /// English rendering whatever the language, so the category, the evidence and the causes
    /// and steps chosen are the same in every language; only the words differ.
    func run(language: Language = .english) -> Diagnosis {
        let verdict = classify()
        let category = verdict.category
        if Self.crashesInRunningCode.contains(category) { readThreadRole() }
        let relevance = Relevance(
            facts: facts, quotedFields: Set(found.evidence.map(\.field.english)), mainThreadBusy: found.mainThreadBusy)
        var ruleSteps = found.steps
        if let look = whereToLook(category), !ruleSteps.contains(where: { mentionsSameFrame($0.english, look) }) {
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
                term: $0.term, title: $0.titlePhrase.text(language), communityReported: $0.isCommunityReported,
                links: $0.sources.map(\.url))
        }
        let evidence = found.evidence.map {
            Diagnosis.Evidence(field: $0.field.text(language), quote: $0.quote.text(language), note: $0.note?.text(language))
        }
        return Diagnosis(
            category: category, certainty: verdict.certainty, headline: verdict.headline.text(language), isFatal: isFatal,
            evidence: evidence,
            causes: causes.map { Diagnosis.Cause($0.phrase.text(language), $0.likelihood, frames: $0.frames.map { $0.text(language) }) },
            nextSteps: steps.map { $0.text(language) }, references: references, notes: found.notes.map { $0.text(language) },
            language: language)
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
    func whereToLook(_ category: Diagnosis.Category) -> (text: Phrase, frame: Frame)? {
        guard Self.crashesInRunningCode.contains(category) else { return nil }
        if category == .uncaughtObjCException, let frame = report.lastExceptionBacktrace?.frames.first(where: facts.isAppOwned) {
            return (describe(frame, at: .exceptionFrame(frame.index), role: Phrase(.roleCallThatLedToThrow)), frame)
        }
        guard let thread = facts.crashedThread, let frame = facts.firstAppFrame else { return nil }
        return (describe(frame, at: .place(thread.index, frame.index), role: Phrase(.roleWhereToStart)), frame)
    }

    private func describe(_ frame: Frame, at place: Phrase, role: Phrase) -> Phrase {
        let (function, location) = frame.appLine
        if let function, let location {
            return Phrase(.stepOpenFirstAppFrame, ["location": .text(location), "function": .text(function), "place": place, "role": role])
        }
        if let function {
            return Phrase(.stepStartAtFirstAppFrame, ["function": .text(function), "place": place])
        }
        return Phrase(.stepSymbolicateFirstAppFrame, ["place": place, "image": frame.imageAndOffset, "debugFile": facts.debugFilePhrase])
    }

    /// A rule's step already names the frame (its file and line, or its function). Both come
    /// from the report: searched in linear time (`TextScan.occurs`).
    private func mentionsSameFrame(_ step: String, _ look: (text: Phrase, frame: Frame)) -> Bool {
        let (function, location) = look.frame.appLine
        if let location, TextScan.occurs(location, in: step) { return true }
        return function.map { TextScan.occurs($0, in: step) } ?? false
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
                found.quote(.label("Panic"), panic)
                found.note(.noteKernelPanic)
                found.use(base.entry(.kernelPanicReport))
                return Verdict(.notACrash, .stated, .verdictKernelPanic)
            }
            // A crash reporter's own watchdog (KSCrash's deadlock monitor) ends the process
            // without a signal or an exception: the report says so in words.
            let deadlock = facts.asiLines.filter { $0.lowercased().contains("main thread deadlock") }
            if !deadlock.isEmpty { return reportedMainThreadDeadlock(deadlock) }
            found.note(.noteNoExceptionInformation)
            return Verdict(.unknown, .possible, .verdictNotEnoughInformation)
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
            found.quote(
                .label("Exception Codes"), facts.codes, Phrase(.noteTermTitle, ["term": .text(entry.term), "title": entry.titlePhrase]))
            found.use(entry, causes: 0)
            let text = ([facts.terminationText ?? ""] + facts.terminationDetails + facts.asiLines).joined(separator: "\n")
            return classifySystemCode(entry, text: text)
        }
        if let result = classifyByMessages() { return result }
        return classifyByException()
    }

    func quoteException() {
        quoteLogEvents()
        found.quote(.label("Exception Type"), facts.exceptionLine)
        found.quote(.label("Exception Subtype"), facts.subtype)
        found.quote(.label("Exception Message"), facts.message)
        found.quote(.label("Exception Note"), facts.note)
        if let line = facts.terminationLine, facts.namespace != nil { found.quote(.label("Termination Reason"), line) }
        for detail in facts.terminationDetails { found.quote(.label("Termination Details"), detail) }
    }

}
