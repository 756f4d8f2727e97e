import Foundation
import SymbolicateJSON

extension CrashReport {
    /// Whether Apple translates this non-embedded `.ips` into the macOS layout (`Report
    /// Version: 12`, `Crashed Thread:`, VM Region Info, instruction stream, External
    /// Modification Summary, VM Region Summary) rather than the device layout.
    ///
    /// Mac processes always get it. Simulator processes got it up to macOS 12 (the corpus's
    /// `mdi__sim-…_macos12-4` pair) and get the device layout from macOS 13 on (Console's
    /// translation in the `ips2crashlog__…_macos15-2` pair).
    static func usesMacLayout(header: JSONValue, body: JSONNode) -> Bool {
        let platform = header["platform"]?.intValue
        let path = body["procPath"]?.stringValue ?? ""
        let simulator = [7, 8, 9, 12].contains(platform ?? -1) || path.contains("/CoreSimulator/") || path.contains("/XCTestDevices/")
        guard simulator else { return true }
        let train = body["osVersion"]?["train"]?.stringValue ?? header["os_version"]?.stringValue ?? ""
        let major = train.split(whereSeparator: { !$0.isNumber }).first.flatMap { Int($0) } ?? 0
        return major > 0 && major < 13
    }

    /// The macOS translated-report layout Console and Xcode print for an `.ips` of a Mac
    /// process: checked line by line against the corpus's text twin
    /// (`macsym__multi-target-sigill_macos12-4.ips` / `…_unsymbolicated_macos12-4.crash`).
    func renderMacText(header: JSONValue, body: JSONNode, into out: (RenderedLine) -> Void) {
        func line(_ text: String, _ kind: RenderedLine.Kind = .other) { out(RenderedLine(text: text, kind: kind)) }
        func lines(_ text: String) {
            var pieces = text.split(separator: "\n", omittingEmptySubsequences: false)
            if pieces.last == "" { pieces.removeLast() }
            for piece in pieces { line(String(piece)) }
        }
        func field(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            let label = key + ":"
            line(label + String(repeating: " ", count: max(1, 23 - label.count)) + value)
        }
        func withPID(_ name: String?, _ pid: Int?) -> String? {
            name.map { n in pid.map { "\(n) [\($0)]" } ?? n }
        }

        // Header.
        field("Process", withPID(processName, processID))
        field("Path", processPath)
        field("Identifier", bundleIdentifier ?? processName)
        field("Version", appVersion.flatMap { $0.isEmpty ? nil : $0 } ?? "???")
        field("Code Type", codeType)
        field("Parent Process", parentProcess)
        field("Responsible", withPID(body["responsibleProc"]?.stringValue, body["responsiblePid"]?.intValue))
        field("User ID", body["userID"]?.stringValue)
        line("")
        field("Date/Time", dateTime)
        field("OS Version", osVersion)
        field("Report Version", "12")
        field("Anonymous UUID", body["crashReporterKey"]?.stringValue)
        line("")
        if let sleepWake = body["sleepWakeUUID"]?.stringValue { field("Sleep/Wake UUID", sleepWake) }
        line("")
        field("Time Awake Since Boot", body["uptime"]?.stringValue.map { "\($0) seconds" })
        field("Time Since Wake", body["wakeTime"]?.stringValue.map { "\($0) seconds" })
        line("")
        if let sip = body["sip"]?.stringValue {
            line("System Integrity Protection: \(sip)")
            line("")
        }
        if let t = crashedThreadIndex {
            let queue = threads.first { $0.index == t }?.queue ?? body["legacyInfo"]?["threadTriggered"]?["queue"]?.stringValue
            field("Crashed Thread", "\(t)" + (queue.map { "  Dispatch queue: \($0)" } ?? ""))
            line("")
        }

        // Exception block.
        if let e = exception {
            field("Exception Type", (e.type ?? "???") + (e.signal.map { " (\($0))" } ?? ""))
            field("Exception Codes", e.subtype)
            field("Exception Codes", e.codes)
            field("Exception Note", e.note)
            field("Exception Message", e.message)
            line("")
        }
        if let t = termination {
            let raw = body["termination"]
            var reason = "Namespace \(t.namespace ?? "???")"
            if let code = t.code { reason += ", Code \(code)" }
            if let indicator = raw?["indicator"]?.stringValue ?? t.text ?? reporterTerminationIndicator, !indicator.isEmpty {
                reason += " \(indicator)"
            }
            field("Termination Reason", reason)
            for d in raw?["details"]?.arrayValue?.compactMap(\.stringValue) ?? [] { line(d) }
            field("Terminating Process", t.byProcess)
            line("")
        }
        if let region = body["vmRegionInfo"]?.stringValue, !region.isEmpty {
            lines("VM Region Info: " + region)
            line("")
        }
        let stated = reporterStatements
        if applicationSpecificInformation != nil || !stated.isEmpty {
            line("Application Specific Information:", .sectionHeader)
            for statement in stated { line(statement) }
            if let asiText = applicationSpecificInformation { lines(asiText) }
            line("")
        }
        if let triage = body["ktriageinfo"]?.stringValue {
            line("Kernel Triage:", .sectionHeader)
            lines(triage)
            line("")
        }

        // Backtraces.
        appendExceptionBacktraces(into: out)
        let rawThreads = body["threads"]?.arrayValue ?? []
        for (i, thread) in threads.enumerated() {
            let crashed = thread.crashed || thread.index == crashedThreadIndex
            line(Self.threadHeader(thread, crashed: crashed), .threadHeader(thread: thread.index, crashed: crashed))
            appendFrames(thread.frames, kind: .thread(i), thread: thread.index, into: out)
            line("")
        }

        // Register state and the instruction stream of the crashed thread.
        if let crashed = crashedThread, !crashed.registers.isEmpty {
            appendRegisterState(of: crashed, into: out)
            let raw =
                rawThreads.first { $0["triggered"]?.boolValue == true }
                ?? (crashed.index < rawThreads.count ? rawThreads[crashed.index] : nil)
            if let stream = Self.instructionStream(thread: raw, body: body) {
                line("Thread \(crashed.index) instruction stream:")
                for text in Self.instructionStreamLines(bytes: stream.bytes, pcOffset: stream.pcOffset) { line(text) }
                line("")
            }
        }

        // Binary Images.
        line("Binary Images:", .sectionHeader)
        let rawImages = body["usedImages"]?.arrayValue ?? []
        for (i, image) in binaryImages.enumerated() {
            let raw = i < rawImages.count ? rawImages[i] : nil
            var s = Self.imageRangeColumns(image, raw: raw)
            let name = raw?["CFBundleIdentifier"]?.stringValue ?? image.name
            let version = raw?["CFBundleShortVersionString"]?.stringValue ?? "*"
            s += "\(name) (\(version)) <\(image.debugID?.description.lowercased() ?? "")> \(image.path ?? "???")"
            line(s, .binaryImage(isAppImage: image.isAppOwned))
        }
        line("")

        if let mods = body["extMods"], mods["targeted"] != nil || mods["caller"] != nil || mods["system"] != nil {
            line("External Modification Summary:", .sectionHeader)
            for (title, key) in [
                ("Calls made by other processes targeting this process:", "targeted"),
                ("Calls made by this process:", "caller"),
                ("Calls made by all processes on this machine:", "system"),
            ] {
                line("  " + title)
                for counter in ["task_for_pid", "thread_create", "thread_set_state"] {
                    line("    \(counter): \(mods[key]?[counter]?.stringValue ?? "0")")
                }
            }
            line("")
        }
        if let summary = body["vmSummary"]?.stringValue, !summary.isEmpty {
            line("VM Region Summary:", .sectionHeader)
            lines(summary)
            line("")
            line("")
            line("")
        }
    }

