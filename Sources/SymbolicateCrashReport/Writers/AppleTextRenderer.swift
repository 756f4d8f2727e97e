import Foundation
import SymbolicateJSON

extension CrashReport {
    /// Renders an `.ips` body in Apple's translated-report layout (what Xcode/Console show),
    /// so a user holding only an `.ips` can read it. Device reports (`osVersion.isEmbedded`)
    /// use the iOS layout (`Thread 0 name:` + `Thread 0 Crashed:`, undashed UUIDs with arch);
    /// Mac and simulator reports the macOS one (`Thread 0 Crashed::  Dispatch queue: …`,
    /// dashed UUIDs with version).
    /// Each line goes to `out` as it is made: a million frames are never held as lines.
    func renderAppleText(header: JSONValue, body: JSONNode, into out: (RenderedLine) -> Void) {
        let embedded = body["osVersion"]?["isEmbedded"]?.boolValue ?? (body["modelCode"]?.stringValue.map { !$0.hasPrefix("Mac") } ?? true)
        if !embedded && Self.usesMacLayout(header: header, body: body) {
            return renderMacText(header: header, body: body, into: out)
        }
        func line(_ text: String, _ kind: RenderedLine.Kind = .other) { out(RenderedLine(text: text, kind: kind)) }
        let width = 21
        func field(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            let label = key + ":"
            line(label + String(repeating: " ", count: max(1, width - label.count)) + value)
        }

        // Header.
        field("Incident Identifier", body["incident"]?.stringValue ?? header["incident_id"]?.stringValue)
        field("CrashReporter Key", body["crashReporterKey"]?.stringValue)
        field("Hardware Model", hardwareModel)
        field("Process", processName.map { n in processID.map { "\(n) [\($0)]" } ?? n })
        field("Path", processPath)
        field("Identifier", bundleIdentifier ?? processName)
        field("Version", appVersion ?? "???")
        field("Code Type", codeType)
        field("Role", body["procRole"]?.stringValue)
        field("Parent Process", parentProcess)
        if let c = body["coalitionName"]?.stringValue { field("Coalition", body["coalitionID"]?.intValue.map { "\(c) [\($0)]" } ?? c) }
        if let r = body["responsibleProc"]?.stringValue {
            field("Responsible Process", body["responsiblePid"]?.intValue.map { "\(r) [\($0)]" } ?? r)
        }
        line("")
        field("Date/Time", dateTime)
        field("Launch Time", body["procLaunch"]?.stringValue)
        field("OS Version", osVersion)
        field("Release Type", body["osVersion"]?["releaseType"]?.stringValue)
        field("Baseband Version", body["basebandVersion"]?.stringValue)
        field("Report Version", "104")
        line("")

        // Exception block.
        if let e = exception {
            var type = e.type ?? "???"
            if let s = e.signal { type += " (\(s))" }
            line("Exception Type:  \(type)")
            if let sub = e.subtype { line("Exception Subtype: \(sub)") }
            if let codes = e.codes { line("Exception Codes: \(codes)") }
            if let note = e.note { line("Exception Note:  \(note)") }
            if let m = e.message { line("Exception Message: \(m)") }
        }
        if let t = termination {
            let raw = body["termination"]
            if let raw, raw["details"] != nil {
                // Apple prints namespace, code and the (possibly empty) indicator, then details.
                line(
                    "Termination Reason: "
                        + [t.namespace, t.code, raw["indicator"]?.stringValue ?? ""].compactMap { $0 }.joined(separator: " "))
                for d in raw["details"]?.arrayValue?.compactMap(\.stringValue) ?? [] { line(d) }
            } else {
                line(
                    "Termination Reason: "
                        + [t.namespace, t.code, t.text ?? reporterTerminationIndicator].compactMap { $0 }.joined(separator: " "))
            }
            if let by = t.byProcess { line("Terminating Process: \(by)") }
        }
        line("")
        if let t = crashedThreadIndex {
            let q = body["legacyInfo"]?["threadTriggered"]?["queue"]?.stringValue
            line("Triggered by Thread:  \(t)" + (embedded || q == nil ? "" : ", Dispatch Queue: \(q ?? "")"))
            line("")
        }
        let stated = reporterStatements
        if applicationSpecificInformation != nil || !stated.isEmpty {
            line("Application Specific Information:", .sectionHeader)
            for l in stated { line(l) }
            if let asiText = applicationSpecificInformation {
                for l in asiText.split(separator: "\n", omittingEmptySubsequences: false) { line(String(l)) }
            }
            line("")
        }
        if let triage = body["ktriageinfo"]?.stringValue {
            line("Kernel Triage:", .sectionHeader)
            for l in triage.split(separator: "\n", omittingEmptySubsequences: false) { line(String(l)) }
            line("")
        }

        // Backtraces.
        appendExceptionBacktraces(into: out)
        for (i, thread) in threads.enumerated() {
            let crashed = thread.crashed || thread.index == crashedThreadIndex
            let headerKind = RenderedLine.Kind.threadHeader(thread: thread.index, crashed: crashed)
            if embedded {
                if let q = thread.queue {
                    line("Thread \(thread.index) name:   Dispatch queue: \(q)", headerKind)
                } else if let n = thread.name {
                    line("Thread \(thread.index) name:  \(n)", headerKind)
                }
                line("Thread \(thread.index)\(crashed ? " Crashed" : ""):", headerKind)
            } else {
                line(Self.threadHeader(thread, crashed: crashed), headerKind)
            }
            appendFrames(thread.frames, kind: .thread(i), thread: thread.index, into: out)
            line("")
        }

        // Register state of the crashed thread, in Apple's fixed order and rows.
        if let crashed = crashedThread, !crashed.registers.isEmpty { appendRegisterState(of: crashed, into: out) }

        // Binary Images.
        line("Binary Images:", .sectionHeader)
        let rawImages = body["usedImages"]?.arrayValue ?? []
        for (i, image) in binaryImages.enumerated() {
            let raw = i < rawImages.count ? rawImages[i] : nil
            var s = Self.imageRangeColumns(image, raw: raw)
            let uuidText: String
            if embedded {
                uuidText = image.debugID?.hexString ?? ""
                s += "\(image.name) \(image.arch?.name ?? "???")  <\(uuidText)>"
            } else {
                uuidText = image.debugID?.description.lowercased() ?? ""
                let name = raw?["CFBundleIdentifier"]?.stringValue ?? image.name
                let version = raw?["CFBundleShortVersionString"]?.stringValue ?? "*"
                s += "\(name) (\(version)) <\(uuidText)>"
            }
            s += " " + (image.path ?? "???")
            line(s, .binaryImage(isAppImage: image.isAppOwned))
        }
        line("")
        line("EOF")
        line("")
    }

