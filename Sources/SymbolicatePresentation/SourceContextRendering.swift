import Foundation
import SymbolicateSourceContext

/// `--source-root`'s lines and history in each output format. The words are the tool's own
/// (like the report's headings), not explain's catalog prose.
extension SourceContext {
    /// What is known of the shipped commit, in one line.
    package var shippedText: String {
        if let short = shipped.short {
            return shipped.tag.map { "shipped commit \(short) (tag \($0))" } ?? "shipped commit \(short) (--commit)"
        }
        switch shipped.problem {
        case .notARepository?: return "not a git work tree: lines as the files are now, no history"
        case .commitNotFound?: return "commit \(shipped.detail ?? "") not found: lines as the files are now, no history"
        case .noVersion?: return "the report has no app version to find its tag: lines as the files are now, no history (--commit)"
        case .noMatchingTag?: return "no tag for \(shipped.detail ?? "the app version"): lines as the files are now, no history (--commit)"
        case .ambiguousTags?:
            return "tags of this version point at different commits (\(shipped.detail ?? "")): lines as the files are now, no history"
        case nil: return "no shipped commit"
        }
    }

    /// Plain text, for the terminal and text files.
    package func renderText() -> String {
        var out = "Source (\(root); \(shippedText)):\n"
        for frame in frames {
            out += "\n" + frame.heading + "\n"
            if let note = frame.note { out += "  " + note.text + "\n" }
            let width = String(frame.lines.last?.number ?? 0).count
            for line in frame.lines {
                let number = String(repeating: " ", count: width - String(line.number).count) + String(line.number)
                out += (line.marked ? "> " : "  ") + number + " | " + line.text + "\n"
            }
            for fact in frame.history { out += "  " + fact + "\n" }
            if let link = frame.permalink { out += "  " + link + "\n" }
        }
        for file in missing { out += "\n" + file.text + "\n" }
        return out
    }

    /// A Markdown section: each frame's lines in a fenced block, the history as a list;
    /// `heading` false leaves out its title (batch's summary gives its own).
    package func renderMarkdown(heading: Bool = true) -> String {
        var out = (heading ? "#### Source\n\n" : "") + "_\(Self.escaped(shippedText))_\n\n"
        for frame in frames {
            let name = Presenter.inlineCode(frame.location)
            let linked = frame.permalink.map { "[\(name)](\($0))" } ?? name
            out += "**\(linked)**" + (frame.function.map { " in " + Presenter.inlineCode($0) } ?? "") + "\n\n"
            if let note = frame.note { out += "- " + Self.escaped(note.text) + "\n" }
            if !frame.lines.isEmpty {
                let fence = Self.fence(for: frame.lines.map(\.text))
                out += fence + Self.language(of: frame.file) + "\n"
                let width = String(frame.lines.last?.number ?? 0).count
                for line in frame.lines {
                    let number = String(repeating: " ", count: width - String(line.number).count) + String(line.number)
                    out += (line.marked ? "> " : "  ") + number + " | " + line.text + "\n"
                }
                out += fence + "\n"
            }
            for fact in frame.history { out += "- " + Self.escaped(fact) + "\n" }
            out += "\n"
        }
        for file in missing { out += "- " + Self.escaped(file.text) + "\n" }
        if !missing.isEmpty { out += "\n" }
        return out
    }

    /// The frame at a compile path's line, when it has lines.
    package func frame(file: String, line: Int) -> FrameSource? {
        frames.first { $0.file == file && $0.line == line && !$0.lines.isEmpty }
    }

    /// A fence longer than any run of backticks in the lines.
    static func fence(for lines: [String]) -> String {
        var longest = 0
        for line in lines {
            var run = 0
            for character in line {
                run = character == "`" ? run + 1 : 0
                longest = max(longest, run)
            }
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }

    /// The fenced block's language from the file's extension (none when unknown).
    static func language(of file: String) -> String {
        let ext = file.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "swift": return "swift"
        case "c", "h": return "c"
        case "cpp", "cc", "cxx", "hpp", "hh": return "cpp"
        case "m", "mm": return "objectivec"
        case "rs": return "rust"
        default: return ""
        }
    }

    /// Markdown's punctuation that would change the text, escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>|#".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

extension FrameSource {
    /// `Thread 0 frame 4: closure #1 in load(from:) at CrashApp/Profile.swift:28`.
    var heading: String {
        let function = self.function.map { " " + $0 + " at" } ?? ""
        return "Thread \(thread) frame \(frame)\(crashing ? " (crashed)" : ""):\(function) \(location)"
    }

    /// For a GitHub annotation's message: the line itself, its history and the permalink.
    package var annotationText: String {
        var lines = self.lines.filter(\.marked).map { "> \($0.number) | \($0.text.trimmingCharacters(in: .whitespaces))" }
        lines += history
        if let permalink { lines.append(permalink) }
        return lines.joined(separator: "\n")
    }

    /// The path in the checkout (else the compile path) and the line.
    var location: String { "\(path ?? file):\(line)" }

    /// The blame and "changed since" lines.
    var history: [String] {
        var facts: [String] = []
        if let change = lastChange {
            let day = change.date.prefix(10)
            let at = change.boundary ? "at or before" : "last changed in"
            facts.append("\(at) \(change.commit.prefix(10)) by \(change.author) on \(day): \(change.summary)")
            if change.boundary { facts.append("(a shallow clone: the history before that commit is not in the checkout)") }
        }
        if let since = sinceBuild {
            if since.changed {
                let commit = since.commit.map { String($0.prefix(10)) } ?? "a later commit"
                facts.append("changed since this build: \(commit)" + (since.subject.map { " \($0)" } ?? ""))
            } else {
                facts.append("unchanged since this build")
            }
        }
        return facts
    }
}

extension SourceNote {
    var text: String {
        let about = detail.map { " (\($0))" } ?? ""
        switch kind {
        case .notInCheckout: return "not in the checkout" + about
        case .outsideRoot: return "leads outside the checkout; not read" + about
        case .symlink: return "a symbolic link in the shipped commit; not followed" + about
        case .tooLarge: return "larger than 1 MiB; not read" + about
        case .notUTF8: return "not UTF-8 text; not shown" + about
        case .ambiguous: return "several files have this name; none chosen" + about
        case .lineBeyondEnd: return "the line is past the end of the file" + about
        case .unreadable: return "cannot be read" + about
        }
    }
}

extension MissingSource {
    var text: String {
        let shown = tried.prefix(1).joined()
        let more = tried.count > 1 ? " and \(tried.count - 1) shorter suffixes" : ""
        return "Not in the checkout: \(file) (tried \(shown)\(more))"
    }
}
