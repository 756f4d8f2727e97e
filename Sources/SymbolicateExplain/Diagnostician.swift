import Foundation
import SymbolicateCrashReport

/// The rules, in the order the reference's decision hints give (§9): report type, non-fatal
/// notes, non-SIGNAL termination namespaces, then the exception refined by messages, frames
/// and the fault address.
struct Diagnostician {
    let report: CrashReport
    let base: KnowledgeBase
    let found = Findings()
    /// The fault address with its name and the line that states it, looked up once: the rules
    /// and their filters ask for it many times.
    let fault: FaultDescription?

    init(report: CrashReport, base: KnowledgeBase) {
        self.report = report
        self.base = base
        fault = report.faultDescription(in: base)
    }

    /// What the report says, read once by its reader.
    var facts: CrashFacts { report.facts }

    /// What the rules decided, before any wording: the verdict, and the evidence, causes, steps,
    /// notes and entries as catalog phrases. Decisions read the phrases' identities and tags,
    /// never their words, so the decision is the same in every language and survives any
    /// rewording of the catalogs (a test rewords every text and compares decisions).
    struct Decision: Hashable {
        var verdict: Verdict
        var isFatal: Bool
        var evidence: [FoundEvidence]
        var causes: [FoundCause]
        var steps: [Phrase]
        var notes: [Phrase]
        var entries: [KnowledgeEntry]
        /// The catalogue entry or family a rule matched (issue 41).
        var matched: Diagnosis.Match?
        /// The verdict's headline, or the throw-site rule it broke leading it.
        var headline: Phrase
        /// The throw-site catalogue entry the raising frame and reason matched.
        var throwSite: ThrowSiteReference?
    }

    /// What the diagnosis cites of a matched throw site.
    struct ThrowSiteReference: Hashable {
        var id: String
        var framework: Phrase
        var sources: [String]
    }

