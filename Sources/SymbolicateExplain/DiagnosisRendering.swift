import Foundation
import SymbolicateCrashReport

extension Diagnosis {
    /// Plain text for terminals; `color` adds ANSI emphasis.
    public func renderText(color: Bool = false) -> String {
        let style = Style(color: color)
        var lines = [style.bold("Diagnosis: ") + headline]
        var facts = ["category: \(category.rawValue)", "confidence: \(certainty.rawValue)"]
        if !isFatal { facts.append("not fatal") }
        lines.append(style.dim("  (" + facts.joined(separator: ", ") + ")"))
        if !evidence.isEmpty {
            lines.append("")
            lines.append(style.bold("Evidence from the report:"))
            for item in evidence {
                lines.append("  \(item.field): \(item.quote)")
                if let note = item.note { lines.append(style.dim("      → \(note)")) }
            }
        }
        if !causes.isEmpty {
            lines.append("")
            lines.append(style.bold("Likely causes (most likely first):"))
            for cause in causes {
                lines.append("  - [\(cause.likelihood.rawValue)] \(cause.text)")
                for frame in cause.frames ?? [] { lines.append(style.dim("      shown by \(frame)")) }
            }
        }
        if !nextSteps.isEmpty {
            lines.append("")
            lines.append(style.bold("Next steps:"))
            for (number, step) in nextSteps.enumerated() { lines.append("  \(number + 1). \(step)") }
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(style.bold("Notes:"))
            for note in notes { lines.append("  - \(note)") }
        }
        if !references.isEmpty {
            lines.append("")
            lines.append(style.bold("References:"))
            for reference in references {
                let flag = reference.communityReported ? " (community-reported)" : ""
                lines.append("  - \(reference.term) — \(reference.title)\(flag): \(reference.links.first ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Markdown for issues and pull requests.
    public func renderMarkdown() -> String {
        var lines = [
            "## Diagnosis", "", "**\(headline)**", "",
            "Category: `\(category.rawValue)` · confidence: \(certainty.rawValue)" + (isFatal ? "" : " · not fatal"),
        ]
        if !evidence.isEmpty {
            lines += ["", "### Evidence from the report", ""]
            for item in evidence {
                lines.append(
                    "- \(item.field): `\(item.quote.replacingOccurrences(of: "`", with: "'"))`" + (item.note.map { " — \($0)" } ?? ""))
            }
        }
        if !causes.isEmpty {
            lines += ["", "### Likely causes", ""]
            for cause in causes {
                lines.append("- *\(cause.likelihood.rawValue)*: \(cause.text)")
                lines += (cause.frames ?? []).map { "  - shown by `\($0.replacingOccurrences(of: "`", with: "'"))`" }
            }
        }
        if !nextSteps.isEmpty {
            lines += ["", "### Next steps", ""]
            lines += nextSteps.enumerated().map { "\($0.offset + 1). \($0.element)" }
        }
        if !notes.isEmpty {
            lines += ["", "### Notes", ""]
            lines += notes.map { "- \($0)" }
        }
        if !references.isEmpty {
            lines += ["", "### References", ""]
            lines += references.map { reference in
                let links = reference.links.map { "<\($0)>" }.joined(separator: ", ")
                return "- `\(reference.term)` — \(reference.title)" + (reference.communityReported ? " (community-reported)" : "")
                    + ": \(links)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Stable, pretty-printed JSON (sorted keys).
    public func renderJSON() -> String { encodeJSON(self) + "\n" }
}

extension Diagnosis {
    /// The diagnosis as a JSON value, for embedding in other JSON output (`--format json`).
    public var jsonValue: JSONValue? {
        try? JSONValue(parsing: renderJSON())
    }
}
