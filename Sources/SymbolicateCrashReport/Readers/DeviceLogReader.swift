import Foundation
import SymbolicateCore

/// Device and sysdiagnose log lines pasted as they are (Console.app, `log show`, idevicesyslog):
/// the kernel's jetsam and memory-limit lines, RunningBoard's and FrontBoard's terminations and
/// exits, watchdog kills and "exited due to signal" lines. Whatever precedes the message on a
/// line (timestamp, host, sender, subsystem) is not read: each line is searched for the few
/// messages below, spelled as the system prints them.
///
/// The text is read as a termination: the lines' facts go into `CrashReport.logEvents` (typed,
/// one per line), and the report's own fields (process, exception, termination, kind) are set
/// from the most decisive of them, so `explain` reads it through the termination and jetsam
/// rules every other layout uses. A log has no backtraces, so the report is marked partial.
package enum DeviceLogReportReader: ReportReader {
    /// The lines that carry a fact; nil when there is none, or when the text is a crash report
    /// (one that quotes a log in `Filtered syslog:` is read as the report it is).
    package static func detect(_ document: TextDocument) -> [DeviceLogEvent]? {
        var events: [DeviceLogEvent] = []
        for (offset, line) in document.lines.enumerated() {
            if AppleReportLine.starts(line.text) { return nil }
            if let event = DeviceLogLine.event(line.text, line: offset + 1) { events.append(event) }
        }
        return events.isEmpty ? nil : events
    }

    package static func read(_ document: TextDocument, evidence: [DeviceLogEvent], path: String) throws(CrashReportError) -> [CrashReport] {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        report.logEvents = evidence
        DeviceLogLine.applyFacts(evidence, to: &report)
        report.completeness = .partial([.noThreads, .noBinaryImages])
        let subject = report.processName ?? report.bundleIdentifier ?? "the process"
        report.warnings.append(
            ParseWarning(
                path: path, line: evidence.first?.line,
                message:
                    "read as device log lines (\(evidence.count) with a fact about how \(subject) ended): a log has no backtraces and no binary images, so there is nothing to symbolicate; the crash or jetsam report written at the same time has them",
                kind: .partialReport))
        return [report]
    }
}

/// Lines only a crash report has (its header, exception and section titles): a text holding
/// one is a report, whatever else it quotes.
enum AppleReportLine {
    static let prefixes = [
        "Incident Identifier:", "Exception Type:", "Exception Codes:", "Termination Reason:", "Triggered by Thread:", "Crashed Thread:",
        "Binary Images:", "Hardware Model:", "Report Version:", "Last Exception Backtrace:", "Thread 0 Crashed", "Thread 0 crashed",
    ]

    static func starts(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        return prefixes.contains { trimmed.hasBytePrefix($0) }
    }
}

