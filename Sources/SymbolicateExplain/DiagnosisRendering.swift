import Foundation
import SymbolicateCrashReport
import SymbolicateJSON

extension Diagnosis {
    private func say(_ key: PhraseKey, _ values: [String: String] = [:]) -> String { Catalog.text(key, language, values) }

    /// A certainty or likelihood in words (`likely`, `可能性が高い`).
    private func word(_ certainty: String) -> String {
        switch certainty {
        case Certainty.stated.rawValue: say(.certaintyStated)
        case Certainty.likely.rawValue: say(.certaintyLikely)
        default: say(.certaintyPossible)
        }
    }

    /// Plain text for terminals; `color` adds ANSI emphasis.
    package func renderText(color: Bool = false) -> String {
        let style = Style(color: color)
        var lines = [style.bold(say(.uiDiagnosis) + ": ") + headline]
        if let entry {
            lines.insert(
                style.bold(say(.uiEntry, ["number": "\(entry.number)", "count": "\(entry.count)", "entry": entry.described])), at: 0)
        }
        var facts = [say(.uiCategory, ["category": category.rawValue]), say(.uiConfidence, ["certainty": word(certainty.rawValue)])]
        if !isFatal { facts.append(say(.uiNotFatal)) }
        if let matched { facts.append(say(.uiMatched, ["id": matched.catalogue + "/" + matched.id])) }
        lines.append(style.dim("  (" + facts.joined(separator: say(.listSeparator)) + ")"))
        if !evidence.isEmpty {
            lines.append("")
            lines.append(style.bold(say(.uiEvidence) + ":"))
            for item in evidence {
                lines.append("  \(item.field): \(item.quote)")
                if let note = item.note { lines.append(style.dim("      → \(note)")) }
            }
        }
        if !causes.isEmpty {
            lines.append("")
            lines.append(style.bold(say(.uiCausesMostLikelyFirst) + ":"))
            for cause in causes {
                lines.append("  - [\(word(cause.likelihood.rawValue))] \(cause.text)")
                for frame in cause.frames ?? [] { lines.append(style.dim("      " + say(.uiShownBy, ["frame": frame]))) }
            }
        }
        if !nextSteps.isEmpty {
            lines.append("")
            lines.append(style.bold(say(.uiNextSteps) + ":"))
            for (number, step) in nextSteps.enumerated() { lines.append("  \(number + 1). \(step)") }
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(style.bold(say(.uiNotes) + ":"))
            for note in notes { lines.append("  - \(note)") }
        }
        if !references.isEmpty {
            lines.append("")
            lines.append(style.bold(say(.uiReferences) + ":"))
            for reference in references {
                let flag = reference.communityReported ? " (\(say(.uiCommunityReported)))" : ""
                lines.append("  - \(reference.term) — \(reference.title)\(flag): \(reference.links.first ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A quote inside Markdown's code span: its backticks as apostrophes, so the span holds.
    static func withoutBackticks(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "`")) else { return text }
        return String(text.map { $0 == "`" ? "'" : $0 })
    }

    /// Markdown for issues and pull requests.
    package func renderMarkdown() -> String {
        let title =
            entry.map { say(.uiEntry, ["number": "\($0.number)", "count": "\($0.count)", "entry": "`\($0.described)`"]) }
            ?? say(.uiDiagnosis)
        var lines = [
            "## " + title, "", "**\(headline)**", "",
            say(.uiMarkdownCategory, ["category": "`\(category.rawValue)`", "certainty": word(certainty.rawValue)])
                + (isFatal ? "" : " · " + say(.uiNotFatal)),
        ]
        if !evidence.isEmpty {
            lines += ["", "### " + say(.uiEvidence), ""]
            for item in evidence {
                lines.append(
                    "- \(item.field): `\(Self.withoutBackticks(item.quote))`" + (item.note.map { " — \($0)" } ?? ""))
            }
        }
        if !causes.isEmpty {
            lines += ["", "### " + say(.uiCauses), ""]
            for cause in causes {
                lines.append("- *\(word(cause.likelihood.rawValue))*: \(cause.text)")
                lines += (cause.frames ?? []).map {
                    "  - " + say(.uiShownBy, ["frame": "`\(Self.withoutBackticks($0))`"])
                }
            }
        }
        if !nextSteps.isEmpty {
            lines += ["", "### " + say(.uiNextSteps), ""]
            lines += nextSteps.enumerated().map { "\($0.offset + 1). \($0.element)" }
        }
        if !notes.isEmpty {
            lines += ["", "### " + say(.uiNotes), ""]
            lines += notes.map { "- \($0)" }
        }
        if !references.isEmpty {
            lines += ["", "### " + say(.uiReferences), ""]
            lines += references.map { reference in
                let links = reference.links.map { "<\($0)>" }.joined(separator: ", ")
                return "- `\(reference.term)` — \(reference.title)" + (reference.communityReported ? " (\(say(.uiCommunityReported)))" : "")
                    + ": \(links)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Stable, pretty-printed JSON (sorted keys).
    package func renderJSON() -> String { encodeJSON(self) + "\n" }
}

extension Diagnosis {
    /// The diagnosis as a JSON value, for embedding in other JSON output (`--format json`).
    package var jsonValue: JSONValue? {
        try? JSONValue(parsing: renderJSON())
    }
}