    /// The crashed thread's registers in Apple's fixed order and rows, between blank lines:
    /// the same in the device and the macOS layouts.
    func appendRegisterState(of crashed: Thread, into out: (RenderedLine) -> Void) {
        out(RenderedLine(text: "", kind: .other))
        let kind = RenderedLine.Kind.threadState(thread: crashed.index)
        for text in Self.registerLines(crashed.registers, thread: crashed.index) { out(RenderedLine(text: text, kind: kind)) }
        out(RenderedLine(text: "", kind: .other))
    }

    /// A Binary Images line's address columns, `start - end `, right-aligned in 18 characters
    /// each. Apple prints base + size - 1, which wraps for absent images
    /// (`0x0 - 0xffffffffffffffff`), so the arithmetic wraps too.
    static func imageRangeColumns(_ image: BinaryImage, raw: JSONNode?) -> String {
        let start = "0x" + String(image.loadAddress, radix: 16)
        let size = raw?["size"]?.uint64Value ?? image.endAddress.map { $0 &- image.loadAddress &+ 1 } ?? 0
        let end = "0x" + String(image.loadAddress &+ size &- 1, radix: 16)
        return String(repeating: " ", count: max(0, 18 - start.count)) + start + " - "
            + String(repeating: " ", count: max(0, 18 - end.count)) + end + " "
    }

    /// `Last Exception Backtrace:` and the Application Specific Backtraces, each followed by a
    /// blank line: the same in the device and the macOS layouts.
    func appendExceptionBacktraces(into out: (RenderedLine) -> Void) {
        if let leb = lastExceptionBacktrace {
            out(RenderedLine(text: "Last Exception Backtrace:", kind: .sectionHeader))
            appendFrames(leb.frames, kind: .lastException, thread: nil, into: out)
            out(RenderedLine(text: "", kind: .other))
        }
        for (i, asi) in asiBacktraces.enumerated() {
            out(RenderedLine(text: "\(asi.title):", kind: .sectionHeader))
            appendFrames(asi.frames, kind: .asi(i), thread: nil, into: out)
            out(RenderedLine(text: "", kind: .other))
        }
    }

