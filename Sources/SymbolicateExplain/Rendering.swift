import Foundation
import SymbolicateCrashReport

/// Minimal ANSI styling so `--color` output stays readable when piped without it.
struct Style {
    let color: Bool
    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func accent(_ text: String) -> String { color ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
}

/// JSON with stable key order, so output can be diffed and tested.
func encodeJSON<T: Encodable>(_ value: T) -> String {
    OutputJSON.text(value) ?? "{}"
}

extension KnowledgeEntry {
    /// `EXC_BAD_ACCESS — Bad memory access (Mach exception type 1)`.
    var heading: String {
        var text = "\(term) — \(title)"
        let number =
            values.first.map { value in
                kind == .terminationCode ? "" : " \(value <= 0xff ? String(value) : hex(value))"
            } ?? ""
        text += " (\(kind.label)\(number))"
        return text
    }

    func renderText(style: Style, indent: String = "") -> String {
        var lines = [indent + style.bold(heading)]
        lines.append(indent + "  " + meaning)
        if !causes.isEmpty {
            lines.append(indent + "  Usual causes:")
            lines += causes.map { indent + "    - " + $0 }
        }
        if !checkNext.isEmpty {
            lines.append(indent + "  Check next:")
            lines += checkNext.map { indent + "    - " + $0 }
        }
        lines.append(indent + "  " + style.dim("Status: \(provenance.label)"))
        lines += sources.map { indent + "  " + style.dim("Source: \($0.title) <\($0.url)>") }
        return lines.joined(separator: "\n")
    }

    func renderMarkdown(level: Int = 2) -> String {
        var lines = [String(repeating: "#", count: level) + " `\(term)` — \(title)", ""]
        lines.append(
            "*\(kind.label.prefix(1).uppercased() + kind.label.dropFirst())*"
                + (isCommunityReported ? " · **community-reported**" : "") + " · \(provenance.label)")
        lines += ["", meaning, ""]
        if !causes.isEmpty {
            lines.append("**Usual causes**")
            lines += [""] + causes.map { "- " + $0 } + [""]
        }
        if !checkNext.isEmpty {
            lines.append("**Check next**")
            lines += [""] + checkNext.map { "- " + $0 } + [""]
        }
        lines.append("Sources: " + sources.map { "[\($0.title)](\($0.url))" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}

/// Anything `explain` prints: a term's explanation or a report's diagnosis, in the three
/// output formats.
public protocol ExplainRenderable {
    func renderText(color: Bool) -> String
    func renderMarkdown() -> String
    func renderJSON() -> String
}

extension TermExplanation: ExplainRenderable {}
extension Diagnosis: ExplainRenderable {}

extension TermExplanation {
    public func renderText(color: Bool = false) -> String {
        let style = Style(color: color)
        guard isKnown else { return notKnownText }
        var blocks = decoded.map { style.accent($0) }
        blocks += entries.map { $0.renderText(style: style) }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    public func renderMarkdown() -> String {
        guard isKnown else { return notKnownText }
        var blocks = ["# `\(query)`"]
        blocks += decoded.map { "> " + $0 }
        blocks += entries.map { $0.renderMarkdown() }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    public func renderJSON() -> String { encodeJSON(self) + "\n" }

    private var notKnownText: String {
        var text = "\"\(query)\" is not known to the explain knowledge base."
        if nearMatches.isEmpty {
            text +=
                "\nTry an exception type (EXC_BAD_ACCESS), a signal (SIGABRT), a code (0x8badf00d), a subtype (KERN_INVALID_ADDRESS) or a message."
        } else {
            text += "\nDid you mean: " + nearMatches.joined(separator: ", ") + "?"
        }
        return text + "\n"
    }
}
