import Foundation

/// The first words of a headline for reports that are not crashes, from the report's own
/// facts: "Killed by jetsam: per-process memory limit (highwater) — MyApp, 1.4 GB",
/// "Hang: main thread blocked 2.10s", "CPU resource (process killed): 48 seconds cpu time over
/// 54 seconds …". Crash reports have none: their headline names the crashed frame.
extension CrashReport {
    public var kindSummary: String? {
        switch kind {
        case .crash, .linuxBacktrace, .metricKit(.crash): return nil
        case .jetsam: return jetsamSummary
        case .hang: return "Hang" + (duration.map { ": blocked \($0)" } ?? "") + processSuffix
        case .resource(let type): return resourceSummary(type)
        case .sample:
            let samples = threads.first?.frames.first?.callGraph?.sampleCount
            return "Sample" + processSuffix + (samples.map { ", \($0) samples" } ?? "")
        case .stackshot:
            let reason = field("Reason")
            return "Stackshot" + (reason.map { ": \($0)" } ?? "") + (exception?.codes.map { " (\($0))" } ?? "")
        case .kernelPanic: return "Kernel panic: " + (panicLine ?? "no panic string")
        case .metricKit(.hang): return "Hang (MetricKit)" + (field("Hang Duration").map { ": blocked \($0)" } ?? "") + processSuffix
        case .metricKit(.cpuException):
            let cpu = field("Total CPU Time").map { "\($0) of CPU" }
            let sampled = field("Total Sampled Time").map { "over \($0) sampled" }
            return "CPU exception (MetricKit)"
                + ([cpu, sampled].compactMap { $0 }.isEmpty ? "" : ": " + [cpu, sampled].compactMap { $0 }.joined(separator: " "))
                + processSuffix
        case .metricKit(.diskWriteException):
            return "Disk writes exception (MetricKit)"
                + (field("Writes Caused").map { ": \(MetricKitFacts.Measurement(text: $0).countedText) written" } ?? "") + processSuffix
        case .metricKit(.appLaunch):
            return "Slow app launch (MetricKit)" + (field("Launch Duration").map { ": \($0)" } ?? "") + processSuffix
        }
    }

    /// The thread a non-crash report is about: the attributed one, else the main thread,
    /// else the first.
    public var focusThread: Thread? {
        crashedThread ?? mainThread ?? threads.first
    }

    /// In a call graph, the nodes on the heaviest path of `thread` (the child with most
    /// samples at each level), outermost first; in a backtrace, its frames as they are.
    package func heaviestPath(of thread: Thread) -> [Int] {
        let frames = thread.frames
        guard frames.first?.callGraph != nil else { return Array(frames.indices) }
        var path: [Int] = []
        var i = frames.startIndex
        // Roots: the heaviest top-level node.
        var best: Int? = nil
        for j in frames.indices where frames[j].callGraph?.depth == 0 {
            if best.map({ (frames[j].callGraph?.sampleCount ?? 0) > (frames[$0].callGraph?.sampleCount ?? 0) }) ?? true { best = j }
        }
        guard var current = best else { return [] }
        while true {
            path.append(current)
            let depth = frames[current].callGraph?.depth ?? 0
            var child: Int? = nil
            i = current + 1
            while i < frames.count, let d = frames[i].callGraph?.depth, d > depth {
                if d == depth + 1, child.map({ (frames[i].callGraph?.sampleCount ?? 0) > (frames[$0].callGraph?.sampleCount ?? 0) }) ?? true
                {
                    child = i
                }
                i += 1
            }
            guard let next = child else { break }
            current = next
        }
        return path
    }

    private func field(_ key: String) -> String? {
        headerFields.first { $0.key == key }?.value
    }

    private var duration: String? { field("Duration") }

    private var processSuffix: String {
        guard let name = processName else { return "" }
        return " — \(name)"
    }

    private func resourceSummary(_ type: ReportKind.ResourceType) -> String {
        let what: String
        switch type {
        case .cpu: what = "CPU resource"
        case .wakeups: what = "Wakeups resource"
        case .diskWrites: what = "Disk writes resource"
        case .memory: what = "Memory resource"
        }
        var s = what
        if let action = field("Action taken") { s += " (\(action.lowercased() == "none" ? "no action taken" : action.lowercased()))" }
        let detail: String?
        switch type {
        case .cpu: detail = field("CPU")
        case .wakeups: detail = field("Wakeups")
        case .diskWrites: detail = field("Writes")
        case .memory: detail = field("Memory")
        }
        if let detail = detail ?? exception?.message ?? exception?.codes { s += ": \(detail)" }
        return s + processSuffix
    }

    /// First line of the panic string (`.ips` `panicString` or the text's `panic(…)` line).
    private var panicLine: String? {
        var text: String?
        switch source {
        case .ips(_, let body, _): text = body["panicString"]?.stringValue
        case .text(let document): text = document.lines.first { $0.text.trimmedBlanks.hasPrefix("panic(") }?.text
        case .none: break
        }
        guard let line = text?.split(separator: "\n").first.map({ String($0).trimmedBlanks }) else { return nil }
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }

    /// `Killed by jetsam: per-process memory limit (highwater) — MyApp, 1.4 GB`.
    private var jetsamSummary: String {
        var s = "Killed by jetsam"
        // A text jetsam table's rows are not reliable enough to name the victim; device log
        // lines name it (`logEvents`), as an `.ips` body does.
        let namesItsVictim: Bool
        if case .ips = source { namesItsVictim = true } else { namesItsVictim = !logEvents.isEmpty }
        guard namesItsVictim else {
            if let largest = jetsamLargestProcess { s += " (largest process: \(largest))" }
            return s
        }
        let killed = jetsamKilledProcesses
        guard let victim = jetsamVictim else {
            return s + ": no process was killed" + (jetsamLargestProcess.map { " (largest process: \($0))" } ?? "")
        }
        s += ": " + Self.jetsamReason(victim.reason) + " — " + victim.name
        if let bytes = victim.residentBytes { s += ", " + Self.byteCount(bytes) }
        if killed.count > 1 { s += " (and \(killed.count - 1) more killed)" }
        return s
    }

    package static func jetsamReason(_ reason: String) -> String {
        switch reason {
        case "highwater": return "per-process memory limit (highwater)"
        case "per-process-limit": return "per-process memory limit (per-process-limit)"
        case "vm-thrashing": return "VM thrashing (vm-thrashing)"
        case "fc-thrashing": return "file cache thrashing (fc-thrashing)"
        case "vnode-limit": return "too many open files (vnode-limit)"
        case "memory-pressure", "jettisoned": return "system memory pressure (\(reason))"
        case "idle-exit": return "idle process reclaimed (idle-exit)"
        default: return reason
        }
    }

    /// `1.4 GB`, `512.0 MB`, `40.0 KB` (powers of 1024, as Apple's tools count memory).
    package static func byteCount(_ bytes: UInt64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " " + units[unit]
    }
}
