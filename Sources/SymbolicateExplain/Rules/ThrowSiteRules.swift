import Foundation
import SymbolicateCrashReport
import SymbolicateThrowSites

/// One text of a throw-site catalogue entry (`SymbolicateThrowSites`), in the reader's language:
/// the catalogue keeps every language side by side in its own data file.
struct ThrowSiteText: Hashable, Sendable {
    enum Field: Hashable, Sendable { case rule, fix, framework }
    let id: String
    let field: Field

    func text(_ language: Language) -> String {
        guard let entry = ThrowSiteCatalog.entry(id: id) else { return id }
        switch field {
        case .framework: return entry.framework
        case .rule: return entry.rule[language.rawValue] ?? entry.rule["en"] ?? id
        case .fix: return entry.fix[language.rawValue] ?? entry.fix["en"] ?? id
        }
    }
}

extension Phrase {
    static func throwSite(_ id: String, _ field: ThrowSiteText.Field) -> Phrase { .throwSite(ThrowSiteText(id: id, field: field)) }
}

/// What a throw-site match adds to the diagnosis: the rule as the first cause (with the frame
/// that raised), the fix as the first step, the entry's id for JSON and its sources.
struct ThrowSiteFinding {
    let match: ThrowSiteMatch
    let cause: FoundCause
    let step: Phrase
    /// False when the verdict's own rule already states this rule and its fix from the same
    /// fact (TCC's termination details name the missing Info.plist key): the entry is then only
    /// cited, with its id, so the diagnosis does not say the same thing twice.
    let addsRuleAndFix: Bool

    var id: String { match.entry.id }
    var rule: Phrase { .throwSite(id, .rule) }
    var framework: Phrase { .throwSite(id, .framework) }
}

/// Issue 41: an exception (or a runtime stop) raised by an API whose name says which rule was
/// broken. The raising frame and the exception's name and reason are read from the model's typed
/// fields (the Last Exception Backtrace, the crashed thread, ExceptionInfo, Application Specific
/// Information, termination details) and looked up in the throw-site catalogue.
extension Diagnostician {
    /// The families in which a throw or a deliberate stop ended the process.
    static let throwSiteCategories: Set<Diagnosis.Category> = [
        .uncaughtObjCException, .uncaughtCppException, .assertionFailure, .abort, .swiftRuntimeError, .swiftTrap, .explicitTrap,
        .dispatchMisuse, .privacyViolation, .illegalInstruction, .signalRaised,
        // libc's checks of memory (`__stack_chk_fail`, the fortify checks), named by a message.
        .memoryCorruption,
        // A thread that stopped in a function that exists to stop it (`gpus_ReturnNotPermittedKillClient`)
        // with nothing else stated: that function's rule is the cause.
        .unknown,
    ]

    /// How many frames past the throwing machinery are read for the API that threw.
    static let raisingFrameCount = 5
    /// How many lines of the report's messages (reason, message, Application Specific
    /// Information, termination details) the reason fragments are looked for in, and how much of each.
    static let searchedLines = 32
    static let searchedLineBytes = 4096

    /// Frames that only carry a throw (or a stop) out; the raising frames are the ones after them.
    static let throwPlumbing =
        ThrowSite.machinery + [
            "-[NSException initWithCoder:]", "-[NSAssertionHandler handleFailureIn", "+[NSException raise:format:arguments:]",
            "_assertionFailure", "swift::fatalError", "swift_reportError",
        ] + uncaughtPathNames + ["abort_message", "__abort_message", "__cxxabiv1::failed_throw", "failed_throw"]

    /// Frames on the path of an exception nothing caught, from libc++abi's and libobjc's terminate
    /// handlers to AppKit's report of it (`-[NSApplication _crashOnException:]`, which traps on purpose).
    static let uncaughtPathNames = [
        "_objc_terminate", "std::__terminate", "std::terminate", "__clang_call_terminate", "default_terminate_handler",
        "demangling_terminate_handler", "__handleUncaughtException", "uncaughtErrorProc", "-[NSApplication reportException:]",
        "-[NSApplication _crashOnException:]",
    ]