    func appendFrames(_ frames: [Frame], kind: BacktraceKind, thread: Int?, into out: (RenderedLine) -> Void) {
        var index = 0
        // Consecutive frames of one image (a deep recursion: nearly all of a million) share its
        // name, ownership and base, looked up once.
        var lastImage: (imageIndex: Int?, name: String, isApp: Bool, base: UInt64?)?
        var restsByAddress: [UInt64: (levels: [SymbolicatedFrame], rests: [String])] = [:]
        for frame in frames {
            let shown: (imageIndex: Int?, name: String, isApp: Bool, base: UInt64?)
            if let last = lastImage, frame.imageIndex != nil, last.imageIndex == frame.imageIndex {
                shown = last
            } else {
                let img = image(for: frame)
                shown = (frame.imageIndex, img?.name ?? frame.imageName ?? "???", img?.isAppOwned ?? false, img?.loadAddress)
                lastImage = frame.imageIndex != nil && img != nil ? shown : nil
            }
            let (name, isApp, base) = (shown.name, shown.isApp, shown.base)
            let lineKind = RenderedLine.Kind.frame(thread: thread, backtrace: kind, isAppImage: isApp)
            let rests: [String]
            if let levels = frame.symbolication, !levels.isEmpty {
                // A chain repeated by a recursion is one shared array (the annotator looks each
                // address up once): its text is made once too.
                if let known = restsByAddress[frame.address], known.levels == levels {
                    rests = known.rests
                } else {
                    rests = FrameFormatting.symbolicatedRests(levels)
                    if restsByAddress.count < 4096 { restsByAddress[frame.address] = (levels, rests) }
                }
            } else {
                rests = [FrameFormatting.originalRest(frame, imageBase: base)]
            }
            for rest in rests {
                // A symbol can hold a newline (assertion messages); Apple prints it as is, so
                // the frame continues on the next line.
                let text = FrameFormatting.appleLine(index: index, imageName: name, address: frame.address, rest: rest)
                // Split only what holds a newline: the generic split cost a fifth of rendering a
                // million frames, nearly none of which has one. The prefix holds none but the
                // image's name may.
                guard rest.utf8.contains(0x0A) || name.utf8.contains(0x0A) else {
                    out(RenderedLine(text: text, kind: lineKind))
                    index += 1
                    continue
                }
                for piece in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    out(RenderedLine(text: String(piece), kind: lineKind))
                }
                index += 1
            }
        }
    }

    /// `Thread N crashed with … Thread State` and its rows as Apple prints them: ARM
    /// `x0…x28 fp lr` four per row, then `sp pc cpsr`, then `far esr`; x86 `rax…r15` four per
    /// row, then `rip rfl cr2`, then `Logical CPU`/`Error Code`/`Trap Number`.
    /// The one-line thread header Apple's `.ips` → text conversion prints (iOS and macOS alike):
    /// `Thread 0 Crashed:: name  Dispatch queue: q`.
    static func threadHeader(_ thread: Thread, crashed: Bool) -> String {
        var header = "Thread \(thread.index)\(crashed ? " Crashed" : ""):"
        if thread.name != nil || thread.queue != nil { header += ":" }
        if let name = thread.name { header += " \(name)" }
        if let queue = thread.queue { header += "  Dispatch queue: \(queue)" }
        return header
    }

    static func registerLines(_ registers: [Register], thread: Int = 0) -> [String] {
        var byName: [String: Register] = [:]
        for r in registers { byName[r.name] = r }
        func cell(_ name: String, shown: String? = nil) -> String? {
            guard let r = byName[name] else { return nil }
            let label = shown ?? name
            let hex = String(r.value, radix: 16)
            let width = (name == "cpsr" || name == "esr") ? 8 : 16
            var s =
                String(repeating: " ", count: max(0, 5 - label.count)) + label + ": 0x"
                + String(repeating: "0", count: max(0, width - hex.count)) + hex
            if name == "esr", let note = r.note { s += " " + note }
            return s
        }
        var out: [String] = []
        if byName["x0"] != nil {
            let xs = (0...28).map { "x\($0)" } + ["fp", "lr"]
            let cells = xs.compactMap { cell($0) }
            var row: [String] = []
            for c in cells {
                row.append(c)
                if row.count == 4 {
                    out.append(" " + row.joined())
                    row = []
                }
            }
            if !row.isEmpty { out.append(" " + row.joined()) }
            for group in [["sp", "pc", "cpsr"], ["far", "esr"]] {
                let cells = group.compactMap { cell($0) }
                if !cells.isEmpty { out.append(" " + cells.joined()) }
            }
            return ["Thread \(thread) crashed with ARM Thread State (64-bit):"] + out
        }
        let rows = [
            ["rax", "rbx", "rcx", "rdx"], ["rdi", "rsi", "rbp", "rsp"], ["r8", "r9", "r10", "r11"], ["r12", "r13", "r14", "r15"],
        ]
        for row in rows {
            let cells = row.compactMap { cell($0) }
            if !cells.isEmpty { out.append(cells.joined()) }
        }
        let last = [cell("rip"), cell("rflags", shown: "rfl") ?? cell("rfl"), cell("cr2")].compactMap { $0 }
        if !last.isEmpty { out.append(last.joined()) }
        if let cpu = byName["cpu"] {
            out.append("  ")
            out.append("Logical CPU:     \(cpu.value)")
        }
        if let err = byName["err"] {
            let hex = String(err.value, radix: 16)
            // Apple appends the page-fault reading (`(no mapping for user data write)`) when
            // the report has one, and keeps the space when it has not.
            out.append("Error Code:      0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex + " " + (err.note ?? ""))
        }
        if let trap = byName["trap"] { out.append("Trap Number:     \(trap.value)") }
        return ["Thread \(thread) crashed with X86 Thread State (64-bit):"] + out
    }
}

