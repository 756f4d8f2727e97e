import Foundation
import SymbolicateCore
import SymbolicateJSON

/// Reads a modern `.ips` (JSON header line + JSON body) into the model. The JSON documents
/// are kept so the `.ips` writer can emit them again with every unknown key intact.
struct IPSParser {
    let document: TextDocument
    let header: JSONValue
    /// 0-based line indices.
    let headerLine: Int
    let bodyStartLine: Int
    let path: String

    /// Bug types whose body carries `threads`/`usedImages` in the crash layout.
    static let describedBugTypes: [String: String] = [
        "309": "crash", "288": "stackshot/hang", "298": "jetsam event", "210": "panic", "185": "resource (EXC_RESOURCE)",
        "206": "cpu resource", "145": "disk writes resource", "142": "wakeups resource", "409": "hang", "385": "memory resource",
        "109": "legacy crash", "188": "stackshot", "151": "app hang",
    ]

    func parse() throws(CrashReportError) -> CrashReport {
        let bytes = document.bytes(from: bodyStartLine)
        let body: JSONNode
        // Where a body cut before its end stops (the parser's JSON path there; "" at the top).
        var cutAt: String?
        // An error at end of input points past the last line; name the last line instead.
        let lastLine = (document.lines.lastIndex(where: { !$0.text.allSatisfy(\.isWhitespace) }) ?? 0) + 1
        do {
            body = try JSONParser.parseTape(bytes).root
        } catch {
            // A body cut off (pasted into an issue) is read as far as its JSON goes.
            if let closed = JSONCut.close(bytes), let root = try? JSONParser.parseTape(closed).root, root.isObject {
                body = root
                cutAt = error.path ?? ""
            } else {
                throw CrashReportError(
                    kind: .invalidJSON, path: path, line: min(bodyStartLine + error.line, lastLine),
                    jsonPath: error.path, message: "JSON body does not parse: \(error.message)" + Self.readableHeader(header))
            }
        }
        guard body.isObject else {
            throw CrashReportError(kind: .invalidJSON, path: path, line: bodyStartLine + 1, message: "JSON body is not an object")
        }
        let firstLine = document.lines[headerLine]
        var report = CrashReport(
            path: path, format: .ips, source: .ips(header: self.header, body: body, headerLine: firstLine.text + firstLine.terminator))
        Self.fill(&report, from: body)
        report.applyIPSHeader(self.header)
        if let cutAt {
            Self.markCut(&report, at: cutAt, body: body, line: lastLine)
        } else {
            Self.warnIfUnsupported(&report, path: path)
        }
        return report
    }

    /// A body cut at `jsonPath` (`threads[3].frames[12]`): partial, with what it lacks, and the
    /// same `partial report:` warning a cut text report gets.
    static func markCut(_ report: inout CrashReport, at jsonPath: String, body: JSONNode, line: Int) {
        var missing: [MissingPart] = [.jsonCut(at: jsonPath.isEmpty ? nil : jsonPath)]
        let top = jsonPath.prefix { $0 != "." && $0 != "[" }
        if top == "threads" {
            let digits = jsonPath.dropFirst("threads[".count).prefix(while: \.isNumber)
            if let n = Int(digits) { missing.append(.endsInsideThread(n)) }
        } else if top == "lastExceptionBacktrace" {
            missing.append(.endsInsideLastExceptionBacktrace)
        } else if top == "usedImages" {
            missing.append(.endsInsideBinaryImages)
        }
        if report.exception == nil, report.termination == nil, body["exception"] == nil { missing.append(.noExceptionInformation) }
        if body["threads"] == nil { missing.append(.noThreads) }
        if body["usedImages"] == nil { missing.append(.noBinaryImages) }
        report.completeness = .partial(missing)
        var message = "partial report: " + report.completeness.summary
        if body["usedImages"] == nil, report.allBacktraces.contains(where: { !$0.frames.isEmpty }) {
            message += " (frames name their image by its place in usedImages: they cannot be matched to debug files)"
        } else if top == "usedImages" {
            message += ": frames in images after the cut cannot be matched to debug files"
        }
        report.warnings.append(
            ParseWarning(path: report.path, line: line, jsonPath: jsonPath.isEmpty ? nil : jsonPath, message: message, kind: .partialReport)
        )
    }

