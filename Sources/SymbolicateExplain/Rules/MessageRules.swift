import Foundation
import SymbolicateCrashReport

/// Messages the report carries (ASI lines, exception reasons) — §6, §7.
extension Diagnostician {
    func classifyByMessages() -> Verdict? {
        if let verdict = classifyUncaughtException() { return verdict }
        let lines = facts.messageLines + [report.exceptionMessage].compactMap { $0 }
        let uncaught = facts.uncaughtException
        // Uncaught Objective-C exception with name and reason, as libobjc's line states it.
        if let uncaught, let line = uncaught.quote, uncaught.exception.language == .objectiveC {
            found.quote(.label("Application Specific Information"), line)
            return objcException(name: uncaught.exception.name, reason: uncaught.exception.reason)
        }
        // C assert(): "Assertion failed: (cond), function f, file F, line N."
        if let assertion = facts.assertion, assertion.kind == .cAssert, let line = assertion.quote {
            found.quote(.label("Application Specific Information"), line)
            quoteFrames(matching: AbortPath.cAssertNames, limit: 1)
            quoteFirstAppFrame()
            found.cause(.likely, .causeAssertFalseC)
            found.step(.stepReadAssertCondition)
            return Verdict(.assertionFailure, .stated, .verdictAssertionFailed, ["line": .text(line)])
        }
        // Swift runtime and concurrency messages.
        for line in lines {
            let entries = base.entries(matchingText: line, kinds: [.swiftRuntimeMessage, .concurrencyMessage])
            guard let entry = entries.first else { continue }
            // `Assertion failed` is the Swift runtime's only on a line in its format; a C `assert()`'s
            // or another tool's (`Details:  Assertion failed: arch` under Xcode's DVTAssertions) is not.
            if entry.term == "Assertion failed", !facts.statedMessages.contains(where: { $0.family == .swiftRuntime && $0.quote == line }) {
                continue
            }
            found.quote(.label("Application Specific Information"), line)
            found.use(entry, causes: 0)
            found.cause(.likely, .causeMessageSaysSo, ["title": entry.titlePhrase], frames: appFrameLine())
            if entry.kind == .concurrencyMessage {
                quoteTopFrames(count: 3)
                if let place = runtimeErrorPlace {
                    return Verdict(
                        .dispatchMisuse, .stated, .verdictTitleLineAt,
                        ["title": entry.titlePhrase, "place": .text(place), "line": .text(line)])
                }
                return Verdict(.dispatchMisuse, .stated, .verdictTitleAndLine, ["title": entry.titlePhrase, "line": .text(line)])
            }
            quoteSwiftFrames()
            found.use(facts.exception?.machType.flatMap { base.entries(named: $0).first } ?? base.entry(.breakpoint))
            if let place = runtimeErrorPlace {
                return Verdict(
                    .swiftRuntimeError, .stated, .verdictSwiftRuntimeErrorMessageAt,
                    ["title": .lowercasedInEnglish(entry.titlePhrase), "place": .text(place), "line": .text(line)])
            }
            return Verdict(
                .swiftRuntimeError, .stated, .verdictSwiftRuntimeErrorMessage,
                ["title": .lowercasedInEnglish(entry.titlePhrase), "line": .text(line)])
        }
        // Uncaught C++ exception, as libc++abi's line states it (an NSException escaping through
        // libc++abi names its type only).
        if let uncaught, let line = uncaught.quote, uncaught.exception.language == .cxx {
            let type = uncaught.exception.name ?? ""
            found.quote(.label("Application Specific Information"), line)
            if type == "NSException" { return objcException(name: nil, reason: nil) }
            return cxxException(type: type, what: uncaught.exception.reason)
        }
        // assert() / stack canary / malloc.
        for line in lines {
            if let assertion = facts.assertion, assertion.kind == .assertionMessage, line == assertion.quote {
                found.quote(.label("Application Specific Information"), line)
                quoteFrames(matching: AbortPath.cAssertNames + ["assert"], limit: 1)
                quoteFirstAppFrame()
                found.cause(.likely, .causeAssertFalse)
                found.step(.stepReadAssertConditionShort)
                return Verdict(.assertionFailure, .stated, .verdictAssertionFailed, ["line": .text(line)])
            }
            if let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                entry.is(.stackCheckFail) || entry.is(.freedNotAllocated)
            {
                found.quote(.label("Application Specific Information"), line)
                found.use(entry)
                return Verdict(.memoryCorruption, .stated, .verdictTitleAndLine, ["title": entry.titlePhrase, "line": .text(line)])
            }
        }
        if let lastException = report.lastExceptionBacktrace, !lastException.frames.isEmpty {
            return objcException(name: nil, reason: nil)
        }
        return nil
    }

