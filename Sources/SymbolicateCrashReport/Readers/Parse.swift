import Foundation
import SymbolicateCore
import SymbolicateJSON

extension CrashReport {
    /// Reports larger than this are refused: real ones are well under 2 MiB, and reading an
    /// arbitrary large file into memory line by line is how a wrong argument eats the machine.
    package static let defaultSizeLimit = 64 * 1024 * 1024

    /// Reads and parses the report at `path`.
    package static func parse(contentsOf path: String, sizeLimit: Int = defaultSizeLimit) throws(CrashReportError) -> CrashReport {
        try parse(data: try read(contentsOf: path, sizeLimit: sizeLimit), path: path, sizeLimit: sizeLimit)
    }

    /// The bytes of the report at `path`, after the checks that give a clear error (missing,
    /// a folder, over the size limit). For callers that also want the raw text (`--explain`
    /// quotes lines the model does not keep) without reading the file twice.
    package static func read(
        contentsOf file: String, displayPath: String? = nil,
        sizeLimit: Int = defaultSizeLimit
    ) throws(CrashReportError) -> Data {
        // Errors name the file as the user knows it (a zip entry, not its unpacked copy).
        let path = displayPath ?? file
        switch RegularFile.read(path: file, limit: sizeLimit) {
        case .success(let data):
            return data
        case .failure(.folder):
            throw CrashReportError(
                kind: .unreadable, path: path,
                message: "is a folder, not a crash report (symbolicate batch takes folders of reports)")
        case .failure(.tooLarge(let size)):
            throw CrashReportError(
                kind: .tooLarge, path: path, message: "file is \(size) bytes, over the \(sizeLimit)-byte limit for crash reports")
        case .failure(let failure):
            throw CrashReportError(kind: .unreadable, path: path, message: failure.message)
        }
    }

    /// Parses a report from memory, detecting its format from the content.
    ///
    /// - A first line holding a JSON object is an `.ips` header; a JSON body after it makes an
    ///   `.ips`, a text body a legacy `.ips` (`.ipsTextBody`).
    /// - Anything else is a text report.
    /// Malformed frames do not fail the parse: the line is kept and a warning names it.
    /// UTF-8 is expected; a UTF-8 BOM is kept, UTF-16 (with BOM) and stray Latin-1 bytes are
    /// read with a warning.
    package static func parse(data: Data, path: String, sizeLimit: Int = defaultSizeLimit) throws(CrashReportError) -> CrashReport {
        let reports = try parseAll(data: data, path: path, sizeLimit: sizeLimit)
        guard var first = reports.first else {
            throw CrashReportError(kind: .notACrashReport, path: path, message: "no report in the file")
        }
        if reports.count > 1 {
            first.warnings.append(ParseWarning(path: path, message: "the file holds \(reports.count) reports; only the first is read here"))
        }
        return first
    }

    /// Every report a file holds: one for a crash report, one per diagnostic for a MetricKit
    /// payload. Never empty. The layout is decided by `ReportReaders.all`, in order.
    /// The data is taken over (`consuming`): decoding lets go of it, so a large report is not
    /// held in memory once more while it is read.
    package static func parseAll(data: consuming Data, path: String, sizeLimit: Int = defaultSizeLimit) throws(CrashReportError)
        -> [CrashReport]
    {
        if data.count <= sizeLimit, let reports = try ReportReaders.readBinary(data, path: path) { return reports }
        var (document, warnings) = try decode(data: consume data, path: path, sizeLimit: sizeLimit)
        if let plain = MarkdownText.unescaped(document) {
            document = plain
            warnings.append(
                ParseWarning(
                    path: path, message: "the text holds Markdown's backslash escapes (\\_, \\#, \\*): read and written without them"))
        }
        guard var reports = try ReportReaders.read(document, path: path), !reports.isEmpty else {
            throw CrashReportError(kind: .notACrashReport, path: path, message: "no report in the file")
        }
        // Whichever reader took the text: a debugger expression's fault it rolled back is no crash.
        if reports.count == 1 { reports[0] = try reports[0].refusingUnwoundExpressions(document) }
        reports[0].warnings.insert(contentsOf: warnings, at: 0)
        return reports
    }