    /// Runs the rules once (a `Diagnostician` is used for one decision).
    func decide() -> Decision {
        let verdict = classify()
        let category = verdict.category
        // Which thread pasted frames ran on is unknown: no claim about its role.
        if Self.crashesInRunningCode.contains(category), report.pastedThread == nil { readThreadRole() }
        let throwSite = matchThrowSite(category)
        let relevance = Relevance(
            report: report, fault: fault, quotedFields: Set(found.evidence.map(\.field)), mainThreadBusy: found.mainThreadBusy)
        var ruleSteps = found.steps
        let look = whereToLook(category)
        if let look, !ruleSteps.contains(where: { mentionsSameFrame($0, look) }) {
            ruleSteps.append(look.text)
        }
        // The generic entries (exception type, signal) speak only when nothing more specific fits.
        var causes = relevance.causes(found.causes)
        let causesAreBackground = causes.isEmpty
        if causes.isEmpty { causes = relevance.causes(found.backgroundCauses) }
        // A sentence that named the signal says first who died and how; the causes above stand.
        if let stop = found.statedStop {
            causes = [stop] + causes
            // The handler's way out (`Abort trap: 6` after a caught SIGSEGV), after the first rule.
            if let then = found.statedStopThen { causes.insert(then, at: min(2, causes.count)) }
            causes = Array(causes.prefix(Diagnosis.maximumCauses))
        }
        var steps = relevance.steps(rule: ruleSteps, entry: found.entrySteps)
        if steps.isEmpty { steps = relevance.steps(rule: [], entry: found.backgroundSteps) }
        // A throw site's rule leads the causes (after a cause the thread's role showed) and its
        // fix leads the steps: both come from the catalogue entry the report's own frames and
        // reason matched, so the general filters above do not apply to them.
        if let throwSite, throwSite.addsRuleAndFix {
            causes.insert(throwSite.cause, at: found.threadRoleCauseFirst && !causes.isEmpty ? 1 : 0)
            causes = Array(causes.prefix(Diagnosis.maximumCauses))
            steps = Array(([throwSite.step] + steps).prefix(Diagnosis.maximumSteps))
        }
        // An exception that states no reason and matched no throw site: the API that raised it is
        // what the text says of why (its rules are that API's), so a cause names it with its frame.
        let unexplainedException =
            [.uncaughtObjCException, .uncaughtCppException].contains(category) && throwSite?.addsRuleAndFix != true
            && statedException().reason == nil
        if unexplainedException, let path = uncaughtPath() {
            // Only the way out is in the text: the frames that show it, and who ran the code it escaped.
            let cause =
                if let caller = path.caller {
                    FoundCause(
                        phrase: Phrase(
                            .causeExceptionEscapedCallout,
                            [
                                "caller": .verbatim(caller.frame.functionNames.first ?? ""),
                                "image": .verbatim(caller.frame.imageName ?? "?"),
                            ]),
                        likelihood: .likely, frames: [path.stop, caller.line])
                } else {
                    FoundCause(phrase: Phrase(.causeUncaughtPathOnly), likelihood: .likely, frames: [path.stop])
                }
            // (The exception type's generic causes, a trap's or a signal's, are not this stop's.)
            causes = Array(([cause] + (causesAreBackground ? [] : causes)).prefix(Diagnosis.maximumCauses))
        } else if unexplainedException,
            !facts.statedMessages.contains(where: { [.objcException, .cxxException].contains($0.family) }),
            let raising = raisingAPIFrame()
        {
            let line = FrameLine(place: raising.place, text: .verbatim(raising.frame.evidenceText))
            let cause = FoundCause(
                phrase: Phrase(
                    .causeRaisedByAPI,
                    ["function": .verbatim(raising.frame.functionNames.first ?? ""), "image": .verbatim(raising.frame.imageName ?? "?")]),
                likelihood: .likely, frames: [line])
            causes = Array(([cause] + causes).prefix(Diagnosis.maximumCauses))
        } else if category == .uncaughtObjCException, throwSite?.addsRuleAndFix != true, !causes.isEmpty,
            case let stated = statedException(), stated.name == nil, stated.reason != nil, let raising = raisingAPIFrame()
        {
            // A reason without the exception's name (a crash service's Application Specific
            // Information): the API that raised it says whose rule the words are.
            let line = FrameLine(place: raising.place, text: .verbatim(raising.frame.evidenceText))
            if !causes[0].frames.contains(line) { causes[0].frames.insert(line, at: 0) }
        }
        // The leading cause names the app's frame the step starts at, when no cause names it yet:
        // where is half of what a diagnosis says (issue 48), and a paste's frames are all its text
        // says of it.
        if let frame = look?.frame, !causes.isEmpty, !causes.contains(where: { $0.frames.contains(frame) }) {
            causes[0].frames.append(frame)
            // An app frame without a name (no debug file given): the named frame that called it
            // is what the text says of where.
            if let caller = callerOfUnnamedAppFrame() { causes[0].frames.append(caller) }
        }
        // No app frame to start at and no cause naming a frame: the leading cause names where the
        // thread stopped, the first named frame past the abort and throw machinery (a system
        // API's, a runtime's, a managed method's), which is what a reader of the text looks at.
        if look == nil, Self.crashesInRunningCode.contains(category), !causes.isEmpty, causes.allSatisfy({ $0.frames.isEmpty }),
            case let stop = stopCandidates(), let first = stop.first ?? annotatedLine() ?? assertedMethod() ?? namedSourceLine()
        {
            causes[0].frames += stop.isEmpty ? [first] : stop
        }
        // A fault: the frame that faulted and its caller join the first cause (what touched the bad
        // memory and who asked it to), after the app's frame it names.
        if Self.faults.contains(category), !causes.isEmpty, let thread = report.crashedThread {
            let start = CrashReport.pastSignalHandler(thread)
            // Named frames only: an address alone (`??? 0x2000000020`) says nothing of what touched it.
            let faulting = thread.frames.dropFirst(start).prefix(2).filter { !$0.functionNames.isEmpty }
            let lines = faulting.map { frameLine($0, at: .frame(thread.index, $0.index)) }.filter { !causes[0].frames.contains($0) }
            causes[0].frames += lines
        }
        // A watchdog: where the main thread was blocked, its first named frame (the app's own
        // frame further down is what called it).
        if category == .watchdog, !causes.isEmpty, let top = stopFrame(preferringCaller: false),
            !causes.contains(where: { $0.frames.contains(top) })
        {
            causes[0].frames.insert(top, at: 0)
        }
        // No app frame, and the crash service's title names the exception's context: that is where.
        if look == nil, category == .uncaughtObjCException, !causes.isEmpty, let context = statedContext(),
            !causes[0].frames.contains(context)
        {
            causes[0].frames.append(context)
        }
        // No cause at all (a reason no rule knows, nothing to add to it): where the thread was is
        // still what the text says, the app's frame first, else where it stopped (issue 48).
        if causes.isEmpty, Self.crashesInRunningCode.contains(category),
            let frame = look?.frame ?? stopFrame() ?? annotatedLine() ?? assertedMethod() ?? namedSourceLine()
        {
            causes = [FoundCause(phrase: Phrase(.causeWhereItStopped), likelihood: .likely, frames: [frame])]
        }
        // No frames at all, and the text shows what ran just before the crash (a command at a
        // prompt, a program's last line): that is where to start (issue 48).
        // It takes the place of the last cause when that one is only the knowledge's general
        // possibility (no frame, nothing of the report quoted).
        // Frames that state nothing themselves (a runtime's backtrace pasted under its error's line,
        // Ruby's `No such file or directory - …`, GHC's `prog: Prelude.head: empty list`): the line
        // above them is that error's, as far as the text says.
        if report.allBacktraces.allSatisfy({ $0.frames.isEmpty }) || statesNoCrashFact,
            let last = facts.lastOutput.last ?? facts.lastCommand,
            // (A message on the same line, after the output, is the crash's own words, not that output.)
            !facts.statedMessages.contains(where: { message in
                (message.quote.containsBytes(last.text) && !(message.quote == last.quote && !message.text.containsBytes(last.text)))
                    || last.text.containsBytes(message.text)
            }),
            !causes.contains(where: { $0.phrase.quotedTexts.contains(last.text) })
        {
            let cause = FoundCause(phrase: Phrase(.causeLastShownBeforeCrash, ["line": .text(last.text)]), likelihood: .possible)
            if causes.count < Diagnosis.maximumCauses {
                causes.append(cause)
            } else if let general = causes.lastIndex(where: {
                $0.likelihood == .possible && $0.frames.isEmpty && $0.phrase.quotedTexts.isEmpty
            }) {
                causes[general] = cause
            }
            if causes.contains(cause) { found.quote(Self.evidenceField(last.source), last.text) }
        }
        // A failure a library logged and went on from, in the lines just above the text's crash
        // (SQLite's `BUG IN CLIENT OF libsqlite3.dylib: … vnode unlinked while in use`, then its
        // wrapper's uncaught C++ exception): what went wrong first is where to start.
        if let logged = loggedJustBeforeCrash(), causes.count < Diagnosis.maximumCauses,
            !causes.contains(where: { $0.phrase.quotedTexts.contains(logged.text) })
        {
            causes.append(FoundCause(phrase: Phrase(.causeLastShownBeforeCrash, ["line": .text(logged.text)]), likelihood: .possible))
            found.quote(Self.evidenceField(logged.source), logged.text)
        }
        // A crash message the text states that nothing above says (a runtime's panic beside dyld's
        // refusal, an assertion under another fact's verdict): explain never says less than the
        // text (issue 48), so the first such message is a cause of its own, after the others.
        // It takes the place of the last cause when that one is only the knowledge's general
        // possibility (no frame, nothing of the report quoted).
        if let also = unsaidMessage(headline: verdict.headline, causes: causes) {
            let cause = FoundCause(phrase: Phrase(.causeAlsoStated, ["line": .text(also.text)]), likelihood: .possible)
            if Self.addLast(cause, to: &causes) { found.quote(Self.evidenceField(also.source), also.text) }
        }
        // The crash reporter's own diagnosis (KSCrash's CrashDoctor: `Attempted to dereference
        // garbage pointer 0x1092759d0.`): what the text says, so shown, after the rules' causes and
        // as a program's guess (a deadlock it reported is the verdict already).
        if let diagnosis = facts.reporterDiagnosis, !diagnosis.lines.isEmpty, facts.reporterDeadlock == nil || category != .watchdog {
            let text = diagnosis.lines.joined(separator: " ")
            let cause = FoundCause(
                phrase: Phrase(
                    .causeReporterDiagnosis,
                    ["reporter": .text(diagnosis.reporter), "tool": .text(diagnosis.tool), "diagnosis": .text(text)]),
                likelihood: .possible)
            if !causes.contains(where: { $0.phrase.quotedTexts.contains(where: { diagnosis.lines.contains($0) }) }),
                Self.addLast(cause, to: &causes)
            {
                found.quote(.label(diagnosis.label), text)
            }
        }
        // Matched by the raising frames alone, with nothing stated: the rule is likely, never stated.
        let byFramesAlone = throwSite.map { $0.match.reasonFragment == nil && isSilentAboutTheThrow } ?? false
        let verdictHeadline =
            throwSite.flatMap { $0.addsRuleAndFix ? $0 : nil }.map {
                byFramesAlone
                    ? Phrase(.verdictThrowSiteRuleLikely, ["headline": verdict.headline, "framework": $0.framework, "rule": $0.rule])
                    : Phrase(.verdictThrowSiteRule, ["headline": verdict.headline, "framework": $0.framework, "rule": $0.rule])
            } ?? verdict.headline
        let headline = namingTheLoggedProcess(namingTheTerminator(underStatedKind(verdictHeadline, category: category), category: category))
        let certainty = byFramesAlone && verdict.certainty == .stated ? .likely : verdict.certainty
        let isFatal =
            !(facts.exception?.isNonFatal ?? false) && ![.notACrash].contains(category)
            && !(category == .resourceLimit && !resourceIsFatal && reportsAResourceWarning)
        // Frames pasted without their thread's title are named as pasted, never by a thread number.
        if report.pastedThread != nil {
            steps = steps.map { $0.namingPastedFrames() }
            for i in causes.indices {
                causes[i].phrase = causes[i].phrase.namingPastedFrames()
                for j in causes[i].frames.indices { causes[i].frames[j].place = causes[i].frames[j].place.namingPastedFrames() }
            }
        }
        return Decision(
            verdict: Verdict(category, certainty, verdict.headline), isFatal: isFatal, evidence: citingTheInput(found.evidence),
            causes: causes, steps: steps,
            notes: found.notes, entries: found.entries, matched: found.matched, headline: headline,
            throwSite: throwSite.map { ThrowSiteReference(id: $0.id, framework: $0.framework, sources: $0.match.entry.sources) })
    }

