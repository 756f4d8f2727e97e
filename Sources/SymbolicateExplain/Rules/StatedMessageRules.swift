import Foundation
import SymbolicateCrashReport
import SymbolicateThrowSites

/// Issue 48: explain never says less than the text. A message the report states (an exception's
/// reason, Application Specific Information, a console diagnostic, an Xcode annotation) that no
/// earlier rule read leads the headline: by the family its words belong to when the knowledge
/// base has one (a framework debug layer, a Swift runtime check), else quoted as the stated cause
/// with its place, under the class its words say (threading, nil, range, …; the classes are data,
/// `messageClasses` in the catalog).
extension Diagnostician {
    /// How many stated messages are looked at: the cause is stated first, and a report's
    /// messages can be many (a field of a hundred thousand lines costs no more than these).
    static let statedMessageLimit = 16

    /// Where a message was printed, in the reader's language.
    static func sourcePhrase(_ source: StatedMessage.Source) -> Phrase {
        switch source {
        case .exceptionReason: Phrase(.sourceExceptionReason)
        case .appSpecificInformation: Phrase(.sourceApplicationSpecificInformation)
        case .exceptionMessage: Phrase(.sourceExceptionMessage)
        case .runtimeError: Phrase(.sourceRuntimeError)
        case .console: Phrase(.sourceConsole)
        case .annotation: Phrase(.sourceDebuggerAnnotation)
        }
    }

    /// The evidence field a message is quoted under.
    static func evidenceField(_ source: StatedMessage.Source) -> Phrase {
        source == .appSpecificInformation ? .label("Application Specific Information") : sourcePhrase(source)
    }

    /// The verdict from the first stated message a family or a class reads, or nil when the
    /// report states none (or only lines that carry no cause, such as a simulator's device line).
    /// `category`, when given, is the problem family the caller already knows (an exception
    /// whose name the report lost); else the message's family or source decides it.
    func classifyByStatedMessage(category known: Diagnosis.Category? = nil) -> Verdict? {
        let messages = facts.statedMessages.prefix(Self.statedMessageLimit).filter(isCauseCandidate)
        guard !messages.isEmpty else { return nil }
        // A message above frames that pass through libobjc's throw is the exception's reason.
        let passesThroughThrow =
            known == nil
            && (report.crashedThread?.frames.contains { $0.functionNames.contains { $0.hasPrefix("objc_exception_throw") } } ?? false)
        let category = known ?? (passesThroughThrow ? .uncaughtObjCException : nil)
        for message in messages {
            if let entry = family(of: message) {
                defer { noteLastWords(after: message) }
                return knownFamily(entry, message, category)
            }
        }
        for message in messages {
            let messageClass = self.messageClass(of: message)
            // A line of Application Specific Information or an exception message says why only
            // when its words say what went wrong; the other sources are a reader's crash line.
            // A system library's or a runtime's own stop (`BUG IN CLIENT OF …`, libobjc's and
            // CoreFoundation's fatal lines, libmalloc's, an assertion macro's) says so by its grammar.
            if messageClass == nil, [.appSpecificInformation, .exceptionMessage].contains(message.source),
                ![.libraryMisuse, .malloc, .assertion].contains(message.family)
            {
                continue
            }
            defer { noteLastWords(after: message) }
            return statedCause(message, messageClass, category)
        }
        return nil
    }

    /// The console's last runtime statement when it came after the one the verdict quotes, in
    /// other words: what ended the process once the first failure was on its way (Rust's `fatal
    /// runtime error: Rust cannot catch foreign exceptions` after UIKit's assertion, `failed to
    /// initiate panic` after a panic). A cause of its own, after the first.
    private func noteLastWords(after first: StatedMessage) {
        guard let firstLine = first.line,
            let last = facts.statedMessages.last(where: { message in
                guard let line = message.line, line > firstLine, message.family.specificity == 0 else { return false }
                return message.text != first.text && !first.text.containsBytes(message.text)
            })
        else { return }
        found.quote(Self.evidenceField(last.source), last.text)
        found.cause(.possible, .causeLastWords, ["line": .text(last.text)])
    }

    /// A managed runtime's exception the text states (.NET, Mono, Unity, Kotlin/Native): its own
    /// line names what was thrown, even where the runtime handed it on as an Objective-C exception
    /// (Xamarin's `uncaught exception 'SIGABRT', reason: 'Arg_NullReferenceException'`) or the
    /// process ended by abort. A hardware fault's report quotes such a line as evidence only.
    func classifyManagedException() -> Verdict? {
        guard (facts.exception?.machType == nil && facts.exception?.signal == nil) || isDeliberateStop,
            case let managed = facts.statedMessages.prefix(Self.statedMessageLimit).filter({
                $0.family == .managedException && !$0.text.isEmpty
            }),
            let first = managed.first
        else { return nil }
        // A wrapper's line (`ObjCRuntime.ObjCException`) and the wrapped exception's: the one whose
        // words say what went wrong.
        let message = managed.first { messageClass(of: $0) != nil } ?? first
        return statedCause(message, messageClass(of: message), nil)
    }

