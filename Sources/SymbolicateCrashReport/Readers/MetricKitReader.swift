import Foundation
import SymbolicateCore
import SymbolicateJSON

/// Reads MetricKit `MXDiagnosticPayload` JSON (`jsonRepresentation()`, `Fixtures/logs/crashapp-metrickit.json`)
/// and single diagnostics as apps log them (`MXCrashDiagnostic.jsonRepresentation()`: `callStackTree` and
/// `diagnosticMetaData` at the top level, `Fixtures/metrickit/`): every diagnostic becomes its own report,
/// written out in Apple's text layout — metadata as header fields, a linear call stack as a thread
/// backtrace (`IDX IMAGE 0xADDR 0xLOAD + OFF`), a branching call tree as call-graph nodes — plus a
/// `Binary Images:` list carrying each `binaryUUID`. That text is then read by the ordinary text
/// readers, so symbolication, writers, headline and explain treat a MetricKit diagnostic like any
/// other report; what the diagnostic's keys say is set from the JSON into typed fields
/// (`CrashReport.metricKit`, `exception`, `termination`), never read back from that text.
///
/// Address arithmetic: iOS 14 wrote the image's load address into
/// `offsetIntoBinaryTextSegment`; later systems write the offset. The payload is read the iOS 14
/// way only when that reading is consistent for every image (one page-aligned load address
/// per `binaryUUID`); otherwise the value is the offset and the load address is
/// `address − offset`. Recent systems (iOS 26) give no `address` at all: a frame is then placed
/// by its image and offset alone. An image none of whose frames has an address is placed at
/// 0x0 (the address column then shows the offset into the image), so every frame is its
/// image's `binaryUUID` + offset and is symbolicated from the matching debug file like any
/// frame. A frame with neither an address nor an image and offset cannot be placed: its line
/// says so, a warning names it, and it is not symbolicated (never read as address 0).
enum MetricKitReader {
    /// Whether a JSON document is a diagnostic payload, a single diagnostic, or an array of them.
    static func isPayload(_ json: JSONValue) -> Bool {
        if let list = json.arrayValue { return !list.isEmpty && list.allSatisfy { isPayloadObject($0) || isDiagnostic($0) } }
        return isPayloadObject(json) || isDiagnostic(json)
    }

    /// An `MXDiagnosticPayload`: an object with one of the diagnostic arrays.
    static func isPayloadObject(_ json: JSONValue) -> Bool {
        guard json.objectValue != nil else { return false }
        return ReportKind.MetricKitDiagnostic.allCases.contains { json[$0.payloadKey]?.arrayValue != nil }
    }

    /// One `MXDiagnostic` on its own: `callStackTree` and `diagnosticMetaData` objects at the top.
    static func isDiagnostic(_ json: JSONValue) -> Bool {
        guard json.objectValue != nil, json["callStackTree"]?.objectValue != nil,
            json["diagnosticMetaData"]?.objectValue != nil
        else { return false }
        return !isPayloadObject(json)
    }

    /// The class of a diagnostic on its own, from the keys only that class has: `hangDuration`
    /// (`MXHangDiagnostic`), `totalCPUTime`/`totalSampledTime` (`MXCPUExceptionDiagnostic`),
    /// `writesCaused` (`MXDiskWriteExceptionDiagnostic`), `launchDuration` (`MXAppLaunchDiagnostic`);
    /// a crash otherwise.
    static func diagnosticClass(of diagnostic: JSONValue) -> ReportKind.MetricKitDiagnostic {
        let meta = diagnostic["diagnosticMetaData"]
        func has(_ key: String) -> Bool { meta?[key] != nil || diagnostic[key] != nil }
        if has("hangDuration") { return .hang }
        if has("totalCPUTime") || has("totalSampledTime") { return .cpuException }
        if has("writesCaused") { return .diskWriteException }
        if has("launchDuration") { return .appLaunch }
        return .crash
    }

    /// "MetricKit payload" when the first 64 KiB of a JSON text name a diagnostic list or a
    /// call stack tree: what to call a document that does not parse, so the error names the
    /// layout it was read as.
    static func looksLikePayload(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(65536)
        let markers = ReportKind.MetricKitDiagnostic.allCases.map { "\"\($0.payloadKey)\"" } + ["\"callStackTree\""]
        return head.withUnsafeBytes { buffer in
            markers.contains { marker in Array(marker.utf8).withUnsafeBytes { ByteSearch.contains(buffer, $0) } }
        } ? "MetricKit payload" : nil
    }

