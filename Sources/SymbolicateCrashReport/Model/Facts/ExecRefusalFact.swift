import Foundation
import SymbolicateCore

/// The system refused to start a program: the kernel's `execve`/`posix_spawn` failed before any of
/// its code ran, and whatever started it (a shell, Python's `subprocess`, Node's `spawn`, Docker)
/// says so with the error's words: `zsh: bad CPU type in executable: ./tool` (EBADARCH, 86),
/// `-bash: ./tool: cannot execute binary file`, `exec /app: exec format error` (ENOEXEC, 8),
/// `Malformed Mach-o file` (EBADMACHO, 88), `Bad executable (or shared library)` (EBADEXEC, 85),
/// `spawn Unknown system error -86`. Nothing crashed in the program: it never ran.
public struct ExecRefusalFact: Sendable, Hashable {
    /// Why the kernel refused it, as its error says.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The file holds code for no CPU type this machine runs (EBADARCH: an arm64-only build on
        /// an Intel Mac, an x86_64 one on Apple silicon without Rosetta, a 32-bit one on macOS 10.15+).
        case wrongArchitecture
        /// The file is no executable format the kernel knows (ENOEXEC): another OS's or CPU's binary
        /// (a Linux/amd64 image on arm64), a script without its `#!` line, a damaged download.
        case notExecutableFormat
        /// A Mach-O file whose headers the kernel could not accept (EBADMACHO, EBADEXEC).
        case malformedExecutable
        /// Its code signature was refused at exec (the kernel's `load code signature error`,
        /// Apple System Policy's `Security policy would not allow process`, AMFI's validation):
        /// macOS kills such a program with SIGKILL before it runs (a shell's `Killed: 9`).
        case codeSignature
    }

    public var reason: Reason
    /// The program it refused, as the line names it (`/opt/homebrew/bin/git`), when it does.
    public var program: String?
    /// The line that says so, as printed (trimmed).
    public var statement: String

    public init(reason: Reason, program: String?, statement: String) {
        self.reason = reason
        self.program = program
        self.statement = statement
    }
}

extension ExecRefusalFact {
    /// The error's words (lowercased), with the reason each says. errno's own strings as Darwin's
    /// and glibc's `strerror` print them, then the names and numbers runtimes print instead.
    static let wordings: [(words: String, reason: Reason)] = [
        ("bad cpu type in executable", .wrongArchitecture),
        ("ebadarch", .wrongArchitecture),
        ("unknown system error -86", .wrongArchitecture),
        ("[errno 86]", .wrongArchitecture),
        ("exec format error", .notExecutableFormat),
        ("cannot execute binary file", .notExecutableFormat),
        ("enoexec", .notExecutableFormat),
        ("malformed mach-o file", .malformedExecutable),
        ("bad executable (or shared library)", .malformedExecutable),
        ("ebadmacho", .malformedExecutable),
        ("ebadexec", .malformedExecutable),
        ("load code signature error", .codeSignature),
        ("security policy would not allow process", .codeSignature),
        ("code signature validation failed", .codeSignature),
    ]

    /// The letters every wording has, for a cheap test before a line is lowercased.
    static let needs = [
        "CPU type", "cpu type", "EBADARCH", "error -86", "Errno 86", "xec format error", "execute binary file", "ENOEXEC",
        "Mach-o file", "Mach-O file", "shared library)", "EBADMACHO", "EBADEXEC", "code signature error", "ould not allow process",
        "signature validation failed",
    ]

    /// The refusal a line states, or nil. The line must be the error's own report, not a sentence
    /// about one: the words follow a tool's prefix (`zsh:`, `exec`, `OSError: [Errno 86]`) or end it.
    public static func parse(_ line: Substring) -> ExecRefusalFact? {
        let text = line.trimmedBlanks
        guard text.utf8.count <= 600, needs.contains(where: { text.containsBytes($0) }) else { return nil }
        let lower = text.lowercased()
        guard let (words, reason) = wordings.first(where: { lower.containsBytes($0.words) }),
            let range = text.range(of: words, options: .caseInsensitive)
        else { return nil }
        // A question or a sentence about the error (`How do I fix "bad CPU type in executable"?`):
        // the words are quoted or asked about, not printed by the tool that failed.
        let before = text[..<range.lowerBound]
        let after = text[range.upperBound...]
        if after.trimmedBlanks.hasSuffix("?") { return nil }
        guard Self.isToolReport(before: before) else { return nil }
        let program = Self.program(before: before, after: after)
        return ExecRefusalFact(reason: reason, program: program, statement: String(text))
    }

    /// The words before the error's: nothing, a tool's or an error's prefix ending in `:` (`zsh:`,
    /// `-bash: ./tool:`, `OSError: [Errno 86]`, `Error: spawn`), `exec /path:`, or a few words.
    static func isToolReport(before: Substring) -> Bool {
        var head = before.trimmedBlanks.lowercased()
        // A tool quoting the error it got (runc's `standard_init_linux.go:175: exec user process
        // caused "exec format error"`): its prefix decides, not a person's quotes in a sentence.
        if let quote = head.last, "\"'`".contains(quote) {
            head.removeLast()
            guard head.contains(":") else { return false }
            return true
        }
        if head.isEmpty || head.hasSuffix(":") || head.hasSuffix("]") || head.hasSuffix("-") { return true }
        // `exec /usr/local/bin/app: exec format error`, `spawn Unknown system error -86`.
        let words = head.split(separator: " ")
        return words.count <= 4 && (words.first == "exec" || words.first == "spawn" || words.last == "spawn" || words.first == "error:")
    }

    /// The program the line names: after the words (`zsh: bad CPU type in executable: PATH`,
    /// Python's `…: 'PATH'`), else before them (`-bash: PATH: cannot execute binary file`,
    /// `exec PATH: exec format error`).
    static func program(before: Substring, after: Substring) -> String? {
        func clean(_ candidate: Substring) -> String? {
            var value = candidate.trimmedBlanks
            while let first = value.first, "'\"`".contains(first) { value.removeFirst() }
            while let last = value.last, "'\"`.,:".contains(last) { value.removeLast() }
            guard !value.isEmpty, !value.contains(" "),
                value.contains("/") || value.contains(".") || value.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) })
            else { return nil }
            return String(value)
        }
        let rest = after.drop { $0 == ":" || $0 == " " }
        if let first = rest.split(separator: " ").first, let program = clean(first),
            program.contains("/") || rest.split(separator: " ").count == 1
        {
            return program
        }
        // The last path among the segments before the words: `-bash: ./tool: ` → `./tool`, `exec
        // /app: ` → `/app`, `entrypoint.sh: line 359: /usr/local/bin/mongod: cannot execute binary file: `.
        for segment in before.split(separator: ":").reversed() {
            guard let word = segment.split(separator: " ").last, word.contains("/") || word.hasPrefix("./") else { continue }
            return clean(word)
        }
        return nil
    }

    /// The first refusal among a text's stated messages.
    static func read(from messages: [StatedMessage]) -> ExecRefusalFact? {
        messages.lazy.filter { $0.family == .execRefused }.compactMap { message in
            message.text.split(separator: "\n").lazy.compactMap { ExecRefusalFact.parse($0) }.first
        }.first
    }
}