extension CrashReport {
    /// What a third-party reporter recorded as data (KSCrash, Sentry, PLCrashReporter), in the words Apple's report
    /// prints for it, for the text a reader reads: libobjc's and libc++abi's last words, a
    /// reporter's deadlock monitor. Written here, for people; no stage parses it back.
    var reporterStatements: [String] {
        guard format == .kscrash || format == .sentry || format == .plcrash else { return [] }
        var lines: [String] = []
        if let uncaught = exception?.uncaught {
            switch uncaught.language {
            case .objectiveC:
                lines.append(
                    "*** Terminating app due to uncaught exception '\(uncaught.name ?? "NSException")', reason: '\(uncaught.reason ?? "")'")
            case .cxx:
                lines.append(
                    "libc++abi: terminating due to uncaught exception of type \(uncaught.name ?? "(unknown type)")"
                        + (uncaught.reason.map { ": \($0)" } ?? ""))
            }
        }
        if let deadlock = facts.reporterDeadlock, let reporter = deadlock.reporter {
            lines.append("Application main thread deadlocked (\(reporter)'s watchdog ended the process)")
        }
        guard let record = facts.reporterRecord else { return lines }
        if record.isHandlerCrash {
            lines.insert(
                "\(record.reporter): this is the crash of \(record.reporter)'s own handler while it wrote the report of the original crash",
                at: 0)
        }
        if record.isRequestedByApp { lines.append("report requested by the app; no crash occurred") }
        if let error = record.error {
            if error.isUserReported {
                let language = error.language.map { " (\($0))" } ?? ""
                lines.append("User-reported exception '\(error.name ?? "(unnamed)")'\(language): \(error.reason ?? "")")
                if let line = error.lineOfCode { lines.append("Line of code: \(line)") }
                lines += error.backtrace
            } else if let statement = error.statement {
                lines.append(statement)
            }
        }
        if record.exceptionWasDeallocated {
            lines.append("NOTE: This exception has been deallocated! Stack trace is crash from attempting to access this zombie exception.")
        }
        return lines
    }

    /// The termination's indicator in words when a reporter recorded the termination as data:
    /// a signal's description as Apple's reports print it (`Segmentation fault: 11`), KSCrash's
    /// memory termination and its figures; nil otherwise.
    package var reporterTerminationIndicator: String? {
        guard format == .kscrash || format == .sentry || format == .plcrash else { return nil }
        if let figures = facts.termination?.memoryTermination {
            return "memory termination (the system ended the app for its memory use)"
                + (figures.isEmpty ? "" : ": " + figures.map { "\($0.name) \($0.value)" }.joined(separator: ", "))
        }
        guard let termination = facts.termination, termination.namespace == "SIGNAL", let code = termination.code,
            let number = Int(exactly: code)
        else { return nil }
        return DarwinNames.signalIndicators[number] ?? DarwinNames.signals[number] ?? "signal \(number)"
    }
}
