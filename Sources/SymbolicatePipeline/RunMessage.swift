import Foundation

/// How a run ends, as the exit codes scripts rely on (sysexits where one fits). The CLI exits
/// with `rawValue`; a server maps it to its own answer.
public enum ExitStatus: Int32, Sendable, Equatable, CaseIterable {
    /// Everything asked for was done.
    case success = 0
    /// The input was processed but something asked for failed (`--require-all`, `--fail-on`,
    /// an unknown term for `explain`).
    case failed = 1
    /// Bad command line: an output that would replace an input, a missing `--dsyms` path in batch.
    case usage = 64
    /// Unreadable or invalid input.
    case invalidInput = 65
    /// An output file or folder could not be created or written (sysexits' EX_CANTCREAT).
    case cannotWrite = 73
}

/// The two streams a message or a headline can go to.
public enum OutputStream: Sendable, Equatable {
    case standardOutput, standardError
}

/// How a message is labelled: `note:`, `warning:`, `error:`, or nothing (a line that carries
/// its own label, such as a parse warning's `path:12: warning: …`, or a plain progress line).
public enum MessageSeverity: Sendable, Equatable {
    case plain, note, warning, error

    var label: String {
        switch self {
        case .plain: return ""
        case .note: return "note: "
        case .warning: return "warning: "
        case .error: return "error: "
        }
    }
}

/// One thing a run has to tell the person or program that asked: each request has its own
/// enum of them (with their data), and this is how any of them becomes text. The text is the
/// same whoever prints it, so a server answers byte for byte like the CLI.
public protocol RunMessage: Sendable {
    var severity: MessageSeverity { get }
    /// The message without the tool name or the label.
    var body: String { get }
    /// Where it goes; messages go to standard error unless they are part of what was asked for.
    var stream: OutputStream { get }
    /// The exact bytes to print, `tool` naming the program (`symbolicate`, `symbolicate atos`).
    func text(tool: String) -> String
}

extension RunMessage {
    public var stream: OutputStream { .standardError }

    public func text(tool: String) -> String {
        "\(tool): \(severity.label)\(body)\n"
    }
}
