import Foundation
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicateJSON
import SymbolicateSourceContext
import SymbolicateSymbolication

/// Output formats of the report command and batch mode.
public enum OutputFormat: String, Sendable, CaseIterable, Codable {
    /// Apple's text layout (an `.ips` comes out as its symbolicated text rendering).
    case text
    /// Symbolicated `.ips` JSON as Xcode's CrashSymbolicator writes it (`.ips` input only).
    case ips
    /// The report model plus symbolication results and diagnostics.
    case json
    /// Headline, diagnostics and crashed thread for an issue or a CI summary.
    case markdown
}

/// Turns an annotated report into the bytes the user asked for.
package struct Presenter: Sendable {
    package var format: OutputFormat
    /// ANSI colour: crashed thread bold red, app frames bold, headline bold.
    package var color: Bool
    /// Only the headline and the crashed thread.
    package var crashedOnly: Bool
    /// Leave out the headline (batch files that other tools re-read, golden tests of raw output).
    package var headline: Bool
    /// The `--explain` diagnosis, placed above the report in the output's own format.
    package var diagnosis: Diagnosis?
    /// The lines around the crash in a checkout (`--source-root`), below the diagnosis.
    package var sourceContext: SourceContext?

    package init(
        format: OutputFormat = .text, color: Bool = false, crashedOnly: Bool = false, headline: Bool = true,
        diagnosis: Diagnosis? = nil
    ) {
        self.format = format
        self.color = color
        self.crashedOnly = crashedOnly
        self.headline = headline
        self.diagnosis = diagnosis
    }

    package func render(_ report: CrashReport, summary: SymbolicationSummary?) throws(CrashReportError) -> String {
        switch format {
        case .text: return renderText(report, summary: summary)
        case .ips: return try report.ipsOutput()
        case .json: return renderJSON(report, summary: summary)
        case .markdown: return renderMarkdown(report, summary: summary)
        }
    }

    // MARK: Text

    private enum ANSI {
        static let reset = "\u{1B}[0m"
        static let bold = "\u{1B}[1m"
        static let red = "\u{1B}[31m"
        static let boldRed = "\u{1B}[1;31m"
        static let dim = "\u{1B}[2m"
    }

    func renderText(_ report: CrashReport, summary: SymbolicationSummary?) -> String {
        var out = ""
        // Room for every frame line at once: growing a string of tens of megabytes copies it,
        // holding both copies for a moment; reserved room never written costs no memory.
        var room = 0
        for thread in report.threads where thread.frames.count > 10_000 {
            for frame in thread.frames { room += Self.textRoom(for: frame) }
        }
        if room > 0 { out.reserveCapacity(room) }
        writeText(report, summary: summary, to: &out)
        return out
    }

    /// The text layout written into `out` line by line: into a string (`render`), or in pieces
    /// to a file or standard output as it is made (`TextChunks`), so a million frames are
    /// never held as one text.
    package func writeText(_ report: CrashReport, summary: SymbolicationSummary?, to out: inout some TextOutputStream) {
        if headline {
            let text = Headline(report: report).text
            out.write(color ? ANSI.boldRed + text + ANSI.reset : text)
            // Diagnostics go to stderr (the CLI prints them); the text stays a report.
            out.write("\n\n")
        }
        if let diagnosis { out.write(diagnosis.renderText(color: color) + "\n") }
        if let sourceContext { out.write(sourceContext.renderText() + "\n") }
        let crashed = report.crashedThread?.index
        let (color, crashedOnly) = (color, crashedOnly)
        report.forEachRenderedLine { line in
            if crashedOnly && !Self.belongsToThread(line.kind, crashed) { return }
            out.write(color ? Self.colored(line, crashedThread: crashed) : line.text)
            out.write(line.terminator)
        }
    }

    /// At least the bytes a frame's lines take (every inline level with its file's whole path).
    static func textRoom(for frame: Frame) -> Int {
        guard let levels = frame.symbolication, !levels.isEmpty else { return 96 + (frame.symbol?.utf8.count ?? 0) }
        return levels.reduce(0) { $0 + 96 + $1.function.utf8.count + ($1.file?.utf8.count ?? 0) }
    }

    static func belongsToThread(_ kind: RenderedLine.Kind, _ thread: Int?) -> Bool {
        guard let thread else { return false }
        switch kind {
        case .threadHeader(let t, _): return t == thread
        case .frame(let t?, .thread, _): return t == thread
        case .threadState(let t): return t == thread
        default: return false
        }
    }

    static func colored(_ line: RenderedLine, crashedThread: Int?) -> String {
        switch line.kind {
        case .threadHeader(_, let crashed) where crashed:
            return ANSI.boldRed + line.text + ANSI.reset
        case .frame(let t, _, let isApp):
            let inCrashed = t != nil && t == crashedThread
            if inCrashed { return (isApp ? ANSI.boldRed : ANSI.red) + line.text + ANSI.reset }
            return isApp ? ANSI.bold + line.text + ANSI.reset : line.text
        case .sectionHeader:
            return ANSI.bold + line.text + ANSI.reset
        default:
            return line.text
        }
    }

    // MARK: JSON

    private struct JSONOutput: Encodable {
        var headline: String
        var report: CrashReport
        var symbolication: SymbolicationSummary?
        var diagnosis: Diagnosis?
        var sourceContext: SourceContext?
    }

    func renderJSON(_ report: CrashReport, summary: SymbolicationSummary?) -> String {
        var shown = report
        if crashedOnly {
            // As the text: the crashed thread alone (the header and images stay, for its frames).
            let crashed = report.crashedThread?.index
            shown.threads = report.threads.filter { $0.index == crashed }
            shown.lastExceptionBacktrace = nil
            shown.asiBacktraces = []
        }
        let value = JSONOutput(
            headline: Headline(report: report).text, report: shown, symbolication: summary,
            diagnosis: diagnosis, sourceContext: sourceContext)
        return (OutputJSON.text(value) ?? "{}") + "\n"
    }

    // MARK: Markdown

    func renderMarkdown(_ report: CrashReport, summary: SymbolicationSummary?) -> String {
        var out = "### \(Headline(report: report).text)\n\n"
        var facts: [(String, String)] = []
        if let name = report.processName { facts.append(("Process", name + (report.appVersion.map { " \($0)" } ?? ""))) }
        if let os = report.osVersion { facts.append(("OS", os)) }
        if let model = report.hardwareModel { facts.append(("Hardware", model)) }
        if let e = report.exception {
            let text = [e.type, e.signal.map { "(\($0))" }, e.codes].compactMap { $0 }.joined(separator: " ")
            if !text.isEmpty { facts.append(("Exception", text)) }
        }
        if let t = report.termination {
            let text = [t.namespace, t.code, t.text].compactMap { $0 }.joined(separator: " ")
            if !text.isEmpty { facts.append(("Termination", text)) }
        }
        for (key, value) in facts { out += "- **\(key):** \(Self.inlineCode(value))\n" }
        if let summary {
            out += "- **Symbolicated:** \(summary.appFramesSymbolicated) of \(summary.appFrames) app frames\n"
            for diagnostic in summary.diagnostics { out += "- ⚠️ \(diagnostic.description)\n" }
        }
        out += "\n"
        if let diagnosis { out += diagnosis.renderMarkdown() + "\n" }
        if let sourceContext { out += sourceContext.renderMarkdown() }
        let crashed = report.crashedThread?.index
        let all = report.renderedLines()
        let crashedLines = all.filter { Self.belongsToThread($0.kind, crashed) && !Self.isThreadState($0.kind) }
        if !crashedLines.isEmpty {
            out += "```text\n" + crashedLines.map(\.text).joined(separator: "\n") + "\n```\n\n"
        }
        if !crashedOnly {
            out += "<details><summary>Full report</summary>\n\n```text\n"
            out += all.map(\.text).joined(separator: "\n").replacingOccurrences(of: "```", with: "`\u{200B}``")
            out += "\n```\n\n</details>\n"
        }
        return out
    }

    static func isThreadState(_ kind: RenderedLine.Kind) -> Bool {
        if case .threadState = kind { return true }
        return false
    }

    /// `value` as inline code, safe against backticks inside it.
    static func inlineCode(_ value: String) -> String {
        value.contains("`") ? "`` \(value) ``" : "`\(value)`"
    }
}