    /// One diagnostic to read, with where it sits.
    struct Entry {
        var diagnostic: JSONValue
        var kind: ReportKind.MetricKitDiagnostic
        /// The payload around it; nil for a diagnostic on its own.
        var payload: JSONValue?
        /// `crashDiagnostics[0]`, `[1].hangDiagnostics[0]`, `diagnostic`, `[2]`.
        var place: String
    }

    /// Every diagnostic of the document, in order (per payload: crash, hang, CPU, disk writes, launch),
    /// each group sharing one reading of `offsetIntoBinaryTextSegment` (one payload comes from one OS).
    static func entryGroups(_ json: JSONValue) -> [[Entry]] {
        let documents = json.arrayValue ?? [json]
        var groups: [[Entry]] = []
        for (p, document) in documents.enumerated() {
            let prefix = documents.count > 1 ? "[\(p)]" : ""
            if isDiagnostic(document) {
                groups.append([
                    Entry(
                        diagnostic: document, kind: diagnosticClass(of: document), payload: nil,
                        place: prefix.isEmpty ? "diagnostic" : prefix)
                ])
                continue
            }
            var group: [Entry] = []
            for kind in ReportKind.MetricKitDiagnostic.allCases {
                for (i, diagnostic) in (document[kind.payloadKey]?.arrayValue ?? []).enumerated() {
                    group.append(
                        Entry(
                            diagnostic: diagnostic, kind: kind, payload: document,
                            place: (prefix.isEmpty ? "" : prefix + ".") + "\(kind.payloadKey)[\(i)]"))
                }
            }
            groups.append(group)
        }
        return groups
    }

    /// One report per diagnostic, in document order.
    static func reports(from json: JSONValue, path: String) -> [CrashReport] {
        var out: [CrashReport] = []
        for group in entryGroups(json) {
            let loadAddressReading = readsOffsetAsLoadAddress(group.map(\.diagnostic))
            for entry in group {
                out.append(report(entry, path: path, offsetIsLoadAddress: loadAddressReading))
            }
        }
        return out
    }

    // MARK: - Frames

    /// One frame of a call tree. Trees are kept flat, in preorder with each node's depth,
    /// and walked with loops: a MetricKit tree may be thousands of frames deep, and nothing
    /// here may recurse once per frame (batch workers can have 512 KiB stacks).
    struct Node {
        var uuid: String?
        /// `binaryName`; nil when the frame has none (iOS 26 diagnostics name no images).
        var binaryName: String?
        /// `address`; nil when absent (iOS 26).
        var address: UInt64?
        /// `offsetIntoBinaryTextSegment`; nil when absent.
        var offsetField: UInt64?
        var sampleCount: Int
        /// 0 for a root frame; sub-frames are one deeper.
        var depth: Int
        var childCount: Int

        /// The image the frame names: its UUID, else its name; nil when it names none.
        var imageKey: String? { uuid ?? binaryName }
        /// How the image is printed: its name, else its UUID.
        var imageName: String { binaryName ?? uuid ?? "???" }
    }