    /// A device log's lines are about any process on the device (launchd's `(org.example.App[1324]):
    /// Service exited due to SIGSEGV`): when they all name one, the headline says which, unless it
    /// does already (lines about several processes leave the choice to the evidence).
    func namingTheLoggedProcess(_ headline: Phrase) -> Phrase {
        guard !report.logEvents.isEmpty, let name = report.processName, !name.isEmpty,
            Set(report.logEvents.map { $0.processName ?? name }) == [name],
            !headline.text(.english).containsBytes(name)
        else { return headline }
        return Phrase(.verdictLoggedProcess, ["process": .verbatim(name), "headline": headline])
    }

    /// A failure logged and survived (`StatedMessage.Family.diagnostic`) at most five lines
    /// above the first line that states the crash, or nil.
    func loggedJustBeforeCrash() -> StatedMessage? {
        let messages = facts.statedMessages.prefix(Self.statedMessageLimit)
        guard let stop = messages.filter({ $0.family != .diagnostic && $0.family.specificity <= 3 }).compactMap(\.line).min() else {
            return nil
        }
        return messages.last { message in
            guard message.family == .diagnostic, let line = message.line else { return false }
            return line < stop && stop - line <= 5
        }
    }

    /// The first message of the code that stopped (`StatedMessage.Family.specificity` 0) that
    /// neither the headline nor a cause quotes or is quoted by; nil when every one is said.
    func unsaidMessage(headline: Phrase, causes: [FoundCause]) -> StatedMessage? {
        let said = (headline.quotedTexts + causes.flatMap { $0.phrase.quotedTexts }).filter { $0.utf8.count >= 4 }
        return facts.statedMessages.prefix(Self.statedMessageLimit).first { message in
            guard message.family.specificity == 0, !message.namesOnlyAnObjectiveCExceptionType else { return false }
            let text = message.text.trimmingCharacters(in: .whitespaces)
            // Its first line, at most 60 characters: what a quote of it keeps of it.
            let head = String(text.split(separator: "\n", maxSplits: 1).first ?? "").prefix(60)
            guard head.count >= 8 else { return false }
            return !said.contains { $0.containsBytes(String(head)) || text.containsBytes($0) }
        }
    }

