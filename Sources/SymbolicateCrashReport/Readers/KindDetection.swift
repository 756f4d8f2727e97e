import Foundation

extension ReportKind {
    /// The kind of an Apple report, from its `bug_type` first and then from content.
    ///
    /// Content wins over `bug_type` where Apple reuses one number for several layouts:
    /// 288 is a hang when it says `Event: hang` and a stackshot otherwise; 185 is an
    /// `EXC_RESOURCE` report whose subtype names the resource. Reports without a `bug_type`
    /// (text `.crash` files) are told apart by the fields only their layout has.
    static func detect(in report: CrashReport) -> ReportKind {
        let event = report.headerFields.first(where: { $0.key == "Event" })?.value.lowercased()
        if let event, let kind = fromEvent(event) { return kind }
        if let kind = fromBody(report) { return kind }
        if let resource = resourceType(of: report.exception) { return .resource(resource) }
        switch report.bugType {
        case "298": return .jetsam
        case "210": return .kernelPanic
        case "409", "151": return .hang
        case "188", "288": return .stackshot
        case "206": return .resource(.cpu)
        case "142": return .resource(.wakeups)
        case "145": return .resource(.diskWrites)
        case "385": return .resource(.memory)
        default: break
        }
        if report.exception?.codes?.lowercased() == "0xbaaaaaad"
            || report.headerFields.contains(where: { $0.key == "Reason" && $0.value.lowercased().containsBytes("stackshot") })
        {
            return .stackshot
        }
        if report.headerFields.contains(where: { $0.key == "Largest process" }) { return .jetsam }
        return .crash
    }

    /// `Event:` of microstackshot and spindump reports (`cpu usage`, `wakeups`, `disk writes`,
    /// `hang`).
    private static func fromEvent(_ event: String) -> ReportKind? {
        if event.hasPrefix("hang") { return .hang }
        if event.hasPrefix("cpu") { return .resource(.cpu) }
        if event.hasPrefix("wakeups") { return .resource(.wakeups) }
        if event.hasPrefix("disk writes") { return .resource(.diskWrites) }
        if event.hasPrefix("memory") { return .resource(.memory) }
        return nil
    }

    /// Layouts recognised by their first body line or JSON members.
    private static func fromBody(_ report: CrashReport) -> ReportKind? {
        switch report.source {
        case .text(let document):
            let first = document.lines.first(where: { line in
                let t = line.text.trimmedBlanks
                return !t.isEmpty && !t.hasPrefix("{")
            })?.text.trimmedBlanks
            if first?.hasPrefix("panic(") == true { return .kernelPanic }
            if first?.hasPrefix("Analysis of sampling") == true
                || report.headerFields.contains(where: { $0.key == "Analysis Tool" && $0.value.hasSuffix("sample") })
            {
                return .sample
            }
            if report.threads.isEmpty,
                document.lines.contains(where: { l in
                    let t = l.text.trimmedBlanks
                    return t == "Processes" || t.hasPrefix("Processes:")
                }), report.headerFields.contains(where: { $0.key == "Page Size" || $0.key == "Largest process" })
            {
                return .jetsam
            }
        case .ips(_, let body, _):
            if body["panicString"] != nil { return .kernelPanic }
            if body["memoryStatus"] != nil, body["processes"] != nil { return .jetsam }
        case .none:
            break
        }
        return nil
    }

    /// `EXC_RESOURCE` with its subtype (`CPU`, `CPU_FATAL`, `WAKEUPS`, `MEMORY`, `IO`).
    static func resourceType(of exception: ExceptionInfo?) -> ResourceType? {
        guard let exception, exception.type?.uppercased().hasPrefix("EXC_RESOURCE") == true else { return nil }
        let words = [exception.subtype, exception.type, exception.message].compactMap { $0?.uppercased() }
            .flatMap { $0.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) }
        if words.contains("WAKEUPS") { return .wakeups }
        if words.contains("MEMORY") { return .memory }
        if words.contains("IO") || words.contains("DISK") { return .diskWrites }
        if words.contains("CPU") { return .cpu }
        return nil
    }
}