    /// An uncaught exception a reader read from data or its own typed input (a reporter's keys,
    /// MetricKit, Xcode's console, LLDB, Xcode's banner): the same verdicts as the message lines
    /// above, from the name and reason as read.
    func classifyUncaughtException() -> Verdict? {
        guard let fact = facts.uncaughtException, fact.quote == nil else { return nil }
        let uncaught = fact.exception
        let label = Phrase.label("Uncaught exception")
        switch uncaught.language {
        case .objectiveC:
            found.quote(label, [uncaught.name, uncaught.reason].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": "))
            return objcException(name: uncaught.name, reason: uncaught.reason.flatMap { $0.isEmpty ? nil : $0 })
        case .cxx:
            guard let type = uncaught.name else { return nil }
            found.quote(label, [type, uncaught.reason].compactMap { $0 }.joined(separator: ": "))
            return cxxException(type: type, what: uncaught.reason)
        }
    }

    /// `File.swift:42`, where a Swift runtime error says it stopped, when it says so.
    var runtimeErrorPlace: String? {
        guard let error = facts.swiftRuntimeError, let file = error.file else { return nil }
        return error.line.map { "\(file):\($0)" } ?? file
    }

    /// Where a Swift runtime error says it stopped (`file MyApp/X.swift, line 42`), as read.
    func quoteRuntimeErrorPlace() {
        guard let error = facts.swiftRuntimeError, let file = error.file else { return }
        found.quote(.label("Runtime error location"), error.line.map { "\(file):\($0)" } ?? file)
    }

    /// An uncaught C++ exception: what its type means (the standard library's exceptions), and
    /// libmalloc's refusal when it printed one before an allocation failure.
    func cxxException(type: String, what: String?) -> Verdict {
        found.use(base.entry(.uncaughtCppException), causes: 1)
        // `std::__1::bad_alloc`: libc++'s inline namespace is no part of the standard's name.
        let standardName = type.replacingOccurrences(of: "::__1::", with: "::").replacingOccurrences(of: "::__ndk1::", with: "::")
        if let entry = base.entry(standardName, kind: .cxxException) {
            // The allocator's own words say what it could not do (`can't allocate region`, the size asked).
            let refusal = facts.statedMessages.first { $0.family == .malloc && !$0.text.isEmpty }
            if entry.term == "std::bad_alloc", let refusal {
                found.cause(.likely, .causeMallocRefusedFirst, ["line": .text(refusal.text)])
                found.use(entry, causes: 0)
            } else {
                found.use(entry, causes: 1)
            }
        }
        quoteTopFrames(count: 6)
        if let what, !what.isEmpty {
            return Verdict(.uncaughtCppException, .stated, .verdictCppExceptionWhat, ["type": .text(type), "what": .text(what)])
        }
        return Verdict(.uncaughtCppException, .stated, .verdictCppException, ["type": .text(type)])
    }

    func objcException(name: String?, reason: String?) -> Verdict {
        found.use(base.entry(.uncaughtObjCException))
        if let name { found.use(base.entry(name, kind: .objcException), causes: 0) }
        switch reason.flatMap(UncaughtExceptionFact.ReasonClass.init(reason:)) {
        case .unrecognizedSelector?:
            found.use(base.entry(.unrecognizedSelector))
            found.cause(.likely, .causeWrongClass)
            found.cause(.possible, .causeReceiverDeallocated)
        case .nilArgument?: found.cause(.likely, .causeNilPassed)
        case .outOfBounds?: found.cause(.likely, .causeIndexPastEnd)
        case .mutatedWhileEnumerated?: found.cause(.likely, .causeMutatedWhileEnumerated)
        case .keyValueCoding?: found.cause(.likely, .causeStaleOutlet)
        case .offMainThread?:
            found.use(base.entry(.mainThreadOnly))
            found.cause(.likely, .causeOffMainStated)
            found.step(.stepMoveToMain)
        case nil: break
        }
        quoteLastExceptionBacktrace()
        quoteThrowSite()
        quoteLastOutputWhenNoFrameSaysWhere()
        if name == nil, report.lastExceptionBacktrace == nil {
            quoteTopFrames(count: 8)
        }
        guard let name else {
            // The report states a message (a framework's words in Application Specific
            // Information, a console line): that is the exception's stated cause (issue 48).
            if let verdict = classifyByStatedMessage(category: .uncaughtObjCException) { return verdict }
            // Each claim names the section it is about, and only when the report has it.
            found.note(facts.messageLines.isEmpty ? .noteExceptionNameMissingNoASI : .noteExceptionNameMissing)
            // libc++abi's line for it (`terminating with uncaught exception of type NSException`): stated,
            // with its class only.
            if let line = facts.statedMessages.first(where: \.namesOnlyAnObjectiveCExceptionType) {
                found.quote(.label("Application Specific Information"), line.quote)
                return Verdict(.uncaughtObjCException, .stated, .verdictObjCExceptionTypeOnly, ["line": .text(line.text)])
            }
            // Without a name there is no reason either (both come from one message).
            if let backtrace = report.lastExceptionBacktrace, !backtrace.frames.isEmpty {
                return Verdict(.uncaughtObjCException, .likely, .verdictObjCExceptionUnnamed)
            }
            return Verdict(.uncaughtObjCException, .likely, .verdictObjCExceptionTerminateOnly)
        }
        if let reason {
            return Verdict(.uncaughtObjCException, .stated, .verdictObjCExceptionReason, ["name": .text(name), "reason": .text(reason)])
        }
        return Verdict(.uncaughtObjCException, .stated, .verdictObjCException, ["name": .text(name)])
    }

    /// A pasted exception whose frames name none of the app's code (a first-throw stack of bare
    /// addresses, LLDB stopped in `__pthread_kill`): the line the program printed just before it
    /// (`[FlutterCallKitPlugin][getProviderConfiguration]`) is the one clue to what it was doing.
    func quoteLastOutputWhenNoFrameSaysWhere() {
        // A line naming the exception or its reason (a crash service's `Fatal Exception: Name` title
        // over its stack) is the crash's own, not what the program printed.
        let exception = facts.uncaughtException?.exception
        let said = [exception?.name, exception?.reason].compactMap { $0 }.filter { !$0.isEmpty }
        guard let line = facts.lastOutput.last, !said.contains(where: { line.text.contains($0) }), report.crashedAppLine == nil
        else { return }
        let namedAppFrame = (report.lastExceptionBacktrace?.frames ?? []).contains { report.isAppOwned($0) && !$0.functionNames.isEmpty }
        guard !namedAppFrame else { return }
        found.cause(.likely, .causeLastOutputBefore, ["line": .text(line.text)])
    }
}
