import Foundation
import SymbolicateCore
import SymbolicateJSON

/// Reads MetricKit `MXDiagnosticPayload` JSON (`jsonRepresentation()`, `Fixtures/logs/crashapp-metrickit.json`): every
/// diagnostic becomes its own report, written out in Apple's text layout — metadata as header
/// fields, a linear call stack as a thread backtrace (`IDX IMAGE 0xADDR 0xLOAD + OFF`), a
/// branching call tree as call-graph nodes — plus a `Binary Images:` list carrying each
/// `binaryUUID`. That text is then read by the ordinary text readers, so symbolication,
/// writers, headline and explain treat a MetricKit diagnostic like any other report.
///
/// Address arithmetic: iOS 14 wrote the image's load address into
/// `offsetIntoBinaryTextSegment`; later systems write the offset. The payload is read the iOS 14
/// way only when that reading is consistent for every image (one page-aligned load address
/// per `binaryUUID`); otherwise the value is the offset and the load address is
/// `address − offset`.
enum MetricKitReader {
    /// Whether a JSON document is a diagnostic payload (or an array of them).
    static func isPayload(_ json: JSONValue) -> Bool {
        if let list = json.arrayValue { return !list.isEmpty && list.allSatisfy(isPayload) }
        guard json.objectValue != nil else { return false }
        return ReportKind.MetricKitDiagnostic.allCases.contains { json[$0.payloadKey]?.arrayValue != nil }
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

    /// One report per diagnostic, in payload order (crash, hang, CPU, disk writes, launch).
    static func reports(from json: JSONValue, path: String) -> [CrashReport] {
        let payloads = json.arrayValue ?? [json]
        var out: [CrashReport] = []
        for (p, payload) in payloads.enumerated() {
            let loadAddressReading = readsOffsetAsLoadAddress(payload)
            for kind in ReportKind.MetricKitDiagnostic.allCases {
                for (i, diagnostic) in (payload[kind.payloadKey]?.arrayValue ?? []).enumerated() {
                    let place = (payloads.count > 1 ? "[\(p)]." : "") + "\(kind.payloadKey)[\(i)]"
                    out.append(
                        report(
                            diagnostic, kind: kind, payload: payload, place: place, path: path,
                            offsetIsLoadAddress: loadAddressReading))
                }
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
        var name: String
        var address: UInt64
        var offsetField: UInt64
        var sampleCount: Int
        /// 0 for a root frame; sub-frames are one deeper.
        var depth: Int
        var childCount: Int
    }

    /// The frames of `roots` and everything under them, in preorder (a node, then its
    /// sub-frames' trees in order).
    static func flatten(_ roots: [JSONValue]) -> [Node] {
        var out: [Node] = []
        var pending: [(json: JSONValue, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (json, depth) = pending.popLast() {
            let children = json["subFrames"]?.arrayValue ?? []
            out.append(
                Node(
                    uuid: json["binaryUUID"]?.stringValue, name: json["binaryName"]?.stringValue ?? "???",
                    address: json["address"]?.uint64Value ?? 0, offsetField: json["offsetIntoBinaryTextSegment"]?.uint64Value ?? 0,
                    sampleCount: json["sampleCount"]?.intValue ?? 1, depth: depth, childCount: children.count))
            pending.append(contentsOf: children.reversed().map { ($0, depth + 1) })
        }
        return out
    }

    /// Every frame of every diagnostic, grouped per diagnostic (the same image loads at
    /// another address in another process).
    static func nodesPerDiagnostic(_ payload: JSONValue) -> [[Node]] {
        var out: [[Node]] = []
        for kind in ReportKind.MetricKitDiagnostic.allCases {
            for diagnostic in payload[kind.payloadKey]?.arrayValue ?? [] {
                var nodes: [Node] = []
                for stack in diagnostic["callStackTree"]?["callStacks"]?.arrayValue ?? [] {
                    nodes += flatten(stack["callStackRootFrames"]?.arrayValue ?? [])
                }
                out.append(nodes)
            }
        }
        return out
    }

    /// The iOS 14 reading (`offsetIntoBinaryTextSegment` = load address) is taken only when it
    /// is consistent: within each diagnostic, every frame of an image carries the same,
    /// page-aligned value not above its address, and the offset reading is not equally
    /// consistent. One payload comes from one OS version, so the reading is decided once.
    static func readsOffsetAsLoadAddress(_ payload: JSONValue) -> Bool {
        let groups = nodesPerDiagnostic(payload).flatMap { nodes in Dictionary(grouping: nodes, by: { $0.uuid ?? $0.name }).values }
        guard !groups.isEmpty else { return false }
        func consistent(_ load: (Node) -> UInt64?) -> Bool {
            groups.allSatisfy { frames in
                let loads = frames.map(load)
                guard let first = loads.first, let value = first else { return false }
                return value % 0x1000 == 0 && loads.allSatisfy { $0 == value }
            }
        }
        let asLoad = consistent { $0.offsetField <= $0.address ? $0.offsetField : nil }
        let asOffset = consistent { $0.offsetField <= $0.address ? $0.address - $0.offsetField : nil }
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

    static func report(
        _ diagnostic: JSONValue, kind: ReportKind.MetricKitDiagnostic, payload: JSONValue, place: String, path: String,
        offsetIsLoadAddress: Bool
    ) -> CrashReport {
        let meta = diagnostic["diagnosticMetaData"] ?? .object([])
        let tree = diagnostic["callStackTree"]
        let stacks = (tree?["callStacks"]?.arrayValue ?? []).map { s in
            let roots = s["callStackRootFrames"]?.arrayValue ?? []
            return (attributed: s["threadAttributed"]?.boolValue ?? false, rootCount: roots.count, nodes: flatten(roots))
        }
        func load(_ n: Node) -> UInt64 {
            offsetIsLoadAddress ? n.offsetField : (n.address >= n.offsetField ? n.address - n.offsetField : 0)
        }
        // Images: one per UUID (or name), load address from the reading chosen above, end at
        // the highest address seen (MetricKit gives no sizes).
        var images: [(key: String, name: String, uuid: String?, load: UInt64, end: UInt64)] = []
        var imageIndex: [String: Int] = [:]
        for n in stacks.lazy.flatMap(\.nodes) {
            let key = n.uuid ?? n.name
            if let i = imageIndex[key] {
                images[i].end = max(images[i].end, n.address)
            } else {
                imageIndex[key] = images.count
                images.append((key, n.name, n.uuid, load(n), max(n.address, load(n))))
            }
        }
        let appImage = images.first { !AppOwnership.isSystemImage(named: $0.name, loadAddress: $0.load) }?.name

        var lines: [String] = []
        func field(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append(key + ":" + String(repeating: " ", count: max(1, 20 - key.count)) + value)
        }
        let metaText = { (key: String) -> String? in meta[key]?.stringValue }
        field("MetricKit Diagnostic", "\(kind.payloadKey) (\(place))")
        field("Process", appImage)
        field("Identifier", metaText("bundleIdentifier"))
        let version = metaText("appVersion").map { v in metaText("appBuildVersion").map { "\(v) (\($0))" } ?? v }
        field("Version", version)
        field("Code Type", metaText("platformArchitecture").map(codeType))
        field("Hardware Model", metaText("deviceType"))
        field("OS Version", metaText("osVersion"))
        field("Date/Time", payload["timeStampEnd"]?.stringValue)
        field("Begin Time", payload["timeStampBegin"]?.stringValue)
        field("Region Format", metaText("regionFormat"))
        field("Report Version", "MetricKit " + (diagnostic["version"]?.stringValue ?? "?"))
        lines.append("")
        let exception = meta["exceptionType"]?.intValue.map { exceptionNames[$0] ?? "exception type \($0)" }
        let signal = meta["signal"]?.intValue.map { signalNames[$0] ?? "signal \($0)" }
        if exception != nil || signal != nil {
            field("Exception Type", [exception, signal.map { exception == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " "))
        }
        field("Exception Codes", meta["exceptionCode"]?.intValue.map { "0x" + String($0, radix: 16) })
        if let reason = meta["exceptionReason"] {
            field("Exception Reason", reason["composedMessage"]?.stringValue ?? reason["exceptionName"]?.stringValue)
        }
        field("Termination Reason", metaText("terminationReason"))
        field("Hang Duration", metaText("hangDuration"))
        field("Total CPU Time", metaText("totalCPUTime"))
        field("Total Sampled Time", metaText("totalSampledTime"))
        field("Writes Caused", metaText("writesCaused"))
        field("Launch Duration", metaText("launchDuration"))
        let shown: Set<String> = [
            "bundleIdentifier", "appVersion", "appBuildVersion", "platformArchitecture", "deviceType", "osVersion",
            "regionFormat", "exceptionType", "signal", "exceptionCode", "exceptionReason", "terminationReason",
            "hangDuration", "totalCPUTime", "totalSampledTime", "writesCaused", "launchDuration", "virtualMemoryRegionInfo",
        ]
        for (key, value) in meta.objectValue ?? [] where !shown.contains(key) {
            field(key, value.stringValue ?? value.compactText())
        }
        let attributed = stacks.firstIndex { $0.attributed }
        if kind == .crash, let attributed { field("Triggered by Thread", String(attributed)) }
        if let vm = metaText("virtualMemoryRegionInfo") {
            lines.append("")
            lines.append("VM Region Info: " + vm)
        }
        lines.append("")

        let imageOf = { (n: Node) -> (name: String, load: UInt64) in
            (n.name, imageIndex[n.uuid ?? n.name].map { images[$0].load } ?? load(n))
        }
        // A chain: one root, and no frame with more than one sub-frame (preorder is then the
        // stack from the running frame down to the outermost caller).
        let linear = stacks.allSatisfy { $0.rootCount <= 1 && $0.nodes.allSatisfy { $0.childCount <= 1 } }
        for (t, stack) in stacks.enumerated() {
            let marker = stack.attributed ? (kind == .crash ? " Crashed" : " Attributed") : ""
            if linear {
                // Root frame is the top of the stack, its sub-frames its callers: Apple's order.
                lines.append("Thread \(t)\(marker):")
                for (index, current) in stack.nodes.enumerated() {
                    let (name, base) = imageOf(current)
                    lines.append(
                        FrameFormatting.applePrefix(index: index, imageName: name, address: current.address)
                            + " 0x\(String(base, radix: 16)) + \(current.address &- base)")
                }
            } else {
                lines.append("Call stack \(t)\(stack.attributed ? " (attributed)" : ""):")
                for n in stack.nodes {
                    let (name, base) = imageOf(n)
                    lines.append(
                        String(repeating: "  ", count: n.depth + 1)
                            + "\(n.sampleCount)  ??? (\(name) + \(n.address &- base)) [0x\(String(n.address, radix: 16))]")
                }
            }
            lines.append("")
        }
        lines.append("Binary Images:")
        for image in images {
            let uuid = image.uuid.map { " <\($0)>" } ?? ""
            let marker = AppOwnership.isSystemImage(named: image.name, loadAddress: image.load) ? "" : "+"
            lines.append(
                "       0x\(String(image.load, radix: 16)) - 0x\(String(image.end, radix: 16)) \(marker)\(image.name)\(uuid) \(image.name)")
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
        report.kind = .metricKit(kind)
        return report
    }

    private static func codeType(_ arch: String) -> String {
        switch arch {
        case "arm64", "arm64e": return "ARM-64 (Native)"
        case "x86_64": return "X86-64 (Native)"
        case "arm64_32": return "ARM64_32 (Native)"
        default: return arch
        }
    }
}
