import Foundation
import SymbolicateCrashReport

/// Termination namespaces other than SIGNAL (§4): the system said why it ended the process.
extension Diagnostician {
    func classifyTermination(_ namespace: String) -> Verdict? {
        let namespaceEntry = base.namespace(namespace)
        let code = facts.terminationCode
        let codeEntries = code.map { TerminationReason.entries(namespace: namespace, code: $0, in: base) } ?? []
        let codeText = code.map(hex) ?? "?"
        found.use(namespaceEntry)
        // The code's usual causes are only possibilities; evidence below may promote one.
        for entry in codeEntries { found.use(entry, causes: 0) }
        let allText = ([facts.terminationText ?? ""] + facts.terminationDetails + facts.asiLines).joined(separator: "\n")

        switch namespace {
        case "SPRINGBOARD", "FRONTBOARD", "RUNNINGBOARD", "CAROUSEL":
            guard let entry = codeEntries.first else {
                return Verdict(
                    .systemTermination, .stated,
                    "The system (\(namespace)) terminated the app with code \(codeText); the code is not in the knowledge base.")
            }
            return classifySystemCode(entry, text: allText)
        case "DYLD":
            for entry in base.entries(matchingText: allText, kinds: [.dyldError]) { found.use(entry) }
            for line in (facts.terminationDetails + facts.asiLines)
            where line.contains("Library not loaded") || line.contains("Symbol not found") || line.contains("Referenced from") {
                found.quote("dyld", line)
            }
            let what = codeEntries.first?.title.lowercased() ?? "dyld failure"
            found.notes.append("dyld failed before the app's code ran: the backtrace is not the cause.")
            return Verdict(
                .missingLibrary, .stated, "The app could not launch: dyld reported \"\(what)\" (DYLD \(code.map(String.init) ?? "?")).")
        case "CODESIGNING":
            return Verdict(
                .codeSigning, .stated,
                "The kernel killed the process because a code signature did not validate (CODESIGNING \(code.map(String.init) ?? "?")\(codeEntries.first.map { ", \($0.title.lowercased())" } ?? ""))."
            )
        case "TCC":
            let key = firstMatch(#"(NS[A-Za-z]+UsageDescription)"#, in: allText)?.first ?? nil
            if let key {
                found.cause(.likely, "The Info.plist of the target that accessed the data has no \(key) (the report names the key)")
                found.step("Add \(key) with a user-facing explanation to the Info.plist of the target that accessed the data")
            } else {
                found.notes.append(
                    "The report does not name the missing usage-description key; look for a privacy-protected API (camera, microphone, photos, contacts, location) called just before the crash."
                )
            }
            return Verdict(
                .privacyViolation, .stated,
                "Privacy violation: the app accessed protected data without a usage description" + (key.map { " (\($0) is missing)" } ?? "")
                    + ".")
        case "GUARD":
            if let code {
                found.quote("Decoded guard code", GuardCode(code).summary)
            }
            return classifyGuard()
        case "JETSAM":
            guard code != nil else {
                // Third-party reporters (KSCrash's memory termination) record the kill without a reason code.
                return Verdict(
                    .memoryPressure, .stated,
                    "The system killed the process for its memory use (a memory termination; no jetsam reason code recorded).")
            }
            let reason = codeEntries.first?.term ?? "code \(codeText)"
            return Verdict(.memoryPressure, .stated, "The system killed the process for memory (jetsam reason \(reason)).")
        case "LIBSYSTEM":
            let assertion = facts.asiLines.first { $0.localizedCaseInsensitiveContains("assert") }
            for line in facts.asiLines { found.quote("Application Specific Information", line) }
            let what = codeEntries.first?.title ?? "a libsystem fault"
            if let assertion {
                found.cause(.likely, "A system-library assertion failed: \(assertion)")
            }
            return Verdict(
                .libsystemFault, .stated,
                "A system library aborted the process: \(what) (LIBSYSTEM \(code.map(String.init) ?? "?"))"
                    + (assertion.map { " — \($0)" } ?? "") + ".")
        case "LIBXPC" where code == 3:
            return Verdict(.watchdog, .stated, "The app extension took too long to initialize (LAUNCH_HANG) and was terminated.")
        default:
            guard let namespaceEntry else {
                found.notes.append("Termination namespace \(namespace) is not in the knowledge base.")
                return nil
            }
            return Verdict(
                .systemTermination, .stated,
                "\(namespaceEntry.title): the \(namespace) component terminated the process (code \(codeText)).")
        }
    }

    /// A system termination code (0x8badf00d, 0xc00010ff, …), from the termination reason or
    /// from `Exception Codes` whatever `Exception Type` says (old reports print `00000020`).
    func classifySystemCode(_ entry: KnowledgeEntry, text allText: String) -> Verdict {
        switch KnownTerm(rawValue: entry.term) {
        case .watchdog?: return watchdog(allText)
        case .thermal?:
            found.notes.append(
                "A thermal kill ends whatever was running: the backtrace shows the moment of the kill, not necessarily the work that heated the device."
            )
            return Verdict(
                .thermal, .stated, "Thermal kill (0xc00010ff, \"cool off\"): the system killed the app because the device was too hot.")
        case .stackshotCode?:
            return Verdict(
                .notACrash, .stated,
                "Stackshot (0xbaaaaaad), not a crash: a snapshot of every process, often taken by pressing buttons by accident.")
        case .lockedFileAtSuspension?:
            found.step("Look for the thread writing to a database or file (fsync, sqlite3 commit) when the app was suspended")
            return Verdict(
                .lockedFileAtSuspension, .stated, "Killed for holding a file or database lock while being suspended (0xdead10cc).")
        case .voipNoCall?, .voipTooManyPushes?:
            return Verdict(.voipPush, .stated, "\(entry.title) (\(entry.term)): the system killed the VoIP app.")
        case .backgroundTaskTimeout?, .backgroundTaskTimeout3?, .backgroundTaskTimeout4?, .backgroundBudget1?, .backgroundBudget2?,
            .backgroundBudget3?:
            return Verdict(.backgroundTimeLimit, .stated, "\(entry.title) (\(entry.term)): background work ran past its time allowance.")
        case .securityViolation?:
            return Verdict(
                .securityViolation, .stated,
                "Security violation (0x2bad45ec)"
                    + (allText.contains("insecure drawing")
                        ? ": insecure drawing — the app drew on screen while the device was in secure (locked) mode." : "."))
        default:
            return Verdict(.systemTermination, .stated, "\(entry.title) (\(entry.term)): the system terminated the app.")
        }
    }

    /// A termination code such as 0xc00010ff among the exception codes.
    func systemCodeInExceptionCodes() -> KnowledgeEntry? {
        guard let codes = facts.codes else { return nil }
        let numbers = codes.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { parseNumber(String($0)) }
        return numbers.lazy.compactMap { self.base.entries(kind: .terminationCode, value: $0).first }.first
    }

    /// 0x8badf00d: quote the watchdog text and the main thread, which is what it waited for.
    func watchdog(_ text: String) -> Verdict {
        let event =
            firstMatch(#"(scene-create|scene-update|process-exit|process-launch|[a-z-]+) watchdog transgression"#, in: text)?.first ?? nil
        let allowance = firstMatch(#"allowance of ([0-9.]+) seconds"#, in: text)?.first ?? nil
        // CPU used by the app during the allowance tells busy from blocked (A-WD).
        var busy: Bool?
        if let cpuText = firstMatch(#"Elapsed application CPU time \(seconds\): ([0-9.]+)"#, in: text)?.first ?? nil,
            let cpu = Double(cpuText), let wall = allowance.flatMap(Double.init), wall > 0
        {
            busy = cpu / wall >= 0.5 ? true : cpu / wall <= 0.2 ? false : nil
            let share = Int((cpu / wall * 100).rounded())
            found.quote(
                "Watchdog CPU", "Elapsed application CPU time (seconds): \(cpuText) of a \(wall)-second allowance (\(share)%)",
                busy == true ? "the app was computing most of the time" : busy == false ? "the app was mostly waiting" : nil)
        }
        found.mainThreadBusy = busy
        if busy == true {
            found.cause(.likely, "Long-running work on the main thread (the app used most of the allowance as CPU time)")
        } else if busy == false {
            found.cause(
                .likely, "The main thread was blocked waiting (little CPU used): a lock, semaphore, synchronous network or IPC call")
        }
        if let main = facts.mainThread {
            let top = main.frames.prefix(4)
            for frame in top { found.quote("Thread \(main.index) (main thread) frame \(frame.index)", frame.evidenceText) }
            if let appFrame = main.frames.first(where: { facts.isAppOwned($0) && !$0.isLibraryCodeInApp }) {
                let (function, location) = appFrame.appLine
                let place = "thread \(main.index) frame \(appFrame.index)"
                found.step(
                    function.map {
                        "Read \($0)" + (location.map { " at \($0)" } ?? "")
                            + " (\(place), the main thread's first frame in the app's code): the work the watchdog waited for runs from there"
                    }
                        ?? "Symbolicate \(place) (\(appFrame.imageName ?? "?")\(appFrame.imageOffset.map { " + " + hex($0) } ?? "")) with \(facts.debugFile): it is the main thread's first frame in the app's code"
                )
            }
            let names = top.flatMap(\.functionNames).joined(separator: " ")
            let blocking = [
                "semaphore_wait", "__ulock_wait", "_dispatch_sync_f_slow", "__psynch_mutexwait", "__psynch_cvwait",
                "mach_msg", "dispatch_group_wait", "CFURLConnectionSendSynchronousRequest", "sendSynchronousRequest",
            ]
            if let hit = blocking.first(where: { names.contains($0) }) {
                found.cause(
                    busy == true ? .possible : .likely,
                    "The main thread was blocked waiting (\(hit) at the top of its stack): a lock, semaphore, synchronous call or IPC")
            } else if !top.isEmpty, busy != false {
                found.cause(
                    busy == true ? .likely : .possible,
                    "The main thread was busy running code (no waiting call at the top of its stack); the frames show what it was doing at the moment of the kill"
                )
            }
        } else {
            found.notes.append("The report has no main-thread backtrace to show what the watchdog waited for.")
        }
        let phase = event.map { " during \($0)" } ?? ""
        return Verdict(
            .watchdog, .stated,
            "Watchdog timeout (0x8badf00d): the app did not respond\(phase)" + (allowance.map { " within \($0) seconds" } ?? "")
                + " and was killed.")
    }

    func classifyGuard() -> Verdict {
        let typeName = facts.subtype ?? facts.terminationCode.flatMap { GuardCode($0).typeName }
        found.use(base.entry(.guardException))
        found.use(typeName.flatMap { base.entries(named: $0).first }, causes: 0)
        quoteTopFrames(count: 4)
        let detail = facts.message.map { ": \($0)" } ?? ""
        let what =
            typeName == "GUARD_TYPE_FD"
            ? "a guarded file descriptor was misused"
            : typeName == "GUARD_TYPE_MACH_PORT" ? "a Mach port right was misused" : "a guarded resource was misused"
        let prefix = facts.isNonFatal ? "Not a crash (simulated report): " : ""
        return Verdict(.guardViolation, .stated, prefix + "Guard violation (\(typeName ?? "EXC_GUARD")) — \(what)\(detail).")
    }
}