    /// What the header line still tells when the body is beyond recovery, so even a broken
    /// report says what it was: `; the header line reads: bug_type 210 (panic), os_version …`.
    static func readableHeader(_ header: JSONValue) -> String {
        guard let members = header.objectValue, !members.isEmpty else { return "" }
        let fields = members.map { member -> String in
            let value = member.value.stringValue ?? member.value.compactText()
            if member.key == "bug_type", let what = describedBugTypes[value] { return "bug_type \(value) (\(what))" }
            return "\(member.key.trimmedBlanks) \(value)"
        }
        return "; the header line reads: " + fields.joined(separator: ", ")
    }

    /// A file that starts with `{` but whose first line is not a complete JSON object: a
    /// body without a header line, or a broken header.
    static func parseHeaderless(document: TextDocument, path: String, headerError: JSONSyntaxError, headerLine: Int)
        throws(CrashReportError) -> CrashReport
    {
        let bytes = document.bytes()
        let body: JSONNode
        do {
            body = try JSONParser.parseTape(bytes).root
        } catch {
            // Named for the layout the document was taken for: a MetricKit payload that does
            // not parse is no `.ips` header line.
            if let layout = MetricKitReader.looksLikePayload(bytes) {
                // Its own error, at the nesting bound MetricKit payloads are read with.
                var deep = error
                do { _ = try JSONParser.parse(bytes, maxDepth: JSONParser.deepMaxDepth) } catch { deep = error }
                throw CrashReportError(
                    kind: .invalidJSON, path: path, line: deep.line, jsonPath: deep.path,
                    message: "\(layout) does not parse: \(deep.message)")
            }
            if error.line == 1 {
                throw CrashReportError(
                    kind: .invalidJSON, path: path, line: headerLine, jsonPath: headerError.path,
                    message: ".ips header line does not parse: \(headerError.message)")
            }
            // One whole value and more text after it (a member pasted out of a larger document,
            // its comma kept; prose after it): no layout of its own, so the text is read for
            // what its lines state (`ReportReaders.statedCrash`), or refused.
            if (try? JSONParser.parse(bytes, allowTrailing: true)) != nil {
                throw CrashReportError(
                    kind: .notACrashReport, path: path, line: error.line, jsonPath: error.path,
                    message:
                        "a JSON value with more text after it (line \(error.line)), in none of the layouts read (tried: \(KnownJSONLayouts.names))"
                )
            }
            // Braces with no JSON member anywhere (`"key":`) are another language's table (a Lua crash
            // table, an Erlang term, a Python dict): no JSON layout, so the text is read for what
            // its lines state, as above.
            if !MessageScan.occurs(Array("\":".utf8), in: bytes) && !MessageScan.occurs(Array("\" :".utf8), in: bytes) {
                throw CrashReportError(
                    kind: .notACrashReport, path: path, line: error.line,
                    message:
                        "braces but no JSON member (line \(error.line)), in none of the layouts read (tried: \(KnownJSONLayouts.names))")
            }
            throw CrashReportError(
                kind: .invalidJSON, path: path, line: error.line, jsonPath: error.path,
                message: "JSON does not parse: \(error.message)")
        }
        guard body.isObject else {
            throw CrashReportError(kind: .invalidJSON, path: path, line: headerLine, message: "JSON document is not an object")
        }
        guard isIPSBody(body) else {
            throw CrashReportError(
                kind: .notACrashReport, path: path, line: headerLine,
                message: "JSON document in none of the layouts read (tried: \(KnownJSONLayouts.names))")
        }
        var report = CrashReport(
            path: path, format: .ips, source: .ips(header: .object([]), body: body, headerLine: ""))
        fill(&report, from: body)
        report.warnings.append(
            ParseWarning(path: path, line: headerLine, message: ".ips file has no header line; read the JSON body alone"))
        warnIfUnsupported(&report, path: path)
        return report
    }

