import Foundation
import SymbolicateJSON

/// The Swift runtime backtracer's JSON crash log (`SWIFT_BACKTRACE=…,format=json`): one
/// object with `"kind": "crashReport"`, `threads[].frames[]` and `images[]`, possibly after
/// the program's own `Fatal error:` line and the backtracer's `*** Signal …` line.
///
/// It is rewritten into the backtracer's own text layout (what `format=text` prints for the
/// same crash), which `SwiftBacktraceParser` reads: one parser for both, and the symbolicated
/// output reads like the text log. Lines before the JSON are kept.
package enum SwiftBacktraceJSONReportReader: ReportReader {
    package struct Evidence {
        var firstJSONLine: Int
        var body: JSONValue
    }

    package static func detect(_ document: TextDocument) -> Evidence? {
        // The object starts on one of the first lines (after at most a few lines of output).
        guard let start = document.lines.prefix(50).firstIndex(where: { $0.text.drop(while: \.isWhitespace).hasPrefix("{") }),
            document.lines[start...].prefix(8).contains(where: { $0.text.containsBytes("\"crashReport\"") }),
            let body = try? JSONParser.parse(document.bytes(from: start), allowTrailing: true).value,
            body["kind"]?.stringValue == "crashReport", body["threads"]?.arrayValue != nil
        else { return nil }
        return Evidence(firstJSONLine: start, body: body)
    }

    package static func read(_ document: TextDocument, evidence: Evidence, path: String) throws(CrashReportError) -> [CrashReport] {
        var lines = document.lines[..<evidence.firstJSONLine].map(\.text)
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        if !lines.isEmpty { lines.append("") }
        let crashLine = lines.count
        lines += textLayout(evidence.body)
        let text = TextDocument(text: lines.joined(separator: "\n") + "\n", hasBOM: false)
        return [SwiftBacktraceParser(document: text, path: path).parse(crashLine: crashLine).withDetectedKind()]
    }

    /// The text layout of the backtracer for a JSON crash log.
    static func textLayout(_ body: JSONValue) -> [String] {
        var lines: [String] = []
        let description = body["description"]?.stringValue ?? "crashed"
        let fault = body["faultAddress"]?.stringValue.map { " at \($0)" } ?? ""
        lines += ["*** Program crashed: \(description)\(fault) ***", ""]
        if let platform = body["platform"]?.stringValue {
            let architecture = body["architecture"]?.stringValue.map { $0 + " " } ?? ""
            lines += ["Platform: \(architecture)\(platform)", ""]
        }
        for (number, thread) in (body["threads"]?.arrayValue ?? []).enumerated() {
            let name = thread["name"]?.stringValue.map { " \"\($0)\"" } ?? ""
            let crashed = thread["crashed"]?.boolValue == true ? " crashed" : ""
            lines += ["Thread \(number)\(name)\(crashed):", ""]
            var index = 0
            for frame in thread["frames"]?.arrayValue ?? [] {
                guard let address = frame["address"]?.stringValue else {
                    lines.append("...")
                    continue
                }
                var markers: [String] = []
                switch frame["kind"]?.stringValue {
                case "returnAddress": markers.append("[ra]")
                case "asyncResumePoint": markers.append("[async]")
                default: break
                }
                if frame["inlined"]?.boolValue == true { markers.append("[inlined]") }
                if frame["system"]?.boolValue == true { markers.append("[system]") }
                let symbol = frame["description"]?.stringValue ?? frame["symbol"]?.stringValue ?? "<unknown>"
                var line = "\(String(index).leftPadded(to: 3)) \(markers.joined(separator: " ").rightPadded(to: 4)) \(address) \(symbol)"
                if let image = frame["image"]?.stringValue { line += " in \(image)" }
                if let location = frame["sourceLocation"], let file = location["file"]?.stringValue, let row = location["line"]?.intValue {
                    line += " at \(file):\(row):\(location["column"]?.intValue ?? 0)"
                }
                lines.append(line)
                index += 1
            }
            lines.append("")
        }
        let images = body["images"]?.arrayValue ?? []
        let omitted = body["omittedImages"]?.intValue ?? 0
        lines += [omitted > 0 ? "Images (\(omitted) omitted):" : "Images:", ""]
        for image in images {
            guard let base = image["baseAddress"]?.stringValue, let end = image["endOfText"]?.stringValue else { continue }
            let id = image["buildId"]?.stringValue ?? "<no build ID>"
            lines.append("\(base)–\(end) \(id) \(image["name"]?.stringValue ?? "???") \(image["path"]?.stringValue ?? "")")
        }
        lines.append("")
        return lines
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