    /// The file's text as one string, decoded as the readers decode it (UTF-16, a BOM, stray
    /// Latin-1), for tools that rewrite the text itself (`symbolicate scrub`); the BOM is kept.
    package static func decodedText(data: consuming Data, path: String, sizeLimit: Int = defaultSizeLimit) throws(CrashReportError)
        -> String
    {
        let (document, _) = try decode(data: consume data, path: path, sizeLimit: sizeLimit)
        return (document.hasBOM ? "\u{FEFF}" : "") + String(decoding: document.bytes(), as: UTF8.self)
    }

    /// The file's text as lines, whatever its encoding, and what decoding had to guess.
    /// Refuses what is not text at all (empty, binary, a known non-report format) with an
    /// error naming the file, so that no reader has to.
    static func decode(data: consuming Data, path: String, sizeLimit: Int) throws(CrashReportError) -> (TextDocument, [ParseWarning]) {
        if data.count > sizeLimit {
            throw CrashReportError(
                kind: .tooLarge, path: path, message: "file is \(data.count) bytes, over the \(sizeLimit)-byte limit for crash reports")
        }
        let isEmpty = data.isEmpty
        var bytes = [UInt8](consume data)
        var warnings: [ParseWarning] = []
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            // Saved as UTF-16 by a Windows editor or mail client: read it, write UTF-8.
            let encoding: String.Encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            guard let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding) else {
                throw CrashReportError(
                    kind: .binary, path: path, message: "not a crash report: starts with a UTF-16 byte order mark but is not valid UTF-16")
            }
            bytes = Array(text.utf8)
            warnings.append(ParseWarning(path: path, message: "file is UTF-16; read it as text (output will be UTF-8)"))
        }
        var hasBOM = false
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            hasBOM = true
            bytes.removeFirst(3)
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw CrashReportError(kind: .empty, path: path, message: isEmpty ? "file is empty" : "file contains only whitespace")
        }
        if let reason = binaryReason(bytes) {
            throw CrashReportError(kind: .binary, path: path, line: reason.line, message: "not a crash report: \(reason.message)")
        }
        warnings += nulWarnings(bytes, path: path)
        let text: String
        if let s = String(validating: bytes, as: UTF8.self) {
            text = s
        } else {
            // Reports are UTF-8; a stray Latin-1 byte (mail clients, old tools) should not make
            // the whole report unreadable. Decode as Latin-1 and say so.
            text = String(bytes.map { Character(UnicodeScalar($0)) })
            warnings.append(
                ParseWarning(
                    path: path, line: firstInvalidUTF8Line(bytes),
                    message: "file is not valid UTF-8; read as Latin-1 (output will be UTF-8)"))
        }
        return (TextDocument(text: text, hasBOM: hasBOM), warnings)
    }

    /// Files starting with `{`: an `.ips` header line plus a JSON or text body, or a bare
    /// JSON body without a header line.
    static func parseJSONStarting(document: TextDocument, firstLine: Int, path: String) throws(CrashReportError) -> CrashReport {
        let headerText = document.lines[firstLine].text
        let header: JSONValue
        do {
            header = try JSONParser.parse(Array(headerText.utf8)).value
        } catch {
            // Not a one-line header: maybe the whole file is a single JSON document.
            return try IPSParser.parseHeaderless(document: document, path: path, headerError: error, headerLine: firstLine + 1)
        }
        guard case .object = header else {
            throw CrashReportError(
                kind: .invalidJSON, path: path, line: firstLine + 1, message: ".ips header line is JSON but not an object")
        }
        guard IPSParser.isIPSHeader(header) else {
            throw CrashReportError(
                kind: .notACrashReport, path: path, line: firstLine + 1,
                message: "JSON document in none of the layouts read (tried: \(KnownJSONLayouts.names))")
        }
        guard let bodyStart = document.lines[(firstLine + 1)...].firstIndex(where: { !$0.text.allSatisfy(\.isWhitespace) }) else {
            throw CrashReportError(
                kind: .headerWithoutBody, path: path, line: firstLine + 1,
                message:
                    ".ips header (bug_type \(header["bug_type"]?.stringValue ?? "?")) is not followed by a report body (file truncated?)")
        }
        if document.lines[bodyStart].text.drop(while: \.isWhitespace).hasPrefix("{") {
            return try IPSParser(document: document, header: header, headerLine: firstLine, bodyStartLine: bodyStart, path: path).parse()
        }
        let bugType = header["bug_type"]?.stringValue
        var report =
            CallGraphParser.detect(document, bodyStart: bodyStart)
            ? CallGraphParser(document: document, path: path, bodyStart: bodyStart, format: .ipsTextBody, bugType: bugType).parse()
            : try TextReportParser(document: document, path: path, bodyStart: bodyStart, format: .ipsTextBody, bugType: bugType).parse()
        report.applyIPSHeader(header)
        return report
    }

    private static func binaryReason(_ bytes: [UInt8]) -> (line: Int?, message: String)? {
        let magics: [([UInt8], String)] = [
            ([0xCF, 0xFA, 0xED, 0xFE], "a Mach-O file (debug files go after the report)"),
            ([0xCE, 0xFA, 0xED, 0xFE], "a Mach-O file (debug files go after the report)"),
            ([0xCA, 0xFE, 0xBA, 0xBE], "a universal Mach-O file (debug files go after the report)"),
            // A zip of reports is what `batch` reads; a zip of dSYMs goes after the report.
            (
                [0x50, 0x4B, 0x03, 0x04],
                "a zip archive: for a zip of crash reports use `symbolicate batch ZIP -o FOLDER`; a zip of dSYMs goes after the report"
            ),
            ([0x7F, 0x45, 0x4C, 0x46], "an ELF file"),
            (Array("bplist".utf8), "a binary property list"),
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
            ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"),
            (Array("%PDF".utf8), "a PDF document"),
            ([0x1F, 0x8B], "a gzip archive (unpack it first)"),
        ]
        for (magic, what) in magics where bytes.starts(with: magic) { return (nil, "file is \(what)") }
        // NUL bytes count as control characters: a few in a text report are damage (a disk
        // or a copy that zero-filled a block), warned about per line; only a file made mostly
        // of them is binary.
        var controls = 0
        let window = bytes.prefix(65536)
        for b in window where b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0x0C { controls += 1 }
        if controls * 20 > window.count { return (nil, "file is mostly control characters (binary data)") }
        return nil
    }

    /// One warning per line holding NUL bytes (at most `limit`, then a count of the rest):
    /// the line is kept as it is, and read like any other.
    static func nulWarnings(_ bytes: [UInt8], path: String, limit: Int = 20) -> [ParseWarning] {
        guard bytes.contains(0) else { return [] }
        var warnings: [ParseWarning] = []
        var line = 1
        var lastWarned = 0
        var more = 0
        for b in bytes {
            if b == 0x0A {
                line += 1
            } else if b == 0, lastWarned != line {
                lastWarned = line
                if warnings.count < limit {
                    warnings.append(ParseWarning(path: path, line: line, message: "line holds a NUL byte (damaged file?); read as text"))
                } else {
                    more += 1
                }
            }
        }
        if more > 0 {
            warnings.append(ParseWarning(path: path, message: "\(more) more line\(more == 1 ? "" : "s") hold NUL bytes"))
        }
        return warnings
    }

    private static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int? {
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
            line += 1
            start = i + 1
        }
        return line
    }

    /// Fills fields from an `.ips` header line where the body did not already provide them.
    mutating func applyIPSHeader(_ header: JSONValue) {
        bugType = bugType ?? header["bug_type"]?.stringValue
        if let members = header.objectValue {
            let fromHeader = members.map { HeaderField(key: $0.key, value: $0.value.stringValue ?? $0.value.compactText()) }
            headerFields.insert(contentsOf: fromHeader, at: 0)
        }
        incidentIdentifier = incidentIdentifier ?? header["incident_id"]?.stringValue
        if osVersion == nil, let printed = header["os_version"]?.stringValue {
            osVersion = printed
            operatingSystem = OperatingSystem(printed: printed)
        }
        bundleIdentifier = bundleIdentifier ?? header["bundleID"]?.stringValue
        processName = processName ?? header["app_name"]?.stringValue ?? header["name"]?.stringValue
        appVersion = appVersion ?? header["app_version"]?.stringValue
    }
}
