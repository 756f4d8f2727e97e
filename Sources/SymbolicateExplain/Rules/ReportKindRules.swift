import Foundation
import SymbolicateCrashReport

/// Reports that are not crash reports (jetsam, stackshots, panics) and resource reports.
extension Diagnostician {
    /// Reports that are not crash reports at all (§1.2, §9.1).
    func classifyReportType() -> Verdict? {
        if report.kind == .jetsam { return jetsamEvent() }
        if let verdict = classifyOtherDiagnostic() { return verdict }
        guard let bugType = report.bugType else {
            return classifyMicrostackshot()
        }
        let entry = base.entries(named: "bug_type \(bugType)").first
        switch bugType {
        case "288", "188":
            found.quote("bug_type", bugType, "stackshot")
            found.use(entry ?? base.entry(.stackshotCode))
            return Verdict(
                .notACrash, .stated,
                "Stackshot report, not a crash: a snapshot of every process (often taken by pressing buttons by accident).")
        case "210":
            found.quote("bug_type", bugType, "kernel panic")
            found.use(entry)
            return Verdict(.notACrash, .stated, "Kernel panic report: the whole system restarted; this is not an app crash.")
        default:
            return classifyMicrostackshot()
        }
    }

    /// A jetsam event report: names the process that was killed (the frontmost one, else the
    /// largest), its reason and its size, from the report's process list (issue 17).
    func jetsamEvent() -> Verdict {
        found.quote("bug_type", report.bugType, "jetsam event report")
        found.use(base.entries(named: "bug_type 298").first)
        found.use(base.entry(.jetsamNamespace))
        found.notes.append("A jetsam event report has no backtraces: it does not show what used the memory.")
        let killed = report.jetsamKilledProcesses
        guard let victim = report.jetsamVictim else {
            let largest = report.jetsamLargestProcess
            found.quote("Largest process", largest)
            let cut = report.completeness != .complete
            found.notes.append(
                cut
                    ? "The process table is cut: the report does not show which process was killed."
                    : "No process in the report carries a \"reason\": none was killed in this event.")
            return Verdict(
                .memoryPressure, .stated,
                "Jetsam event report (not a crash): the system was short of memory"
                    + (largest.map { "; the largest process was \($0)" } ?? "")
                    + (cut ? ", and the report is cut before it names the killed process." : "; it names no killed process."))
        }
        let size = victim.residentBytes.map { ", \(CrashReport.byteCount($0)) resident" } ?? ""
        let reasonEntry = base.entries(named: victim.reason).first { $0.kind == .jetsamReason }
        found.use(reasonEntry)
        found.quote(
            "Killed process",
            "\(victim.name)\(victim.pid.map { " (pid \($0))" } ?? ""): reason \(victim.reason)"
                + (victim.isFrontmost ? ", frontmost" : "") + size, reasonEntry?.meaning)
        for other in killed where other != victim { found.quote("Also killed", "\(other.name): reason \(other.reason)") }
        let ownLimit = ["per-process-limit", "highwater"].contains(victim.reason)
        if ownLimit {
            found.cause(
                .likely,
                "\(victim.name) crossed its own memory limit (\(victim.reason)): its footprint grew too large — a leak, or images, caches or buffers kept in memory"
            )
            // `step` puts each step first: the last one written leads.
            found.step("Free caches when \(victim.name) receives a memory warning and keep its footprint well below the limit")
            found.step(
                "Measure \(victim.name)'s memory footprint with Instruments (Allocations, Leaks, VM Tracker)"
                    + (report.hardwareModel.map { " on a \($0)" } ?? ""))
        } else {
            found.cause(
                .likely,
                "The system as a whole ran short of memory (\(victim.reason)); \(victim.name) was "
                    + (victim.isFrontmost ? "the frontmost app" : "chosen to free memory, not necessarily at fault"))
            found.step("Reduce \(victim.name)'s memory use, and others' if they are yours, when memory is short (memory warnings)")
            if !victim.isFrontmost {
                found.step("Save state when \(victim.name) enters the background, so a relaunch after a memory kill restores it")
            }
        }
        found.notes.append("If your app crashed but the killed process is another one, memory was not the cause of your crash.")
        let more = killed.count > 1 ? " (\(killed.count - 1) more process\(killed.count > 2 ? "es" : "") killed)" : ""
        let reasonText = CrashReport.jetsamReason(victim.reason)
        return Verdict(
            .memoryPressure, .stated,
            "Jetsam event (not a crash): the system killed \(victim.name) for memory — \(reasonText)\(size)\(more).")
    }

