import Foundation
import SymbolicateCrashReport

/// Collects evidence and knowledge-base entries while the rules run, then builds the diagnosis.
private final class Findings {
    var evidence: [Diagnosis.Evidence] = []
    var entries: [KnowledgeEntry] = []
    var causes: [Diagnosis.Cause] = []
    var steps: [String] = []
    var notes: [String] = []

    func quote(_ field: String, _ text: String?, _ note: String? = nil) {
        guard let text, !text.isEmpty else { return }
        if let existing = evidence.firstIndex(where: { $0.field == field && $0.quote == text }) {
            if let note, evidence[existing].note == nil { evidence[existing].note = note }
            return
        }
        evidence.append(Diagnosis.Evidence(field: field, quote: text, note: note))
    }

    /// Generic entries (the exception type, the signal): cited, and their causes and
    /// steps used only when nothing more specific was found.
    var background: [KnowledgeEntry] = []

    /// Cites `entry`; with `causes`, adds all its causes (the first `causes` as likely)
    /// and its next steps.
    func use(_ entry: KnowledgeEntry?, causes likely: Int? = nil) {
        guard let entry, !entries.contains(entry) else { return }
        entries.append(entry)
        guard let likely else {
            background.append(entry)
            return
        }
        for (index, text) in entry.causes.enumerated() {
            cause(index < likely ? .likely : .possible, text)
        }
        for step in entry.checkNext where !steps.contains(step) { steps.append(step) }
    }

    /// Falls back to the generic entries' causes and steps when no rule added its own.
    func completeFromBackground() {
        if causes.isEmpty {
            for entry in background { for text in entry.causes { cause(.possible, text) } }
        }
        if steps.isEmpty {
            for entry in background { for step in entry.checkNext where !steps.contains(step) { steps.append(step) } }
        }
    }

    func cause(_ likelihood: Diagnosis.Likelihood, _ text: String) {
        if let existing = causes.firstIndex(where: { $0.text == text }) {
            if likelihood == .likely { causes[existing].likelihood = .likely }
            return
        }
        causes.append(Diagnosis.Cause(text, likelihood))
    }

    func step(_ text: String) {
        if !steps.contains(text) { steps.insert(text, at: 0) }
    }
}

/// The rules, in the order the reference's decision hints give (§9): report type, non-fatal
/// notes, non-SIGNAL termination namespaces, then the exception refined by messages, frames
/// and the fault address.
struct Diagnostician {
    let facts: ReportFacts
    let base: KnowledgeBase
    private let found = Findings()

    init(report: CrashReport, reportText: String?, base: KnowledgeBase) {
        facts = ReportFacts(report: report, reportText: reportText)
        self.base = base
    }

    func run() -> Diagnosis {
        let (category, certainty, headline) = classify()
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
        return Diagnosis(category: category, certainty: certainty, headline: headline, isFatal: isFatal,
                         evidence: found.evidence, causes: found.causes, nextSteps: found.steps,
                         references: references, notes: found.notes)
    }

    private var report: CrashReport { facts.report }

    private var resourceIsFatal: Bool {
        if let subtype = facts.subtype, subtype.contains("FATAL") { return true }
        if let action = header("Action taken"), action.lowercased().contains("killed") { return true }
        return false
    }

    private func header(_ key: String) -> String? {
        report.headerFields.first { $0.key == key }?.value
    }

    // MARK: - Classification