    /// Whether a line names code as an exception's reason does (an object `<X 0x…>`, a method
    /// `-[X y]`, a quoted key or name, an address): a poster's sentence about the crash does not.
    static func namesCode(_ text: String) -> Bool {
        ["0x", "<", "-[", "+[", "'", "\"", "`", "::"].contains { text.containsBytes($0) }
    }

    /// False for a message another rule reads by its own fact (an uncaught exception's line, a
    /// libobjc, dyld or malloc message): those rules say more than a quote would.
    /// Only a report's own fields are read by those rules: a console or annotation line stating
    /// the same message is this rule's to quote.
    private func isCauseCandidate(_ message: StatedMessage) -> Bool {
        guard !message.text.isEmpty else { return false }
        // libc++abi's line for an Objective-C exception names its type only (`… of type
        // NSException`): the exception's rules say what the report has of it.
        if message.namesOnlyAnObjectiveCExceptionType { return false }
        // A line that states the exception or the signal (`SIGABRT ABORT 0x…` under a crash
        // service's thread) is the crash's name, which a reader typed: the rules for that fact
        // and the frames say why, not a quote of it.
        if [.machException, .signal].contains(message.family), report.exceptionLine != nil { return false }
        guard Self.fieldsOtherRulesRead.contains(message.source) else { return true }
        return base.entries(matchingText: message.text, kinds: Self.kindsOtherRulesRead).isEmpty
    }

    /// The fields the exception, Application Specific Information and dyld rules read themselves.
    static let fieldsOtherRulesRead: Set<StatedMessage.Source> = [.appSpecificInformation, .exceptionMessage, .exceptionReason]
    /// The message kinds those rules know.
    static let kindsOtherRulesRead: Set<TermKind> = [.applicationSpecificMessage, .objcException, .dyldError]

    /// The knowledge entry naming the message's family, when one does by more than the kind's
    /// label (`Fatal error:` alone names no family: the words after it do).
    func family(of message: StatedMessage) -> KnowledgeEntry? {
        var kinds: Set<TermKind> = [.debugLayerMessage, .swiftRuntimeMessage, .concurrencyMessage]
        // A console line no field rule reads (a malloc or libc++abi line above the frames).
        if !Self.fieldsOtherRulesRead.contains(message.source) { kinds.formUnion(Self.kindsOtherRulesRead) }
        let bytes = Array(message.text.utf8)
        return base.entries(matchingText: message.text, kinds: kinds).first { entry in
            entry.patterns.contains { !$0.hasSuffix(":") && MessageScan.occurs(Array($0.utf8), in: bytes) }
        }
    }

    /// The class the message's words put it in: the first class (in the catalog's order, the
    /// narrowest first) with a word in the message, compared without case.
    /// A message whose grammar already says it is about a resource (SpringBoard's `has active
    /// assertions beyond permitted time`) is in the resource class whatever its words.
    /// A tool's report that the process died says nothing of why: no class.
    func messageClass(of message: StatedMessage) -> KnowledgeEntry? {
        if message.family == .processExit { return nil }
        if message.family == .resource,
            let resource = base.entries.first(where: { $0.kind == .messageClass && $0.term == "resource message" })
        {
            return resource
        }
        let text = Array(message.text.lowercased().utf8)
        return base.entries.first { entry in
            entry.kind == .messageClass && entry.patterns.contains { MessageScan.occursAtWordStart(Array($0.lowercased().utf8), in: text) }
        }
    }

    static func saysStackOverflow(_ text: String) -> Bool {
        let lower = Array(text.lowercased().utf8)
        return ["stack overflow", "stack level too deep", "stackoverflowerror", "maximum recursion depth", "too much recursion"].contains {
            MessageScan.occurs(Array($0.utf8), in: lower)
        }
    }

    /// The first app frame of the crashed thread, quoted, for a cause to carry.
    func appFrameLine() -> [FrameLine] {
        guard let thread = report.crashedThread, let frame = report.firstAppFrame else { return [] }
        return [found.quote(frame, at: .frame(thread.index, frame.index), Phrase(.noteFirstAppFrame))]
    }