    /// Diagnostics that are not crashes and have no exception: hangs, samples, MetricKit
    /// CPU/disk/launch diagnostics. Their headline is the report's own summary.
    func classifyOtherDiagnostic() -> Verdict? {
        guard let summary = report.kindSummary else { return nil }
        switch report.kind {
        case .hang, .metricKit(.hang):
            found.use(base.namespace("HANGTRACER"))
            quoteFocusThread()
            found.step("Read the main thread's backtrace for the blocking call or the long-running work")
            return Verdict(.notACrash, .stated, "\(summary): the main thread did not respond; this is not a crash report.")
        case .sample:
            quoteFocusThread()
            return Verdict(.notACrash, .stated, "\(summary): a call-graph sample of a running process, not a crash.")
        case .metricKit(.cpuException):
            found.use(base.entry(.resourceCPU), causes: 0)
            quoteFocusThread()
            return Verdict(.resourceLimit, .stated, "\(summary): a CPU-use diagnostic, not a crash.")
        case .metricKit(.diskWriteException):
            found.use(base.entry(.resourceIO), causes: 0)
            quoteFocusThread()
            return Verdict(.resourceLimit, .stated, "\(summary): a disk-writes diagnostic, not a crash.")
        case .metricKit(.appLaunch):
            quoteFocusThread()
            found.step("Profile launch with the App Launch template in Instruments; move work out of launch")
            return Verdict(.notACrash, .stated, "\(summary): a launch-time diagnostic, not a crash.")
        default:
            return nil
        }
    }

    /// The top frames of the thread a non-crash report is about.
    func quoteFocusThread() {
        guard let thread = report.focusThread else { return }
        for frame in thread.frames.prefix(3) { found.quote("Thread \(thread.index) frame \(frame.index)", frame.evidenceText) }
    }

    /// `Event: cpu usage` / `Event: disk writes` diagnostic reports (bug_type 145, 202, 206).
    func classifyMicrostackshot() -> Verdict? {
        guard let event = header("Event") else { return nil }
        found.quote("Event", event)
        found.quote("Action taken", header("Action taken"))
        for key in ["CPU", "Writes", "Wakeups", "Limit", "Duration"] { found.quote(key, header(key)) }
        let lower = event.lowercased()
        let resource: KnownTerm? =
            lower.contains("cpu")
            ? .resourceCPU
            : lower.contains("disk") || lower.contains("write")
                ? .resourceIO
                : lower.contains("wakeup") ? .resourceWakeups : nil
        found.use(resource.flatMap { base.entry($0) }, causes: 0)
        if let type = report.bugType { found.use(base.entries(named: "bug_type \(type)").first) }
        let killed = resourceIsFatal
        found.notes.append("This is a sampled diagnostic (microstackshot): the heaviest stacks show where time or writes went.")
        return Verdict(
            .resourceLimit, .stated,
            "Resource report (\(event))" + (killed ? ": the system killed the process for it." : ": a warning; the process was not killed.")
        )
    }

    func resource() -> Verdict {
        let subtype = facts.subtype ?? ""
        let entry = base.entries(named: subtype).first { $0.kind == .resourceType }
        found.use(entry, causes: 0)
        quoteTopFrames(count: 3)
        let fatal = resourceIsFatal
        if !fatal { found.notes.append("EXC_RESOURCE \(subtype) is a warning: the process kept running unless the report says otherwise.") }
        return Verdict(
            .resourceLimit, .stated,
            "Resource limit exceeded (\(subtype.isEmpty ? "EXC_RESOURCE" : subtype))" + (facts.message.map { ": \($0)" } ?? "")
                + (fatal ? "; the process was killed." : "."))
    }
}