    /// An exception nothing caught, seen only by its way out: the crashed thread has no throw
    /// (`objc_exception_throw`, `__cxa_throw`), its top frames are the uncaught path, and the
    /// frame below that path, when the text has it, ran the code the exception escaped
    /// (`_dispatch_client_callout` for a block on a queue).
    func uncaughtPath() -> (stop: FrameLine, caller: (frame: Frame, line: FrameLine)?)? {
        guard let thread = report.crashedThread, !thread.frames.contains(where: Self.isThrowMarker) else { return nil }
        let top = Array(thread.frames.prefix(AbortPath.stopRegion + 4))
        let onPath = top.filter { frame in
            frame.functionNames.first.map { name in Self.uncaughtPathNames.contains { name.hasPrefix($0) } } ?? false
        }
        guard let first = onPath.first, let last = onPath.last else { return nil }
        let stop = FrameLine(place: place(thread, first), text: .verbatim(first.evidenceText))
        let below = thread.frames.first { $0.index > last.index && !$0.functionNames.isEmpty }
        return (stop, below.map { ($0, FrameLine(place: place(thread, $0), text: .verbatim($0.evidenceText))) })
    }

    /// A frame where a throw or a runtime's stop begins, in a crashed thread without a Last
    /// Exception Backtrace (a rethrow is not one: what follows it is the run loop, not the API).
    static func isThrowMarker(_ frame: Frame) -> Bool {
        frame.functionNames.contains { name in
            name.hasPrefix("objc_exception_throw") || AbortPath.baseName(name) == "__cxa_throw"
                || name.hasPrefix("-[NSAssertionHandler handleFailureIn") || name.hasPrefix("_assertionFailure")
        }
    }

    /// The first raising frame that is an API's, not the app's: named, and in a system image.
    func raisingAPIFrame() -> (frame: Frame, place: Phrase)? {
        guard let first = raisingFrames().first, !first.frame.functionNames.isEmpty, !report.isAppOwned(first.frame),
            first.frame.isAppCodeWithoutImage != true
        else { return nil }
        return first
    }

    /// Where the crashed thread stopped, for a cause to carry when no app frame is known: the
    /// first raising frame with a function's name (an unnamed address says nothing a reader can
    /// look up).
    func stopFrame(preferringCaller: Bool = true) -> FrameLine? {
        stopCandidates(preferringCaller: preferringCaller).first
    }

    /// Where the thread stopped, and, when that is a frame of Apple's with no caller outside
    /// Apple's code, the named frame that called it: which path led there (`swift_getObjectType`
    /// under the concurrency runtime's executor check).
    func stopCandidates(preferringCaller: Bool = true) -> [FrameLine] {
        let named = raisingFrames().filter { candidate in
            guard let name = candidate.frame.functionNames.first else { return false }
            return !Self.isThrowMarker(candidate.frame) && !Self.throwPlumbing.contains { name.hasPrefix($0) }
        }
        // The first frame in code that is not Apple's (an SDK's, a plug-in's, the app's when its
        // image was not recognised) is the call into the system that went wrong; else the first.
        let caller = named.firstIndex { candidate in
            guard preferringCaller, let image = candidate.frame.imageName, !image.isEmpty else { return false }
            return !AppOwnership.isSystemImage(named: image, loadAddress: 0)
        }
        guard let position = caller ?? named.indices.first else { return [] }
        let stop = named[position]
        var lines = [FrameLine(place: stop.place, text: .verbatim(stop.frame.evidenceText))]
        if caller == nil, let image = stop.frame.imageName, AppOwnership.isSystemImage(named: image, loadAddress: 0),
            named.indices.contains(position + 1)
        {
            let next = named[position + 1]
            lines.append(FrameLine(place: next.place, text: .verbatim(next.frame.evidenceText)))
        }
        return lines
    }

    /// Foundation's `*** Assertion failure in -[X y], file:line` before its exception, for a text
    /// without frames: the method that asserted, and its file.
    func assertedMethod() -> FrameLine? {
        guard let message = facts.statedMessages.first(where: { $0.assertedMethod != nil }), let method = message.assertedMethod
        else { return nil }
        return FrameLine(place: Self.sourcePhrase(message.source), text: .verbatim(method))
    }

    /// The first named frame under the crashed thread's app frame when that frame has no name.
    func callerOfUnnamedAppFrame() -> FrameLine? {
        guard let thread = report.crashedThread, let line = report.crashedAppLine, line.function == nil else { return nil }
        guard let caller = thread.frames.dropFirst(line.position + 1).first(where: { !$0.functionNames.isEmpty }) else { return nil }
        return FrameLine(place: place(thread, caller), text: .verbatim(caller.evidenceText))
    }

    /// The context a crash service's title names beside the exception (Bugsnag's `NAME in
    /// UIPageViewController`): where, in the service's words.
    func statedContext() -> FrameLine? {
        guard let message = facts.statedMessages.first(where: { $0.family == .objcException && $0.source == .console && $0.place != nil }),
            let place = message.place
        else { return nil }
        return FrameLine(place: Self.sourcePhrase(message.source), text: .verbatim(place))
    }