    /// The diagnosis with its prose in `language`: the decision, worded last.
    func run(language: Language = .english) -> Diagnosis {
        Self.word(decide(), language: language)
    }

    /// A decision in `language`'s words: the only step that reads a language.
    static func word(_ decision: Decision, language: Language) -> Diagnosis {
        var references = decision.entries.map {
            Diagnosis.Reference(
                term: $0.term, title: $0.titlePhrase.text(language), communityReported: $0.isCommunityReported,
                links: $0.sources.map(\.url))
        }
        if let throwSite = decision.throwSite {
            references.append(
                Diagnosis.Reference(
                    term: throwSite.id, title: Phrase(.titleThrowSiteRule, ["framework": throwSite.framework]).text(language),
                    communityReported: false, links: throwSite.sources))
        }
        // Two facts can cite one line in the same words (a signal named alone on a line, read as
        // the signal and as the message): the line is shown once.
        var evidence: [Diagnosis.Evidence] = []
        var shown: [[String]: Int] = [:]
        for found in decision.evidence {
            let line = Diagnosis.Evidence(
                field: found.field.text(language), quote: found.quote.text(language), note: found.note?.text(language))
            if let same = shown[[line.field, line.quote]] {
                if evidence[same].note == nil { evidence[same].note = line.note }
                continue
            }
            shown[[line.field, line.quote]] = evidence.count
            evidence.append(line)
        }
        return Diagnosis(
            category: decision.verdict.category, certainty: decision.verdict.certainty,
            headline: decision.headline.text(language), isFatal: decision.isFatal, evidence: evidence,
            causes: decision.causes.map {
                Diagnosis.Cause($0.phrase.text(language), $0.likelihood, frames: $0.frames.map { $0.text(language) })
            },
            nextSteps: decision.steps.map { $0.text(language) }, references: references,
            notes: decision.notes.map { $0.text(language) }, language: language, matched: decision.matched,
            throwSite: decision.throwSite?.id)
    }

    /// Problems a fault, trap or signal ends: the report's own name for it leads the headline.
    /// Not a termination or a runtime message with its own name, nor an exception the verdict
    /// names (`namesTheCrash`): that name is the subject.
    static let namedByTheException: Set<Diagnosis.Category> = [
        .swiftTrap, .explicitTrap, .dispatchMisuse, .uncaughtObjCException, .uncaughtCppException, .assertionFailure, .abort, .signalRaised,
        .memoryCorruption, .nilDereference, .pointerAuthentication, .objcConcurrentPropertyAccess, .zombieObject,
        .stackOverflow, .badMemoryAccess, .illegalInstruction, .arithmetic, .unknown,
    ]

    /// The headline behind the exception and signal as the report prints them (`EXC_BAD_ACCESS
    /// (SIGSEGV) — …`): the name a developer searches for and a crash service titles the crash
    /// with. Kept off a sentence that already spells it (`namesTheCrash`), or that quotes a line
    /// naming it (a stated message `… reason: signal SIGABRT.`).
    /// A cause of the text's own that comes after the rules' causes: appended, or in place of the
    /// last cause when that one is only the knowledge's general possibility (no frame, nothing of
    /// the report quoted). True when it was kept.
    static func addLast(_ cause: FoundCause, to causes: inout [FoundCause]) -> Bool {
        if causes.count < Diagnosis.maximumCauses {
            causes.append(cause)
        } else if let last = causes.last, last.likelihood == .possible, last.frames.isEmpty, last.phrase.quotedTexts.isEmpty {
            causes[causes.count - 1] = cause
        }
        return causes.contains(cause)
    }

    /// The text names no exception, signal, termination or message: only frames and the lines
    /// around them (what the headline and the causes then take from the line above the frames).
    var statesNoCrashFact: Bool {
        facts.statedMessages.isEmpty && facts.exception == nil && facts.uncaughtException == nil && facts.termination == nil
    }

    /// The system's process that ended the app (`Termination Reason: Namespace RUNNINGBOARD, Code
    /// 0xdead10cc` under `EXC_CRASH (SIGKILL)`): who did it and with which signal lead the headline
    /// of a termination, as they lead the report.
    func namingTheTerminator(_ headline: Phrase, category: Diagnosis.Category) -> Phrase {
        guard Self.endedBySystemProcess.contains(category), let namespace = facts.termination?.namespace,
            Self.terminatingNamespaces.contains(namespace), !headline.quotedTexts.contains(where: { $0.containsBytes(namespace) })
        else { return headline }
        if let signal = facts.exception?.signal {
            return Phrase(
                .verdictEndedByNamespaceSignal, ["namespace": .verbatim(namespace), "signal": .verbatim(signal), "headline": headline])
        }
        return Phrase(.verdictEndedByNamespace, ["namespace": .verbatim(namespace), "headline": headline])
    }

