import Foundation
import SymbolicateCrashReport

/// Termination namespaces other than SIGNAL (§4): the system said why it ended the process.
extension Diagnostician {
    func classifyTermination(_ namespace: String) -> Verdict? {
        let namespaceEntry = base.namespace(namespace)
        let code = facts.termination?.code
        let codeEntries = code.map { TerminationReason.entries(namespace: namespace, code: $0, in: base) } ?? []
        let codeText = code.map(hex) ?? "?"
        found.use(namespaceEntry)
        // The code's usual causes are only possibilities; evidence below may promote one.
        for entry in codeEntries { found.use(entry, causes: 0) }
        let allText = ([report.termination?.text ?? ""] + (report.termination?.details ?? []) + facts.messageLines).joined(separator: "\n")

        switch namespace {
        case "SPRINGBOARD", "FRONTBOARD", "RUNNINGBOARD", "CAROUSEL":
            guard let entry = codeEntries.first else {
                return Verdict(
                    .systemTermination, .stated, .verdictSystemUnknownCode, ["namespace": .text(namespace), "code": .text(codeText)])
            }
            return classifySystemCode(entry)
        case "DYLD":
            // A library dyld found but refused is no missing one: its refusal's entry alone.
            var dyldEntries = base.entries(matchingText: allText, kinds: [.dyldError])
            if dyldEntries.contains(where: { $0.term == "no suitable image found" }) {
                dyldEntries.removeAll { $0.term == "Library not loaded" }
            }
            for entry in dyldEntries { found.use(entry) }
            // Why dyld refused the file it found, as its `Did find:` line says: that refusal's cause leads.
            if let refused = dyldEntries.first(where: { $0.term == "no suitable image found" }) {
                let byReason = [
                    ("mremap_encrypted", "unusable-image-encrypted-map"), ("wrong architecture", "unusable-image-wrong-architecture"),
                    ("incompatible platform", "unusable-image-wrong-architecture"), ("code signature", "unusable-image-signature"),
                ]
                let stated = Set(byReason.filter { allText.containsBytes($0.0) }.map(\.1))
                for text in refused.causeTexts {
                    found.cause(stated.contains { text.id.hasSuffix("#cause.\($0)") } ? .likely : .possible, .knowledge(text))
                }
            }
            for line in facts.statements.dyldLines { found.quote(.label("dyld"), line) }
            let what = codeEntries.first.map { Phrase.lowercasedInEnglish($0.titlePhrase) } ?? Phrase(.wordDyldFailure)
            found.note(.noteDyldBeforeApp)
            let codeValue = Phrase.text(code.map(String.init) ?? "?")
            // A weakly linked symbol this OS lacks, called after launch: dyld bound it to its
            // `__dyld_missing_symbol_abort` stub, and the caller is the thread's frame below it.
            if facts.termination?.isMissingSymbolCalled == true {
                found.cause(.likely, .causeWeakSymbolMissingCalled)
                found.step(.stepGuardWeakSymbol)
                // The frame below dyld's stub (`_dyld_missing_symbol_abort`), else the first named
                // frame outside dyld.
                let caller = report.crashedThread.flatMap { thread -> Frame? in
                    let named = thread.frames.filter { $0.functionNames.contains { !AppLine.isPlaceholder($0) } }
                    if let stub = named.lastIndex(where: { $0.functionNames.contains { $0.containsBytes("missing_symbol") } }) {
                        return named.indices.contains(stub + 1) ? named[stub + 1] : nil
                    }
                    return named.first { !($0.imageName ?? "").hasPrefix("dyld") && !($0.imageName ?? "").hasPrefix("libdyld") }
                }
                let called = caller.map { Phrase(.wordCalledFrom, ["caller": .verbatim($0.evidenceText)]) } ?? .verbatim("")
                return Verdict(.missingLibrary, .stated, .verdictDyldMissingSymbolCalled, ["caller": called])
            }
            // dyld's own message says which library or symbol: the headline states it (issue 48).
            if let message = facts.statements.dyldMessage {
                return Verdict(
                    .missingLibrary, .stated, .verdictDyldFailedStating, ["what": what, "code": codeValue, "line": .text(message)])
            }
            return Verdict(.missingLibrary, .stated, .verdictDyldFailed, ["what": what, "code": codeValue])
        case "CODESIGNING":
            // An `.ips` termination may carry only its indicator (`Launch Constraint Violation`): the
            // system's name for the code is what the text says.
            let codeValue = Phrase.text(code.map(String.init) ?? report.termination?.text.flatMap { $0.isEmpty ? nil : $0 } ?? "?")
            if let entry = codeEntries.first {
                return Verdict(
                    .codeSigning, .stated, .verdictCodeSigningKillWhat,
                    ["code": codeValue, "what": .lowercasedInEnglish(entry.titlePhrase)])
            }
            return Verdict(.codeSigning, .stated, .verdictCodeSigningKill, ["code": codeValue])
        case "TCC":
            if let key = facts.termination?.usageKey {
                found.cause(.likely, .causeUsageDescriptionMissing, ["key": .text(key)])
                found.step(.stepAddUsageDescription, ["key": .text(key)])
                return Verdict(.privacyViolation, .stated, .verdictPrivacyViolationKey, ["key": .text(key)])
            }
            found.note(.noteUsageKeyNotNamed)
            return Verdict(.privacyViolation, .stated, .verdictPrivacyViolation)
        case "GUARD":
            if let code {
                found.quote(Phrase(.fieldDecodedGuardCode), GuardCode(code).summary)
            }
            return classifyGuard()
        case "JETSAM":
            let ownLimit = code == nil || codeEntries.contains { ["per-process-limit", "highwater"].contains($0.term) }
            if ownLimit, let verdict = readMemoryLimit(name: nil, footprint: nil, category: .memoryPressure) { return verdict }
            guard code != nil else {
                // Third-party reporters (KSCrash's memory termination) record the kill without a reason code.
                return Verdict(.memoryPressure, .stated, .verdictMemoryTermination)
            }
            let reason = codeEntries.first.map { Phrase.text($0.term) } ?? Phrase(.wordCode, ["code": .text(codeText)])
            return Verdict(.memoryPressure, .stated, .verdictJetsamKill, ["reason": reason])
        case "LIBSYSTEM":
            let assertion = facts.messageLines.first { $0.localizedCaseInsensitiveContains("assert") }
            for line in facts.messageLines { found.quote(.label("Application Specific Information"), line) }
            let what = codeEntries.first?.titlePhrase ?? Phrase(.wordLibsystemFault)
            let codeValue = Phrase.text(code.map(String.init) ?? "?")
            if let assertion {
                found.cause(.likely, .causeSystemAssertion, ["assertion": .text(assertion)])
                return Verdict(
                    .libsystemFault, .stated, .verdictLibsystemAssertion,
                    ["what": what, "code": codeValue, "assertion": .text(assertion)])
            }
            return Verdict(.libsystemFault, .stated, .verdictLibsystem, ["what": what, "code": codeValue])
        case "LIBXPC" where code == 3:
            return Verdict(.watchdog, .stated, .verdictLaunchHang)
        default:
            guard let namespaceEntry else {
                found.note(.noteNamespaceUnknown, ["namespace": .text(namespace)])
                return nil
            }
            // The code's name as the report prints it after the number (`LIBXPC 9 XPC_EXIT_REASON_FAULT`).
            var codeText = codeText
            if let name = report.termination?.text?.trimmedBlanks, !name.isEmpty, name.utf8.count <= 60,
                name.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
            {
                codeText += " " + name
            }
            // The component's own words, when the report keeps them (`rosetta error: unable to mmap …`).
            let details = (report.termination?.details ?? []).map { $0.trimmedBlanks }.filter { !$0.isEmpty }
            guard let said = details.first else {
                return Verdict(
                    .systemTermination, .stated, .verdictComponentTerminated,
                    ["title": namespaceEntry.titlePhrase, "namespace": .text(namespace), "code": .text(codeText)])
            }
            return Verdict(
                .systemTermination, .stated, .verdictComponentTerminatedSaying,
                [
                    "title": namespaceEntry.titlePhrase, "namespace": .text(namespace), "code": .text(codeText),
                    "details": .verbatim(details.count > 1 ? details.prefix(3).joined(separator: " ") : said),
                ])
        }
    }