    /// A line of a text without frames that no reader read and that names a source file (a
    /// poster's `iOSDemo crash -- TopicViewController.m -- line79 [_field setText:text];`): where,
    /// in the text's own words.
    func namedSourceLine() -> FrameLine? {
        guard report.crashedThread?.frames.isEmpty ?? true else { return nil }
        let named = facts.unreadLines.first { message in
            message.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains { PastedFrameGrammar.isSourceFile(String($0)) }
        }
        return named.map { FrameLine(place: Self.sourcePhrase($0.source), text: .verbatim($0.text)) }
    }

    /// The source line Xcode's annotation was copied beside, for a text without frames: the line
    /// where the thread stopped.
    func annotatedLine() -> FrameLine? {
        guard let place = facts.statedMessages.first(where: { $0.source == .annotation && $0.place != nil })?.place else { return nil }
        return FrameLine(place: Self.sourcePhrase(.annotation), text: .verbatim(place))
    }

    /// The raising frames, nearest the throw first, each with the place the evidence names it by.
    func raisingFrames() -> [(frame: Frame, place: Phrase)] {
        if let frames = report.lastExceptionBacktrace?.frames, frames.contains(where: { !$0.functionNames.isEmpty }) {
            return Self.pastPlumbing(frames).map { ($0, Phrase.exceptionFrame($0.index)) }
        }
        // Older reports print the exception's backtrace as Application Specific Backtrace N.
        if report.crashedThread?.frames.contains(where: Self.isThrowMarker) != true,
            let (number, backtrace) = report.asiBacktraces.enumerated().first(where: {
                $0.element.frames.contains(where: Self.isThrowMarker)
            }),
            let marker = backtrace.frames.lastIndex(where: Self.isThrowMarker)
        {
            return Self.pastPlumbing(Array(backtrace.frames[(marker + 1)...])).map {
                ($0, Phrase.applicationSpecificFrame(number + 1, $0.index))
            }
        }
        guard let thread = report.crashedThread else { return [] }
        let frames = thread.frames
        let start: Int
        if let marker = frames.lastIndex(where: Self.isThrowMarker) {
            start = marker + 1
        } else {
            // A stop without a throw (a trap, TCC, a libdispatch check): past the abort machinery
            // (and a crash reporter's signal handler above the trampoline).
            var index = CrashReport.pastSignalHandler(thread)
            while index < frames.count, AbortPath.isMachinery(frames[index], position: index, in: frames) { index += 1 }
            start = index
        }
        guard start < frames.count else { return [] }
        return Self.pastPlumbing(Array(frames[start...])).map { ($0, place(thread, $0)) }
    }

    /// The frame that called a library's check: the first named frame below it in another image
    /// (frames of the checking library are its own path to the check), else the first named one.
    /// The app's own frame when one is that near (a driver's frames may stand between).
    func callerOfCheck(
        _ below: ArraySlice<(frame: Frame, place: Phrase)>, raising: Frame
    ) -> (frame: Frame, place: Phrase)? {
        let named = below.filter { candidate in
            guard let name = candidate.frame.functionNames.first else { return false }
            return !AppLine.isPlaceholder(name) && !Self.throwPlumbing.contains { name.hasPrefix($0) }
        }
        if let app = named.first(where: { report.isAppOwned($0.frame) }) { return app }
        if let app = appCaller(below: raising) { return app }
        // Else the first frame outside the checking library, unless it is the system's own
        // (`_xpc_connection_reply_callout` under TCC's stop says nothing to the team).
        let outside = named.first { $0.frame.imageName == nil || $0.frame.imageName != raising.imageName }
        guard let outside, let image = outside.frame.imageName, !image.isEmpty else { return outside }
        return AppOwnership.isSystemImage(named: image, loadAddress: 0) ? nil : outside
    }

    /// The crashed thread's app line when it is below `raising` (further down than the raising
    /// frames read: a framework's frames between the check and the app's call).
    func appCaller(below raising: Frame) -> (frame: Frame, place: Phrase)? {
        guard report.lastExceptionBacktrace == nil, let thread = report.crashedThread, let line = report.crashedAppLine,
            thread.frames.indices.contains(line.position),
            let at = thread.frames.firstIndex(where: { $0.index == raising.index && $0.address == raising.address }),
            line.position > at
        else { return nil }
        let frame = thread.frames[line.position]
        guard !frame.functionNames.isEmpty else { return nil }
        return (frame, place(thread, frame))
    }

