import ArgumentParser
import Foundation
import SymbolicatePresentation

/// stderr messages, prefixed with the tool name so they stand out in CI logs.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data("symbolicate: \(text)\n".utf8))
    }
    static func warning(_ text: String) { line("warning: \(text)") }
    static func error(_ text: String) { line("error: \(text)") }
}

/// `--color auto|always|never`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// `auto` colours only a terminal, and never when `NO_COLOR` is set (no-color.org) or
    /// `TERM=dumb`; `always`/`never` win over the environment.
    func enabled(forTerminalOutput toStdout: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return toStdout && isatty(STDOUT_FILENO) == 1
        }
    }
}

/// `--format` values, mapped onto the library's `OutputFormat`.
enum OutputFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case text, ips, json, markdown
    var value: OutputFormat {
        switch self {
        case .text: return .text
        case .ips: return .ips
        case .json: return .json
        case .markdown: return .markdown
        }
    }
}