    /// A system termination code (0x8badf00d, 0xc00010ff, …), from the termination reason or
    /// from `Exception Codes` whatever `Exception Type` says (old reports print `00000020`).
    func classifySystemCode(_ entry: KnowledgeEntry) -> Verdict {
        switch KnownTerm(rawValue: entry.term) {
        case .watchdog?: return watchdog(facts.termination?.watchdog)
        case .thermal?:
            found.note(.noteThermalKill)
            return Verdict(.thermal, .stated, .verdictThermal)
        case .stackshotCode?:
            return Verdict(.notACrash, .stated, .verdictStackshotCode)
        case .lockedFileAtSuspension?:
            found.step(.stepLookForLockedFileWriter)
            return Verdict(.lockedFileAtSuspension, .stated, .verdictLockedFile)
        case .voipNoCall?, .voipTooManyPushes?:
            return Verdict(.voipPush, .stated, .verdictVoIP, ["title": entry.titlePhrase, "term": .text(entry.term)])
        case .backgroundTaskTimeout?, .backgroundTaskTimeout3?, .backgroundTaskTimeout4?, .backgroundBudget1?, .backgroundBudget2?,
            .backgroundBudget3?:
            return Verdict(.backgroundTimeLimit, .stated, .verdictBackgroundTime, ["title": entry.titlePhrase, "term": .text(entry.term)])
        case .securityViolation?:
            return Verdict(
                .securityViolation, .stated,
                facts.termination?.isInsecureDrawing == true ? .verdictSecurityViolationDrawing : .verdictSecurityViolation)
        default:
            return Verdict(.systemTermination, .stated, .verdictSystemTerminated, ["title": entry.titlePhrase, "term": .text(entry.term)])
        }
    }

