import Foundation

/// Crash text that went through Markdown on its way here: copied from a rendered page back into
/// Markdown, every character Markdown would read as markup is escaped with a backslash
/// (`thread \#1`, `libc.so.6\`\_\_GI_raise`, `**\* Collection`, `\<unavailable\>`). CommonMark
/// lets any ASCII punctuation character be escaped so; the escapes are taken away before the
/// text is read, so readers see the words the program printed (and the output is written with
/// them). Lines and their numbers stay.
package enum MarkdownText {
    /// The characters whose escapes show Markdown's hand: a path's `C:\Users` or a regular
    /// expression's `\.` are no sign, but nothing prints `\_`, `\#` or `\*` of its own.
    private static let markupCharacters: Set<UInt8> = Set("_*#<>[]`".utf8)
    /// ASCII punctuation: what CommonMark lets a backslash escape.
    private static let punctuation: Set<UInt8> = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".utf8)
    /// Escapes of markup characters needed before a text is taken as Markdown-escaped.
    static let minimumEscapes = 1

    /// The document without Markdown's backslash escapes, or nil when it shows none (fewer than
    /// `minimumEscapes` of markup characters) or is JSON (where `\` escapes are the JSON's own).
    package static func unescaped(_ document: TextDocument) -> TextDocument? {
        guard let first = document.lines.lazy.compactMap({ $0.text.utf8.first { $0 != 0x20 && $0 != 0x09 } }).first,
            first != UInt8(ascii: "{"), first != UInt8(ascii: "[")
        else { return nil }
        var markup = 0
        for line in document.lines where markup < minimumEscapes {
            var escaped = false
            for byte in line.text.utf8 {
                if escaped {
                    if markupCharacters.contains(byte) { markup += 1 }
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                }
            }
        }
        guard markup >= minimumEscapes else { return nil }
        let lines = document.lines.map { line in TextDocument.Line(text: unescaped(line.text), terminator: line.terminator) }
        return TextDocument(lines: lines, hasBOM: document.hasBOM)
    }

    /// One line without its escapes: `\` before ASCII punctuation dropped, other backslashes kept.
    package static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                if !punctuation.contains(byte) { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        if escaped { out.append(UInt8(ascii: "\\")) }
        return String(decoding: out, as: UTF8.self)
    }
}
