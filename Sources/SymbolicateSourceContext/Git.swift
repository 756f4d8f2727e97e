import Foundation
import SymbolicateCore

/// The `git` command in one checkout folder, run through `Subprocess` (a time limit, no
/// terminal, no shell). Reads only: optional locks are off so nothing in `.git` is rewritten.
package struct Git: Sendable {
    /// The folder commands run in (`git -C`).
    package let folder: String
    package var timeout: Double = 30
    /// Commands run, for tests that count them.
    package let counter: CommandCounter

    package init(folder: String, counter: CommandCounter = CommandCounter()) {
        self.folder = folder
        self.counter = counter
    }

    /// Standard output of a successful run; nil when git failed, is missing or timed out.
    package func output(_ arguments: [String]) -> Data? {
        counter.add(arguments.first ?? "")
        let outcome = Subprocess.run(
            "/usr/bin/env", ["git", "-C", folder] + arguments,
            environment: ["GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"], timeout: timeout)
        return outcome.successOutput
    }

    /// The output as text, without its last line break.
    package func text(_ arguments: [String]) -> String? {
        guard let data = output(arguments) else { return nil }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The full hash of a commit-ish; nil when it names no commit here. A name starting with
    /// `-` is refused (it would be read as an option).
    package func commit(_ name: String) -> String? {
        guard !name.isEmpty, !name.hasPrefix("-") else { return nil }
        return text(["rev-parse", "--verify", "--quiet", "--end-of-options", name + "^{commit}"])
    }
}

/// Counts commands by their subcommand (`blame`, `log`…).
package final class CommandCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    package init() {}

    func add(_ name: String) {
        lock.lock()
        counts[name, default: 0] += 1
        lock.unlock()
    }

    package func count(_ name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[name] ?? 0
    }
}

/// What a checkout's repository says once per run.
package struct Repository: Sendable {
    package let git: Git
    /// The work tree's top folder.
    package let top: String
    /// The checkout's folder inside the work tree (`--show-prefix`: "" or "sub/").
    package let prefix: String
    package let head: String?
    package let shallow: Bool
    package let remote: String?

    /// Nil when `folder` is not in a git work tree (or git is not installed).
    package init?(folder: String, counter: CommandCounter) {
        let git = Git(folder: folder, counter: counter)
        guard let facts = git.text(["rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository"]) else { return nil }
        let lines = facts.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3 else { return nil }
        self.git = git
        top = lines[0]
        prefix = lines[1]
        shallow = lines[2] == "true"
        head = git.commit("HEAD")
        remote = git.text(["config", "--get", "remote.origin.url"])
    }

    /// Tag names.
    package func tags() -> [String] {
        (git.text(["tag", "--list"]) ?? "").split(separator: "\n").map(String.init)
    }

    /// The regular files of `commit` under the checkout folder, relative to it; symlinks apart.
    package func files(at commit: String) -> (files: Set<String>, symlinks: Set<String>) {
        guard let data = git.output(["ls-tree", "-r", "-z", "--end-of-options", commit]) else { return ([], []) }
        var files = Set<String>()
        var links = Set<String>()
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let meta = text[..<tab].split(separator: " ")
            let path = String(text[text.index(after: tab)...])
            guard meta.count == 3, meta[1] == "blob" else { continue }
            if meta[0] == "120000" { links.insert(path) } else { files.insert(path) }
        }
        return (files, links)
    }

    /// The bytes of `path` (relative to the checkout folder) at `commit`, or why not.
    package func blob(_ path: String, at commit: String) -> Result<Data, SourceNote.Kind> {
        let object = "\(commit):./\(path)"
        guard let size = git.text(["cat-file", "-s", object]).flatMap(Int.init) else { return .failure(.unreadable) }
        guard size <= SafeSourceFile.sizeLimit else { return .failure(.tooLarge) }
        guard let data = git.output(["cat-file", "blob", object]) else { return .failure(.unreadable) }
        return .success(data)
    }

    /// `git blame` of one line at `commit`.
    package func blame(_ path: String, line: Int, at commit: String) -> LastChange? {
        guard let data = git.output(["blame", "--porcelain", "-L", "\(line),\(line)", commit, "--", path]) else { return nil }
        guard var change = Self.parseBlame(String(decoding: data, as: UTF8.self)) else { return nil }
        // git marks a root commit "boundary" as well: only a shallow clone's boundary hides history.
        change.boundary = change.boundary && shallow
        return change
    }

    /// Whether the line at `commit` is still the same line at HEAD: `git blame --reverse`
    /// names the last commit that still had it (following renames); the commit after it on
    /// the way to HEAD is the one that changed it.
    package func sinceBuild(_ path: String, line: Int, at commit: String) -> SinceBuild? {
        guard let head else { return nil }
        if head == commit { return SinceBuild(changed: false) }
        guard let data = git.output(["blame", "--reverse", "--porcelain", "-L", "\(line),\(line)", "\(commit)..\(head)", "--", path]),
            let last = Self.parseBlame(String(decoding: data, as: UTF8.self))?.commit
        else { return nil }
        if last == head { return SinceBuild(changed: false) }
        guard let next = git.text(["rev-list", "--ancestry-path", "--reverse", "\(last)..\(head)"])?.split(separator: "\n").first
        else { return SinceBuild(changed: true) }
        let subject = git.text(["log", "-1", "--format=%s", String(next)])
        return SinceBuild(changed: true, commit: String(next), subject: subject)
    }

    /// The first entry of `git blame --porcelain` output.
    static func parseBlame(_ text: String) -> LastChange? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first?.split(separator: " ").first, first.count >= 40 else { return nil }
        var author = ""
        var time: Int?
        var zone = "+0000"
        var summary = ""
        var boundary = false
        for line in lines.dropFirst() {
            if line.hasPrefix("\t") { break }
            if line.hasPrefix("author ") {
                author = String(line.dropFirst(7))
            } else if line.hasPrefix("author-time ") {
                time = Int(line.dropFirst(12))
            } else if line.hasPrefix("author-tz ") {
                zone = String(line.dropFirst(10))
            } else if line.hasPrefix("summary ") {
                summary = String(line.dropFirst(8))
            } else if line == "boundary" {
                boundary = true
            }
        }
        return LastChange(
            commit: String(first), author: author, date: time.map { isoDate($0, zone: zone) } ?? "", summary: summary, boundary: boundary)
    }

    /// `2026-01-02T10:00:00+09:00` from seconds since 1970 and git's `+0900`.
    static func isoDate(_ seconds: Int, zone: String) -> String {
        let sign = zone.hasPrefix("-") ? -1 : 1
        let digits = zone.drop { $0 == "+" || $0 == "-" }
        let value = Int(digits) ?? 0
        let offset = sign * ((value / 100) * 3600 + (value % 100) * 60)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0)
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