    static func pastPlumbing(_ frames: [Frame]) -> [Frame] {
        let rest = frames.drop { frame in
            guard let name = frame.functionNames.first else { return false }
            return throwPlumbing.contains { name.hasPrefix($0) }
        }
        return Array(rest.prefix(raisingFrameCount))
    }

    /// The uncaught exception's name and reason as the report states them (`CrashFacts.uncaughtException`),
    /// else the exception message.
    func statedException() -> (name: String?, reason: String?) {
        // libc++abi's line for an Objective-C exception names no exception of its own.
        if let uncaught = facts.uncaughtException?.exception, uncaught.language == .objectiveC || uncaught.name != "NSException" {
            return (uncaught.name, uncaught.reason.flatMap { $0.isEmpty ? nil : $0 })
        }
        return (nil, report.exceptionMessage.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// What the catalogue is searched with: the stated exception's name and reason, the raising
    /// frames' names and the report's messages.
    func throwEvidence(_ frames: [(frame: Frame, place: Phrase)]) -> ThrowEvidence {
        let stated = statedException()
        // Reasons are stated at the start of a report's messages: the first lines, each cut to a
        // bounded length, keep the search's work bounded whatever the report's size.
        let texts =
            ([stated.reason, report.exceptionMessage, report.termination?.text].compactMap { $0 } + (report.termination?.details ?? [])
            + facts.messageLines)
            .prefix(Self.searchedLines).map { String(decoding: $0.utf8.prefix(Self.searchedLineBytes), as: UTF8.self) }
        return ThrowEvidence(
            exceptionName: stated.name, raisingFrames: frames.flatMap { $0.frame.functionNames }, reason: stated.reason, texts: texts)
    }

    /// A match on a reason's words alone that only another runtime's message holds: `index out
    /// of bounds` in a Rust panic or libc++'s assertion is no NSArray's (no exception named, no
    /// raising frame, and every stated message with the words is a panic's, an assertion's or a
    /// managed runtime's).
    func isOtherRuntimesWords(_ match: ThrowSiteMatch, _ evidence: ThrowEvidence) -> Bool {
        guard match.frame == nil, evidence.exceptionName == nil, let fragment = match.reasonFragment else { return false }
        let holding = facts.statedMessages.filter { $0.text.contains(fragment) }
        let foreign: Set<StatedMessage.Family> = [.assertion, .managedException, .cxxRuntime, .swiftRuntime]
        return !holding.isEmpty && holding.allSatisfy { foreign.contains($0.family) }
    }

    /// The catalogue entry the report's raising frames and reason match, with its cause and step.
    func matchThrowSite(_ category: Diagnosis.Category) -> ThrowSiteFinding? {
        guard Self.throwSiteCategories.contains(category) else { return nil }
        let frames = raisingFrames()
        let evidence = throwEvidence(frames)
        guard let match = ThrowSiteCatalog.match(evidence), !isOtherRuntimesWords(match, evidence) else { return nil }
        let id = match.entry.id
        var shown: [FrameLine] = []
        // The raising frame the entry names, also when the reason matched first (a message
        // `stack buffer overflow` above `__stack_chk_fail`'s frame).
        let symbolFrame = frames.firstIndex { candidate in
            candidate.frame.functionNames.contains { name in match.entry.symbols.contains { name.contains($0) } }
        }
        if let at = match.frame.flatMap({ name in frames.firstIndex(where: { $0.frame.functionNames.contains(name) }) }) ?? symbolFrame {
            let raising = frames[at]
            shown.append(
                found.quote(
                    raising.frame, at: raising.place,
                    Phrase(.noteThrowSiteFrame, ["framework": .throwSite(id, .framework), "id": .text(id)])))
            // The call that broke the rule is the reader's place to look: the first named frame
            // below the check outside the checking library (`__stack_chk_fail`'s caller).
            if let caller = callerOfCheck(frames[(at + 1)...], raising: raising.frame) {
                shown.append(
                    found.quote(caller.frame, at: caller.place, Phrase(.noteCallLedToStop, ["library": .throwSite(id, .framework)])))
            }
        }
        let cause = FoundCause(
            phrase: Phrase(.causeThrowSiteRule, ["framework": .throwSite(id, .framework), "rule": .throwSite(id, .rule)]),
            likelihood: .likely, frames: shown)
        return ThrowSiteFinding(
            match: match, cause: cause, step: Phrase(.stepThrowSiteFix, ["fix": .throwSite(id, .fix)]),
            addsRuleAndFix: category != .privacyViolation)
    }
}