    /// How many numbers of `Exception Codes` are looked up (reports carry two to four).
    static let codesConsidered = 16

    /// A termination code such as 0xc00010ff among the exception codes.
    func systemCodeInExceptionCodes() -> KnowledgeEntry? {
        Self.consideredCodes(facts.exception?.codes ?? []).lazy.compactMap {
            self.base.entries(kind: .terminationCode, value: $0).first
        }.first
    }

    /// The numbers of `Exception Codes` that are looked up: Apple's reports carry two to four,
    /// so a field of thousands is not looked up past the first `codesConsidered`.
    static func consideredCodes(_ codes: [UInt64]) -> ArraySlice<UInt64> {
        codes.prefix(codesConsidered)
    }

    /// 0x8badf00d: quote the watchdog text and the main thread, which is what it waited for.
    func watchdog(_ figures: WatchdogFigures?) -> Verdict {
        let event = figures?.event
        let allowance = figures?.allowanceSeconds
        // CPU used by the app during the allowance tells busy from blocked (A-WD).
        var busy: Bool?
        if let cpuText = figures?.cpuSeconds,
            let cpu = Double(cpuText), let wall = allowance.flatMap(Double.init), wall > 0
        {
            busy = cpu / wall >= 0.5 ? true : cpu / wall <= 0.2 ? false : nil
            let share = Int((cpu / wall * 100).rounded())
            found.quote(
                Phrase(.fieldWatchdogCPU),
                phrase: Phrase(
                    .quoteWatchdogCPU, ["cpu": .text(cpuText), "wall": .text("\(wall)"), "share": .text(String(share))]),
                busy == true ? Phrase(.noteAppComputing) : busy == false ? Phrase(.noteAppWaiting) : nil)
        }
        found.mainThreadBusy = busy
        // The system's own reason (`Failed to terminate gracefully after 5.0s`: the app was asked to
        // quit and did not finish in time), first.
        if let explanation = facts.termination?.explanation {
            found.cause(.likely, .causeSystemExplanation, ["explanation": .text(explanation)])
        }
        if busy == true {
            found.cause(.likely, .causeMainThreadLongWork)
        } else if busy == false {
            found.cause(.likely, .causeMainThreadBlockedLittleCPU)
        }
        if let main = report.mainThread {
            let top = main.frames.prefix(4)
            for frame in top {
                found.quote(
                    Phrase(.fieldMainThreadFrame, ["thread": .text(String(main.index)), "frame": .text(String(frame.index))]),
                    frame.evidenceText)
            }
            if let appFrame = main.frames.first(where: { report.isAppOwned($0) && !$0.isLibraryCodeInApp }) {
                let (function, location) = appFrame.appLine
                let place = Phrase.place(main.index, appFrame.index)
                if let function, let location {
                    found.step(.stepReadMainThreadFrameAt, ["function": .text(function), "location": .text(location), "place": place])
                } else if let function {
                    found.step(.stepReadMainThreadFrame, ["function": .text(function), "place": place])
                } else {
                    found.step(
                        .stepSymbolicateMainThreadFrame,
                        ["place": place, "image": appFrame.imageAndOffset, "debugFile": report.debugFilePhrase(for: appFrame)])
                }
            }
            let names = top.flatMap(\.functionNames).joined(separator: " ")
            let blocking = [
                "semaphore_wait", "__ulock_wait", "_dispatch_sync_f_slow", "__psynch_mutexwait", "__psynch_cvwait",
                "mach_msg", "dispatch_group_wait", "CFURLConnectionSendSynchronousRequest", "sendSynchronousRequest",
            ]
            if let hit = blocking.first(where: { names.contains($0) }) {
                found.cause(busy == true ? .possible : .likely, .causeMainThreadBlockedAt, ["call": .text(hit)])
            } else if !top.isEmpty, busy != false {
                found.cause(busy == true ? .likely : .possible, .causeMainThreadBusy)
            }
        } else {
            found.note(.noteNoMainThread)
        }
        let key: PhraseKey =
            switch (event != nil, allowance != nil) {
            case (true, true): .verdictWatchdogDuringWithin
            case (true, false): .verdictWatchdogDuring
            case (false, true): .verdictWatchdogWithin
            case (false, false): .verdictWatchdog
            }
        return Verdict(.watchdog, .stated, key, ["event": .text(event ?? ""), "seconds": .text(allowance ?? "")])
    }

