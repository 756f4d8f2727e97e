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
        var frames: [String] = []
        var framesLine: Int?
        for (offset, line) in document.lines.enumerated().prefix(2_000) {
            guard let found = member(line.text), (try? JSONParser.parse(Array(found.value.utf8))) != nil else {
                // A thread's frames laid out one or more a line (the thread's member is then
                // spread over lines and not whole on any).
                let objects = frameObjects(line.text)
                if !objects.isEmpty {
                    frames += objects
                    framesLine = framesLine ?? offset
                }
                continue
            }
            members.append((offset, found.name, found.value))
        }
        guard members.contains(where: { telling.contains($0.name) }) else { return nil }
        // The frames, when no whole `threads` member holds any, as the crashed thread's.
        if let framesLine, !members.contains(where: { $0.name == "threads" }) {
            members.removeAll { $0.name == "faultingThread" }
            members.append((framesLine, "threads", "[{\"triggered\":true,\"frames\":[" + frames.joined(separator: ",") + "]}]"))
        }
        return members
    }

    /// The frame objects of a thread's `frames` array on one line (`{"imageOffset":38376,
    /// "symbol":"__pthread_kill","symbolLocation":8,"imageIndex":89},`), after a `"frames":[`
    /// that may open the line: each a whole JSON object with an `imageOffset`.
    static func frameObjects(_ line: String) -> [String] {
        guard line.utf8.count <= 65_536, line.containsBytes("\"imageOffset\"") else { return [] }
        var text = Substring(line.trimmedBlanks)
        if let key = text.range(of: "\"frames\""), let open = text[key.upperBound...].firstIndex(of: "[") {
            text = text[text.index(after: open)...]
        }
        var objects: [String] = []
        var depth = 0
        var start: Substring.Index?
        var inString = false
        var escaped = false
        // The brackets closing the array and the thread after the last object end the scan.
        scan: for index in text.indices {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = index }
                depth += 1
            case "}":
                depth -= 1
                if depth < 0 { break scan }
                if depth == 0, let open = start {
                    objects.append(String(text[open...index]))
                    start = nil
                }
            default: break
            }
        }
        return objects.filter { object in
            object.containsBytes("\"imageOffset\"") && (try? JSONParser.parse(Array(object.utf8))) != nil
        }
    }

    package static func read(
        _ document: TextDocument, evidence: [(line: Int, name: String, value: String)], path: String
    ) throws(CrashReportError) -> [CrashReport] {
        var seen: Set<String> = []
        let unique = evidence.filter { seen.insert($0.name).inserted }
        let body = unique.map { "  " + quoted($0.name) + ": " + $0.value }
        // The `threads` member is made from frame objects spread over lines when none was whole.
        let whole = unique.filter { $0.name != "threads" || document.lines[$0.line].text.trimmedBlanks.hasPrefix("\"threads\"") }
        let framesOnly = whole.count < unique.count
        let json = "{\n" + body.joined(separator: ",\n") + "\n}\n"
        var report = try CrashReport.parseJSONStarting(document: TextDocument(text: json, hasBOM: false), firstLine: 0, path: path)
        report.source = .text(document)
        report.warnings = [
            ParseWarning(
                path: path, line: (evidence.first?.line ?? 0) + 1,
                message:
                    "read as a part of an .ips body: \(whole.count) member\(whole.count == 1 ? "" : "s") whole on their lines (\(whole.map(\.name).joined(separator: ", ")))"
                    + (framesOnly ? " and a thread's frames, one object a line" : "") + "; the rest of the report is not in the text",
                kind: .partialReport)
        ]
        if report.completeness.isComplete {
            report.completeness = .partial(report.threads.isEmpty ? [.noThreads, .noBinaryImages] : [.noBinaryImages])
        }
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