    private func classify() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        if let result = classifyReportType() { return result }
        if facts.exceptionLine == nil, facts.namespace == nil {
            if let panic = facts.panicLine {
                found.quote("Panic", panic)
                found.notes.append("A kernel panic is diagnosed from the panic string and the kernel extension backtrace in the report; an app can only trigger one through a driver or OS bug.")
                found.use(base.entries(named: "bug_type 210").first)
                return (.notACrash, .stated, "Kernel panic: the whole system restarted; this is not an app crash report.")
            }
            found.notes.append("The report has no exception or termination information; it may be truncated or a fragment.")
            return (.unknown, .possible, "Not enough information in the report to diagnose a crash.")
        }
        quoteException()
        if facts.isNonFatal {
            found.use(base.entries(named: facts.note ?? "NON-FATAL CONDITION").first)
        }
        if let namespace = facts.namespace, namespace != "SIGNAL", let result = classifyTermination(namespace) {
            return result
        }
        if let result = classifyByMessages() { return result }
        return classifyByException()
    }

    private func quoteException() {
        found.quote("Exception Type", facts.exceptionLine)
        found.quote("Exception Subtype", facts.subtype)
        found.quote("Exception Message", facts.message)
        found.quote("Exception Note", facts.note)
        if let line = facts.terminationLine, facts.namespace != nil { found.quote("Termination Reason", line) }
        for detail in facts.terminationDetails { found.quote("Termination Details", detail) }
    }

    /// Reports that are not crash reports at all (§1.2, §9.1).
    private func classifyReportType() -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
        guard let bugType = report.bugType else {
            return classifyMicrostackshot()
        }
        let entry = base.entries(named: "bug_type \(bugType)").first
        switch bugType {
        case "298":
            found.quote("bug_type", bugType, "jetsam event report")
            found.use(entry)
            found.use(base.namespace("JETSAM"))
            found.step("Find the process entry with a \"reason\" key: that process was killed; its memory is rpages × pageSize")
            found.notes.append("A jetsam event report has no backtraces: it does not show what used the memory.")
            found.notes.append("If your app crashed but the killed process is another one, memory was not the cause of your crash.")
            return (.memoryPressure, .stated, "Jetsam event report: the system killed processes to free memory. This is not a crash report.")
        case "288", "188":
            found.quote("bug_type", bugType, "stackshot")
            found.use(entry ?? base.entries(named: "0xbaaaaaad").first)
            return (.notACrash, .stated, "Stackshot report, not a crash: a snapshot of every process (often taken by pressing buttons by accident).")
        case "210":
            found.quote("bug_type", bugType, "kernel panic")
            found.use(entry)
            return (.notACrash, .stated, "Kernel panic report: the whole system restarted; this is not an app crash.")
        default:
            return classifyMicrostackshot()
        }
    }

    /// `Event: cpu usage` / `Event: disk writes` diagnostic reports (bug_type 145, 202, 206).
    private func classifyMicrostackshot() -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
        guard let event = header("Event") else { return nil }
        found.quote("Event", event)
        found.quote("Action taken", header("Action taken"))
        for key in ["CPU", "Writes", "Wakeups", "Limit", "Duration"] { found.quote(key, header(key)) }
        let lower = event.lowercased()
        let resource = lower.contains("cpu") ? "RESOURCE_TYPE_CPU"
            : lower.contains("disk") || lower.contains("write") ? "RESOURCE_TYPE_IO"
            : lower.contains("wakeup") ? "RESOURCE_TYPE_WAKEUPS" : nil
        found.use(resource.flatMap { base.entries(named: $0).first }, causes: 0)
        if let type = report.bugType { found.use(base.entries(named: "bug_type \(type)").first) }
        let killed = resourceIsFatal
        found.notes.append("This is a sampled diagnostic (microstackshot): the heaviest stacks show where time or writes went.")
        return (.resourceLimit, .stated,
                "Resource report (\(event))" + (killed ? ": the system killed the process for it." : ": a warning; the process was not killed."))
    }

    // MARK: Termination namespaces (§4)

    private func classifyTermination(_ namespace: String) -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
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
                return (.systemTermination, .stated, "The system (\(namespace)) terminated the app with code \(codeText); the code is not in the knowledge base.")
            }
            switch entry.term {
            case "0x8badf00d": return watchdog(allText)
            case "0xc00010ff": return (.thermal, .stated, "Thermal kill (0xc00010ff): the system killed the app because the device was too hot.")
            case "0xdead10cc":
                found.step("Look for the thread writing to a database or file (fsync, sqlite3 commit) when the app was suspended")
                return (.lockedFileAtSuspension, .stated, "Killed for holding a file or database lock while being suspended (0xdead10cc).")
            case "0xbaadca11", "0xbad22222":
                return (.voipPush, .stated, "\(entry.title) (\(entry.term)): the system killed the VoIP app.")
            case "0x2182bad2", "0x2182bad3", "0x2182bad4", "0xc51bad01", "0xc51bad02", "0xc51bad03":
                return (.backgroundTimeLimit, .stated, "\(entry.title) (\(entry.term)): background work ran past its time allowance.")
            case "0x2bad45ec":
                return (.securityViolation, .stated, "Security violation (0x2bad45ec)" + (allText.contains("insecure drawing") ? ": insecure drawing — the app drew on screen while the device was in secure (locked) mode." : "."))
            default:
                return (.systemTermination, .stated, "\(entry.title) (\(entry.term)): the system terminated the app.")
            }
        case "DYLD":
            for entry in base.entries(matchingText: allText, kinds: [.dyldError]) { found.use(entry) }
            for line in (facts.terminationDetails + facts.asiLines) where line.contains("Library not loaded") || line.contains("Symbol not found") || line.contains("Referenced from") {
                found.quote("dyld", line)
            }
            let what = codeEntries.first?.title.lowercased() ?? "dyld failure"
            found.notes.append("dyld failed before the app's code ran: the backtrace is not the cause.")
            return (.missingLibrary, .stated, "The app could not launch: dyld reported \"\(what)\" (DYLD \(code.map(String.init) ?? "?")).")
        case "CODESIGNING":
            return (.codeSigning, .stated, "The kernel killed the process because a code signature did not validate (CODESIGNING \(code.map(String.init) ?? "?")\(codeEntries.first.map { ", \($0.title.lowercased())" } ?? "")).")
        case "TCC":
            let key = firstMatch(#"(NS[A-Za-z]+UsageDescription)"#, in: allText)?.first ?? nil
            if let key {
                found.cause(.likely, "The Info.plist of the target that accessed the data has no \(key) (the report names the key)")
                found.step("Add \(key) with a user-facing explanation to the Info.plist of the target that accessed the data")
            } else {
                found.notes.append("The report does not name the missing usage-description key; look for a privacy-protected API (camera, microphone, photos, contacts, location) called just before the crash.")
            }
            return (.privacyViolation, .stated, "Privacy violation: the app accessed protected data without a usage description" + (key.map { " (\($0) is missing)" } ?? "") + ".")
        case "GUARD":
            if let code {
                found.quote("Decoded guard code", GuardCode(code).summary)
            }
            return classifyGuard()
        case "JETSAM":
            let reason = codeEntries.first?.term ?? "code \(codeText)"
            return (.memoryPressure, .stated, "The system killed the process for memory (jetsam reason \(reason)).")
        case "LIBSYSTEM":
            let assertion = facts.asiLines.first { $0.localizedCaseInsensitiveContains("assert") }
            for line in facts.asiLines { found.quote("Application Specific Information", line) }
            let what = codeEntries.first?.title ?? "a libsystem fault"
            if let assertion {
                found.cause(.likely, "A system-library assertion failed: \(assertion)")
            }
            return (.libsystemFault, .stated, "A system library aborted the process: \(what) (LIBSYSTEM \(code.map(String.init) ?? "?"))" + (assertion.map { " — \($0)" } ?? "") + ".")
        case "LIBXPC" where code == 3:
            return (.watchdog, .stated, "The app extension took too long to initialize (LAUNCH_HANG) and was terminated.")
        default:
            guard let namespaceEntry else {
                found.notes.append("Termination namespace \(namespace) is not in the knowledge base.")
                return nil
            }
            return (.systemTermination, .stated, "\(namespaceEntry.title): the \(namespace) component terminated the process (code \(codeText)).")
        }
    }

    /// 0x8badf00d: quote the watchdog text and the main thread, which is what it waited for.
    private func watchdog(_ text: String) -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        let event = firstMatch(#"(scene-create|scene-update|process-exit|process-launch|[a-z-]+) watchdog transgression"#, in: text)?.first ?? nil
        let allowance = firstMatch(#"allowance of ([0-9.]+) seconds"#, in: text)?.first ?? nil
        // CPU used by the app during the allowance tells busy from blocked (A-WD).
        var busy: Bool?
        if let cpuText = firstMatch(#"Elapsed application CPU time \(seconds\): ([0-9.]+)"#, in: text)?.first ?? nil,
           let cpu = Double(cpuText), let wall = allowance.flatMap(Double.init), wall > 0 {
            busy = cpu / wall >= 0.5 ? true : cpu / wall <= 0.2 ? false : nil
            let share = Int((cpu / wall * 100).rounded())
            found.quote("Watchdog CPU", "Elapsed application CPU time (seconds): \(cpuText) of a \(wall)-second allowance (\(share)%)",
                        busy == true ? "the app was computing most of the time" : busy == false ? "the app was mostly waiting" : nil)
        }
        if busy == true {
            found.cause(.likely, "Long-running work on the main thread (the app used most of the allowance as CPU time)")
        } else if busy == false {
            found.cause(.likely, "The main thread was blocked waiting (little CPU used): a lock, semaphore, synchronous network or IPC call")
        }
        if let main = facts.mainThread {
            let top = main.frames.prefix(4)
            for frame in top { found.quote("Thread \(main.index) (main thread) frame \(frame.index)", frame.evidenceText) }
            let names = top.flatMap(\.functionNames).joined(separator: " ")
            let blocking = ["semaphore_wait", "__ulock_wait", "_dispatch_sync_f_slow", "__psynch_mutexwait", "__psynch_cvwait",
                            "mach_msg", "dispatch_group_wait", "CFURLConnectionSendSynchronousRequest", "sendSynchronousRequest"]
            if let hit = blocking.first(where: { names.contains($0) }) {
                found.cause(busy == true ? .possible : .likely, "The main thread was blocked waiting (\(hit) at the top of its stack): a lock, semaphore, synchronous call or IPC")
            } else if !top.isEmpty, busy != false {
                found.cause(busy == true ? .likely : .possible, "The main thread was busy running code (no waiting call at the top of its stack); the frames show what it was doing at the moment of the kill")
            }
        } else {
            found.notes.append("The report has no main-thread backtrace to show what the watchdog waited for.")
        }
        let phase = event.map { " during \($0)" } ?? ""
        return (.watchdog, .stated,
                "Watchdog timeout (0x8badf00d): the app did not respond\(phase)" + (allowance.map { " within \($0) seconds" } ?? "") + " and was killed.")
    }

    // MARK: Messages (ASI, exception reasons) — §6, §7

    private func classifyByMessages() -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
        let lines = facts.asiLines + [facts.message].compactMap { $0 }
        // Uncaught Objective-C exception with name and reason.
        for line in lines {
            guard let match = firstMatch(#"uncaught exception '([^']+)', reason: '(.*)'"#, in: line),
                  let name = match[0] else { continue }
            found.quote("Application Specific Information", line)
            return objcException(name: name, reason: match[1])
        }
        // C assert(): "Assertion failed: (cond), function f, file F, line N."
        for line in lines where firstMatch(#"Assertion failed: .*, function .*, file .*, line [0-9]+"#, in: line) != nil {
            found.quote("Application Specific Information", line)
            quoteFrames(matching: ["__assert_rtn"], limit: 1)
            quoteFirstAppFrame()
            found.cause(.likely, "An assert() condition in C, C++ or Objective-C code was false at runtime")
            found.step("Read the condition, function, file and line in the message and find why it did not hold")
            return (.assertionFailure, .stated, "An assertion failed: \(line)")
        }
        // Swift runtime and concurrency messages.
        for line in lines {
            let entries = base.entries(matchingText: line, kinds: [.swiftRuntimeMessage, .concurrencyMessage])
            guard let entry = entries.first else { continue }
            found.quote("Application Specific Information", line)
            found.use(entry, causes: 0)
            found.cause(.likely, "\(entry.title) — the report's own message says so")
            if entry.kind == .concurrencyMessage {
                quoteTopFrames(count: 3)
                return (.dispatchMisuse, .stated, "\(entry.title): \(line)")
            }
            quoteSwiftFrames()
            found.use(base.entries(named: facts.exceptionType ?? "EXC_BREAKPOINT").first)
            return (.swiftRuntimeError, .stated, "Swift runtime error — \(entry.title.lowercased()): \(line)")
        }
        // Uncaught C++ exception (NSException escaping through libc++abi is handled above or below).
        for line in lines {
            guard let match = firstMatch(#"terminat\w+ (?:due to|with) uncaught exception of type (.+?)(?:: (.*))?$"#, in: line),
                  let type = match[0]?.trimmingCharacters(in: .whitespaces) else { continue }
            found.quote("Application Specific Information", line)
            if type == "NSException" { return objcException(name: nil, reason: nil) }
            found.use(base.entries(named: "terminating due to uncaught exception of type").first, causes: 1)
            quoteTopFrames(count: 6)
            return (.uncaughtCppException, .stated, "Uncaught C++ exception of type \(type)" + (match[1].flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "") + ".")
        }
        // assert() / stack canary / malloc.
        for line in lines {
            if line.hasPrefix("Assertion failed:") || line.contains("assertion failure") {
                found.quote("Application Specific Information", line)
                quoteFrames(matching: ["__assert_rtn", "assert"], limit: 1)
                quoteFirstAppFrame()
                found.cause(.likely, "An assert() condition in the code was false at runtime")
                found.step("Read the condition and the file/line in the message; find why it did not hold")
                return (.assertionFailure, .stated, "An assertion failed: \(line)")
            }
            if let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
               ["__stack_chk_fail", "pointer being freed was not allocated"].contains(entry.term) {
                found.quote("Application Specific Information", line)
                found.use(entry)
                return (.memoryCorruption, .stated, "\(entry.title): \(line)")
            }
        }
        if let lastException = report.lastExceptionBacktrace, !lastException.frames.isEmpty {
            return objcException(name: nil, reason: nil)
        }
        return nil
    }

    private func objcException(name: String?, reason: String?) -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        found.use(base.entries(named: "Terminating app due to uncaught exception").first)
        if let name { found.use(base.entry(name, kind: .objcException), causes: 0) }
        if let reason {
            if reason.contains("unrecognized selector sent to") {
                found.use(base.entries(named: "doesNotRecognizeSelector:").first)
                found.cause(.likely, "A message was sent to an object of the wrong class (the reason names the class and selector)")
                found.cause(.possible, "The receiver was deallocated and its memory reused by another object (a zombie)")
            } else if reason.contains("cannot be nil") || reason.contains("nil value") || reason.contains("attempt to insert nil") {
                found.cause(.likely, "nil was passed where an object is required (e.g. inserted into an NSArray/NSDictionary)")
            } else if reason.contains("beyond bounds") || reason.contains("out of bounds") {
                found.cause(.likely, "An index or range past the end of a collection")
            } else if reason.contains("was mutated while being enumerated") {
                found.cause(.likely, "A collection was modified while it was being enumerated")
            } else if reason.contains("not key value coding-compliant") {
                found.cause(.likely, "A stale outlet or key-value binding to a key the class does not have")
            }
        }
        quoteLastExceptionBacktrace()
        if name == nil, report.lastExceptionBacktrace == nil {
            quoteTopFrames(count: 8)
        }
        let describedName = name.map { " \($0)" } ?? ""
        let describedReason = reason.map { ": \($0)" } ?? ""
        if name == nil {
            found.notes.append("The exception name and reason are not in this report (Application Specific Information is missing or elided).")
        }
        return (.uncaughtObjCException, name == nil ? .likely : .stated,
                "Uncaught Objective-C exception\(describedName)\(describedReason)" + (name == nil ? " (likely: the report has an exception backtrace but no message)." : ""))
    }

    // MARK: Exception types — §3

    private func classifyByException() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        let type = facts.exceptionType
        let signal = facts.signal
        found.use(type.flatMap { base.entry($0, kind: .exceptionType) })
        if let signal, let entry = base.entry(signal.components(separatedBy: " ").first ?? signal, kind: .signal) {
            found.use(entry)
        }

        if let frameResult = classifyBySwiftFrames() { return frameResult }

        switch (type, signal) {
        case ("EXC_BAD_ACCESS", _), (nil, "SIGSEGV"), (nil, "SIGBUS"):
            return badAccess()
        case ("EXC_BREAKPOINT", _):
            return breakpoint()
        case ("EXC_BAD_INSTRUCTION", _), (nil, "SIGILL"):
            return badInstruction()
        case ("EXC_ARITHMETIC", _), (nil, "SIGFPE"):
            quoteTopFrames(count: 2)
            return (.arithmetic, .likely, "Arithmetic fault (SIGFPE): most likely an integer division by zero in C-family code.")
        case ("EXC_GUARD", _):
            return classifyGuard()
        case ("EXC_RESOURCE", _):
            return resource()
        case ("EXC_CRASH", "SIGABRT"), (nil, "SIGABRT"):
            return abort()
        case ("EXC_CRASH", "SIGKILL"), (nil, "SIGKILL"):
            found.notes.append("No termination namespace or code explains the kill; backtraces of a killed process usually show whatever was running, not a cause.")
            return (.killed, .stated, "The process was killed (SIGKILL) by the system or another process; the report gives no reason code.")
        case ("EXC_CRASH", "SIGTERM"), ("EXC_CRASH", "SIGTRM"), ("EXC_CRASH", "SIGQUIT"), (nil, "SIGTERM"), (nil, "SIGQUIT"):
            return (.terminated, .stated, "The process was asked to terminate (\(signal ?? "")) by another process; this is not a bug in the crashing code itself.")
        case ("EXC_CRASH", "SIGSYS"):
            quoteTopFrames(count: 3)
            return (.illegalInstruction, .stated, "Bad system call (SIGSYS): the process made a system call that does not exist.")
        case ("EXC_CRASH", let signal?):
            return raisedSignal(signal)
        default:
            if let signal, signal.contains("Code Signature") { return codeSignature() }
            quoteTopFrames(count: 3)
            return (.unknown, .possible, "Crash of type \(facts.exceptionLine ?? "unknown"); the knowledge base has no specific rule for it.")
        }
    }

    /// Artificial `Swift runtime failure:` frames and Swift runtime entry points in the crashed thread.
    private func classifyBySwiftFrames() -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
        guard let thread = facts.crashedThread else { return nil }
        for frame in thread.frames.prefix(6) {
            for name in frame.functionNames {
                guard let range = name.range(of: "Swift runtime failure: ") else { continue }
                let reason = String(name[range.upperBound...])
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "artificial frame naming the failed Swift check")
                found.use(base.entries(named: "Swift runtime failure").first)
                if let entry = base.entries(matchingText: reason, kinds: [.swiftRuntimeMessage]).first {
                    found.use(entry, causes: 0)
                    found.cause(.likely, "\(entry.title) — named by the symbolicated frame")
                }
                if let levels = frame.symbolication,
                   let site = levels.first(where: { !$0.function.hasPrefix("Swift runtime failure") && $0.file.map { !$0.contains("<compiler-generated>") } == true && ($0.line ?? 0) > 0 }),
                   let file = site.file, let line = site.line {
                    found.step("Open \((file as NSString).lastPathComponent):\(line) (\(site.function)): the failed check is on that line")
                }
                quoteFirstAppFrame()
                return (.swiftRuntimeError, .stated, "Swift runtime error: \(reason).")
            }
        }
        // libc++ hardening: the failed assertion is the name of an artificial inlined frame.
        for frame in thread.frames.prefix(3) {
            for name in frame.functionNames {
                guard let match = firstMatch(#"assertion (.+) failed: (.+)$"#, in: name), let what = match[1] else { continue }
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "artificial frame naming the failed library assertion")
                found.use(base.entries(named: "libc++ assertion").first, causes: 1)
                if let caller = thread.frames.first(where: { $0.index > frame.index && !$0.functionNames.isEmpty }) {
                    found.quote("Thread \(thread.index) frame \(caller.index)", caller.evidenceText, "the call that failed the check")
                }
                return (.assertionFailure, .stated, "A C++ standard-library hardening assertion failed (\(match[0] ?? "")): \(what).")
            }
        }
        for frame in thread.frames.prefix(6) {
            let names = frame.functionNames.joined(separator: " ")
            if names.contains("swift_unexpectedError") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "called when a try! expression throws")
                found.use(base.entries(named: "swift_unexpectedError").first)
                found.use(base.entries(named: "'try!' expression unexpectedly raised an error").first)
                quoteFirstAppFrame()
                return (.swiftRuntimeError, .likely, "Swift runtime error: a try! call threw an error (swift_unexpectedError).")
            }
            if names.contains("swift_abortRetainUnowned") || names.contains("swift_unknownObjectUnownedLoadStrong") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "unowned reference check")
                found.use(base.entries(named: "Attempted to read an unowned reference but object was already deallocated").first, causes: 1)
                quoteFirstAppFrame()
                return (.swiftRuntimeError, .likely, "Swift runtime error: an unowned reference was read after its object was deallocated.")
            }
            if names.contains("_dispatch_assert_queue_fail") {
                found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText, "dispatch queue assertion")
                found.use(base.entries(named: "Block was expected to execute on queue").first)
                quoteFirstAppFrame()
                return (.dispatchMisuse, .likely, "A closure that must run on a specific queue (usually the main queue) was called from another queue.")
            }
        }
        return nil
    }

    private func breakpoint() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        guard let thread = facts.crashedThread else {
            return (.swiftTrap, .possible, "Trace trap (EXC_BREAKPOINT): a deliberate crash; the report has no crashed-thread backtrace to say which check failed.")
        }
        let top = thread.frames.prefix(3)
        for frame in top { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        let topImage = top.first?.imageName ?? ""
        let names = thread.frames.prefix(4).flatMap(\.functionNames).joined(separator: " ")
        if topImage.hasPrefix("libdispatch") {
            found.use(base.entries(named: "BUG IN CLIENT OF LIBDISPATCH").first)
            found.notes.append("The message libdispatch leaves in Application Specific Information is missing from this report.")
            return (.dispatchMisuse, .likely, "libdispatch stopped the process in \(top.first?.functionNames.first ?? "its code"): likely a Dispatch API misuse (BUG IN CLIENT OF LIBDISPATCH).")
        }
        if topImage.hasPrefix("libswiftCore") || names.contains("_assertionFailure") || names.contains("fatalError") {
            found.use(base.entries(named: "_assertionFailure").first)
            quoteFirstAppFrame()
            found.notes.append("The Swift error message is not in this report; it is usually in Application Specific Information or, for optimized builds, in a 'Swift runtime failure' frame visible after symbolication.")
            found.cause(.likely, "A Swift standard-library check or fatalError/precondition failed (nil unwrap, index out of range, overflow, failed cast…)")
            return (.swiftTrap, .likely, "A Swift runtime check stopped the program (trap in \(top.first?.functionNames.first ?? "libswiftCore")); the message is not in the report.")
        }
        if let first = top.first, first.isCFamily {
            found.cause(.likely, "An explicit trap in C, C++ or Objective-C code (__builtin_trap(), a trap macro) or a compiler-inserted trap (unreachable code, -fsanitize=…-trap)")
            found.cause(.possible, "A breakpoint instruction left in the code (e.g. a debugger-only macro)")
            found.step("Open \(first.sourceLocation ?? "the crashing function") and look for a trap, assertion macro or code the compiler proved unreachable")
            return (.explicitTrap, .likely, "Trace trap in C-family code (\(first.functionNames.first ?? "?")\(first.sourceLocation.map { ", \($0)" } ?? "")): an explicit or compiler-inserted trap instruction.")
        }
        quoteFirstAppFrame()
        found.cause(.likely, "A Swift runtime check inlined into the crashing function (force unwrap of nil, index out of range, arithmetic overflow, failed as!), or fatalError/precondition")
        found.cause(.possible, "An explicit trap (__builtin_trap, brk) in C-family code or a debugger breakpoint instruction left in the binary")
        found.step("Symbolicate frame 0 with the app's dSYM: optimized Swift builds name the failed check in a 'Swift runtime failure: …' frame")
        let place = top.first.map { " in \($0.imageName ?? "?")" } ?? ""
        return (.swiftTrap, .likely, "Trace trap\(place): most likely a failed Swift runtime check or fatalError; symbolicate frame 0 to see which.")
    }

    private func badInstruction() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        let isIntel = ["x86_64", "x86_64h", "i386"].contains(facts.architecture ?? "")
        quoteTopFrames(count: 3)
        quoteFirstAppFrame()
        if facts.isTranslated {
            found.quote("Code Type", report.codeType, "x86_64 code running under Rosetta")
            found.cause(.likely, "An instruction Rosetta does not translate (for example AVX) in the crashing code")
            found.cause(.possible, "A failed Swift runtime check or fatalError (ud2) in x86_64 code")
            return (.illegalInstruction, .likely, "Illegal instruction in an x86_64 process translated by Rosetta: likely an unsupported instruction (such as AVX), or a Swift trap.")
        }
        if isIntel {
            found.quote("Code Type", report.codeType, "on x86_64 Swift traps are illegal instructions (ud2)")
            found.cause(.likely, "A failed Swift runtime check (nil unwrap, index out of range, overflow, failed cast) or fatalError/precondition")
            found.cause(.possible, "A jump into data through a corrupted function pointer")
            found.step("Symbolicate frame 0 with the dSYM to find the failed check and its line")
            return (.swiftTrap, .likely, "Illegal instruction on x86_64: most likely a Swift runtime check or fatalError (they trap with ud2 on Intel).")
        }
        found.cause(.likely, "A jump into data through a corrupted function pointer or return address")
        found.cause(.possible, "A corrupted code page or an instruction the CPU does not support")
        return (.illegalInstruction, .likely, "Illegal instruction on ARM: the CPU met an undefined instruction, usually after jumping through a bad pointer.")
    }

    private func codeSignature(_ certainty: Diagnosis.Certainty = .stated) -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        found.use(base.entries(named: "KERN_CODESIGN_ERROR").first, causes: 0)
        found.use(base.namespace("CODESIGNING"))
        quoteTopFrames(count: 3)
        if let dlopen = facts.asiLines.firstIndex(where: { $0.contains("dlopen") }) {
            for line in facts.asiLines[dlopen...].prefix(2) { found.quote("Application Specific Information", line) }
            found.cause(.likely, "A library or plug-in loaded with dlopen() whose pages fail signature validation (modified after signing, or rejected by library validation)")
        }
        return (.codeSigning, certainty, "Code signature invalid: the kernel refused a memory page whose code signature did not validate.")
    }

    private func badAccess() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        if let signal = facts.signal, signal.contains("Code Signature") || signal.contains("CODESIGNING") { return codeSignature() }
        let fault = facts.faultDescription
        if let fault {
            found.quote(fault.field, fault.quote)
            if fault.name == "UNKNOWN_0x32" || fault.name == "KERN_CODESIGN_ERROR" {
                found.notes.append("Code 0x32 (50) is KERN_CODESIGN_ERROR in xnu's kern_return.h; this report printed it as \(fault.name).")
                return codeSignature(fault.name == "KERN_CODESIGN_ERROR" ? .stated : .likely)
            }
            if ["EXC_ARM_DA_ALIGN", "BUS_ADRALN", "EXC_ARM_SP_ALIGN"].contains(fault.name) {
                found.use(base.entries(named: fault.name).first, causes: 0)
                quoteTopFrames(count: 2)
                quoteFirstAppFrame()
                return (.badMemoryAccess, .stated, "Misaligned memory access (\(fault.name)) at \(hex(fault.address)): a load or store at an address the instruction cannot use — often a garbage pointer or a packed structure.")
            }
            found.use(base.entries(named: fault.name).first)
        } else if let codes = facts.codes {
            found.quote("Exception Codes", codes)
            found.use(base.entries(named: codes).first)
        }
        let thread = facts.crashedThread
        let top = thread?.frames.first
        if let thread, let top { found.quote("Thread \(thread.index) frame \(top.index)", top.evidenceText) }
        if let overflow = recursion() { return overflow }
        if let message = facts.message, let entry = base.entries(matchingText: message, kinds: [.faultPattern]).first, entry.term == "STACK_OVERFLOW" {
            found.use(entry, causes: 1)
            return (.stackOverflow, .stated, "Stack overflow: \(message)")
        }
        let kind = fault.map { FaultAddress(address: $0.address, stripped: $0.stripped) }
        if let fault, let kind {
            found.quote("Fault address", FaultAddress.describe(kind, address: fault.address))
        }
        let topNames = top?.functionNames.joined(separator: " ") ?? ""
        let inObjCRuntime = ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "objc_storeStrong"].contains { topNames.contains($0) }
        switch kind {
        case .objcConcurrentAccess?:
            found.use(base.entries(named: "0xbad0").first, causes: 1)
            return (.objcConcurrentPropertyAccess, .likely, "Objective-C property accessed from two threads at once: the runtime's deliberate crash at an address ending in bad0.")
        case .highBits(let stripped)?:
            found.use(base.entries(named: "POINTER_AUTHENTICATION_FAILURE").first, causes: 1)
            let pac = facts.subtype?.contains("pointer authentication") ?? false
            return (.pointerAuthentication, pac ? .stated : .possible,
                    pac ? "Pointer authentication failure (arm64e): a signed pointer did not authenticate\(stripped.map { "; stripped address \(hex($0))" } ?? "") — a corrupted or freed pointer."
                        : "Bad access through a pointer with high bits set: a corrupted or uninitialised pointer (possibly a pointer-authentication failure).")
        case .null?, .nearNull?:
            found.use(base.entries(named: "NULL_POINTER_DEREFERENCE").first, causes: 0)
            quoteFirstAppFrame()
            // pc equal to the fault address means the CPU tried to execute there (A-MEM).
            if let fault, let pc = facts.programCounter {
                if pc == (fault.stripped ?? fault.address) {
                    found.quote("Register pc", hex(pc), "equal to the fault address: an instruction fetch")
                    found.cause(.likely, "Calling through a nil function pointer, block or method implementation")
                } else {
                    let isNull = fault.stripped ?? fault.address == 0
                    found.cause(.likely, isNull ? "Dereferencing a nil pointer" : "Reading a member of a nil object or struct pointer")
                }
            } else {
                found.cause(.likely, "Reading a member of a nil object or struct pointer")
            }
            let address = fault.map { hex($0.stripped ?? $0.address) } ?? "0x0"
            if case .null? = kind {
                return (.nilDereference, .likely, "nil pointer dereference: the code read or called through a NULL pointer (address 0x0).")
            }
            return (.nilDereference, .likely, "Likely a member of a nil object or struct pointer was read: the fault address \(address) is a small offset from NULL.")
        default:
            break
        }
        if inObjCRuntime {
            found.use(base.entries(named: "objc_msgSend").first, causes: 1)
            if let selector = facts.asiLines.first(where: { $0.contains("selector name:") }) {
                found.quote("Application Specific Information", selector, "the message being sent when it crashed")
            }
            quoteFirstAppFrame()
            return (.zombieObject, .likely, "Crash in \(top?.functionNames.first ?? "the Objective-C runtime"): likely a message sent to an over-released (deallocated) object.")
        }
        if facts.codes?.contains("EXC_I386_GPFLT") == true {
            found.use(base.entries(named: "EXC_I386_GPFLT").first, causes: 2)
            quoteFirstAppFrame()
            return (.badMemoryAccess, .likely, "General protection fault (x86): a garbage or non-canonical pointer was dereferenced; the address is not reported.")
        }
        quoteFirstAppFrame()
        found.cause(.likely, "A dangling pointer to freed memory (use-after-free) or an out-of-bounds access")
        found.cause(.possible, "Memory corruption that happened earlier, elsewhere")
        let address = fault.map { " at \(hex($0.stripped ?? $0.address))" } ?? ""
        return (.badMemoryAccess, .likely, "Bad memory access\(address): an invalid pointer was dereferenced (not nil: likely freed or out-of-bounds memory).")
    }

    /// Deep recursion: a long crashed-thread stack dominated by one repeating frame.
    private func recursion() -> (Diagnosis.Category, Diagnosis.Certainty, String)? {
        guard let thread = facts.crashedThread, thread.frames.count >= 128 else { return nil }
        var counts: [String: Int] = [:]
        for frame in thread.frames {
            let key = frame.functionNames.first ?? "\(frame.imageName ?? "?")+\(frame.imageOffset.map { String($0) } ?? String(frame.address))"
            counts[key, default: 0] += 1
        }
        guard let (function, count) = counts.max(by: { $0.value < $1.value }), count * 4 >= thread.frames.count else { return nil }
        found.quote("Thread \(thread.index)", "\(thread.frames.count) frames; \(function) appears \(count) times", "a repeating frame: recursion")
        found.use(base.entries(named: "STACK_OVERFLOW").first, causes: 1)
        return (.stackOverflow, .likely, "Stack overflow: the crashed thread has \(thread.frames.count) frames, \(count) of them \(function) — unbounded recursion.")
    }

    private func abort() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        found.use(base.entries(named: "abort() called").first)
        for line in facts.asiLines { found.quote("Application Specific Information", line) }
        guard let thread = facts.crashedThread else {
            return (.abort, .possible, "The process aborted (SIGABRT); the report has no crashed-thread backtrace to say why.")
        }
        let names = thread.frames.prefix(12).map { $0.functionNames.joined(separator: " ") }
        if let index = names.firstIndex(where: { $0.contains("_objc_terminate") || $0.contains("objc_exception_rethrow") }) {
            found.quote("Thread \(thread.index) frame \(thread.frames[index].index)", thread.frames[index].evidenceText, "the Objective-C exception handler called abort")
            return objcException(name: nil, reason: nil)
        }
        if let index = names.firstIndex(where: { $0.contains("__stack_chk_fail") || $0.contains("malloc_error_break") || $0.contains("BUG_IN_CLIENT_OF_LIBMALLOC") }) {
            found.quote("Thread \(thread.index) frame \(thread.frames[index].index)", thread.frames[index].evidenceText)
            found.use(base.entries(matchingText: names[index], kinds: [.applicationSpecificMessage]).first)
            return (.memoryCorruption, .likely, "Memory corruption detected (\(names[index].split(separator: " ").first ?? "")): the process aborted itself.")
        }
        if let index = names.firstIndex(where: { $0.contains("__assert_rtn") || $0 == "assert" }) {
            found.quote("Thread \(thread.index) frame \(thread.frames[index].index)", thread.frames[index].evidenceText, "assert() failed")
            quoteFirstAppFrame()
            found.cause(.likely, "An assert() condition was false; the calling frame is the assertion site")
            found.notes.append("The assertion message is not in this report's Application Specific Information.")
            return (.assertionFailure, .likely, "An assert() failed (__assert_rtn called abort).")
        }
        if let index = names.firstIndex(where: { $0.contains("__cxa_throw") || $0.contains("std::terminate") || $0.contains("demangling_terminate_handler") }) {
            found.quote("Thread \(thread.index) frame \(thread.frames[index].index)", thread.frames[index].evidenceText)
            found.use(base.entries(named: "terminating due to uncaught exception of type").first, causes: 1)
            return (.uncaughtCppException, .likely, "Likely an uncaught C++ exception: the C++ terminate handler called abort.")
        }
        // A library explained itself in Application Specific Information.
        for line in facts.asiLines {
            guard let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                  entry.term != "abort() called" else { continue }
            found.use(entry, causes: 1)
            quoteTopFrames(count: 4)
            return (entry.term == "multi-threaded process forked" ? .abort : .memoryCorruption, .stated, "\(entry.title): \(line)")
        }
        // Explicit abort: name the first frame after the abort machinery.
        let machinery = ["__pthread_kill", "pthread_kill", "abort", "__abort", "raise", "__pthread_sigmask"]
        let caller = thread.frames.first { frame in
            let name = frame.functionNames.first ?? ""
            return !machinery.contains(name) && !(frame.imageName ?? "").hasPrefix("libsystem_")
        }
        for frame in thread.frames.prefix(3) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        if let caller {
            found.quote("Thread \(thread.index) frame \(caller.index)", caller.evidenceText, "first frame after abort(): the caller")
        }
        found.cause(.likely, "Code in \(caller?.imageName ?? "the process") called abort() deliberately (a failed check or an unrecoverable error path)")
        found.cause(.possible, "An uncaught exception whose message was not recorded")
        found.step("Symbolicate the frame that called abort() and read the code path that leads there")
        return (.abort, .likely, "The process called abort()" + (caller.map { " from \($0.imageName ?? "?")" } ?? "") + "; no exception or message explains it.")
    }

    /// EXC_CRASH wrapping a fault signal (e.g. a process that called raise(SIGSEGV)).
    private func raisedSignal(_ signal: String) -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        guard let thread = facts.crashedThread else {
            return (.signalRaised, .possible, "The process died from \(signal) delivered as EXC_CRASH (not a hardware fault).")
        }
        let raise = thread.frames.prefix(6).first { ["raise", "kill", "pthread_kill", "__pthread_kill"].contains($0.functionNames.first ?? "") && $0.functionNames.first != "__pthread_kill" }
        for frame in thread.frames.prefix(4) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
        quoteFirstAppFrame()
        if raise != nil {
            found.cause(.likely, "The code sent \(signal) to itself with raise()/kill(); it is not a memory fault")
            return (.signalRaised, .likely, "The process raised \(signal) itself (raise/pthread_kill in the crashed thread), delivered as EXC_CRASH — not a hardware fault.")
        }
        return (.signalRaised, .possible, "The process died from \(signal) delivered as EXC_CRASH (software-generated, not a hardware fault).")
    }

    private func classifyGuard() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        let typeName = facts.subtype ?? facts.terminationCode.flatMap { GuardCode($0).typeName }
        found.use(base.entries(named: "EXC_GUARD").first)
        found.use(typeName.flatMap { base.entries(named: $0).first }, causes: 0)
        quoteTopFrames(count: 4)
        let detail = facts.message.map { ": \($0)" } ?? ""
        let what = typeName == "GUARD_TYPE_FD" ? "a guarded file descriptor was misused" : typeName == "GUARD_TYPE_MACH_PORT" ? "a Mach port right was misused" : "a guarded resource was misused"
        let prefix = facts.isNonFatal ? "Not a crash (simulated report): " : ""
        return (.guardViolation, .stated, prefix + "Guard violation (\(typeName ?? "EXC_GUARD")) — \(what)\(detail).")
    }

    private func resource() -> (Diagnosis.Category, Diagnosis.Certainty, String) {
        let subtype = facts.subtype ?? ""
        let entry = base.entries(named: subtype).first { $0.kind == .resourceType }
        found.use(entry, causes: 0)
        quoteTopFrames(count: 3)
        let fatal = resourceIsFatal
        if !fatal { found.notes.append("EXC_RESOURCE \(subtype) is a warning: the process kept running unless the report says otherwise.") }
        return (.resourceLimit, .stated, "Resource limit exceeded (\(subtype.isEmpty ? "EXC_RESOURCE" : subtype))" + (facts.message.map { ": \($0)" } ?? "") + (fatal ? "; the process was killed." : "."))
    }

    // MARK: Evidence helpers

    private func quoteTopFrames(count: Int) {
        guard let thread = facts.crashedThread else { return }
        for frame in thread.frames.prefix(count) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
    }

    private func quoteFrames(matching needles: [String], limit: Int) {
        guard let thread = facts.crashedThread else { return }
        let hits = thread.frames.prefix(12).filter { frame in
            frame.functionNames.contains { name in needles.contains { name.contains($0) } }
        }
        for frame in hits.prefix(limit) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
    }

    /// Swift runtime frames plus the first app frame (the failed check's caller).
    private func quoteSwiftFrames() {
        quoteFrames(matching: ["Swift runtime failure", "_assertionFailure", "fatalError", "swift_unexpectedError"], limit: 2)
        quoteFirstAppFrame()
    }

    /// The first crashed-thread frame in an app-owned image: where to start reading code.
    private func quoteFirstAppFrame() {
        guard let thread = facts.crashedThread else { return }
        let appFrame = thread.frames.prefix(32).first { frame in
            frame.imageIndex.map { report.binaryImages.indices.contains($0) && report.binaryImages[$0].isAppOwned } ?? false
        }
        if let appFrame {
            found.quote("Thread \(thread.index) frame \(appFrame.index)", appFrame.evidenceText, "first frame in the app's own code")
        }
    }

    private func quoteLastExceptionBacktrace() {
        guard let frames = report.lastExceptionBacktrace?.frames, !frames.isEmpty else { return }
        for frame in frames.prefix(3) { found.quote("Last Exception Backtrace frame \(frame.index)", frame.evidenceText) }
        let appFrame = frames.first { frame in
            frame.imageIndex.map { report.binaryImages.indices.contains($0) && report.binaryImages[$0].isAppOwned } ?? false
        }
        if let appFrame {
            found.quote("Last Exception Backtrace frame \(appFrame.index)", appFrame.evidenceText, "first frame in the app's own code: the call that threw")
        }
        if frames.contains(where: { $0.functionNames.contains { $0.contains("doesNotRecognizeSelector") } }) {
            found.use(base.entries(named: "doesNotRecognizeSelector:").first)
            found.cause(.likely, "An unrecognized selector: the message's receiver has the wrong class (or was deallocated and its memory reused)")
        }
    }
}
