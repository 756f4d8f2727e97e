import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicateJSON
import SymbolicatePresentation
import SymbolicateSourceContext

extension BatchSummary {
    // MARK: JSON

    /// `summary.json`: the whole summary, keys sorted, so reruns are byte-identical.
    package func renderJSON() throws -> String {
        var out = ""
        try renderJSON { out += $0 }
        return out
    }

    /// Writes `summary.json` atomically, one report at a time: encoding every per-report
    /// entry in one go would hold the whole document tree in memory, and with thousands of
    /// reports that would be the largest allocation of the run.
    package func writeJSON(to path: String) throws {
        let writer = try AtomicFileWriter(path: path)
        do {
            try renderJSON { try writer.write($0) }
            try writer.commit()
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Emits the same text as encoding the whole summary with sorted keys and pretty
    /// printing, in pieces.
    func renderJSON(_ emit: (String) throws -> Void) throws {
        let encoder = OutputJSON.encoder()
        func encoded<T: Encodable>(_ value: T, indent: Int) throws -> String {
            let text = String(decoding: try encoder.encode(value), as: UTF8.self)
            let pad = String(repeating: " ", count: indent)
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { $0.offset == 0 || $0.element.isEmpty ? String($0.element) : pad + $0.element }.joined(separator: "\n")
        }
        // Keys in sorted order, as `.sortedKeys` would put them.
        try emit("{\n  \"groups\" : \(try encoded(groups, indent: 2)),\n")
        try emit("  \"missingDebugFiles\" : \(try encoded(missingDebugFiles, indent: 2)),\n")
        try emit("  \"otherGroups\" : \(try encoded(otherGroups, indent: 2)),\n")
        try emit("  \"partialGroups\" : \(try encoded(partialGroups, indent: 2)),\n")
        if reports.isEmpty {
            try emit("  \"reports\" : [\n\n  ],\n")
        } else {
            try emit("  \"reports\" : [\n")
            for (i, report) in reports.enumerated() {
                try emit("    " + (try encoded(report, indent: 4)) + (i == reports.count - 1 ? "\n" : ",\n"))
            }
            try emit("  ],\n")
        }
        try emit("  \"skipped\" : \(try encoded(skipped, indent: 2)),\n")
        try emit("  \"skippedReasons\" : \(try encoded(skippedReasons, indent: 2)),\n")
        try emit("  \"totals\" : \(try encoded(totals, indent: 2)),\n")
        try emit("  \"unreadable\" : \(try encoded(unreadable, indent: 2))\n}\n")
    }

    // MARK: Markdown

    /// Rows per table in `summary.md`; the rest is counted, and listed in `summary.json`.
    package static let markdownRowLimit = 10

    /// `summary.md`, ready to append to `$GITHUB_STEP_SUMMARY`: short on purpose (the top
    /// groups plus counts; every report is in `summary.json`). Totals, the largest crash
    /// groups, then other kinds of reports, unreadable reports and app images without a
    /// usable dSYM. Apple's images (system frameworks, Swift runtime copies) are never listed
    /// as missing app dSYMs. Headings and column names are in `language` (the catalogs); the
    /// rows are the reports' own words.
    package func renderMarkdown(language: Language = .english) -> String {
        let limit = Self.markdownRowLimit
        let say = { (key: PhraseKey) in Catalog.text(key, language) }
        var out = "## \(say(.summaryTitle))\n\n"
        let crashes = totals.processed - totals.otherReports - totals.partialReports
        var parts = [
            "\(totals.processed) report\(totals.processed == 1 ? "" : "s") processed",
            "\(crashes) crash\(crashes == 1 ? "" : "es") in \(totals.groups) group\(totals.groups == 1 ? "" : "s")",
        ]
        if totals.otherReports > 0 {
            parts.append("\(totals.otherReports) other report\(totals.otherReports == 1 ? "" : "s") (jetsam, hang, resource, …)")
        }
        if totals.partialReports > 0 { parts.append("\(totals.partialReports) partial (cut or pasted)") }
        if totals.unreadable > 0 { parts.append("\(totals.unreadable) unreadable") }
        if totals.reportsMissingDebugFiles > 0 {
            parts.append("\(totals.reportsMissingDebugFiles) with an app image without a usable dSYM")
        }
        if totals.skipped > 0 { parts.append("\(totals.skipped) non-report file\(totals.skipped == 1 ? "" : "s") skipped") }
        if let uploads = totals.uploads {
            let sent = uploads.stored + uploads.alreadyStored
            var text = "\(sent) sent to the crash inbox (\(uploads.stored) new there"
            if uploads.failed > 0 { text += "; \(uploads.failed) not sent, listed in summary.json" }
            parts.append(text + ")")
        }
        out += parts.joined(separator: ", ") + ". \(say(.summaryEveryReport))\n\n"

        if !groups.isEmpty {
            let heading =
                groups.count > limit
                ? Catalog.text(.summaryCrashesLargest, language, ["shown": "\(limit)", "groups": "\(groups.count)"]) : say(.summaryCrashes)
            out += "### \(heading)\n\n"
            let shown = groups.prefix(limit)
            let withDiagnosis = shown.contains { $0.diagnosis != nil }
            out += "| \(say(.columnCount)) | \(say(.columnSignature)) |" + (withDiagnosis ? " \(say(.columnDiagnosis)) |" : "")
            out += " \(say(.columnExample)) | \(say(.columnAppVersion)) | \(say(.columnOS)) |\n"
            out += "|---:|---|" + (withDiagnosis ? "---|" : "") + "---|---|---|\n"
            for group in shown {
                var signature = "`\(Self.code(group.exception ?? "no exception"))`"
                if let function = group.function { signature += " in `\(Self.code(function))`" }
                if let location = group.location { signature += " (\(Self.cell(location)))" }
                if let app = group.app { signature += " · \(Self.cell(app))" }
                if let reason = group.reason { signature += "<br>\(Self.cell(Self.short(reason)))" }
                var row = "| \(group.count) | \(signature) |"
                if withDiagnosis { row += " \(Self.cell(Self.short(group.diagnosis ?? ""))) |" }
                row +=
                    " \(Self.cell(group.example)) | \(Self.cell(group.appVersionRange ?? "–")) | \(Self.cell(group.osVersionRange ?? "–")) |"
                out += row + "\n"
            }
            out += Self.remainder(groups.dropFirst(limit).reduce(0) { $0 + $1.count }, groups.count - shown.count, "group")
            out += "\n"
            // `--source-root`: each shown group's lines, once.
            let placed = shown.filter { $0.sourceContext != nil }
            if !placed.isEmpty { out += "### \(say(.summarySource))\n\n" }
            for group in placed {
                guard let context = group.sourceContext else { continue }
                out += "#### \(Self.cell(group.signature))\n\n" + context.renderMarkdown(heading: false)
            }
        }
        if !otherGroups.isEmpty {
            out += "### \(say(.summaryOtherReports))\n\n"
            out += "| \(say(.columnCount)) | \(say(.columnKind)) | \(say(.columnProcess)) | \(say(.columnExample)) |\n|---:|---|---|---|\n"
            for group in otherGroups.prefix(limit) {
                out += "| \(group.count) | \(Self.cell(group.kind)) | \(Self.cell(group.app ?? "–")) | \(Self.cell(group.example)) |\n"
            }
            out += Self.remainder(otherGroups.dropFirst(limit).reduce(0) { $0 + $1.count }, max(0, otherGroups.count - limit), "group")
            out += "\n"
        }
        if !partialGroups.isEmpty {
            out += "### \(say(.summaryPartialReports))\n\n"
            out +=
                "| \(say(.columnCount)) | \(say(.columnKind)) | \(say(.columnSignature)) | \(say(.columnMissing)) | \(say(.columnExample)) |\n"
            out += "|---:|---|---|---|---|\n"
            for group in partialGroups.prefix(limit) {
                var signature = "`\(Self.code(group.exception ?? "no exception"))`"
                if let function = group.function { signature += " in `\(Self.code(function))`" }
                out +=
                    "| \(group.count) | \(Self.cell(group.kind)) | \(signature) | \(Self.cell(group.missing ?? "–")) | \(Self.cell(group.example)) |\n"
            }
            out += Self.remainder(partialGroups.dropFirst(limit).reduce(0) { $0 + $1.count }, max(0, partialGroups.count - limit), "group")
            out += "\n"
        }
        if !unreadable.isEmpty {
            out += "### \(say(.summaryUnreadable))\n\n"
            for item in unreadable.prefix(limit) { out += "- \(Self.inline(item.input)): \(Self.inline(Self.short(item.error)))\n" }
            if unreadable.count > limit { out += "- … and \(unreadable.count - limit) more\n" }
            out += "\n"
        }
        let appImages = missingDebugFiles.filter(\.isAppImage)
        if !appImages.isEmpty {
            out += "### \(say(.summaryAppImagesWithoutDSYM))\n\n"
            for item in appImages.prefix(limit) { out += "- \(Self.inline(item.summaryLine))\n" }
            if appImages.count > limit { out += "- … and \(appImages.count - limit) more images\n" }
            out += "\n"
        }
        return out
    }

    /// `… and 12 more groups (15 reports), in summary.json` below a cut table.
    static func remainder(_ reports: Int, _ hidden: Int, _ noun: String) -> String {
        guard hidden > 0 else { return "" }
        return "\n… and \(hidden) more \(noun)\(hidden == 1 ? "" : "s") (\(reports) report\(reports == 1 ? "" : "s")), in `summary.json`.\n"
    }

    /// Long diagnoses and messages are cut in the table (the whole text is in `summary.json`).
    static func short(_ text: String, limit: Int = 160) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Table cells: pipes and line breaks would end the cell or the row.
    package static func cell(_ text: String) -> String {
        inline(text).replacingOccurrences(of: "|", with: "\\|")
    }

    package static func inline(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Inside backticks only the backtick and the pipe need care.
    package static func code(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ")
    }

    // MARK: JUnit

    /// JUnit XML for CI test reporters: each crash group is a failed test case (the
    /// signature is its name, the reports its details); each unreadable report an errored one.
    package func renderJUnit(suiteName: String = "symbolicate batch", sourceRoot: String? = nil) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let tests = groups.count + unreadable.count
        out +=
            "<testsuites name=\"\(Self.xml(suiteName))\" tests=\"\(tests)\" failures=\"\(groups.count)\" errors=\"\(unreadable.count)\">\n"
        out += "  <testsuite name=\"crashes\" tests=\"\(groups.count)\" failures=\"\(groups.count)\" errors=\"0\" skipped=\"0\">\n"
        for group in groups {
            var attributes = "classname=\"crashes\" name=\"\(Self.xml(group.signature))\""
            if let file = group.sourceFile, let line = group.sourceLine {
                attributes += " file=\"\(Self.xml(Self.relative(file, to: sourceRoot)))\" line=\"\(line)\""
            }
            out += "    <testcase \(attributes)>\n"
            let message = "\(group.count) report\(group.count == 1 ? "" : "s"): \(group.signature)"
            var details: [String] = []
            if let location = group.location { details.append("Location: \(location)") }
            if let reason = group.reason { details.append("Reason: \(reason)") }
            if let diagnosis = group.diagnosis { details.append("Diagnosis: \(diagnosis)") }
            if let versions = group.appVersionRange { details.append("App version: \(versions)") }
            if let versions = group.osVersionRange { details.append("OS: \(versions)") }
            details.append("Reports:")
            details += group.reports.map { "  \($0)" }
            out += "      <failure type=\"\(Self.xml(group.exception ?? "crash"))\" message=\"\(Self.xml(message))\">"
            out += Self.xml(details.joined(separator: "\n")) + "</failure>\n"
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n"
        if !unreadable.isEmpty {
            out +=
                "  <testsuite name=\"unreadable reports\" tests=\"\(unreadable.count)\" failures=\"0\" errors=\"\(unreadable.count)\" skipped=\"0\">\n"
            for item in unreadable {
                out += "    <testcase classname=\"unreadable\" name=\"\(Self.xml(item.input))\">\n"
                out += "      <error type=\"unreadable\" message=\"\(Self.xml(item.error))\"/>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Escapes for XML text and attributes, and drops characters XML 1.0 forbids.
    package static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: GitHub annotations

    /// One `::error` workflow command per crash group, pointing at the crashing source line
    /// when the debug info gave one. `sourceRoot` (the checkout's path at build time) is
    /// stripped so GitHub can match the file in the repository.
    package func renderGitHubAnnotations(sourceRoot: String? = nil) -> String {
        var out = ""
        for group in groups {
            var properties: [String] = []
            // The file as the checkout has it when `--source-root` found it there.
            let source = group.sourceFile.flatMap { file in group.sourceLine.flatMap { group.sourceContext?.frame(file: file, line: $0) } }
            if let file = group.sourceFile, let line = group.sourceLine {
                properties.append("file=\(Self.ghProperty(source?.path ?? Self.relative(file, to: sourceRoot)))")
                properties.append("line=\(line)")
            }
            let title = "Crash (\(group.count) report\(group.count == 1 ? "" : "s")): \(group.exception ?? "no exception")"
            properties.append("title=\(Self.ghProperty(title))")
            var message = group.signature
            if let reason = group.reason { message += " — \(reason)" }
            message += "\nExample: \(group.example)"
            if let source { message += "\n" + source.annotationText }
            out += "::error \(properties.joined(separator: ","))::\(Self.ghData(message))\n"
        }
        for item in unreadable {
            out += "::error title=\(Self.ghProperty("Unreadable crash report"))::\(Self.ghData("\(item.input): \(item.error)"))\n"
        }
        return out
    }

    static func relative(_ path: String, to root: String?) -> String {
        guard let root, !root.isEmpty else { return path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Workflow-command escaping (as in @actions/core): data escapes `%`, CR, LF;
    /// properties also `:` and `,`.
    package static func ghData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    package static func ghProperty(_ text: String) -> String {
        ghData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
