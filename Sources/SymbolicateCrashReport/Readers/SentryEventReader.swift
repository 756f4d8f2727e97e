import Foundation
import SymbolicateCore
import SymbolicateJSON

/// A Sentry event: `exception.values[]` (with `mechanism.meta.mach_exception`/`signal`),
/// `threads.values[].stacktrace.frames[]`, `debug_meta.images[]`, addresses as numbers or hex
/// strings. Read as the event JSON Sentry's web page exports, the API's `entries` form, and
/// the envelope the Cocoa SDK stores on disk (a header line, then items; the `event` item is read).
///
/// Sentry lists frames caller first; Apple's layout (and the model) crashing frame first, so
/// every backtrace is reversed.
package enum SentryEventReader: ReportReader {
    package struct Evidence {
        var event: JSONValue
        var bytes: [UInt8]
    }

    package static func detect(_ document: TextDocument) -> Evidence? {
        guard let first = document.firstContentLine, document.lines[first].text.drop(while: \.isWhitespace).hasPrefix("{") else {
            return nil
        }
        let bytes = document.bytes()
        guard
            KSCrashReportReader.contains(bytes, "\"exception\"") || KSCrashReportReader.contains(bytes, "\"threads\"")
                || KSCrashReportReader.contains(bytes, "\"debug_meta\"") || KSCrashReportReader.contains(bytes, "\"entries\"")
        else { return nil }
        if let value = try? JSONParser.parse(bytes).value {
            guard let event = event(from: value) else { return nil }
            return Evidence(event: event, bytes: event == value ? bytes : Array(event.compactText().utf8))
        }
        return envelopeEvent(document)
    }

    /// The event object in its stored or exported form, or nil when `value` is no Sentry event.
    static func event(from value: JSONValue) -> JSONValue? {
        guard value.objectValue != nil else { return nil }
        let identity = value["event_id"] != nil || value["platform"] != nil || value["sdk"] != nil || value["eventID"] != nil
        if identity,
            value["exception"]?["values"]?.arrayValue != nil || value["threads"]?["values"]?.arrayValue != nil
                || value["debug_meta"]?["images"]?.arrayValue != nil
        {
            return value
        }
        // The API's form: `entries: [{type: exception|threads|debugmeta, data: …}]`.
        guard let entries = value["entries"]?.arrayValue else { return nil }
        var event = value
        var found = false
        for entry in entries {
            switch entry["type"]?.stringValue {
            case "exception":
                event.set("exception", entry["data"])
                found = true
            case "threads":
                event.set("threads", entry["data"])
                found = true
            case "debugmeta":
                event.set("debug_meta", entry["data"])
                found = true
            default: break
            }
        }
        return found ? event : nil
    }

    /// An envelope: a header line (`event_id`, `sdk`, `dsn`), then per item a header line
    /// (`type`, `length`) and its payload.
    static func envelopeEvent(_ document: TextDocument) -> Evidence? {
        let bytes = document.bytes()
        var lines: [ArraySlice<UInt8>] = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let head = lines.first, let header = try? JSONParser.parse(head).value,
            header["event_id"] != nil || header["sdk"] != nil || header["dsn"] != nil
        else { return nil }
        var i = 1
        while i < lines.count {
            guard let item = try? JSONParser.parse(lines[i]).value, let type = item["type"]?.stringValue else { return nil }
            i += 1
            guard i < lines.count else { return nil }
            if type == "event", let value = try? JSONParser.parse(lines[i]).value, let event = event(from: value) {
                return Evidence(event: event, bytes: Array(lines[i]))
            }
            // Payloads given a length may hold line breaks; skip to the next header line.
            if let length = item["length"]?.intValue, length >= 0 {
                var consumed = lines[i].count
                while consumed < length, i + 1 < lines.count {
                    i += 1
                    consumed += 1 + lines[i].count
                }
            }
            i += 1
        }
        return nil
    }

    package static func read(_ document: TextDocument, evidence: Evidence, path: String) throws(CrashReportError) -> [CrashReport] {
        [report(evidence.event, bytes: evidence.bytes, path: path)]
    }

    static func report(_ event: JSONValue, bytes: [UInt8], path: String) -> CrashReport {
        var warnings: [ParseWarning] = []
        var ips = SynthesizedIPS()
        let contexts = event["contexts"] ?? .object([])
        let app = contexts["app"] ?? .object([])
        let os = contexts["os"] ?? .object([])
        let device = contexts["device"] ?? .object([])

        // Images (first: the app's path among them names the process when the event does not).
        let imagesPath: [JSONPathStep] = [.key("debug_meta"), .key("images")]
        var appImagePath: String?
        for (i, image) in (event["debug_meta"]?["images"]?.arrayValue ?? []).enumerated() {
            if let kind = image["type"]?.stringValue, !["macho", "apple"].contains(kind) { continue }
            guard let base = image["image_addr"]?.addressValue else {
                warnings.append(
                    ParseWarning(path: path, jsonPath: (imagesPath + [.index(i)]).dotted, message: "image has no image_addr; left out"))
                continue
            }
            let file = image["code_file"]?.stringValue ?? image["name"]?.stringValue
            ips.addImage(
                base: base, size: image["image_size"]?.uint64Value,
                uuid: (image["debug_id"] ?? image["uuid"])?.stringValue.map(Self.uuid), path: file, name: nil,
                arch: image["arch"]?.stringValue
                    ?? DarwinNames.arch(cpuType: image["cpu_type"]?.intValue, subtype: image["cpu_subtype"]?.intValue))
            if appImagePath == nil, let file, file.containsBytes(".app/") { appImagePath = file }
        }

        let processPath = appImagePath
        let processName =
            app["app_name"]?.stringValue ?? app["app_identifier"]?.stringValue.flatMap { $0.split(separator: ".").last.map(String.init) }
            ?? processPath.flatMap { $0.split(separator: "/").last.map(String.init) }
        let identity = ForeignIdentity(
            incident: event["event_id"] ?? event["eventID"] ?? event["id"],
            captureTime: DarwinNames.timestamp(event["timestamp"] ?? event["dateCreated"]), processName: processName,
            bundleShortVersion: app["app_version"], bundleVersion: app["app_build"], bundleIdentifier: app["app_identifier"],
            osName: os["name"]?.stringValue, osVersion: os["version"]?.stringValue, osBuild: os["build"], model: device["model"],
            arch: device["arch"]?.stringValue)
        ips.set(identity)
        ips.set("procPath", processPath.map(JSONValue.string))

        // The exception: the last value is the one that ended the process.
        let values = event["exception"]?["values"]?.arrayValue ?? []
        let crashing = values.last
        var record = ReporterRecordFact(reporter: "Sentry")
        var uncaught: UncaughtException?
        if let e = crashing {
            let meta = e["mechanism"]?["meta"]
            let mach = meta?["mach_exception"]
            let signal = meta?["signal"]
            let machNumber = mach?["exception"]?.intValue ?? 0
            let signalNumber = signal?["number"]?.intValue ?? signal?["name"]?.stringValue.flatMap(DarwinNames.signalNumber) ?? 0
            let machName = mach?["name"]?.stringValue ?? DarwinNames.machExceptions[machNumber]
            let signalName = signal?["name"]?.stringValue ?? DarwinNames.signals[signalNumber]
            let address = e["mechanism"]?["data"]?["relevant_address"]?.addressValue
            var exception = JSONValue.object([])
            if machNumber != 0 {
                let code = mach?["code"]?.uint64Value ?? 0
                let subcode = mach?["subcode"]?.uint64Value ?? 0
                exception.setMachException(machName, signal: signalName, code: code, subcode: subcode)
                if machNumber == 1 {
                    let kern = [1: "KERN_INVALID_ADDRESS", 2: "KERN_PROTECTION_FAILURE"][Int(truncatingIfNeeded: code)]
                    let subtype = [kern, (address ?? (subcode != 0 ? subcode : nil)).map { "at \(DarwinNames.hex64($0))" }].compactMap {
                        $0
                    }
                    .joined(separator: " ")
                    if !subtype.isEmpty { exception.set("subtype", .string(subtype)) }
                }
            } else if signalNumber != 0 {
                exception.set("type", .string(signalName ?? "signal \(signalNumber)"))
            }
            if exception.objectValue?.isEmpty == false { ips.set("exception", exception) }
            if signalNumber != 0 { ips.setSignalTermination(signalNumber, name: signalName) }
            let name = e["type"]?.stringValue
            let reason = e["value"]?.stringValue
            // Sentry's mechanism says what kind of exception it was: set as a typed fact, never
            // written as Apple's English for another stage to parse.
            switch e["mechanism"]?["type"]?.stringValue {
            case "nsexception":
                uncaught = UncaughtException(language: .objectiveC, name: name ?? "NSException", reason: reason)
            case "cpp_exception":
                uncaught = UncaughtException(language: .cxx, name: name, reason: reason)
            default:
                if let reason, !reason.isEmpty {
                    record.error = ReportedError(name: name, reason: reason)
                }
            }
        }

        // Threads; the crashed one's frames may sit in the exception instead.
        var stripped: [(UInt64, UInt64)] = []
        var slots: [BacktraceKind: FrameSlot] = [:]
        func frames(_ list: [JSONValue], at listPath: [JSONPathStep]) -> (frames: [JSONValue], elements: [Int]) {
            var out: [JSONValue] = []
            var elements: [Int] = []
            // Indices, not enumerated().reversed(): on Apple's SDK that binds to a macOS 26 conformance.
            for i in list.indices.reversed() {
                let f = list[i]
                guard let address = f["instruction_addr"]?.addressValue else {
                    warnings.append(
                        ParseWarning(
                            path: path, jsonPath: (listPath + [.index(i)]).dotted, message: "frame has no instruction_addr; left out"))
                    continue
                }
                let symbol = (f["function"] ?? f["symbol"])?.stringValue.flatMap { $0 == "<redacted>" || $0.isEmpty ? nil : $0 }
                out.append(
                    ips.frame(
                        address: address, imageBase: f["image_addr"]?.addressValue, symbol: symbol,
                        symbolAddress: f["symbol_addr"]?.addressValue, stripped: &stripped))
                elements.append(i)
            }
            return (out, elements)
        }
        let exceptionIndex = values.isEmpty ? nil : values.count - 1
        let exceptionThread = crashing?["thread_id"]
        var threads: [JSONValue] = []
        var crashedIndex: Int?
        for (i, t) in (event["threads"]?["values"]?.arrayValue ?? []).enumerated() {
            var listPath: [JSONPathStep] = [.key("threads"), .key("values"), .index(i), .key("stacktrace"), .key("frames")]
            var list = t["stacktrace"]?["frames"]?.arrayValue
            let isCrashed = t["crashed"]?.boolValue == true || (exceptionThread != nil && t["id"] == exceptionThread && t["crashed"] == nil)
            if list == nil, isCrashed, let exceptionIndex, let frames = crashing?["stacktrace"]?["frames"]?.arrayValue {
                list = frames
                listPath = [.key("exception"), .key("values"), .index(exceptionIndex), .key("stacktrace"), .key("frames")]
            }
            let (converted, elements) = frames(list ?? [], at: listPath)
            slots[.thread(threads.count)] = FrameSlot(path: listPath, elements: elements)
            var thread = JSONValue.object([])
            thread.set("id", t["id"])
            thread.set("name", t["name"])
            if isCrashed {
                thread.set("triggered", .bool(true))
                if crashedIndex == nil { crashedIndex = threads.count }
            }
            thread.set("frames", .array(converted))
            if let regs = KSCrashReportReader.registers(
                t["stacktrace"]?["registers"] ?? (isCrashed ? crashing?["stacktrace"]?["registers"] : nil))
            {
                thread.set("threadState", regs)
            }
            threads.append(thread)
        }
        if threads.isEmpty, let exceptionIndex, let list = crashing?["stacktrace"]?["frames"]?.arrayValue,
            list.contains(where: { $0["instruction_addr"] != nil })
        {
            // No thread list: the exception's own stack is the crashed thread.
            let listPath: [JSONPathStep] = [.key("exception"), .key("values"), .index(exceptionIndex), .key("stacktrace"), .key("frames")]
            let (converted, elements) = frames(list, at: listPath)
            slots[.thread(0)] = FrameSlot(path: listPath, elements: elements)
            threads.append(.object([("id", crashing?["thread_id"] ?? .int(0)), ("triggered", .bool(true)), ("frames", .array(converted))]))
            crashedIndex = 0
        }
        ips.set("threads", .array(threads))
        if let crashedIndex { ips.set("faultingThread", .int(crashedIndex)) }
        if let warning = ParseWarning.pointerAuthenticationStripped(stripped, path: path) { warnings.append(warning) }

        let foreign = ForeignJSONSource(layout: .sentry, bytes: bytes, reportPath: [], frameSlots: slots)
        var report = CrashReport.fromForeign(ips, identity: identity, path: path, format: .sentry, foreign: foreign, warnings: warnings)
        if let uncaught { report.setUncaught(uncaught) }
        if !record.isEmpty { report.facts.reporterRecord = record }
        report.reportVersion =
            "Sentry event" + (event["sdk"]?["name"]?.stringValue.map { " (\($0) \(event["sdk"]?["version"]?.stringValue ?? ""))" } ?? "")
        return report
    }

    /// Sentry's `debug_id` is a UUID, sometimes with an age suffix (`…-0`) or undashed.
    static func uuid(_ id: String) -> String {
        let hex = id.filter(\.isHexDigit)
        guard hex.count >= 32 else { return id }
        return String(hex.prefix(32))
    }
}