    private func knownFamily(_ entry: KnowledgeEntry, _ message: StatedMessage, _ known: Diagnosis.Category?) -> Verdict {
        found.quote(Self.evidenceField(message.source), message.text)
        quoteTopFrames(count: 3)
        found.matched = Diagnosis.Match(catalogue: "message-family", id: entry.catalogID, subject: message.place)
        found.use(entry, causes: 1)
        found.cause(.likely, .causeMessageSaysSo, ["title": entry.titlePhrase], frames: appFrameLine())
        // A debug layer's message about a freed object (NSZombie's) names a zombie.
        let tags = entry.meaningText.tags
        let dangling = entry.kind == .debugLayerMessage && tags.contains(.topicDangling)
        // A sanitizer's memory error is the memory fault it caught before the hardware did: the
        // stack's, a bad pointer's, or memory misused (freed, out of bounds).
        let sanitized: Diagnosis.Category? =
            entry.kind == .debugLayerMessage && tags.contains(.topicSanitizer)
            ? (tags.contains(.topicStack) ? .stackOverflow : tags.contains(.topicNil) ? .badMemoryAccess : .memoryCorruption) : nil
        // A limit the work ran into (the GPU's watchdog or memory) is a resource's, whoever logged it.
        let category =
            known ?? sanitized
            ?? (dangling ? .zombieObject : message.family == .resource ? .resourceLimit : Self.category(of: entry.kind))
        if let place = message.place {
            return Verdict(
                category, .stated, .verdictTitleLineAt, ["title": entry.titlePhrase, "place": .text(place), "line": .text(message.text)])
        }
        return Verdict(category, .stated, .verdictTitleAndLine, ["title": entry.titlePhrase, "line": .text(message.text)])
    }

    /// The problem family a message family's kind stands for.
    static func category(of kind: TermKind) -> Diagnosis.Category {
        switch kind {
        case .swiftRuntimeMessage: .swiftRuntimeError
        case .concurrencyMessage: .dispatchMisuse
        case .objcException: .uncaughtObjCException
        case .dyldError: .missingLibrary
        default: .assertionFailure
        }
    }

    private func statedCause(_ message: StatedMessage, _ messageClass: KnowledgeEntry?, _ known: Diagnosis.Category?) -> Verdict {
        found.quote(Self.evidenceField(message.source), message.text)
        quoteTopFrames(count: 3)
        let classPhrase = messageClass?.titlePhrase ?? Phrase(.classUnclassified)
        found.matched = Diagnosis.Match(catalogue: "stated-message", id: messageClass?.catalogID ?? "unclassified", subject: message.place)
        if let messageClass { found.use(messageClass, causes: 0) }
        found.cause(.likely, .causeMessageSaysSo, ["title": classPhrase], frames: appFrameLine())
        // A failed assertion's line says where; the line printed right after it often says why
        // (UIKit's `*** Assertion failure in … _UIApplicationMainPreparations …`, then `Unable to
        // instantiate the UIApplication delegate instance. No class named X is loaded.`).
        if message.family == .assertion, let number = message.line, let next = facts.unreadLines.first(where: { $0.line == number + 1 }),
            next.readsAsSentence, !message.text.contains(next.text)
        {
            found.quote(Self.evidenceField(next.source), next.text)
            found.cause(.likely, .causeNextLineSaysWhy, ["line": .text(next.text)])
        }
        // A managed runtime's uncaught exception (.NET, Kotlin/Native) and libc++abi's last words:
        // the runtime aborts the process.
        let aborts = message.family == .managedException || message.family == .cxxRuntime
        // A message whose words say the stack ran out (.NET's `Stack overflow.`, Ruby's `stack level too
        // deep`, Lua's and GHC's `stack overflow`) names the problem as a fault would.
        let stackOverflow = message.family != .diagnostic && Self.saysStackOverflow(message.text)
        let category =
            known ?? (stackOverflow ? .stackOverflow : nil)
            ?? (message.family == .diagnostic
                ? .notACrash
                : message.family == .processExit
                    ? .terminated
                    : message.family == .resource
                        ? .resourceLimit : message.source == .runtimeError ? .swiftRuntimeError : aborts ? .abort : .assertionFailure)
        var values: [String: Phrase] = [
            "source": Self.sourcePhrase(message.source), "line": .text(message.text), "class": classPhrase,
        ]
        guard let place = message.place else { return Verdict(category, .stated, .verdictStatedMessage, values) }
        values["place"] = .text(place)
        return Verdict(category, .stated, .verdictStatedMessageAt, values)
    }
}

