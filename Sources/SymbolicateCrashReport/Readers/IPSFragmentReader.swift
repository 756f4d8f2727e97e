import Foundation
import SymbolicateJSON

/// A middle part of an `.ips` body pasted alone: members one per line (`"exception" :
/// {"type":"EXC_BAD_ACCESS",…},`, `"termination" : {…},`) without the braces around them, as a
/// post quotes the lines that matter. The members that are whole on their line are read as an
/// `.ips` body of their own; members cut or spread over lines are left out, and a warning says
/// the report is a part.
package enum IPSFragmentReportReader: ReportReader {
    /// The members of the body an `.ips` crash is told by.
    static let telling: Set<String> = ["exception", "termination", "faultingThread", "vmRegionInfo", "asi", "lastExceptionBacktrace"]

    package static func detect(_ document: TextDocument) -> [(line: Int, name: String, value: String)]? {
        guard let first = document.firstContentLine, member(document.lines[first].text) != nil else { return nil }
        var members: [(line: Int, name: String, value: String)] = []
        for (offset, line) in document.lines.enumerated().prefix(2_000) {
            guard let found = member(line.text), (try? JSONParser.parse(Array(found.value.utf8))) != nil else { continue }
            members.append((offset, found.name, found.value))
        }
        return members.contains { telling.contains($0.name) } ? members : nil
    }

    package static func read(
        _ document: TextDocument, evidence: [(line: Int, name: String, value: String)], path: String
    ) throws(CrashReportError) -> [CrashReport] {
        var seen: Set<String> = []
        let body = evidence.filter { seen.insert($0.name).inserted }.map { "  " + quoted($0.name) + ": " + $0.value }
        let json = "{\n" + body.joined(separator: ",\n") + "\n}\n"
        var report = try CrashReport.parseJSONStarting(document: TextDocument(text: json, hasBOM: false), firstLine: 0, path: path)
        report.source = .text(document)
        report.warnings = [
            ParseWarning(
                path: path, line: (evidence.first?.line ?? 0) + 1,
                message:
                    "read as a part of an .ips body: \(body.count) member\(body.count == 1 ? "" : "s") whole on their lines (\(evidence.map(\.name).joined(separator: ", "))); the rest of the report is not in the text",
                kind: .partialReport)
        ]
        if report.completeness.isComplete { report.completeness = .partial([.noThreads, .noBinaryImages]) }
        return [report.withDetectedKind()]
    }

    /// `  "name" : value,` → (`name`, `value`), the trailing comma dropped.
    static func member(_ line: String) -> (name: String, value: String)? {
        let trimmed = line.trimmedBlanks
        guard trimmed.hasPrefix("\""), trimmed.utf8.count <= 65_536 else { return nil }
        let afterQuote = trimmed.dropFirst()
        guard let close = afterQuote.firstIndex(of: "\"") else { return nil }
        let name = afterQuote[..<close]
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            return nil
        }
        var rest = afterQuote[afterQuote.index(after: close)...].drop { $0 == " " || $0 == "\t" }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        var value = rest.trimmedBlanks
        if value.hasSuffix(",") { value.removeLast() }
        return value.isEmpty ? nil : (String(name), value)
    }

    static func quoted(_ name: String) -> String { "\"" + name + "\"" }
}
