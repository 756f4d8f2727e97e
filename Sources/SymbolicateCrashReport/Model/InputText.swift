import Foundation
import SymbolicateCore

/// What the input's own text holds, for claims that cite it: explain's evidence names a field
/// (`Exception Message`, `Thread 0 frame 3`) only when the reader can find it in what they gave.
extension CrashReport {
    /// The input's lines when it was read as text (Apple's layout, console and LLDB output, a
    /// pasted excerpt, a device log); nil for JSON layouts, whose fields the tool prints in
    /// Apple's text layout under the names explain cites.
    package var inputLines: [String]? {
        guard case .text(let document) = source else { return nil }
        return document.lines.map(\.text)
    }

    /// Whether the text input prints a field of this name (`Exception Type:`, `Thread 3:`,
    /// `Thread 3 Crashed:`): a line starting with the name, then a colon or a space.
    /// Always true for JSON layouts (see `inputLines`).
    package func inputPrints(field name: String) -> Bool {
        guard case .text(let document) = source else { return true }
        return document.lines.contains { line in
            let text = line.text.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix(name) else { return false }
            let after = text.dropFirst(name.count).first
            return after == ":" || after == " " || after == "\t"
        }
    }

    /// The 1-based line of the text input holding `quote`, nil when none does (or the input is JSON).
    package func inputLine(holding quote: String) -> Int? {
        guard case .text(let document) = source, !quote.isEmpty else { return nil }
        return document.lines.firstIndex { $0.text.containsBytes(quote) }.map { $0 + 1 }
    }
}
