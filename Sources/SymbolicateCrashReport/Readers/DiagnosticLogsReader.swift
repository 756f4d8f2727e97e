import Foundation
import SymbolicateCore
import SymbolicateJSON

/// App Store Connect's diagnostic logs: the body of `GET /v1/diagnosticSignatures/{id}/logs`
/// (`application/vnd.apple.diagnostic-logs+json`, schema `DiagnosticLogs` of the App Store Connect
/// API's OpenAPI description 4.5.1): `{"version", "productData": [{"signatureId",
/// "diagnosticInsights": […], "diagnosticLogs": [{"callStackTree": [{"callStackPerThread",
/// "callStacks": [{"callStackRootFrames": [node…]}]}], "diagnosticMetaData": {…}}]}]}`. Each log is
/// one hang, disk-write or launch diagnostic, its call stacks MetricKit's call-stack trees (nodes
/// with `binaryUUID`, `binaryName`, `address`, `offsetIntoBinaryTextSegment`, `sampleCount`,
/// `subFrames`, the offsets as strings). One report per log.
///
/// A log is rewritten into the MetricKit diagnostic it mirrors (the tree list joined into one
/// `callStackTree`; `bundleId` → `bundleIdentifier`, `buildVersion` → `appBuildVersion`) and read
/// by `MetricKitReader`, so frames are placed, rendered and symbolicated exactly as MetricKit's;
/// the keys MetricKit has no name for (`event`, `eventDetail`, the signature, the insights) stay
/// in the typed facts' `otherMetaData`.
package enum DiagnosticLogsReader: ReportReader {
    package static func detect(_ document: TextDocument) -> DeepJSON? {
        guard let first = document.firstContentLine,
            document.lines[first].text.drop(while: \.isWhitespace).hasPrefix("{")
        else { return nil }
        // Cheap refusal first: every document starting with `{` is asked.
        let head = Array(document.bytes().prefix(65536))
        let marker = Array("\"productData\"".utf8)
        let found = head.withUnsafeBytes { buffer in marker.withUnsafeBytes { ByteSearch.contains(buffer, $0) } }
        guard found, let value = try? JSONParser.parse(document.bytes(), maxDepth: JSONParser.deepMaxDepth).value else { return nil }
        let logs = DeepJSON(value)
        return isDiagnosticLogs(logs.value) ? logs : nil
    }

    /// A `DiagnosticLogs` document: `productData`, an array whose entries hold `diagnosticLogs`.
    static func isDiagnosticLogs(_ json: JSONValue) -> Bool {
        guard let products = json["productData"]?.arrayValue else { return false }
        return products.contains { $0["diagnosticLogs"]?.arrayValue != nil }
    }

    package static func read(_ document: TextDocument, evidence: DeepJSON, path: String) throws(CrashReportError) -> [CrashReport] {
        var entries: [MetricKitReader.Entry] = []
        let version = evidence.value["version"]?.stringValue
        for (p, product) in (evidence.value["productData"]?.arrayValue ?? []).enumerated() {
            for (l, log) in (product["diagnosticLogs"]?.arrayValue ?? []).enumerated() {
                let diagnostic = metricKitDiagnostic(log, product: product, version: version)
                entries.append(
                    MetricKitReader.Entry(
                        diagnostic: diagnostic, kind: diagnosticClass(of: log), payload: nil,
                        place: "productData[\(p)].diagnosticLogs[\(l)]"))
            }
        }
        guard !entries.isEmpty else {
            throw CrashReportError(kind: .notACrashReport, path: path, message: "App Store Connect diagnostic logs without any log")
        }
        let offsetIsLoadAddress = MetricKitReader.readsOffsetAsLoadAddress(entries.map(\.diagnostic))
        return entries.map { MetricKitReader.report($0, path: path, offsetIsLoadAddress: offsetIsLoadAddress) }
    }

    /// The class from the log's `event` (`hang`, `diskWrite`, `launch` in Apple's logs; the
    /// signature types `HANGS`, `DISK_WRITES`, `LAUNCHES` are accepted too), else from its keys
    /// (`writesCaused` only disk writes have), else a hang: the diagnostic signatures' first type.
    static func diagnosticClass(of log: JSONValue) -> ReportKind.MetricKitDiagnostic {
        let meta = log["diagnosticMetaData"]
        let event = (meta?["event"]?.stringValue ?? "").lowercased().filter(\.isLetter)
        if event.hasPrefix("hang") { return .hang }
        if event.hasPrefix("diskwrite") { return .diskWriteException }
        if event.hasPrefix("launch") { return .appLaunch }
        if meta?["writesCaused"] != nil { return .diskWriteException }
        return .hang
    }

    /// Key names App Store Connect spells differently from MetricKit's `MXMetaData`.
    private static let renamedKeys = ["bundleId": "bundleIdentifier", "buildVersion": "appBuildVersion"]

    /// The log as the MetricKit diagnostic it mirrors.
    static func metricKitDiagnostic(_ log: JSONValue, product: JSONValue, version: String?) -> JSONValue {
        var meta: [(key: String, value: JSONValue)] = (log["diagnosticMetaData"]?.objectValue ?? []).map { member in
            (renamedKeys[member.key] ?? member.key, member.value)
        }
        if let signature = product["signatureId"]?.stringValue { meta.append(("signatureId", .string(signature))) }
        for (i, insight) in (product["diagnosticInsights"]?.arrayValue ?? []).enumerated() {
            let words = [
                insight["insightsCategory"]?.stringValue, insight["insightsString"]?.stringValue, insight["insightsURL"]?.stringValue,
            ]
            .compactMap { $0 }.filter { !$0.isEmpty }
            if !words.isEmpty { meta.append(("insight\(i == 0 ? "" : String(i + 1))", .string(words.joined(separator: " — ")))) }
        }
        let trees = log["callStackTree"]?.arrayValue ?? (log["callStackTree"].map { [$0] } ?? [])
        let stacks = trees.flatMap { $0["callStacks"]?.arrayValue ?? [] }
        let perThread = trees.first?["callStackPerThread"] ?? .bool(true)
        var diagnostic: [(key: String, value: JSONValue)] = [
            ("callStackTree", .object([("callStackPerThread", perThread), ("callStacks", .array(stacks))])),
            ("diagnosticMetaData", .object(meta)),
        ]
        if let version { diagnostic.append(("version", .string(version))) }
        return .object(diagnostic)
    }
}