    /// A main-thread deadlock a crash reporter detected and ended the process for: the
    /// reporter's words, then the main thread read as for a watchdog kill (what it waited on).
    func reportedMainThreadDeadlock(_ deadlock: ReporterDeadlockFact) -> Verdict {
        for line in deadlock.quotes { found.quote(.label("Application Specific Information"), line) }
        _ = watchdog(nil)
        return Verdict(.watchdog, .stated, .verdictMainThreadDeadlockReported)
    }

    func classifyGuard() -> Verdict {
        let typeName = report.exception?.subtype ?? facts.termination?.code.flatMap { GuardCode($0).typeName }
        found.use(base.entry(.guardException))
        found.use(typeName.flatMap { base.entries(named: $0).first }, causes: 0)
        quoteTopFrames(count: 4)
        let what: PhraseKey =
            typeName == "GUARD_TYPE_FD"
            ? .wordGuardedFDMisused
            : typeName == "GUARD_TYPE_MACH_PORT" ? .wordMachPortMisused : .wordGuardedResourceMisused
        var values: [String: Phrase] = ["type": .text(typeName ?? "EXC_GUARD"), "what": Phrase(what)]
        if let message = report.exceptionMessage { values["message"] = .text(message) }
        let key: PhraseKey =
            switch ((facts.exception?.isNonFatal ?? false), report.exceptionMessage != nil) {
            case (false, false): .verdictGuard
            case (false, true): .verdictGuardMessage
            case (true, false): .verdictGuardSimulated
            case (true, true): .verdictGuardSimulatedMessage
            }
        return Verdict(.guardViolation, .stated, key, values)
    }
}
