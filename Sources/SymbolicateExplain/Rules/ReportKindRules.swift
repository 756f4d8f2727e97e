import Foundation
import SymbolicateCrashReport

/// Reports that are not crash reports (jetsam, stackshots, panics) and resource reports.
extension Diagnostician {
    /// Reports that are not crash reports at all (§1.2, §9.1).
    func classifyReportType() -> Verdict? {
        guard let bugType = report.bugType else {
            return classifyMicrostackshot()
        }
        let entry = base.entries(named: "bug_type \(bugType)").first
        switch bugType {
        case "298":
            found.quote("bug_type", bugType, "jetsam event report")
            found.use(entry)
            found.use(base.entry(.jetsamNamespace))
            found.step("Find the process entry with a \"reason\" key: that process was killed; its memory is rpages × pageSize")
            found.notes.append("A jetsam event report has no backtraces: it does not show what used the memory.")
            found.notes.append("If your app crashed but the killed process is another one, memory was not the cause of your crash.")
            return Verdict(.memoryPressure, .stated, "Jetsam event report: the system killed processes to free memory. This is not a crash report.")
        case "288", "188":
            found.quote("bug_type", bugType, "stackshot")
            found.use(entry ?? base.entry(.stackshotCode))
            return Verdict(.notACrash, .stated, "Stackshot report, not a crash: a snapshot of every process (often taken by pressing buttons by accident).")
        case "210":
            found.quote("bug_type", bugType, "kernel panic")
            found.use(entry)
            return Verdict(.notACrash, .stated, "Kernel panic report: the whole system restarted; this is not an app crash.")
        default:
            return classifyMicrostackshot()
        }
    }

    /// `Event: cpu usage` / `Event: disk writes` diagnostic reports (bug_type 145, 202, 206).
    func classifyMicrostackshot() -> Verdict? {
        guard let event = header("Event") else { return nil }
        found.quote("Event", event)
        found.quote("Action taken", header("Action taken"))
        for key in ["CPU", "Writes", "Wakeups", "Limit", "Duration"] { found.quote(key, header(key)) }
        let lower = event.lowercased()
        let resource: KnownTerm? = lower.contains("cpu") ? .resourceCPU
            : lower.contains("disk") || lower.contains("write") ? .resourceIO
            : lower.contains("wakeup") ? .resourceWakeups : nil
        found.use(resource.flatMap { base.entry($0) }, causes: 0)
        if let type = report.bugType { found.use(base.entries(named: "bug_type \(type)").first) }
        let killed = resourceIsFatal
        found.notes.append("This is a sampled diagnostic (microstackshot): the heaviest stacks show where time or writes went.")
        return Verdict(.resourceLimit, .stated,
                "Resource report (\(event))" + (killed ? ": the system killed the process for it." : ": a warning; the process was not killed."))
    }

    func resource() -> Verdict {
        let subtype = facts.subtype ?? ""
        let entry = base.entries(named: subtype).first { $0.kind == .resourceType }
        found.use(entry, causes: 0)
        quoteTopFrames(count: 3)
        let fatal = resourceIsFatal
        if !fatal { found.notes.append("EXC_RESOURCE \(subtype) is a warning: the process kept running unless the report says otherwise.") }
        return Verdict(.resourceLimit, .stated, "Resource limit exceeded (\(subtype.isEmpty ? "EXC_RESOURCE" : subtype))" + (facts.message.map { ": \($0)" } ?? "") + (fatal ? "; the process was killed." : "."))
    }
}