    /// Keys an `.ips` header line has some of; a one-line JSON object with none of them is
    /// some other document (a `package.json`), not an `.ips` header.
    static let ipsHeaderKeys: Set<String> = [
        "bug_type", "os_version", "timestamp", "app_name", "incident_id", "slice_uuid", "app_version", "bundleID",
    ]
    /// Keys an `.ips` body always has some of, read when the header line is missing.
    static let ipsBodyKeys: Set<String> = [
        "bug_type", "threads", "usedImages", "procName", "procPath", "incident", "crashReporterKey", "faultingThread",
        "panicString", "processByPid", "largestProcess", "memoryStatus", "captureTime", "modelCode", "cpuType",
    ]

    static func isIPSHeader(_ value: JSONValue) -> Bool {
        (value.objectValue ?? []).contains { ipsHeaderKeys.contains($0.key) || ipsBodyKeys.contains($0.key) }
    }

    static func isIPSBody(_ value: JSONNode) -> Bool {
        var found = false
        value.forEachChild { member in found = found || member.key.map(ipsBodyKeys.contains) == true }
        // A body cut to its crash members (`exception` with its Mach type, `termination` with
        // its namespace), as a poster copies the part that matters.
        found =
            found || value["exception"]?["type"]?.stringValue?.hasPrefix("EXC_") == true
            || value["termination"]?["namespace"]?.stringValue?.isEmpty == false
        return value.isObject && found
    }

    private static func warnIfUnsupported(_ report: inout CrashReport, path: String) {
        let bug = report.bugType ?? "?"
        if report.threads.isEmpty && report.binaryImages.isEmpty {
            let what = describedBugTypes[bug].map { "\($0) report" } ?? "report"
            report.warnings.append(
                ParseWarning(
                    path: path,
                    message: "bug_type \(bug) \(what) has no threads or binary images: not supported for symbolication; printed unchanged"))
        } else if bug != "309", describedBugTypes[bug] == nil {
            report.warnings.append(
                ParseWarning(path: path, message: "bug_type \(bug) is not a known crash type; read as far as it has threads and images"))
        }
    }