/// Issue 48: a throw the frames show when the report states no message and no exception.
extension Diagnostician {
    /// Frames alone (a pasted crashed thread) that pass through the Objective-C or C++ throw:
    /// an uncaught exception, likely (nothing states it); the throw-site table then reads the
    /// raising frames.
    func classifyByThrowFrames() -> Verdict? {
        guard isSilentAboutTheThrow else { return nil }
        // A Last Exception Backtrace is recorded for an uncaught exception only: given alone (the
        // rest of the report cut), it is the throw's own frames.
        if let backtrace = report.lastExceptionBacktrace, !backtrace.frames.isEmpty {
            let names = backtrace.frames.flatMap(\.functionNames)
            if names.contains(where: { AbortPath.baseName($0) == "__cxa_throw" }),
                !names.contains(where: { $0.hasPrefix("objc_exception_throw") })
            {
                return Verdict(.uncaughtCppException, .likely, .verdictThrowInFrames)
            }
            return Verdict(.uncaughtObjCException, .likely, .verdictThrowInFrames)
        }
        guard let thread = report.crashedThread else { return nil }
        let names = thread.frames.flatMap(\.functionNames)
        if names.contains(where: { $0.hasPrefix("objc_exception_throw") }) {
            // A line of the text no reader read that states a message the knowledge names (a
            // framework's reason printed alone above the frames): that is the throw's reason.
            for line in facts.unreadLines {
                if let entry = family(of: line) {
                    quoteFrames(matching: ["objc_exception_throw"], limit: 1)
                    return knownFamily(entry, line, .uncaughtObjCException)
                }
            }
            // Else the first such line whose words say what went wrong (a reason pasted alone
            // above the frames, `Cannot remove an observer … because it is not registered as an
            // observer.`): the throw's likely reason, quoted.
            if let line = facts.unreadLines.first(where: { Self.namesCode($0.text) && messageClass(of: $0) != nil }) {
                quoteFrames(matching: ["objc_exception_throw"], limit: 1)
                return statedCause(line, messageClass(of: line), .uncaughtObjCException)
            }
            quoteFrames(matching: ["objc_exception_throw"], limit: 1)
            return thrownAfterLastOutput(.uncaughtObjCException) ?? Verdict(.uncaughtObjCException, .likely, .verdictThrowInFrames)
        }
        if names.contains(where: { AbortPath.baseName($0) == "__cxa_throw" }) {
            quoteFrames(matching: ["__cxa_throw"], limit: 1)
            return thrownAfterLastOutput(.uncaughtCppException) ?? Verdict(.uncaughtCppException, .likely, .verdictThrowInFrames)
        }
        return nil
    }

    /// A throw's frames pasted under the line a program printed just above them (`lastOutput`):
    /// a handler or a log that prints an exception's reason and then its `callStackSymbols`
    /// (`Use of the class INVocabulary requires the entitlement com.apple.developer.siri. …` over
    /// `Call stack: (`). That line is the exception's likely reason, quoted.
    func thrownAfterLastOutput(_ category: Diagnosis.Category) -> Verdict? {
        guard let line = facts.lastOutput.last else { return nil }
        found.quote(Self.evidenceField(line.source), line.text)
        if let entry = messageClass(of: line) { found.use(entry, causes: 0) }
        found.cause(.likely, .causeLastOutput, ["line": .text(line.text)], frames: appFrameLine())
        return Verdict(category, .likely, .verdictThrowAfterLastOutput, ["line": .text(line.text)])
    }

    /// Frames alone that stop through abort's machinery (`abort`, `raise`, `pthread_kill`) at a
    /// stop the abort-path rules name (`__assert_rtn`, glibc's `__assert_fail`, a malloc check,
    /// libc++abi's terminate): the process stopped itself there, though nothing states a signal.
    func classifyByAbortFrames() -> Verdict? {
        guard let thread = report.crashedThread, let path = AbortPath(thread: thread), !path.machinery.isEmpty else { return nil }
        if path.stopFrame != nil { return classifyAbortPath(path, in: thread) }
        // Frames alone through `abort()` itself (`___pthread_kill`, `_pthread_kill`, `_abort`
        // as a crash service prints them) and no library's check: the abort, and who called it.
        guard path.machinery.contains(where: { $0.functionNames.contains { AbortPath.isAbortCall($0) } }) else { return nil }
        return classifyAbortPath(path, in: thread) ?? abortAfterLastOutput() ?? explicitAbort(path, in: thread)
    }

    /// Frames alone that stop in a library's own check the throw-site catalogue knows (an
    /// os_unfair_lock found corrupt, a continuation resumed twice, a semaphore released in use):
    /// the process stopped itself, likely; `decide` then adds the catalogue's rule and fix.
    func classifyByRaisingFrames() -> Verdict? {
        guard isSilentAboutTheThrow, report.crashedThread != nil,
            ThrowSiteCatalog.match(throwEvidence(raisingFrames())) != nil
        else { return nil }
        return Verdict(.abort, .likely, .verdictStopInFrames)
    }
}