    /// Terminations a system process decides (not a watchdog's, whose headline gives its own figures).
    static let endedBySystemProcess: Set<Diagnosis.Category> = [
        .lockedFileAtSuspension, .systemTermination, .thermal, .backgroundTimeLimit, .voipPush, .securityViolation,
    ]
    static let terminatingNamespaces: Set<String> = ["SPRINGBOARD", "FRONTBOARD", "RUNNINGBOARD", "CAROUSEL", "BACKBOARD"]

    func underStatedKind(_ headline: Phrase, category: Diagnosis.Category) -> Phrase {
        // A component's termination names the crash too when the kernel raised an exception of its
        // own for it (`EXC_GUARD` with `LIBXPC … XPC_EXIT_REASON_FAULT`), not the wrapper every
        // termination has (`EXC_CRASH`).
        let namedTermination = category == .systemTermination && ![nil, "EXC_CRASH"].contains(facts.exception?.machType)
        guard Self.namedByTheException.contains(category) || namedTermination, !headline.tags.contains(.namesTheCrash),
            let kind = facts.exception?.statedKind
        else { return headline }
        let quoted = headline.quotedTexts
        let names = kind.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) }
        if quoted.contains(where: { line in names.contains { line.containsBytes($0) } }) { return headline }
        // Only a shell's or `strsignal`'s words named the signal (`Bus error: 10`, `Trace/BPT
        // trap: 5`): the name is the tool's, the words are what the developer saw; both lead.
        if !report.inputPrints(field: "Exception Type"),
            let said = facts.statedMessages.first(where: { $0.family == .signal && !$0.quote.isEmpty && !$0.saysMoreThanItsSignal }),
            // (The shell's words alone when its line also names the job or the command.)
            let words = said.text.utf8.count <= 40 ? said.text : said.signalWords,
            !words.containsBytes(kind), !kind.containsBytes(words)
        {
            return Phrase(.verdictUnderStatedKind, ["kind": .verbatim("\(kind) (\(words))"), "headline": headline])
        }
        // A fault the report names in the kernel's words (`KERN_INVALID_ADDRESS at 0x0`,
        // `KERN_PROTECTION_FAILURE at 0x…`): part of the crash's name, as Apple's reports print it.
        if Self.faults.contains(category) || category == .stackOverflow || category == .memoryCorruption,
            let named = facts.exception?.fault?.name, named.hasPrefix("KERN_"), let fault = report.faultDescription(in: base),
            fault.quote.hasBytePrefix(named), fault.quote.utf8.count <= 80,
            !quoted.contains(where: { $0.containsBytes(fault.quote) })
        {
            return Phrase(.verdictUnderStatedKind, ["kind": .verbatim("\(kind), \(fault.quote)"), "headline": headline])
        }
        return Phrase(.verdictUnderStatedKind, ["kind": .verbatim(kind), "headline": headline])
    }

    /// A bad memory access of any kind: the faulting frame says what touched the memory.
    static let faults: Set<Diagnosis.Category> = [
        .badMemoryAccess, .nilDereference, .zombieObject, .pointerAuthentication, .objcConcurrentPropertyAccess,
    ]

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
    func whereToLook(_ category: Diagnosis.Category) -> Look? {
        guard Self.crashesInRunningCode.contains(category) else { return nil }
        if category == .uncaughtObjCException, let frames = report.lastExceptionBacktrace?.frames,
            let frame = Self.callerOfRaisingLibrary(
                frames, exception: facts.uncaughtException?.exception.name, isAppOwned: report.isAppOwned)
                ?? frames.first(where: report.isAppOwned)
        {
            let (function, location) = frame.appLine
            let text = describe(frame, function, location, at: .exceptionFrame(frame.index), role: Phrase(.roleCallThatLedToThrow))
            return Look(text: text, function: function, location: location, frame: frameLine(frame, at: .exceptionFrame(frame.index)))
        }
        // The crashed thread's app's line: the frame and line the headline names too; for an
        // exception thrown on that thread, the app's line below the throw (the frames above it
        // are the handlers it unwound into: a crash reporter's, the terminate handler).
        guard let thread = report.crashedThread else { return nil }
        let throwing =
            [.uncaughtObjCException, .uncaughtCppException].contains(category)
            ? thread.frames.lastIndex(where: Self.isThrowMarker).flatMap { report.appLine(in: thread, from: $0 + 1) } : nil
        guard let line = throwing ?? report.crashedAppLine else { return nil }
        let frame = thread.frames[line.position]
        let text = describe(frame, line.function, line.location, at: .place(thread.index, frame.index), role: Phrase(.roleWhereToStart))
        return Look(
            text: text, function: line.function, location: line.location, frame: frameLine(frame, at: .frame(thread.index, frame.index)))
    }

    /// A library linked into the app's image that raised its own exception (`RLMException` from
    /// Realm's `RLMSetErrorOrThrow`, `+[RLMRealm realmWithConfiguration:error:]`): its functions
    /// carry the exception's prefix, and the app's line is the first app frame past them (the
    /// call into the library: `-[UAGAppDelegate application:didFinishLaunchingWithOptions:]`).
    /// Nil when the exception's name has no such prefix or no app frame carries it.
    static func callerOfRaisingLibrary(_ frames: [Frame], exception: String?, isAppOwned: (Frame) -> Bool) -> Frame? {
        guard let prefix = exception.flatMap(vendorPrefix) else { return nil }
        let owned = frames.filter(isAppOwned)
        guard let first = owned.first, first.functionNames.contains(where: { carriesPrefix($0, prefix) }) else { return nil }
        return owned.first { frame in !frame.functionNames.isEmpty && !frame.functionNames.contains { carriesPrefix($0, prefix) } }
    }

    /// The capitals a class prefix is made of, before `Exception` (`RLMException` → `RLM`,
    /// `FIRAuthException` → `FIR`); nil for Foundation's own (`NS…`) and for names without one.
    static func vendorPrefix(_ name: String) -> String? {
        guard name.hasSuffix("Exception") else { return nil }
        let capitals = name.prefix { $0.isASCII && $0.isUppercase }
        // The last capital starts the next word when a lowercase letter follows it.
        let prefix = name.dropFirst(capitals.count).first.map { $0.isLowercase } == true ? capitals.dropLast() : capitals
        // Apple's frameworks' own exceptions (`NSInvalidArgumentException`, `CALayerInvalidGeometry…`)
        // name no third-party library.
        guard (2...4).contains(prefix.count), !AppOwnership.isAppleTypeName(Substring(name)) else { return nil }
        return String(prefix)
    }

    /// `-[RLMRealm …]`, `RLMSetErrorOrThrow(…)`: a name of the prefixed library.
    static func carriesPrefix(_ name: String, _ prefix: String) -> Bool {
        var text = Substring(name)
        if text.hasBytePrefix("-[") || text.hasBytePrefix("+[") { text = text.dropFirst(2) }
        return text.hasBytePrefix(prefix) && text.dropFirst(prefix.count).first.map { $0.isUppercase } == true
    }

    /// The step naming the app's frame, and that frame's line for a cause to carry.
    struct Look {
        var text: Phrase
        var function: String?
        var location: String?
        var frame: FrameLine
    }

    private func frameLine(_ frame: Frame, at place: Phrase) -> FrameLine {
        FrameLine(place: place, text: .verbatim(frame.evidenceText))
    }

    private func describe(_ frame: Frame, _ function: String?, _ location: String?, at place: Phrase, role: Phrase) -> Phrase {
        if let function, let location {
            return Phrase(.stepOpenFirstAppFrame, ["location": .text(location), "function": .text(function), "place": place, "role": role])
        }
        if let function {
            return Phrase(.stepStartAtFirstAppFrame, ["function": .text(function), "place": place])
        }
        return Phrase(
            .stepSymbolicateFirstAppFrame, ["place": place, "image": frame.imageAndOffset, "debugFile": report.debugFilePhrase(for: frame)])
    }

    /// A rule's step already names the frame (its file and line, or its function) in the report
    /// text it quotes. Both come from the report: searched in linear time (`MessageScan.occurs`).
    private func mentionsSameFrame(_ step: Phrase, _ look: Look) -> Bool {
        step.quotedText.contains { quoted in
            if let location = look.location, MessageScan.occurs(location, in: quoted) { return true }
            return look.function.map { MessageScan.occurs($0, in: quoted) } ?? false
        }
    }

    var resourceIsFatal: Bool { facts.resource?.isFatal ?? false }

    /// The report is one the system writes for a resource warning (a resource report, an
    /// `EXC_RESOURCE` exception, MetricKit's CPU and disk-write diagnostics): only then does a
    /// resource limit without `FATAL` or `Process killed` mean the process went on. A memory
    /// limit a line states (`Terminated due to memory issue`) ended it.
    var reportsAResourceWarning: Bool {
        if facts.resource != nil || facts.exception?.machType == "EXC_RESOURCE" { return true }
        switch report.kind {
        case .resource, .metricKit(.cpuException), .metricKit(.diskWriteException): return true
        default: return false
        }
    }

    /// The functions and thread names of crash reporters' handlers for an uncaught exception
    /// (Crashlytics' `FIRCLSExceptionRecord` on its `…crashlytics.ios.exception` queue, its
    /// `FIRCLSTerminateHandler`; KSCrash's and Sentry's C++ terminate handlers and their
    /// `… Exception Handler` threads): a crash service shows that thread as the crashed one.
    static let reporterHandlerFunctions = [
        "CLSExceptionRecord", "CLSTerminateHandler", "CPPExceptionTerminate", "cppexception_", "kscm_cppexception",
        "sentrycrashcm_cppexception",
    ]
    static let reporterHandlerThreads = ["crashlytics.ios.exception", "Exception Handler"]

    /// The crashed thread is a crash reporter recording an uncaught exception: the exception is
    /// the crash, and its throw is in the reporter's record of it, not in these frames.
    func classifyByReporterHandler() -> Verdict? {
        guard let thread = report.crashedThread else { return nil }
        let names = [thread.name, thread.queue].compactMap { $0 }
        let handler = thread.frames.prefix(16).first { frame in
            frame.functionNames.contains { name in Self.reporterHandlerFunctions.contains { name.contains($0) } }
        }
        guard handler != nil || names.contains(where: { name in Self.reporterHandlerThreads.contains { name.contains($0) } }) else {
            return nil
        }
        if let handler { found.quote(.frame(thread.index, handler.index), handler.evidenceText) }
        return Verdict(
            .uncaughtCppException, .likely, .verdictReporterRecordingException,
            ["thread": .verbatim(names.first ?? handler.map(\.evidenceText) ?? "")])
    }

    /// Frames and nothing else: the headline says where the crashed thread stopped and on which
    /// thread, which is what the text states, rather than that it states nothing (issue 48).
    func crashedInTopFrame() -> Verdict? {
        guard let thread = report.crashedThread else { return nil }
        let start = CrashReport.pastSignalHandler(thread)
        guard start < thread.frames.count else { return nil }
        let top = thread.frames[start]
        let threadName = [thread.name, thread.queue].compactMap { $0?.trimmedBlanks }.first { !$0.isEmpty }
        var values: [String: Phrase] = [
            "frame": .verbatim(top.evidenceText),
            "thread": threadName.map { Phrase(.crashedOnThread, ["thread": .verbatim($0)]) } ?? .verbatim(""),
        ]
        // Nothing stated, and a line of words right above the frames (a runtime's error before its
        // backtrace: Ruby's `No such file or directory - …`, GHC's `prog: Prelude.head: empty
        // list`): the headline names it rather than claiming the text states nothing.
        if statesNoCrashFact, let above = facts.lastOutput.last {
            values["line"] = .text(above.text)
            if let line = report.crashedAppLine, line.position > start {
                values["caller"] = .verbatim(thread.frames[line.position].evidenceText)
                return Verdict(.unknown, .possible, Phrase(.verdictCrashedInCalledFromUnderLine, values))
            }
            return Verdict(.unknown, .possible, Phrase(.verdictCrashedInUnderLine, values))
        }
        // The app's own frame below a library's: the call the app made. When that frame is only
        // the program's entry (`main`, which every main-thread stack ends in), the frame that called
        // the stop says more: the library's code that made the call.
        // A library's frames above its caller (GLib's logger, `g_log` → `g_logv` → … ): the first
        // named frame of another image is the call into it; the next frame, when the library is
        // the app's or all the frames are one image's.
        let next = thread.frames.indices.contains(start + 1) ? thread.frames[start + 1] : nil
        let intoLibrary = top.imageName.flatMap { image -> Frame? in
            guard !report.isAppOwned(top) else { return nil }
            return thread.frames[(start + 1)...].prefix(16).first { $0.imageName != nil && $0.imageName != image && $0.symbol != nil }
        }
        let direct = intoLibrary ?? next
        let entryOnly = report.crashedAppLine.map { thread.frames[$0.position].symbol == "main" } ?? true
        if entryOnly, let direct, direct.symbol != nil, direct.symbol != "main" {
            values["caller"] = .verbatim(direct.evidenceText)
            return Verdict(.unknown, .possible, Phrase(.verdictCrashedInCalledFrom, values))
        }
        guard let line = report.crashedAppLine, line.position > start else {
            return Verdict(.unknown, .possible, Phrase(.verdictCrashedIn, values))
        }
        values["caller"] = .verbatim(thread.frames[line.position].evidenceText)
        return Verdict(.unknown, .possible, Phrase(.verdictCrashedInCalledFrom, values))
    }

    func header(_ key: String) -> String? {
        report.headerFields.first { $0.key == key }?.value
    }

    // MARK: - Classification

    func classify() -> Verdict {
        if let result = classifyReportType() { return result }
        if let result = classifyToolchainCrash() { return result }
        if let result = classifyExecRefusal() { return result }
        if let result = classifyManagedException() { return result }
        if report.exceptionLine == nil, facts.termination?.namespace == nil {
            if let panic = report.panicString {
                if let verdict = classifyKernelPanic(field: "Panic") { return verdict }
                found.quote(.label("Panic"), panic)
                found.note(.noteKernelPanic)
                found.use(base.entry(.kernelPanicReport))
                return Verdict(.notACrash, .stated, .verdictKernelPanic)
            }
            // A crash reporter's own watchdog (KSCrash's deadlock monitor) ends the process
            // without a signal or an exception: the report says so in words.
            if let deadlock = facts.reporterDeadlock { return reportedMainThreadDeadlock(deadlock) }
            // Console and debugger output name an uncaught exception or a Swift runtime error
            // without a Mach exception or a signal.
            // A C++ exception a line names (libc++abi's, a crash service's title) is read so too.
            if facts.uncaughtException.map({ $0.quote == nil || $0.exception.language == .cxx }) == true || facts.swiftRuntimeError != nil {
                quoteException()
                if let result = classifyByMessages() { return result }
            }
            // A message the report states that no rule above read (issue 48).
            if let result = classifyByStatedMessage() { return result }
            if let result = classifyByThrowFrames() { return result }
            // Frames alone (pasted without the report around them): the trap the compiler put in
            // the app's line's inline chain is the crash fact the headline names too.
            if let result = classifyByAppLineFailure() { return result }
            // The runtime's and libdispatch's raising frames (`_dispatch_assert_queue_fail`,
            // `__DISPATCH_WAIT_FOR_QUEUE__`) name their check in frames pasted alone.
            if let result = classifyBySwiftFrames() { return result }
            if let result = classifyByAbortFrames() { return result }
            if let result = classifyByRaisingFrames() { return result }
            if let result = classifyByReporterHandler() { return result }
            found.note(.noteNoExceptionInformation)
            return crashedInTopFrame() ?? Verdict(.unknown, .possible, .verdictNotEnoughInformation)
        }
        quoteException()
        if (facts.exception?.isNonFatal ?? false) {
            found.use(report.exceptionNote.flatMap { base.entries(named: $0).first } ?? base.entry(.nonFatalCondition))
        }
        if let namespace = facts.termination?.namespace, namespace != "SIGNAL", let result = classifyTermination(namespace) {
            return result
        }
        // Older reports carry the system's code in Exception Codes under a numeric type
        // (`Exception Type: 00000020`, `Exception Codes: 0xc00010ff`): the code alone identifies it.
        if let entry = systemCodeInExceptionCodes() {
            found.quote(
                .label("Exception Codes"), report.exception?.codes,
                Phrase(.noteTermTitle, ["term": .text(entry.term), "title": entry.titlePhrase]))
            found.use(entry, causes: 0)
            return classifySystemCode(entry)
        }
        if let result = classifyRustPanic() { return result }
        if let result = classifyByMessages() { return result }
        let byException = classifyByException()
        // A deliberate stop (abort, trap) whose message no rule above read: the message is the
        // stated cause; the exception's rules keep the problem family.
        if isDeliberateStop, let stated = classifyByStatedMessage(category: byException.category) {
            // The shell's or a runtime's sentence naming who stopped (`[1]  2296 abort  /…/lapce`) still
            // says which program it was.
            if let sentence = crashSentences()?.first(where: \.saysMoreThanItsSignal) {
                found.statedStop = FoundCause(phrase: Phrase(.causeStatedStop, ["line": .text(sentence.text)]), likelihood: .likely)
            }
            return stated
        }
        // Only a sentence named the signal (no exception field): what it says of who died and how
        // is the first cause, in its words.
        if let sentences = crashSentences(), let sentence = sentences.first(where: \.saysMoreThanItsSignal) {
            found.statedStop = FoundCause(phrase: Phrase(.causeStatedStop, ["line": .text(sentence.text)]), likelihood: .likely)
            // A second signal after it (a runtime's handler caught SIGSEGV, then the shell saw
            // `Abort trap: 6`): how the handler ended the process, said too.
            let first = sentence.namedSignal
            if let then = sentences.first(where: { other in
                guard let line = other.line, let at = sentence.line, line > at, other.saysMoreThanItsSignal else { return false }
                return other.namedSignal.map { $0 != first } ?? false
            }) {
                found.statedStopThen = FoundCause(phrase: Phrase(.causeStatedStop, ["line": .text(then.text)]), likelihood: .possible)
            }
        }
        return byException
    }

    /// The report states no message and names no exception: what is said about a throw is read
    /// from its frames alone.
    var isSilentAboutTheThrow: Bool {
        facts.statedMessages.isEmpty && facts.uncaughtException == nil
    }

    /// The process stopped itself (abort, a trap, an uncaught exception's EXC_CRASH): a message it
    /// printed on the way says why. A hardware fault's message is evidence, not the cause.
    var isDeliberateStop: Bool {
        let type = facts.exception?.machType
        let signal = facts.exception?.signal
        return ["EXC_CRASH", "EXC_BREAKPOINT", "EXC_BAD_INSTRUCTION"].contains(type ?? "")
            || ["SIGABRT", "SIGTRAP", "SIGILL"].contains(signal ?? "")
    }

    /// The stated messages that say how the process ended, when the input prints no exception
    /// field of its own: the signal's, the Mach exception's and a tool's words that the process
    /// died, at most two, in the order the text has them.
    func crashSentences() -> [StatedMessage]? {
        let sentences = facts.statedMessages.filter { [.signal, .machException, .processExit].contains($0.family) && !$0.quote.isEmpty }
        guard !sentences.isEmpty, !report.inputPrints(field: "Exception Type") else { return nil }
        return Array(sentences.prefix(2))
    }

    func quoteException() {
        quoteLogEvents()
        if facts.exception?.isFromRegisters == true, let esr = report.crashedThread?.registers.first(where: { $0.name == "esr" }) {
            // The exception was read from the syndrome register: that is what the text says.
            found.quote(.label("esr"), (["0x" + String(esr.value, radix: 16)] + [esr.note].compactMap { $0 }).joined(separator: " "))
        } else if let sentences = crashSentences() {
            // The text names the signal or the exception only inside its own words (`clang: error:
            // unable to execute command: Segmentation fault: 11`, `Program crashed with signal 11`,
            // `Test crashed with signal kill`): those words are what it says, quoted whole and cited
            // by their line, not the name read out of them.
            for message in sentences { found.quote(.label("Exception Type"), message.quote) }
        } else {
            found.quote(.label("Exception Type"), report.exceptionLine)
        }
        found.quote(.label("Exception Subtype"), report.exception?.subtype)
        found.quote(.label("Exception Message"), report.exceptionMessage)
        quoteRuntimeErrorPlace()
        found.quote(.label("Exception Note"), report.exceptionNote)
        if let line = report.terminationLine, facts.termination?.namespace != nil { found.quote(.label("Termination Reason"), line) }
        for detail in (report.termination?.details ?? []) { found.quote(.label("Termination Details"), detail) }
    }

}
