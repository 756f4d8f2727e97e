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
            found.quote(.label("bug_type"), bugType, Phrase(.noteStackshot))
            found.use(entry ?? base.entry(.stackshotCode))
            return Verdict(.notACrash, .stated, .verdictStackshotReport)
        case "210":
            found.quote(.label("bug_type"), bugType, Phrase(.noteKernelPanicType))
            found.use(entry)
            if let verdict = classifyKernelPanic(field: "panicString") { return verdict }
            return Verdict(.notACrash, .stated, .verdictKernelPanicReport)
        default:
            return classifyMicrostackshot()
        }
    }

    /// A jetsam event report: names the process that was killed (the frontmost one, else the
    /// largest), its reason and its size, from the report's process list (issue 17).
    func jetsamEvent() -> Verdict {
        found.quote(.label("bug_type"), report.bugType, Phrase(.noteJetsamEventReport))
        found.use(base.entries(named: "bug_type 298").first)
        found.use(base.entry(.jetsamNamespace))
        if report.logEvents.isEmpty { found.note(.noteJetsamNoBacktraces) }
        quoteLogEvents()
        let killed = report.jetsamKilledProcesses
        guard let victim = report.jetsamVictim else {
            let largest = report.jetsamLargestProcess
            found.quote(Phrase(.fieldLargestProcess), largest)
            let cut = report.completeness != .complete
            found.note(cut ? .noteProcessTableCut : .noteNoProcessKilled)
            let key: PhraseKey =
                switch (largest != nil, cut) {
                case (true, true): .verdictJetsamEventLargestCut
                case (true, false): .verdictJetsamEventLargest
                case (false, true): .verdictJetsamEventCut
                case (false, false): .verdictJetsamEvent
                }
            return Verdict(.memoryPressure, .stated, key, ["largest": .text(largest ?? "")])
        }
        let size = victim.residentBytes.map { Phrase(.wordResident, ["size": .text(CrashReport.byteCount($0))]) }
        let reasonEntry = base.entries(named: victim.reason).first { $0.kind == .jetsamReason }
        found.use(reasonEntry)
        let name = Phrase.text(victim.name)
        let reason = Phrase.text(victim.reason)
        var victimLine: [Phrase] = [
            Phrase(
                victim.pid == nil ? .quoteKilledProcess : .quoteKilledProcessPID,
                ["name": name, "pid": .text(victim.pid.map(String.init) ?? ""), "reason": reason])
        ]
        if victim.isFrontmost { victimLine.append(Phrase(.wordFrontmost)) }
        if let size { victimLine.append(size) }
        found.quote(Phrase(.fieldKilledProcess), phrase: .list(victimLine), reasonEntry?.meaningPhrase)
        for other in killed where other != victim {
            found.quote(
                Phrase(.fieldAlsoKilled), phrase: Phrase(.quoteAlsoKilled, ["name": .text(other.name), "reason": .text(other.reason)]))
        }
        let ownLimit = ["per-process-limit", "highwater"].contains(victim.reason)
        if ownLimit {
            found.cause(.likely, .causeOwnMemoryLimit, ["name": name, "reason": reason])
            // `step` puts each step first: the last one written leads.
            found.step(.stepFreeCaches, ["name": name])
            if let model = report.hardwareModel {
                found.step(.stepMeasureFootprintOn, ["name": name, "model": .text(model)])
            } else {
                found.step(.stepMeasureFootprint, ["name": name])
            }
        } else {
            found.cause(
                .likely, victim.isFrontmost ? .causeSystemShortFrontmost : .causeSystemShortChosen, ["name": name, "reason": reason])
            found.step(.stepReduceMemory, ["name": name])
            if !victim.isFrontmost {
                found.step(.stepSaveState, ["name": name])
            }
        }
        found.note(.noteOtherProcessKilled)
        if ownLimit, let verdict = readMemoryLimit(name: victim.name, footprint: victim.residentBytes, category: .memoryPressure) {
            return verdict
        }
        var values: [String: Phrase] = [
            "name": name, "reason": .jetsamReason(victim.reason), "size": .text(""), "more": .text(""),
        ]
        if let size { values["size"] = .list([.verbatim(""), size]) }
        if killed.count > 1 {
            values["more"] = Phrase(
                killed.count > 2 ? .wordMoreProcessesKilled : .wordOneMoreProcessKilled, ["count": .text(String(killed.count - 1))])
        }
        return Verdict(.memoryPressure, .stated, .verdictJetsamEventKilled, values)
    }

    /// Diagnostics that are not crashes and have no exception: hangs, samples, MetricKit
    /// CPU/disk/launch diagnostics. Their headline is the report's own summary.
    func classifyOtherDiagnostic() -> Verdict? {
        guard report.kindSummary != nil, let summary = summaryPhrase else { return nil }
        switch report.kind {
        case .hang, .metricKit(.hang):
            found.use(base.namespace("HANGTRACER"))
            quoteFocusThread()
            found.step(.stepReadMainThreadForHang)
            return Verdict(.notACrash, .stated, .verdictHang, ["summary": summary])
        case .sample:
            quoteFocusThread()
            return Verdict(.notACrash, .stated, .verdictSample, ["summary": summary])
        case .metricKit(.cpuException):
            found.use(base.entry(.resourceCPU), causes: 0)
            quoteFocusThread()
            return Verdict(.resourceLimit, .stated, .verdictCPUDiagnostic, ["summary": summary])
        case .metricKit(.diskWriteException):
            found.use(base.entry(.resourceIO), causes: 0)
            quoteFocusThread()
            return Verdict(.resourceLimit, .stated, .verdictDiskWritesDiagnostic, ["summary": summary])
        case .metricKit(.appLaunch):
            quoteFocusThread()
            found.step(.stepProfileLaunch)
            return Verdict(.notACrash, .stated, .verdictLaunchDiagnostic, ["summary": summary])
        default:
            return nil
        }
    }

    /// The top frames of the thread a non-crash report is about.
    func quoteFocusThread() {
        guard let thread = report.focusThread else { return }
        for frame in thread.frames.prefix(3) { found.quote(.frame(thread.index, frame.index), frame.evidenceText) }
    }

    /// `Event: cpu usage` / `Event: disk writes` diagnostic reports (bug_type 145, 202, 206).
    func classifyMicrostackshot() -> Verdict? {
        guard let event = header("Event") else { return nil }
        found.quote(.label("Event"), event)
        found.quote(.label("Action taken"), header("Action taken"))
        for key in ["CPU", "Writes", "Wakeups", "Limit", "Duration"] { found.quote(.label(key), header(key)) }
        let resource: KnownTerm? =
            switch facts.resource?.resource {
            case .cpu?: .resourceCPU
            case .diskWrites?: .resourceIO
            case .wakeups?: .resourceWakeups
            case .memory?, nil: nil
            }
        found.use(resource.flatMap { base.entry($0) }, causes: 0)
        if let type = report.bugType { found.use(base.entries(named: "bug_type \(type)").first) }
        let killed = resourceIsFatal
        found.note(.noteMicrostackshot)
        return Verdict(.resourceLimit, .stated, killed ? .verdictResourceReportKilled : .verdictResourceReport, ["event": .text(event)])
    }

    func resource() -> Verdict {
        let subtype = report.exception?.subtype ?? ""
        let entry = base.entries(named: subtype).first { $0.kind == .resourceType }
        found.use(entry, causes: 0)
        quoteTopFrames(count: 3)
        let fatal = resourceIsFatal
        if !fatal { found.note(.noteResourceWarning, ["subtype": .text(subtype)]) }
        if report.kind == .resource(.memory) || facts.resource?.resource == .memory,
            let verdict = readMemoryLimit(name: nil, footprint: nil, category: .resourceLimit)
        {
            return verdict
        }
        let key: PhraseKey =
            switch (report.exceptionMessage != nil, fatal) {
            case (true, true): .verdictResourceLimitMessageKilled
            case (true, false): .verdictResourceLimitMessage
            case (false, true): .verdictResourceLimitKilled
            case (false, false): .verdictResourceLimit
            }
        return Verdict(
            .resourceLimit, .stated, key,
            ["subtype": .text(subtype.isEmpty ? "EXC_RESOURCE" : subtype), "message": .text(report.exceptionMessage ?? "")])
    }

    /// `CrashReport.kindSummary` for the diagnostics `classifyOtherDiagnostic` explains, as a
    /// phrase: the same words in English, the reader's language otherwise (the values are the
    /// report's own: durations, counts, the process name).
    var summaryPhrase: Phrase? {
        func field(_ key: String) -> String? { report.headerFields.first { $0.key == key }?.value }
        let process = report.processName.map { Phrase(.summaryProcess, ["name": .text($0)]) }
        func blocked(_ duration: String?) -> Phrase? { duration.map { Phrase(.summaryBlocked, ["duration": .text($0)]) } }
        let parts: [Phrase?]
        switch report.kind {
        case .hang:
            parts = [Phrase(.summaryHang), blocked(field("Duration")), process]
        case .metricKit(.hang):
            parts = [Phrase(.summaryHangMetricKit), blocked(field("Hang Duration")), process]
        case .sample:
            let samples = report.threads.first?.frames.first?.callGraph?.sampleCount
            parts = [Phrase(.summarySample), process, samples.map { Phrase(.summarySampleCount, ["count": .text(String($0))]) }]
        case .metricKit(.cpuException):
            let amounts = [
                field("Total CPU Time").map { Phrase(.summaryCPUTime, ["time": .text($0)]) },
                field("Total Sampled Time").map { Phrase(.summarySampledTime, ["time": .text($0)]) },
            ].compactMap { $0 }
            let spaced = amounts.enumerated().flatMap { $0.offset == 0 ? [$0.element] : [.verbatim(" "), $0.element] }
            let detail = amounts.isEmpty ? nil : Phrase(.summaryDetail, ["detail": .sequence(spaced)])
            parts = [Phrase(.summaryCPUException), detail, process]
        case .metricKit(.diskWriteException):
            parts = [
                Phrase(.summaryDiskWrites),
                field("Writes Caused").map { Phrase(.summaryWritten, ["amount": .text(MetricKitFacts.Measurement(text: $0).countedText)]) },
                process,
            ]
        case .metricKit(.appLaunch):
            parts = [
                Phrase(.summarySlowLaunch), field("Launch Duration").map { Phrase(.summaryDetail, ["detail": .text($0)]) }, process,
            ]
        default:
            return nil
        }
        return .sequence(parts.compactMap { $0 })
    }
}