    /// The frames of `roots` and everything under them, in preorder (a node, then its
    /// sub-frames' trees in order).
    static func flatten(_ roots: [JSONValue]) -> [Node] {
        var out: [Node] = []
        var pending: [(json: JSONValue, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (json, depth) = pending.popLast() {
            let children = json["subFrames"]?.arrayValue ?? []
            let name = json["binaryName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let uuid = json["binaryUUID"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            out.append(
                Node(
                    uuid: uuid, binaryName: name, address: json["address"]?.uint64Value,
                    offsetField: json["offsetIntoBinaryTextSegment"]?.uint64Value,
                    sampleCount: json["sampleCount"]?.intValue ?? 1, depth: depth, childCount: children.count))
            pending.append(contentsOf: children.reversed().map { ($0, depth + 1) })
        }
        return out
    }

    /// Every frame of a diagnostic.
    static func nodes(of diagnostic: JSONValue) -> [Node] {
        var nodes: [Node] = []
        for stack in diagnostic["callStackTree"]?["callStacks"]?.arrayValue ?? [] {
            nodes += flatten(stack["callStackRootFrames"]?.arrayValue ?? [])
        }
        return nodes
    }

    /// The iOS 14 reading (`offsetIntoBinaryTextSegment` = load address) is taken only when it
    /// is consistent: within each diagnostic, every frame of an image carries the same,
    /// page-aligned value not above its address, and the offset reading is not equally
    /// consistent. Frames without an address or offset decide nothing (iOS 14 always wrote both).
    static func readsOffsetAsLoadAddress(_ diagnostics: [JSONValue]) -> Bool {
        let groups = diagnostics.flatMap { diagnostic in
            Dictionary(grouping: nodes(of: diagnostic).filter { $0.address != nil && $0.offsetField != nil }, by: { $0.imageKey ?? "???" })
                .values
        }
        guard !groups.isEmpty else { return false }
        func consistent(_ load: (UInt64, UInt64) -> UInt64?) -> Bool {
            groups.allSatisfy { frames in
                let loads = frames.map { n in n.address.flatMap { a in n.offsetField.flatMap { load(a, $0) } } }
                guard let first = loads.first, let value = first else { return false }
                return value % 0x1000 == 0 && loads.allSatisfy { $0 == value }
            }
        }
        let asLoad = consistent { address, offset in offset <= address ? offset : nil }
        let asOffset = consistent { address, offset in offset <= address ? address - offset : nil }
        return asLoad && !asOffset
    }

    // MARK: - Rendering

    private static let exceptionNames = [
        1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
        5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL",
        9: "EXC_RPC_ALERT", 10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
    ]
    private static let signalNames = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT",
        8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE",
        14: "SIGALRM", 15: "SIGTERM",
    ]

    /// Why a frame could not be placed in an image; nil when it can be.
    private static func unplacedReason(_ n: Node, imageLoad: UInt64?, offsetIsLoadAddress: Bool) -> String? {
        if n.address != nil { return nil }
        if n.imageKey == nil { return "no address, no binaryUUID or binaryName" }
        guard n.offsetField != nil else { return "no address, no offsetIntoBinaryTextSegment" }
        if offsetIsLoadAddress { return "no address, and offsetIntoBinaryTextSegment holds the image's load address" }
        return imageLoad == nil ? "no address" : nil
    }

    static func report(_ entry: Entry, path: String, offsetIsLoadAddress: Bool) -> CrashReport {
        let diagnostic = entry.diagnostic
        let kind = entry.kind
        let place = entry.place
        let meta = diagnostic["diagnosticMetaData"] ?? .object([])
        let facts = Self.facts(entry)
        let tree = diagnostic["callStackTree"]
        let stacks = (tree?["callStacks"]?.arrayValue ?? []).map { s in
            let roots = s["callStackRootFrames"]?.arrayValue ?? []
            return (attributed: s["threadAttributed"]?.boolValue ?? false, rootCount: roots.count, nodes: flatten(roots))
        }
        /// The load address a frame with an address tells.
        func load(_ n: Node) -> UInt64? {
            guard let address = n.address else { return nil }
            guard let offset = n.offsetField else { return nil }
            if offsetIsLoadAddress { return offset }
            return address >= offset ? address - offset : 0
        }
        // Images: one per UUID (or name), load address from the reading chosen above (0x0 when no
        // frame of the image has an address: frames are then placed by offset), end at the
        // highest address seen (MetricKit gives no sizes).
        struct Image {
            var name: String
            var uuid: String?
            var hasName: Bool
            var load: UInt64?
            var end: UInt64 = 0
        }
        var images: [Image] = []
        var imageIndex: [String: Int] = [:]
        for n in stacks.lazy.flatMap(\.nodes) {
            guard let key = n.imageKey else { continue }
            if let i = imageIndex[key] {
                if images[i].load == nil { images[i].load = load(n) }
                if !images[i].hasName, let name = n.binaryName {
                    images[i].name = name
                    images[i].hasName = true
                }
            } else {
                imageIndex[key] = images.count
                images.append(Image(name: n.imageName, uuid: n.uuid, hasName: n.binaryName != nil, load: load(n)))
            }
        }
        let placedByOffset = Set(images.indices.filter { images[$0].load == nil && !offsetIsLoadAddress })
        for i in placedByOffset { images[i].load = 0 }
        /// Where a frame is: its address, or its image's load address plus its offset.
        func placed(_ n: Node) -> (address: UInt64, image: Int?)? {
            let i = n.imageKey.flatMap { imageIndex[$0] }
            if let address = n.address { return (address, i) }
            guard let i, !offsetIsLoadAddress, let base = images[i].load, let offset = n.offsetField else { return nil }
            return (base &+ offset, i)
        }
        for n in stacks.lazy.flatMap(\.nodes) {
            if let (address, i) = placed(n), let i { images[i].end = max(images[i].end, address, images[i].load ?? 0) }
        }
        let appImage = images.first { $0.hasName && !AppOwnership.isSystemImage(named: $0.name, loadAddress: $0.load ?? 0) }?.name

        var lines: [String] = []
        func field(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append(key + ":" + String(repeating: " ", count: max(1, 20 - key.count)) + value)
        }
        let metaText = { (key: String) -> String? in meta[key]?.stringValue }
        field("MetricKit Diagnostic", "\(kind.payloadKey) (\(place))")
        field("Process", appImage)
        field("Identifier", facts.bundleIdentifier)
        let version = facts.appVersion.flatMap { $0.isEmpty ? nil : $0 }.map { v in
            facts.appBuildVersion.flatMap { $0.isEmpty ? nil : "\(v) (\($0))" } ?? v
        }
        field("Version", version)
        field("Code Type", facts.platformArchitecture.map(codeType))
        field("Hardware Model", facts.deviceType)
        field("OS Version", facts.osVersion)
        field("Date/Time", facts.timeStampEnd)
        field("Begin Time", facts.timeStampBegin)
        field("Region Format", facts.regionFormat)
        field("PID", facts.pid.map(String.init))
        field("Report Version", "MetricKit " + (facts.version ?? "?"))
        lines.append("")
        let exception = facts.exceptionType.map { exceptionNames[$0] ?? "exception type \($0)" }
        let signal = facts.signal.map { signalNames[$0] ?? "signal \($0)" }
        if exception != nil || signal != nil {
            field("Exception Type", [exception, signal.map { exception == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " "))
        }
        field("Exception Codes", facts.exceptionCode.map(hexCode))
        if let reason = facts.exceptionReason {
            field("Exception Reason", reason.composedMessage ?? reason.exceptionName)
            field("Exception Name", reason.exceptionName)
            field("Exception Class", reason.className)
        }
        field("Termination Reason", facts.terminationReason)
        field("Hang Duration", facts.hangDuration?.text)
        field("Total CPU Time", facts.totalCPUTime?.text)
        field("Total Sampled Time", facts.totalSampledTime?.text)
        field("Writes Caused", facts.writesCaused?.text)
        field("Launch Duration", facts.launchDuration?.text)
        field("TestFlight App", facts.isTestFlightApp.map { $0 ? "Yes" : "No" })
        field("Low Power Mode", facts.lowPowerModeEnabled.map { $0 ? "On" : "Off" })
        for other in facts.otherMetaData { field(other.key, other.value) }
        let attributed = stacks.firstIndex { $0.attributed }
        if kind == .crash, let attributed { field("Triggered by Thread", String(attributed)) }
        if let vm = metaText("virtualMemoryRegionInfo") {
            lines.append("")
            lines.append("VM Region Info: " + vm)
        }
        lines.append("")

        // Frames that cannot be placed: (report line, call stack, frame, reason).
        var unplaced: [(line: Int, stack: Int, frame: Int, reason: String)] = []
        // A chain: one root, and no frame with more than one sub-frame (preorder is then the
        // stack from the running frame down to the outermost caller).
        let linear = stacks.allSatisfy { $0.rootCount <= 1 && $0.nodes.allSatisfy { $0.childCount <= 1 } }
        for (t, stack) in stacks.enumerated() {
            let marker = stack.attributed ? (kind == .crash ? " Crashed" : " Attributed") : ""
            lines.append(linear ? "Thread \(t)\(marker):" : "Call stack \(t)\(stack.attributed ? " (attributed)" : ""):")
            for (index, current) in stack.nodes.enumerated() {
                let imageLoad = current.imageKey.flatMap { imageIndex[$0] }.flatMap { images[$0].load }
                guard let (address, i) = placed(current) else {
                    let reason =
                        unplacedReason(current, imageLoad: imageLoad, offsetIsLoadAddress: offsetIsLoadAddress)
                        ?? "no address"
                    unplaced.append((lines.count + 1, t, index, reason))
                    let indent = linear ? "" : String(repeating: "  ", count: current.depth + 1) + "\(current.sampleCount)  "
                    let idx = linear ? String(index) + String(repeating: " ", count: max(1, 4 - String(index).count)) : ""
                    lines.append(indent + idx + "\(current.imageName)  (frame not placed: \(reason))")
                    continue
                }
                let name = i.map { images[$0].name } ?? current.imageName
                let base = i.flatMap { images[$0].load } ?? load(current) ?? 0
                if linear {
                    // Root frame is the top of the stack, its sub-frames its callers: Apple's order.
                    // A frame placed by offset alone reads `IMAGE + OFFSET` (its image has no known
                    // load address: the address column then holds the offset).
                    let placedAt =
                        i.map(placedByOffset.contains) == true
                        ? "\(name) + \(address &- base)" : "0x\(String(base, radix: 16)) + \(address &- base)"
                    lines.append(FrameFormatting.applePrefix(index: index, imageName: name, address: address) + " " + placedAt)
                } else {
                    lines.append(
                        String(repeating: "  ", count: current.depth + 1)
                            + "\(current.sampleCount)  ??? (\(name) + \(address &- base)) [0x\(String(address, radix: 16))]")
                }
            }
            lines.append("")
        }
        lines.append("Binary Images:")
        for image in images {
            guard let load = image.load else { continue }
            let uuid = image.uuid.map { " <\($0)>" } ?? ""
            let marker = !image.hasName || AppOwnership.isSystemImage(named: image.name, loadAddress: load) ? "" : "+"
            lines.append(
                "       0x\(String(load, radix: 16)) - 0x\(String(image.end, radix: 16)) \(marker)\(image.name)\(uuid) \(image.name)")
        }
        lines.append("")

        let display = "\(path) (\(place))"
        let document = TextDocument(text: lines.joined(separator: "\n"), hasBOM: false)
        var report: CrashReport
        if linear {
            report =
                (try? TextReportParser(document: document, path: display, bodyStart: 0, format: .metricKit).parse())
                ?? CrashReport(path: display, format: .metricKit, source: .text(document))
        } else {
            report = CallGraphParser(document: document, path: display, bodyStart: 0, format: .metricKit, bugType: nil).parse()
            // MetricKit trees hang callers under the frame that was running: the roots are
            // where the threads were, every deeper node a return address.
            for t in report.threads.indices {
                for f in report.threads[t].frames.indices {
                    let isRoot = report.threads[t].frames[f].callGraph?.depth == 0
                    report.threads[t].frames[f].callGraph?.isLeaf = isRoot
                }
            }
        }
        // A frame that cannot be placed is one warning naming it, in place of the text reader's
        // "not understood" for its line.
        let unplacedLines = Set(unplaced.map(\.line))
        report.warnings.removeAll { $0.line.map(unplacedLines.contains) ?? false }
        for u in unplaced {
            report.warnings.append(
                ParseWarning(
                    path: display, line: u.line, jsonPath: "callStackTree.callStacks[\(u.stack)]",
                    message: "frame \(u.frame) cannot be placed in an image (\(u.reason)): not symbolicated"))
        }
        report.kind = .metricKit(kind)
        apply(facts, to: &report)
        return report
    }

    // MARK: - Typed facts

    /// The diagnostic's keys, typed: `diagnosticMetaData` (whose keys Apple has added to over the
    /// years), the diagnostic's `version` and the payload's time window.
    static func facts(_ entry: Entry) -> MetricKitFacts {
        let diagnostic = entry.diagnostic
        let meta = diagnostic["diagnosticMetaData"] ?? .object([])
        var facts = MetricKitFacts(diagnostic: entry.kind, inPayload: entry.payload != nil)
        facts.version = diagnostic["version"]?.stringValue
        facts.timeStampBegin = entry.payload?["timeStampBegin"]?.stringValue
        facts.timeStampEnd = entry.payload?["timeStampEnd"]?.stringValue
        var known: Set<String> = []
        func text(_ key: String) -> String? {
            known.insert(key)
            return meta[key]?.stringValue
        }
        func flag(_ key: String) -> Bool? {
            known.insert(key)
            return meta[key]?.boolValue
        }
        func number(_ key: String) -> Int? {
            known.insert(key)
            return meta[key]?.intValue
        }
        func measurement(_ key: String) -> MetricKitFacts.Measurement? {
            known.insert(key)
            return (meta[key] ?? diagnostic[key])?.stringValue.map(MetricKitFacts.Measurement.init(text:))
        }
        facts.appVersion = text("appVersion")
        facts.appBuildVersion = text("appBuildVersion")
        facts.osVersion = text("osVersion")
        facts.deviceType = text("deviceType")
        facts.platformArchitecture = text("platformArchitecture")
        facts.regionFormat = text("regionFormat")
        facts.bundleIdentifier = text("bundleIdentifier")
        facts.isTestFlightApp = flag("isTestFlightApp")
        facts.lowPowerModeEnabled = flag("lowPowerModeEnabled")
        facts.pid = number("pid")
        facts.exceptionType = number("exceptionType")
        known.insert("exceptionCode")
        facts.exceptionCode = meta["exceptionCode"].flatMap { code in
            code.intValue.map(Int64.init) ?? code.uint64Value.map { Int64(bitPattern: $0) }
        }
        facts.signal = number("signal")
        facts.terminationReason = text("terminationReason")
        facts.virtualMemoryRegionInfo = text("virtualMemoryRegionInfo")
        known.insert("exceptionReason")
        if let reason = meta["exceptionReason"], reason.objectValue != nil {
            facts.exceptionReason = MetricKitFacts.ExceptionReason(
                composedMessage: reason["composedMessage"]?.stringValue, formatString: reason["formatString"]?.stringValue,
                arguments: (reason["arguments"]?.arrayValue ?? []).map { $0.stringValue ?? $0.compactText() },
                className: reason["className"]?.stringValue, exceptionName: reason["exceptionName"]?.stringValue,
                exceptionType: reason["exceptionType"]?.stringValue)
        }
        facts.hangDuration = measurement("hangDuration")
        facts.totalCPUTime = measurement("totalCPUTime")
        facts.totalSampledTime = measurement("totalSampledTime")
        facts.writesCaused = measurement("writesCaused")
        facts.launchDuration = measurement("launchDuration")
        for (key, value) in meta.objectValue ?? [] where !known.contains(key) {
            facts.otherMetaData.append(HeaderField(key: key, value: value.stringValue ?? value.compactText()))
        }
        return facts
    }

    /// Sets the report's typed fields from the diagnostic's own keys.
    static func apply(_ facts: MetricKitFacts, to report: inout CrashReport) {
        report.metricKit = facts
        if let bundle = facts.bundleIdentifier, !bundle.isEmpty { report.bundleIdentifier = bundle }
        if let pid = facts.pid { report.processID = pid }
        if let device = facts.deviceType, !device.isEmpty { report.hardwareModel = device }
        if let os = facts.osVersion, !os.isEmpty {
            report.osVersion = os
            report.operatingSystem = OperatingSystem(printed: os) ?? report.operatingSystem
        }
        if let arch = facts.platformArchitecture, !arch.isEmpty { report.architecture = Architecture(arch) }
        if facts.exceptionType != nil || facts.signal != nil || facts.exceptionCode != nil || facts.exceptionReason != nil {
            var exception = ExceptionInfo()
            exception.type = facts.exceptionType.map { exceptionNames[$0] ?? "exception type \($0)" }
            exception.signal = facts.signal.map { signalNames[$0] ?? "signal \($0)" }
            exception.codes = facts.exceptionCode.map(hexCode)
            exception.message = facts.exceptionReason.flatMap { $0.composedMessage ?? $0.exceptionName }
            report.exception = exception
        }
        if let reason = facts.terminationReason, !reason.isEmpty {
            var termination = TerminationInfo()
            TextReportParser.readTerminationReason(reason, into: &termination)
            report.termination = termination
        }
    }

    private static func hexCode(_ code: Int64) -> String { "0x" + String(UInt64(bitPattern: code), radix: 16) }

    private static func codeType(_ arch: String) -> String {
        switch arch {
        case "arm64", "arm64e": return "ARM-64 (Native)"
        case "x86_64": return "X86-64 (Native)"
        case "arm64_32": return "ARM64_32 (Native)"
        default: return arch
        }
    }
}
