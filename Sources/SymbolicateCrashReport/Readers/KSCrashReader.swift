import Foundation
import SymbolicateCore
import SymbolicateJSON

/// KSCrash's JSON report (and the SDKs that keep its layout, such as Sentry's SentryCrash):
/// `report` (version `{major, minor}` in 1.x/2.x, a string in 3.x), `system`,
/// `binary_images`, `crash.error`, `crash.threads[].backtrace.contents[]`, `recrash_report`.
/// One report, a JSON array of them, or the `{"reports": […]}` of a batch upload.
///
/// KSCrash writes its report while the process is dying, so a cut or badly ended document is
/// read as far as it goes, with a warning naming the place.
package enum KSCrashReportReader: ReportReader {
    package struct Evidence {
        var document: JSONRepair
        /// Each report object, with its path in the document.
        var reports: [(path: [JSONPathStep], value: JSONValue)]
    }

    package static func detect(_ document: TextDocument) -> Evidence? {
        guard let first = document.firstContentLine else { return nil }
        let start = document.lines[first].text.drop(while: \.isWhitespace)
        guard start.hasPrefix("{") || start.hasPrefix("[") else { return nil }
        let bytes = document.bytes()
        // Cheap refusal: every KSCrash report names these keys.
        guard contains(bytes, "\"crash\"") || contains(bytes, "\"recrash_report\"") || contains(bytes, "\"binary_images\""),
            contains(bytes, "\"report\"") || contains(bytes, "\"instruction_addr\"") || contains(bytes, "\"image_addr\"")
        else { return nil }
        guard let parsed = LenientJSON.parse(bytes) else { return nil }
        let reports = reportObjects(in: parsed.value)
        guard !reports.isEmpty else { return nil }
        return Evidence(document: parsed, reports: reports)
    }

    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        bytes.withUnsafeBytes { h in Array(needle.utf8).withUnsafeBytes { n in ByteSearch.contains(h, n) } }
    }

    /// A KSCrash report object: a `report` object beside `crash`, `binary_images` or `system`;
    /// a `crash` with threads or an error (a report cut before its `report` member, which
    /// KSCrash 2.x writes last); or a lone `recrash_report`.
    static func isReport(_ v: JSONValue) -> Bool {
        guard v.objectValue != nil else { return false }
        if v["report"]?.objectValue != nil, v["crash"] != nil || v["binary_images"] != nil || v["system"] != nil { return true }
        if let crash = v["crash"], crash["threads"]?.arrayValue != nil || crash["error"]?.objectValue != nil { return true }
        return v["recrash_report"]?.objectValue != nil
    }

    static func reportObjects(in root: JSONValue) -> [(path: [JSONPathStep], value: JSONValue)] {
        if isReport(root) { return [([], root)] }
        let list: [JSONValue]
        let prefix: [JSONPathStep]
        if let a = root.arrayValue {
            list = a
            prefix = []
        } else if let a = root["reports"]?.arrayValue {
            list = a
            prefix = [.key("reports")]
        } else {
            return []
        }
        let found = list.enumerated().filter { isReport($0.element) }.map { (prefix + [.index($0.offset)], $0.element) }
        // An array is a batch only when all of it is reports.
        return found.count == list.count ? found : []
    }

    package static func read(_ document: TextDocument, evidence: Evidence, path: String) throws(CrashReportError) -> [CrashReport] {
        var out: [CrashReport] = []
        let repairs = evidence.document.notes.map { note in
            ParseWarning(path: path, line: note.line, message: "damaged KSCrash report: \(note.message)")
        }
        let many = evidence.reports.count > 1
        for (n, entry) in evidence.reports.enumerated() {
            let display = many ? "\(path) (report \(n + 1) of \(evidence.reports.count))" : path
            let value = entry.value
            var pair: [(value: JSONValue, path: [JSONPathStep], other: JSONValue?)] = [(value, entry.path, nil)]
            if let recrash = value["recrash_report"], recrash.objectValue != nil {
                pair.append((recrash, entry.path + [.key("recrash_report")], value))
                pair[0].other = recrash
            }
            // With a recrash, one of the two is the crash of KSCrash's own handler: the
            // `minimal` report as KSCrash writes it, or the embedded one once KSCrash has
            // swapped them (the outer report then says `incomplete`).
            let handler: Int? =
                pair.count < 2 ? nil : (pair[0].value["report"]?["type"]?.stringValue == "minimal" ? 0 : 1)
            for (k, part) in pair.enumerated() where part.value["crash"] != nil || part.value["binary_images"] != nil || pair.count == 1 {
                var r = report(
                    part.value, at: part.path, outer: part.other, bytes: evidence.document.bytes,
                    path: k == handler ? display + " (crash in KSCrash's handler)" : display, warnings: out.isEmpty ? repairs : [])
                if k == handler {
                    var record = r.facts.reporterRecord ?? ReporterRecordFact(reporter: "KSCrash")
                    record.isHandlerCrash = true
                    r.facts.reporterRecord = record
                }
                out.append(r)
            }
        }
        guard !out.isEmpty else {
            throw CrashReportError(kind: .notACrashReport, path: path, message: "KSCrash document without any report")
        }
        return out
    }

    // MARK: - One report

    static func report(
        _ root: JSONValue, at reportPath: [JSONPathStep], outer: JSONValue?, bytes: [UInt8], path: String, warnings: [ParseWarning]
    ) -> CrashReport {
        var warnings = warnings
        let system = root["system"] ?? outer?["system"] ?? .object([])
        let meta = root["report"] ?? .object([])
        let crash = root["crash"] ?? .object([])
        let error = crash["error"] ?? .object([])
        var ips = SynthesizedIPS()

        let version: String? = {
            guard let v = meta["version"] else { return nil }
            if let s = v.stringValue { return s }
            guard let major = v["major"]?.intValue else { return nil }
            return "\(major).\(v["minor"]?.intValue ?? 0)"
        }()
        let processName =
            system["CFBundleExecutable"]?.stringValue ?? system["process_name"]?.stringValue ?? meta["process_name"]?.stringValue
        let identity = ForeignIdentity(
            incident: meta["id"], captureTime: DarwinNames.timestamp(meta["timestamp"]), processName: processName,
            bundleShortVersion: system["CFBundleShortVersionString"], bundleVersion: system["CFBundleVersion"],
            bundleIdentifier: system["CFBundleIdentifier"], osName: system["system_name"]?.stringValue,
            osVersion: system["system_version"]?.stringValue, osBuild: system["os_version"], model: system["machine"],
            arch: system["cpu_arch"]?.stringValue ?? system["binary_arch"]?.stringValue
                ?? DarwinNames.arch(cpuType: system["cpu_type"]?.intValue, subtype: system["cpu_subtype"]?.intValue))
        ips.set(identity)
        ips.set("pid", system["process_id"])
        ips.set("procPath", system["CFBundleExecutablePath"])
        ips.set("parentProc", system["parent_process_name"])
        ips.set("parentPid", system["parent_process_id"])
        if system["proc_translated"]?.boolValue == true { ips.set("translated", .bool(true)) }

        // Images: the report's own list, else (a recrash report) the outer one.
        let imagesPath: [JSONPathStep] = root["binary_images"] != nil ? reportPath + [.key("binary_images")] : []
        for (i, image) in ((root["binary_images"] ?? outer?["binary_images"])?.arrayValue ?? []).enumerated() {
            guard let base = image["image_addr"]?.addressValue else {
                warnings.append(
                    ParseWarning(
                        path: path, jsonPath: (imagesPath + [.index(i)]).dotted, message: "binary image has no image_addr; left out"))
                continue
            }
            ips.addImage(
                base: base, size: image["image_size"]?.uint64Value, uuid: image["uuid"]?.stringValue, path: image["name"]?.stringValue,
                name: nil, arch: DarwinNames.arch(cpuType: image["cpu_type"]?.intValue, subtype: image["cpu_subtype"]?.intValue))
        }

        // The error.
        let type = error["type"]?.stringValue
        let mach = error["mach"]
        let signal = error["signal"]
        let machNumber = mach?["exception"]?.intValue ?? 0
        let signalNumber = signal?["signal"]?.intValue ?? signal?["name"]?.stringValue.flatMap(DarwinNames.signalNumber) ?? 0
        let machName = mach?["exception_name"]?.stringValue ?? DarwinNames.machExceptions[machNumber]
        let signalName = signal?["name"]?.stringValue ?? DarwinNames.signals[signalNumber]
        var asi: [String] = []
        // What KSCrash records as data (an uncaught exception, its deadlock monitor) is set as a
        // typed fact on the report, never written as Apple's English for another stage to parse.
        var uncaught: UncaughtException?
        var deadlock: ReporterDeadlockFact?
        var record = ReporterRecordFact(reporter: "KSCrash")
        var memoryFigures: [MemoryFigure]?
        let address = error["address"]?.uint64Value
        if machNumber != 0 || signalNumber != 0, type != "memory_termination" {
            var exception = JSONValue.object([])
            if machNumber != 0 {
                let code = mach?["code"]?.uint64Value ?? 0
                let subcode = mach?["subcode"]?.uint64Value ?? 0
                exception.setMachException(machName, signal: signalName, code: code, subcode: subcode)
                if machNumber == 1 || mach?["code_name"] != nil {
                    let name = mach?["code_name"]?.stringValue
                    let at = machNumber == 1 ? address.map { "at \(DarwinNames.hex64($0))" } : nil
                    let subtype = [name, at].compactMap { $0 }.joined(separator: " ")
                    if !subtype.isEmpty { exception.set("subtype", .string(subtype)) }
                }
            } else {
                exception.set("type", .string(signalName ?? "signal \(signalNumber)"))
                if let codeName = signal?["code_name"]?.stringValue {
                    exception.set("subtype", .string(codeName + (address.map { " at \(DarwinNames.hex64($0))" } ?? "")))
                }
            }
            ips.set("exception", exception)
            if signalNumber != 0 { ips.setSignalTermination(signalNumber, name: signalName) }
        }
        switch type {
        case "nsexception":
            let e = error["nsexception"]
            uncaught = UncaughtException(
                language: .objectiveC, name: e?["name"]?.stringValue ?? "NSException",
                reason: e?["reason"]?.stringValue ?? error["reason"]?.stringValue)
        case "cpp_exception":
            uncaught = UncaughtException(
                language: .cxx, name: error["cpp_exception"]?["name"]?.stringValue.map(typeName), reason: error["reason"]?.stringValue)
        case "deadlock":
            deadlock = ReporterDeadlockFact(reporter: "KSCrash")
        case "user":
            let u = error["user_reported"]
            var reported = ReportedError(name: u?["name"]?.stringValue, reason: error["reason"]?.stringValue)
            reported.isUserReported = true
            reported.language = u?["language"]?.stringValue
            reported.lineOfCode = u?["line_of_code"]?.stringValue
            reported.backtrace = (u?["backtrace"]?.arrayValue ?? []).compactMap(\.stringValue)
            record.error = reported
        case "memory_termination":
            let m = error["memory_termination"] ?? system["app_memory"] ?? .object([])
            ips.set("termination", .object([("namespace", .string("JETSAM"))]))
            memoryFigures = [
                "memory_level", "memory_footprint", "memory_limit", "memory_remaining", "memory_pressure", "app_transition_state",
            ]
            .compactMap { key in m[key].map { MemoryFigure(name: key, value: $0.stringValue ?? $0.compactText()) } }
        default:
            if let reason = error["reason"]?.stringValue { asi.append(reason) }
        }
        if type != "nsexception", let e = (root["process"] ?? outer?["process"])?["last_dealloced_nsexception"] {
            if uncaught == nil {
                uncaught = UncaughtException(
                    language: .objectiveC, name: e["name"]?.stringValue ?? "NSException", reason: e["reason"]?.stringValue)
            }
            record.exceptionWasDeallocated = true
        }
        var asiObject = JSONValue.object([])
        if !asi.isEmpty { asiObject.set("KSCrash", .array(asi.map(JSONValue.string))) }
        // CrashDoctor's diagnosis is shown where KSCrash's Apple-format filter prints it, and typed
        // as the reporter's guess so that no stage reads it as the crash's own words.
        var diagnosis: ReporterDiagnosisFact?
        if let text = crash["diagnosis"]?.stringValue {
            let lines = text.split(separator: "\n").map(String.init)
            diagnosis = ReporterDiagnosisFact(reporter: "KSCrash", label: "CrashDoctor", lines: lines)
            asiObject.set("CrashDoctor", .array(lines.map(JSONValue.string)))
        }
        if asiObject.objectValue?.isEmpty == false { ips.set("asi", asiObject) }

        // Threads.
        var stripped: [(UInt64, UInt64)] = []
        var slots: [BacktraceKind: FrameSlot] = [:]
        func frames(_ list: [JSONValue], at listPath: [JSONPathStep]) -> (frames: [JSONValue], elements: [Int]) {
            var out: [JSONValue] = []
            var elements: [Int] = []
            for (i, f) in list.enumerated() {
                guard let address = f["instruction_addr"]?.addressValue else {
                    warnings.append(
                        ParseWarning(
                            path: path, jsonPath: (listPath + [.index(i)]).dotted, message: "frame has no instruction_addr; left out"))
                    continue
                }
                out.append(
                    ips.frame(
                        address: address, imageBase: f["object_addr"]?.addressValue, symbol: f["symbol_name"]?.stringValue,
                        symbolAddress: f["symbol_addr"]?.addressValue, stripped: &stripped))
                elements.append(i)
            }
            return (out, elements)
        }
        var threads: [JSONValue] = []
        // KSCrash's own thread numbers (`index`): a `minimal` report lists only its crashed
        // thread, which is not thread 0 of the process.
        var numbers: [Int?] = []
        var crashedIndex: Int?
        // A `minimal` report (KSCrash's recrash) has only the crashed thread.
        let threadList: [(JSONValue, [JSONPathStep])] =
            crash["threads"]?.arrayValue.map { list in
                list.enumerated().map { ($0.element, [.key("crash"), .key("threads"), .index($0.offset)]) }
            } ?? crash["crashed_thread"].map { [($0, [.key("crash"), .key("crashed_thread")])] } ?? []
        for (t, threadPath) in threadList {
            let listPath = reportPath + threadPath + [.key("backtrace"), .key("contents")]
            let (list, elements) = frames(t["backtrace"]?["contents"]?.arrayValue ?? [], at: listPath)
            slots[.thread(threads.count)] = FrameSlot(path: listPath, elements: elements)
            var thread = JSONValue.object([])
            thread.set("id", t["index"])
            numbers.append(t["index"]?.intValue)
            thread.set("name", t["name"])
            thread.set("queue", t["dispatch_queue"])
            if t["crashed"]?.boolValue == true {
                thread.set("triggered", .bool(true))
                if crashedIndex == nil { crashedIndex = threads.count }
            }
            if let skipped = t["backtrace"]?["skipped"]?.intValue, skipped > 0 {
                warnings.append(
                    ParseWarning(
                        path: path, jsonPath: listPath.dotted,
                        message: "KSCrash skipped \(skipped) frame\(skipped == 1 ? "" : "s") of this backtrace (a deep stack)"))
            }
            thread.set("frames", .array(list))
            if let state = registers(t["registers"]?["basic"]) { thread.set("threadState", state) }
            threads.append(thread)
        }
        ips.set("threads", .array(threads))
        if let crashedIndex { ips.set("faultingThread", .int(crashedIndex)) }
        if let e = (root["process"] ?? outer?["process"])?["last_dealloced_nsexception"],
            let contents = e["backtrace"]?["contents"]?.arrayValue, !contents.isEmpty
        {
            let listPath = reportPath + [.key("process"), .key("last_dealloced_nsexception"), .key("backtrace"), .key("contents")]
            let (list, elements) = frames(contents, at: listPath)
            ips.set("lastExceptionBacktrace", .array(list))
            slots[.lastException] = FrameSlot(path: listPath, elements: elements)
        }
        if root["incomplete"]?.boolValue == true {
            warnings.append(ParseWarning(path: path, message: "KSCrash marked this report incomplete (it was cut while being written)"))
        }
        if let warning = ParseWarning.pointerAuthenticationStripped(stripped, path: path) { warnings.append(warning) }

        let foreign = ForeignJSONSource(layout: .kscrash, bytes: bytes, reportPath: reportPath, frameSlots: slots)
        var report = CrashReport.fromForeign(ips, identity: identity, path: path, format: .kscrash, foreign: foreign, warnings: warnings)
        if let uncaught { report.setUncaught(uncaught) }
        report.facts.reporterDeadlock = deadlock
        report.facts.reporterDiagnosis = diagnosis
        if !record.isEmpty { report.facts.reporterRecord = record }
        if let memoryFigures {
            var termination = TerminationFacts(namespace: "JETSAM")
            termination.memoryTermination = memoryFigures
            report.facts.termination = termination
        }
        report.reportVersion = "KSCrash " + (version ?? "?")
        renumber(&report, numbers)
        // The app itself was ended for its memory: a termination of this process, not a
        // jetsam event report (which lists every process and has no backtraces to read).
        if type == "memory_termination" { report.kind = .crash }
        return report
    }

    /// Threads numbered as KSCrash numbered them, when it gave every one a distinct number
    /// (positions otherwise, as for an `.ips`); the crashed thread keeps its place.
    static func renumber(_ report: inout CrashReport, _ numbers: [Int?]) {
        let given = numbers.compactMap { $0 }
        guard given.count == report.threads.count, Set(given).count == given.count,
            given.allSatisfy({ $0 >= 0 && $0 < 100_000 }), given != Array(0..<given.count)
        else { return }
        let crashed = report.crashedThreadIndex.flatMap { i in report.threads.firstIndex { $0.index == i } }
        for i in report.threads.indices { report.threads[i].index = given[i] }
        if let crashed { report.crashedThreadIndex = report.threads[crashed].index }
    }

    /// A C++ type name as `std::type_info::name()` gives it (`11MyException`, `N3foo3BarE`),
    /// readable for the simple cases; anything else as written.
    static func typeName(_ mangled: String) -> String {
        var rest = Substring(mangled)
        var nested = false
        if rest.hasPrefix("N"), rest.hasSuffix("E") {
            nested = true
            rest = rest.dropFirst().dropLast()
        }
        var parts: [String] = []
        while let first = rest.first, first.isNumber {
            let digits = rest.prefix(while: \.isNumber)
            guard let n = Int(digits), n > 0 else { return mangled }
            rest = rest.dropFirst(digits.count)
            guard rest.count >= n else { return mangled }
            parts.append(String(rest.prefix(n)))
            rest = rest.dropFirst(n)
        }
        guard rest.isEmpty, !parts.isEmpty, nested || parts.count == 1 else { return mangled }
        return parts.joined(separator: "::")
    }

    /// `registers.basic` as an `.ips` `threadState`: `x0`…`x28` into the `x` list.
    static func registers(_ basic: JSONValue?) -> JSONValue? {
        guard let members = basic?.objectValue, !members.isEmpty else { return nil }
        var state = JSONValue.object([])
        var x: [(Int, JSONValue)] = []
        for (key, value) in members {
            guard let v = value.uint64Value else { continue }
            if key.hasPrefix("x"), let n = Int(key.dropFirst()) {
                x.append((n, .object([("value", .int(v))])))
            } else {
                state.set(key, .object([("value", .int(v))]))
            }
        }
        if !x.isEmpty { state.set("x", .array(x.sorted { $0.0 < $1.0 }.map(\.1))) }
        return state
    }
}
