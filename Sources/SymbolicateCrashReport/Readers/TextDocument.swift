import Foundation

/// The original bytes of a text report split into lines, each with its own terminator, so
/// that untouched lines are written back byte for byte (CRLF, tabs, trailing spaces). What
/// every `ReportReader` is given: the file already decoded (UTF-16, BOM, Latin-1 handled once).
package struct TextDocument: Sendable {
    package struct Line: Sendable {
        package var text: String
        /// `"\n"`, `"\r\n"`, `"\r"` or `""` for a last line without a newline.
        package var terminator: String
    }
    package internal(set) var lines: [Line]
    /// The file began with a UTF-8 byte order mark.
    package internal(set) var hasBOM: Bool
    /// Each line's role, filled by the reader (empty until then); see `LineRole`.
    var roles: [LineRole] = []
    /// The grammar's answers for the lines, shared by the readers that ask them.
    let readings = LineReadings()

    /// The UTF-8 bytes of the lines from `start` on, terminators included: what a JSON parser
    /// reads, with line numbers that still match the file.
    package func bytes(from start: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines[min(start, lines.count)...] {
            bytes.append(contentsOf: line.text.utf8)
            bytes.append(contentsOf: line.terminator.utf8)
        }
        return bytes
    }

    init(lines: [Line], hasBOM: Bool) {
        self.lines = lines
        self.hasBOM = hasBOM
    }

    /// Splits on LF (keeping a preceding CR as part of the terminator); a file with CRs but
    /// no LF at all (classic Mac / some mail clients) is split on CR.
    package init(text: String, hasBOM: Bool) {
        self.hasBOM = hasBOM
        var lines: [Line] = []
        let scalars = Array(text.utf8)
        let hasLF = scalars.contains(0x0A)
        let separator: UInt8 = hasLF ? 0x0A : 0x0D
        var start = 0
        var i = 0
        while i < scalars.count {
            if scalars[i] == separator {
                var end = i
                var term = hasLF ? "\n" : "\r"
                if hasLF, end > start, scalars[end - 1] == 0x0D {
                    end -= 1
                    term = "\r\n"
                }
                lines.append(Line(text: String(decoding: scalars[start..<end], as: UTF8.self), terminator: term))
                start = i + 1
            }
            i += 1
        }
        if start < scalars.count {
            lines.append(Line(text: String(decoding: scalars[start..<scalars.count], as: UTF8.self), terminator: ""))
        }
        self.lines = lines
    }
}
