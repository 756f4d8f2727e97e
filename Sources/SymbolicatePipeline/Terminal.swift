import Foundation

/// What a run knows of where its output goes. Headline placement and colour depend on whether
/// a person reads standard output; the CLI passes `.current`, a server `.none`.
public struct Terminal: Sendable, Equatable {
    public var standardOutputIsTerminal: Bool
    /// `NO_COLOR` and `TERM` are read from here, never from the process behind a caller's back.
    public var environment: [String: String]

    public init(standardOutputIsTerminal: Bool, environment: [String: String] = [:]) {
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.environment = environment
    }

    /// This process's standard output and environment.
    public static var current: Terminal {
        Terminal(standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
    }

    /// No terminal at all: output is read by a program (a server's answer, a test).
    public static let none = Terminal(standardOutputIsTerminal: false)
}

/// `--color auto|always|never`.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    /// `auto` colours only a terminal, and never when `NO_COLOR` is set (no-color.org) or
    /// `TERM=dumb`; `always`/`never` win over the environment.
    public func enabled(on terminal: Terminal) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = terminal.environment["NO_COLOR"], !noColor.isEmpty { return false }
            if terminal.environment["TERM"] == "dumb" { return false }
            return terminal.standardOutputIsTerminal
        }
    }
}