/// Single log lines, read into `DeviceLogEvent`s.
package enum DeviceLogLine {
    /// The fact `text` states, or nil when it states none of the shapes read.
    package static func event(_ text: String, line: Int) -> DeviceLogEvent? {
        var steps = 0
        return event(text, line: line, steps: &steps)
    }

    /// `event(_:line:)`, adding the bytes it compared to `steps` (tests show it stays linear).
    package static func event(_ text: String, line: Int, steps: inout Int) -> DeviceLogEvent? {
        var scan = LineBytes(text)
        defer { steps += scan.steps }
        if let event = jetsamKill(&scan, line) { return event }
        if let event = memoryLimit(&scan, line) { return event }
        if let event = cpuLimit(&scan, line) { return event }
        if let event = watchdog(&scan, line) { return event }
        if let event = processExit(&scan, line) { return event }
        if let event = termination(&scan, line) { return event }
        return signalExit(&scan, line)
    }

    // MARK: - Shapes

    /// `memorystatus: killing_specific_process pid 14871 [keyboard] (per-process-limit 100 16s rf:-) 78848KB - …`,
    /// `memorystatus: killing process 994 [KeyboardSpike] in high band FOREGROUND (100) - …`,
    /// `Process KeyboardSpike [994] killed by jetsam reason per-process-limit`.
    static func jetsamKill(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        if let at = s.find("killing_"), let pidAt = s.find(" pid ", from: at), let pid = s.decimal(at: pidAt + 5) {
            var event = DeviceLogEvent(kind: .jetsamKill, line: line)
            event.pid = pid.value
            var position = bracketedName(&s, at: pid.end, into: &event)
            if s.matches(" (", at: position) {
                let end = s.run(from: position + 2, while: LineBytes.isWordByte)
                if end > position + 2 { event.jetsamReason = s.string(position + 2, end) }
                position = (s.first(0x29, from: end) ?? end - 1) + 1
            }
            if s.matches(" ", at: position), let kb = s.decimal(at: position + 1), s.matches("KB", at: kb.end) {
                event.footprintKB = UInt64(kb.value)
            }
            return event
        }
        if let at = s.find("killing process "), let pid = s.decimal(at: at + 16) {
            var event = DeviceLogEvent(kind: .jetsamKill, line: line)
            event.pid = pid.value
            let position = bracketedName(&s, at: pid.end, into: &event)
            if let band = s.find(" band ", from: position) {
                let end = s.run(from: band + 6, while: LineBytes.isWordByte)
                if end > band + 6 { event.band = s.string(band + 6, end) }
            } else if s.matches(" (", at: position) {
                let end = s.run(from: position + 2, while: LineBytes.isWordByte)
                if end > position + 2 { event.jetsamReason = s.string(position + 2, end) }
            }
            return event
        }
        if let at = s.find(" killed by jetsam reason ") {
            var event = DeviceLogEvent(kind: .jetsamKill, line: line)
            let start = at + 25
            let end = s.run(from: start, while: LineBytes.isWordByte)
            if end > start { event.jetsamReason = s.string(start, end) }
            processBeforeBracket(&s, closing: at - 1, into: &event)
            return event
        }
        return nil
    }

    /// `memorystatus: keyboard [14871] exceeded mem limit: ActiveHard 77 MB (fatal)`,
    /// `EXC_RESOURCE -> FamilyControlsAgent[1452] exceeded mem limit: InactiveHard 6 MB (fatal)`.
    static func memoryLimit(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        guard let at = s.find(" exceeded mem limit: ") else { return nil }
        var event = DeviceLogEvent(kind: .memoryLimit, line: line)
        let kindStart = at + 21
        let kindEnd = s.run(from: kindStart, while: LineBytes.isLetter)
        if kindEnd > kindStart { event.limitKind = s.string(kindStart, kindEnd) }
        if s.matches(" ", at: kindEnd), let mb = s.decimal(at: kindEnd + 1), s.matches(" MB", at: mb.end) {
            event.limitMB = mb.value
            if s.matches(" (fatal)", at: mb.end + 3) { event.isFatal = true }
            if s.matches(" (non-fatal)", at: mb.end + 3) { event.isFatal = false }
        }
        processBeforeBracket(&s, closing: at - 1, into: &event)
        return event
    }

    /// xnu's `process MyApp[1234] caught burning CPU! It used more than 50% CPU over 180 seconds`,
    /// and RunningBoard's and the kernel's `… exceeded CPU …` lines.
    static func cpuLimit(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        let burning = s.find(" caught burning CPU")
        let exceeded = burning == nil ? s.find(" exceeded CPU", caseInsensitive: true) : nil
        guard let at = burning ?? exceeded else { return nil }
        var event = DeviceLogEvent(kind: .cpuLimit, line: line)
        if !appIdentity(&s, into: &event) { processBeforeBracket(&s, closing: at - 1, into: &event) }
        // A process must be named (`MyApp[1234]`, `app<…>`): "exceeded CPU" alone is no fact.
        guard event.pid != nil || event.bundleIdentifier != nil else { return nil }
        let reasonStart = burning.map { s.find("! ", from: $0).map { $0 + 2 } ?? $0 + 1 } ?? at + 1
        let reason = s.rest(from: reasonStart)
        if !reason.isEmpty { event.reason = reason }
        if s.find("non-fatal", from: at, caseInsensitive: true) != nil {
            event.isFatal = false
        } else if s.find("fatal", from: at, caseInsensitive: true) != nil {
            event.isFatal = true
        }
        return event
    }

    /// A watchdog kill: FrontBoard's `0x8badf00d` (in an `RBSTerminateContext` or a `Forcing crash
    /// report` line), `com.example.MyApp failed to scene-create in time`, or `scene-update
    /// watchdog transgression: app<com.example.MyApp>:1234 exhausted real (wall clock) time allowance
    /// of 10.00 seconds`.
    static func watchdog(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        let code = s.find("0x8badf00d", caseInsensitive: true)
        let failed = s.find(" failed to scene-")
        let transgression = s.find(" watchdog transgression")
        guard code != nil || failed != nil || transgression != nil else { return nil }
        var event = DeviceLogEvent(kind: .watchdog, line: line)
        // The code or the words alone (a note about watchdogs) are no kill: the line must name
        // the process, or be FrontBoard's own context or crash-report line.
        let identified = appIdentity(&s, into: &event)
        guard identified || failed != nil || s.find("RBSTerminateContext") != nil || s.find("Forcing crash report") != nil else {
            return nil
        }
        event.namespace = "FRONTBOARD"
        event.code = "0x8badf00d"
        if let explanation = s.find("explanation:") {
            event.reason = reasonText(&s, from: explanation + 12)
        } else if let transgression {
            let start = s.runBack(before: transgression, while: { $0 == 0x2D || (0x61...0x7A).contains($0) })
            event.reason = reasonText(&s, from: start)
        } else if let failed {
            event.reason = reasonText(&s, from: failed + 1)
        }
        if !identified, let failed {
            let start = s.runBack(before: failed, while: LineBytes.isBundleByte)
            if start < failed { event.bundleIdentifier = s.string(start, failed) }
        }
        return event
    }

    /// RunningBoard/FrontBoard: `Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus|
    /// domain:signal(2) code:SIGKILL(9)>>`. A voluntary exit states no crash and is not read.
    static func processExit(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        guard let at = s.find("RBSProcessExitStatus| domain:") else { return nil }
        let domainStart = at + 29
        let domainEnd = s.run(from: domainStart, while: LineBytes.isWordByte)
        guard domainEnd > domainStart else { return nil }
        let domain = s.string(domainStart, domainEnd)
        var codeName: String?
        var codeNumber: String?
        if let codeAt = s.find(" code:", from: domainEnd) {
            let start = codeAt + 6
            let end = s.run(from: start, while: LineBytes.isWordByte)
            if end > start { codeName = s.string(start, end) }
            if s.matches("(", at: end), let number = s.decimal(at: end + 1) { codeNumber = String(number.value) }
        }
        var event: DeviceLogEvent
        switch domain.lowercased() {
        case "jetsam":
            event = DeviceLogEvent(kind: .jetsamKill, line: line)
            event.jetsamReason = codeName
        case "signal":
            event = DeviceLogEvent(kind: .processExit, line: line)
            event.namespace = "SIGNAL"
            event.code = codeNumber ?? codeName
            if let codeName, codeName.hasBytePrefix("SIG") {
                event.signal = codeName
            } else if let number = codeNumber.flatMap(Int.init) {
                event.signal = signalName(number)
            }
        default:
            event = DeviceLogEvent(kind: .processExit, line: line)
            event.namespace = domain.uppercased()
            event.code = codeName ?? codeNumber
        }
        _ = appIdentity(&s, into: &event)
        return event
    }

    /// RunningBoard's `Terminating with context: <RBSTerminateContext| domain:15 code:0xDEAD10CC explanation:…>`
    /// and `[app<com.example.MyApp>:1234] Termination reason: …`.
    static func termination(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        let context = s.find("<RBSTerminateContext|")
        let stated = context == nil ? s.find("Termination reason: ", caseInsensitive: true) : nil
        guard context != nil || stated != nil else { return nil }
        var event = DeviceLogEvent(kind: .termination, line: line)
        if let context {
            if let domainAt = s.find(" domain:", from: context), let number = s.decimal(at: domainAt + 8) {
                event.namespace = namespaceName(number.value)
            }
            if let codeAt = s.find(" code:", from: context) {
                let end = s.run(from: codeAt + 6, while: LineBytes.isWordByte)
                if end > codeAt + 6 { event.code = s.string(codeAt + 6, end).lowercased() }
            }
            if let explanation = s.find("explanation:", from: context) { event.reason = reasonText(&s, from: explanation + 12) }
        } else if let stated {
            // Only RunningBoard's and FrontBoard's lines, which name the process (`[app<…>:1234]`):
            // other programs print "Termination reason:" too.
            guard appIdentity(&s, into: &event) else { return nil }
            event.reason = reasonText(&s, from: stated + 20)
            if let sig = s.find("SIG", from: stated + 20) {
                let end = s.run(from: sig, while: LineBytes.isWordByte)
                if end - sig > 3 { event.signal = s.string(sig, end) }
            }
        }
        _ = appIdentity(&s, into: &event)
        return event
    }

    /// launchd's `Service exited due to SIGKILL | sent by mds[88]`, `… exited due to signal: Killed: 9`,
    /// `Exited due to signal 9`, and SpringBoard's `Application 'UIKitApplication:com.example.MyApp[0x8a4f]'
    /// exited abnormally with signal 6: Abort trap: 6`.
    static func signalExit(_ s: inout LineBytes, _ line: Int) -> DeviceLogEvent? {
        let dueTo = s.find("exited due to ", caseInsensitive: true)
        let abnormally = dueTo == nil ? s.find("exited abnormally ", caseInsensitive: true) : nil
        guard let at = dueTo ?? abnormally else { return nil }
        var position = at + (dueTo != nil ? 14 : 18)
        if s.matches("with ", at: position) || s.matches("via ", at: position) {
            position = s.first(0x20, from: position).map { $0 + 1 } ?? position
        }
        var number: Int?
        var name: String?
        var reason: String?
        if s.matches("SIG", at: position) {
            let end = s.run(from: position, while: LineBytes.isWordByte)
            name = s.string(position, end)
            // launchd: `… due to SIGKILL | sent by mds[111]`.
            if s.matches(" | ", at: end) { reason = s.rest(from: end + 3) }
        } else if s.matches("signal: ", at: position) {
            // `signal: Killed: 9 sent by …`: the description, then the number.
            let described = s.rest(from: position + 8)
            reason = described
            var scan = LineBytes(described)
            if let colon = scan.find(": "), let value = scan.decimal(at: colon + 2) { number = value.value }
        } else if s.matches("signal ", at: position), let value = s.decimal(at: position + 7) {
            number = value.value
            if s.matches(": ", at: value.end) { reason = s.rest(from: value.end + 2) }
        }
        guard number != nil || name != nil else { return nil }
        var event = DeviceLogEvent(kind: .signalExit, line: line)
        event.signal = name ?? number.flatMap(signalName)
        event.namespace = "SIGNAL"
        event.code = number.map(String.init) ?? name.flatMap(signalNumber).map(String.init)
        event.reason = reason.flatMap { $0.isEmpty ? nil : $0 }
        if !appIdentity(&s, into: &event) { processBeforeBracket(&s, closing: s.last(0x5D, before: at) ?? -1, into: &event) }
        return event
    }

    // MARK: - Pieces

    /// ` [name]` at `position`: the name into `event`; returns where reading goes on.
    private static func bracketedName(_ s: inout LineBytes, at position: Int, into event: inout DeviceLogEvent) -> Int {
        guard s.matches(" [", at: position), let close = s.first(0x5D, from: position + 2) else { return position }
        if close > position + 2 { event.processName = s.string(position + 2, close) }
        return close + 1
    }

    /// `name [pid]` or `name[pid]` ending at `closing` (the `]`).
    private static func processBeforeBracket(_ s: inout LineBytes, closing: Int, into event: inout DeviceLogEvent) {
        guard closing > 0, closing < s.count, s.bytes[closing] == 0x5D, let open = s.last(0x5B, before: closing),
            let pid = s.decimal(at: open + 1), pid.end == closing
        else { return }
        event.pid = event.pid ?? pid.value
        var nameEnd = open
        if nameEnd > 0, s.bytes[nameEnd - 1] == 0x20 { nameEnd -= 1 }
        var nameStart = s.runBack(before: nameEnd, while: LineBytes.isNameByte)
        // launchd wraps the job: `(com.example.job[1234]): …`.
        if nameStart < nameEnd, s.bytes[nameStart] == 0x28 { nameStart += 1 }
        if nameStart < nameEnd, event.processName == nil { event.processName = s.string(nameStart, nameEnd) }
    }

    /// RunningBoard's and FrontBoard's process identities: `app<com.example.MyApp(…)>:1234`,
    /// `application<com.example.MyApp>:1234`, `UIKitApplication:com.example.MyApp[0x8a4f]`.
    /// True when one was found.
    @discardableResult
    private static func appIdentity(_ s: inout LineBytes, into event: inout DeviceLogEvent) -> Bool {
        for marker in ["application<", "app<", "osservice<", "xpcservice<", "UIKitApplication:"] {
            guard let at = s.find(marker) else { continue }
            let start = at + marker.utf8.count
            let end = s.run(from: start, while: LineBytes.isBundleByte)
            guard end > start else { continue }
            event.bundleIdentifier = s.string(start, end)
            if marker.hasSuffix("<"), let close = s.first(0x3E, from: end), s.matches(">:", at: close), let pid = s.decimal(at: close + 2) {
                event.pid = event.pid ?? pid.value
            }
            return true
        }
        return false
    }

    /// The system's words from `start` to the end of the line, without the closing `>` and `.` of
    /// the context printed around them.
    private static func reasonText(_ s: inout LineBytes, from start: Int) -> String? {
        var text = Substring(s.rest(from: start))
        while let last = text.last, last == ">" || last == "." || last == " " { text = text.dropLast() }
        return text.isEmpty ? nil : String(text)
    }

    /// `os_reason` namespaces by number (xnu `sys/reason.h`), as crash reports name them.
    static func namespaceName(_ number: Int) -> String {
        let names = [
            1: "JETSAM", 2: "SIGNAL", 3: "CODESIGNING", 4: "HANGTRACER", 6: "DYLD", 7: "LIBXPC", 8: "OBJC", 9: "EXEC", 10: "FRONTBOARD",
            11: "TCC", 12: "REPORTCRASH", 13: "COREANIMATION", 15: "RUNNINGBOARD", 18: "LIBSYSTEM", 19: "FOUNDATION", 20: "WATCHDOG",
            21: "METAL", 22: "WATCHKIT", 23: "GUARD", 26: "SECURITY",
        ]
        return names[number] ?? String(number)
    }

    static let signalNames = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE", 9: "SIGKILL",
        10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]

    /// Darwin's signal names by number.
    static func signalName(_ number: Int) -> String? { signalNames[number] }
    static func signalNumber(_ name: String) -> Int? { signalNames.first { $0.value == name }?.key }

    // MARK: - The report's fields

    /// Sets the report's process, exception, termination and kind from the events: the process is
    /// the one the most decisive event names (a kill before a warning), and every event about it
    /// adds what it knows.
    static func applyFacts(_ events: [DeviceLogEvent], to report: inout CrashReport) {
        let rank: (DeviceLogEvent) -> Int = { event in
            switch event.kind {
            case .jetsamKill: 0
            case .memoryLimit: event.isFatal == true ? 1 : 7
            case .watchdog: 2
            case .termination: 3
            case .processExit: 4
            case .signalExit: 5
            case .cpuLimit: event.isFatal == true ? 3 : 6
            }
        }
        guard let lead = events.enumerated().min(by: { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) })?.element
        else { return }
        let about = events.filter { sameProcess($0, lead) }
        report.processID = about.lazy.compactMap(\.pid).first
        report.processName = about.lazy.compactMap(\.processName).first
        report.bundleIdentifier = about.lazy.compactMap(\.bundleIdentifier).first
        if report.processName == nil, let bundle = report.bundleIdentifier {
            report.processName = bundle.split(separator: ".").last.map(String.init)
        }
        switch lead.kind {
        case .jetsamKill:
            applyJetsam(about, to: &report)
        case .memoryLimit where lead.isFatal == true:
            applyJetsam(about, to: &report)
        case .memoryLimit:
            report.exception = ExceptionInfo(type: "EXC_RESOURCE", subtype: "MEMORY", message: limitText(lead))
            report.kind = .resource(.memory)
        case .cpuLimit:
            report.exception = ExceptionInfo(
                type: "EXC_RESOURCE", subtype: lead.isFatal == true ? "CPU_FATAL" : "CPU", message: lead.reason)
            report.kind = .resource(.cpu)
        case .watchdog, .termination, .processExit, .signalExit:
            report.termination = TerminationInfo(namespace: lead.namespace, code: lead.code, text: lead.reason)
            if let signal = about.lazy.compactMap(\.signal).first { report.exception = ExceptionInfo(signal: signal) }
            report.kind = .crash
        }
    }

    /// A jetsam kill: the report is a jetsam event about the process (`jetsamKilledProcesses`
    /// reads the events), its termination JETSAM with the reason (a fatal limit is enforced
    /// as `per-process-limit`).
    private static func applyJetsam(_ about: [DeviceLogEvent], to report: inout CrashReport) {
        report.kind = .jetsam
        let reason = about.lazy.compactMap(\.jetsamReason).first ?? "per-process-limit"
        report.termination = TerminationInfo(namespace: "JETSAM", text: reason)
    }

    /// `ActiveHard 77 MB (fatal)`.
    static func limitText(_ event: DeviceLogEvent) -> String? {
        guard let kind = event.limitKind, let mb = event.limitMB else { return nil }
        let fatal = event.isFatal.map { $0 ? " (fatal)" : " (non-fatal)" } ?? ""
        return "\(kind) \(mb) MB\(fatal)"
    }

    /// Two events about one process: same pid, else same name or bundle identifier.
    static func sameProcess(_ a: DeviceLogEvent, _ b: DeviceLogEvent) -> Bool {
        if let x = a.pid, let y = b.pid { return x == y }
        if let x = a.processName, let y = b.processName { return x == y }
        if let x = a.bundleIdentifier, let y = b.bundleIdentifier { return x == y }
        return a.line == b.line
    }
}

extension CrashReport {
    /// The processes device log lines say jetsam killed: a kill line, or a fatal memory limit (the
    /// kernel ends a process past its fatal limit as `per-process-limit`), one per process.
    var logJetsamKills: [JetsamProcess] {
        var out: [JetsamProcess] = []
        var seen: [DeviceLogEvent] = []
        for event in logEvents where event.kind == .jetsamKill || (event.kind == .memoryLimit && event.isFatal == true) {
            guard !seen.contains(where: { DeviceLogLine.sameProcess($0, event) }) else { continue }
            seen.append(event)
            let about = logEvents.filter { DeviceLogLine.sameProcess($0, event) }
            let name = about.lazy.compactMap(\.processName).first ?? about.lazy.compactMap(\.bundleIdentifier).first
            out.append(
                JetsamProcess(
                    name: name ?? event.pid.map { "pid \($0)" } ?? "?", pid: about.lazy.compactMap(\.pid).first,
                    reason: about.lazy.compactMap(\.jetsamReason).first ?? "per-process-limit",
                    residentBytes: about.lazy.compactMap(\.footprintBytes).first,
                    isFrontmost: about.contains { $0.band == "FOREGROUND" }))
        }
        return out
    }
}