    static func fill(_ report: inout CrashReport, from body: JSONNode) {
        report.bugType = body["bug_type"]?.stringValue
        report.incidentIdentifier = body["incident"]?.stringValue
        report.processName = body["procName"]?.stringValue
        report.processID = body["pid"]?.intValue
        report.processPath = body["procPath"]?.stringValue
        report.bundleIdentifier = body["bundleInfo"]?["CFBundleIdentifier"]?.stringValue
        if let short = body["bundleInfo"]?["CFBundleShortVersionString"]?.stringValue {
            let build = body["bundleInfo"]?["CFBundleVersion"]?.stringValue
            report.appVersion = build.map { "\(short) (\($0))" } ?? short
        }
        report.parentProcess = body["parentProc"]?.stringValue.map { p in body["parentPid"]?.intValue.map { "\(p) [\($0)]" } ?? p }
        report.dateTime = body["captureTime"]?.stringValue
        if let os = body["osVersion"], let train = os["train"]?.stringValue {
            let build = os["build"]?.stringValue
            report.osVersion = build.map { "\(train) (\($0))" } ?? train
            report.operatingSystem = OperatingSystem(train: train, build: build)
        }
        report.hardwareModel = body["modelCode"]?.stringValue
        if let cpu = body["cpuType"]?.stringValue {
            let translated = body["translated"]?.boolValue == true
            report.isTranslated = translated
            report.codeType = cpu + (translated ? " (Translated)" : " (Native)")
            report.architecture = Architecture(codeType: cpu)
        }
        if let e = body["exception"] {
            report.exception = ExceptionInfo(
                type: e["type"]?.stringValue, signal: e["signal"]?.stringValue, codes: e["codes"]?.stringValue,
                subtype: e["subtype"]?.stringValue, note: body["isCorpse"]?.boolValue == true ? "EXC_CORPSE_NOTIFY" : nil,
                message: e["message"]?.stringValue)
        }
        // Apple's text translation prints these flags as an `Exception Note:` line.
        let nonFatal =
            body["isSimulated"]?.boolValue == true
            ? "SIMULATED (this is NOT a crash)"
            : body["isNonFatal"]?.boolValue == true ? "NON-FATAL CONDITION (this is NOT a crash)" : nil
        if let nonFatal {
            report.exception = report.exception ?? ExceptionInfo()
            report.exception?.nonFatalNote = nonFatal
        }
        if let t = body["termination"] {
            var text = t["indicator"]?.stringValue
            let more = (t["reasons"]?.arrayValue ?? []) + (t["details"]?.arrayValue ?? [])
            let extra = more.compactMap(\.stringValue)
            if !extra.isEmpty { text = ([text].compactMap { $0 } + extra).joined(separator: " ") }
            let code: String? = t["code"].flatMap { v in
                if v.kind == .number, let u = UInt64(v.sourceText), u > 0xFFFF { return "0x" + String(u, radix: 16) }
                return v.stringValue
            }
            report.termination = TerminationInfo(
                namespace: t["namespace"]?.stringValue, code: code, text: text,
                byProcess: t["byProc"]?.stringValue.map { p in t["byPid"]?.intValue.map { "\(p) [\($0)]" } ?? p },
                details: t["details"]?.arrayValue.map { $0.compactMap(\.stringValue) }.flatMap { $0.isEmpty ? nil : $0 })
        }
        report.asi = body["asi"]?.value
        report.panicString = body["panicString"]?.stringValue?
            .split(whereSeparator: \.isNewline).first.map { String($0).trimmedBlanks }
        if let asi = body["asi"]?.objectValue {
            let lines = asi.flatMap { m in (m.value.arrayValue ?? [m.value]).compactMap(\.stringValue).map { "\(m.key): \($0)" } }
            if !lines.isEmpty { report.applicationSpecificInformation = lines.joined(separator: "\n") }
        }

        var images: [BinaryImage] = []
        for (i, img) in (body["usedImages"]?.arrayValue ?? []).enumerated() {
            let base = img["base"]?.uint64Value ?? 0
            let size = img["size"]?.uint64Value ?? 0
            let path = img["path"]?.stringValue
            let name = img["name"]?.stringValue ?? path.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "???"
            // base and size come from the file: a range past 2^64 is impossible, so the image
            // keeps no address range (frames still reach it through their imageIndex).
            var end: UInt64?
            if size > 0 {
                let (last, overflow) = base.addingReportingOverflow(size - 1)
                if overflow {
                    report.warnings.append(
                        ParseWarning(
                            path: report.path, jsonPath: "usedImages[\(i)].size",
                            message:
                                "image \(name): base 0x\(String(base, radix: 16)) + size 0x\(String(size, radix: 16)) passes the end of the address space; its address range is ignored"
                        ))
                } else {
                    end = last
                }
            }
            var image = BinaryImage(
                loadAddress: base, endAddress: end, name: name,
                arch: img["arch"]?.stringValue.map(Architecture.init), debugID: img["uuid"]?.stringValue.flatMap { DebugID(uuid: $0) },
                path: path, version: img["CFBundleShortVersionString"]?.stringValue, source: img["source"]?.stringValue)
            image.isAppOwned = AppOwnership.isAppImage(path: path, processPath: report.processPath)
            images.append(image)
        }
        report.binaryImages = images

        var frameWarnings: [ParseWarning] = []
        // One pass over each frame's members (the first of a repeated key counts, as a lookup
        // by key finds it); a report may hold a million frames.
        func frames(_ list: JSONNode?, at jsonPath: String) -> [Frame] {
            var out: [Frame] = []
            guard let list, list.isArray else { return out }
            out.reserveCapacity(list.childCount)
            var i = 0
            list.forEachChild { f in
                out.append(frame(f, at: i, jsonPath))
                i += 1
            }
            return out
        }
        func frame(_ f: JSONNode, at i: Int, _ jsonPath: String) -> Frame {
            var imageOffsetNode, imageIndexNode, symbol, symbolLocation, sourceFile, sourceLine, inline: JSONNode?
            f.forEachChild { member in
                switch member.key {
                case "imageOffset" where imageOffsetNode == nil: imageOffsetNode = member
                case "imageIndex" where imageIndexNode == nil: imageIndexNode = member
                case "symbol" where symbol == nil: symbol = member
                case "symbolLocation" where symbolLocation == nil: symbolLocation = member
                case "sourceFile" where sourceFile == nil: sourceFile = member
                case "sourceLine" where sourceLine == nil: sourceLine = member
                case "inline" where inline == nil: inline = member
                default: break
                }
            }
            let imageOffset = imageOffsetNode?.uint64Value
            let offset = imageOffset ?? 0
            let idx = imageIndexNode?.intValue
            var frame = Frame(index: i, imageIndex: idx, address: offset, imageOffset: offset)
            if imageOffset == nil {
                frameWarnings.append(
                    ParseWarning(
                        path: report.path, jsonPath: "\(jsonPath)[\(i)]", message: "frame has no usable imageOffset; kept as is"))
            }
            if let idx, images.indices.contains(idx) {
                frame.address = images[idx].loadAddress &+ offset
                frame.imageName = images[idx].name
            } else {
                frame.imageIndex = nil
                frameWarnings.append(
                    ParseWarning(
                        path: report.path, jsonPath: "\(jsonPath)[\(i)]",
                        message: idx.map { "imageIndex \($0) is not in usedImages (\(images.count) images); kept as is" }
                            ?? "frame has no imageIndex; kept as is"))
            }
            frame.symbol = symbol?.stringValue
            frame.symbolOffset = symbolLocation?.uint64Value
            frame.sourceFile = sourceFile?.stringValue
            frame.sourceLine = sourceLine?.intValue
            frame.isInlined = inline?.boolValue ?? false
            return frame
        }

        let faulting = body["faultingThread"]?.intValue
        var threads: [CrashReport.Thread] = []
        for (i, t) in (body["threads"]?.arrayValue ?? []).enumerated() {
            var thread = CrashReport.Thread(
                index: i, name: t["name"]?.stringValue, queue: t["queue"]?.stringValue,
                crashed: t["triggered"]?.boolValue ?? false, frames: frames(t["frames"], at: "threads[\(i)].frames"),
                threadID: t["id"]?.uint64Value)
            if let state = t["threadState"] { thread.registers = registers(state) }
            threads.append(thread)
        }
        report.threads = threads
        report.crashedThreadIndex = faulting ?? threads.first(where: \.crashed)?.index
        if let leb = body["lastExceptionBacktrace"], leb.isArray {
            report.lastExceptionBacktrace = Backtrace(title: "Last Exception Backtrace", frames: frames(leb, at: "lastExceptionBacktrace"))
        }
        report.warnings.append(contentsOf: frameWarnings)
        for (i, b) in (body["asiBacktraces"]?.arrayValue ?? []).enumerated() {
            // Text backtraces (`"0   CoreFoundation   0x… __exceptionPreprocess + 164\n…"`).
            let text = b.stringValue ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            let parsed = lines.compactMap { TextReportParser.parseFrame($0.trimmedBlanks, reportLine: 0) }
            let resolved = parsed.map { parsedFrame -> Frame in
                var f = parsedFrame
                f.reportLine = nil
                let byName =
                    images.firstIndex { $0.name == f.imageName && $0.contains(f.address) } ?? images.firstIndex { $0.name == f.imageName }
                if let idx = byName ?? images.firstIndex(where: { $0.contains(f.address) }) {
                    f.imageIndex = idx
                    if f.address >= images[idx].loadAddress { f.imageOffset = f.address &- images[idx].loadAddress }
                }
                return f
            }
            report.asiBacktraces.append(Backtrace(title: "Application Specific Backtrace \(i)", frames: resolved))
        }
    }

    /// `threadState`: ARM (`x` array, `fp`, `lr`, …) or x86 (`rax`, …), in document order.
    static func registers(_ state: JSONNode) -> [Register] {
        var out: [Register] = []
        for (key, value) in state.objectValue ?? [] where key != "flavor" {
            if let list = value.arrayValue {
                for (i, v) in list.enumerated() {
                    if let u = v["value"]?.uint64Value {
                        out.append(Register(name: "\(key)\(i)", value: u, note: v["symbol"]?.stringValue))
                    }
                }
            } else if let u = value["value"]?.uint64Value {
                out.append(Register(name: key, value: u, note: value["description"]?.stringValue ?? value["symbol"]?.stringValue))
            }
        }
        return out
    }
}