    /// The crashed thread's instruction bytes and the index of the byte at the PC: macOS 12–15
    /// `.ips` put them in `instructionState.instructionStream` (`bytes`, `offset`); newer ones
    /// in `instructionByteStream` as base64 `beforePC` and `atPC`.
    static func instructionStream(thread: JSONNode?, body: JSONNode) -> (bytes: [UInt8], pcOffset: Int)? {
        if let stream = thread?["instructionState"]?["instructionStream"], let values = stream["bytes"]?.arrayValue {
            let bytes = values.compactMap { $0.intValue.flatMap { UInt8(exactly: $0) } }
            guard bytes.count == values.count, !bytes.isEmpty else { return nil }
            return (bytes, stream["offset"]?.intValue ?? -1)
        }
        if let stream = body["instructionByteStream"],
            let before = stream["beforePC"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
            let at = stream["atPC"]?.stringValue.flatMap({ Data(base64Encoded: $0) }), !(before.isEmpty && at.isEmpty)
        {
            return ([UInt8](before) + [UInt8](at), before.count)
        }
        return nil
    }

    /// `  00 00 48 b8 …-00 00 …  ..H.........I...`, 16 bytes a row, the PC's byte in brackets
    /// (replacing the separators around it) and its row marked `\t<==`, as Apple prints them.
    static func instructionStreamLines(bytes: [UInt8], pcOffset: Int) -> [String] {
        var out: [String] = []
        var rowStart = 0
        while rowStart < bytes.count {
            let row = bytes[rowStart..<min(rowStart + 16, bytes.count)]
            var hex = " "
            var ascii = ""
            for (column, byte) in row.enumerated() {
                let index = rowStart + column
                if index == pcOffset {
                    hex += "["
                } else if index - 1 == pcOffset && column > 0 {
                    hex += "]"
                } else {
                    hex += column == 8 ? "-" : " "
                }
                let text = String(byte, radix: 16)
                hex += (text.count == 1 ? "0" : "") + text
                ascii.append((0x20...0x7E).contains(byte) ? Character(UnicodeScalar(byte)) : ".")
            }
            let endsOnPC = rowStart + row.count - 1 == pcOffset
            hex += endsOnPC ? "] " : "  "
            var text = hex + ascii
            if (rowStart..<rowStart + row.count).contains(pcOffset) { text += "\t<==" }
            out.append(text)
            rowStart += 16
        }
        return out
    }
}
