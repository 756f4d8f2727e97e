import ArgumentParser
import Foundation
import SymbolicatePipeline
import SymbolicatePresentation

/// Where the CLI meets the terminal: a run's messages to their streams, its output to
/// standard output, its status to the exit code. Everything else is the library's.
enum Console {
    /// Prints what a run said and produced, then ends the command with the run's status.
    /// `tool` prefixes each message so it stands out in CI logs.
    static func finish(
        _ messages: [some RunMessage], standardOutput: String?, status: ExitStatus, tool: String = "symbolicate"
    ) throws {
        for message in messages { write(message.text(tool: tool), to: message.stream) }
        if let standardOutput { write(standardOutput, to: .standardOutput) }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// Writes in pieces of 1 MiB: a whole copy of a large output (a report of a million
    /// frames is tens of megabytes) would add its size to the run's peak memory.
    static func write(_ text: String, to stream: SymbolicatePipeline.OutputStream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = min(start + (1 << 20), bytes.count)
                handle.write(Data(bytes[start..<end]))
                start = end
            }
        }
    }
}

extension ColorChoice: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}
extension ExplainFormat: ExpressibleByArgument {}

/// Flags several commands share are declared once (an `@OptionGroup` each); every command
/// keeps its own help text for them, supplied by the command type.
protocol FormatHelp { static var formatHelp: String { get } }
protocol ColorHelp { static var colorHelp: String { get } }
protocol ExplainHelp { static var explainHelp: String { get } }

/// `--format`, as `report` and `batch` take it.
struct FormatOption<Command: FormatHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Command.formatHelp))
    var format: OutputFormat = .text
}

/// `--color auto|always|never`, as `report` and `explain` take it.
struct ColorOption<Command: ColorHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Command.colorHelp))
    var color: ColorChoice = .auto
}

/// `--explain`: the diagnosis above each report (`report`, `batch`).
struct ExplainFlag<Command: ExplainHelp>: ParsableArguments {
    @Flag(help: ArgumentHelp(Command.explainHelp))
    var explain = false
}

/// `--resymbolicate` (`report`, `batch`).
struct ResymbolicateFlag: ParsableArguments {
    @Flag(help: "Also rewrite frames that already carry a file and line (frames with only a name are resolved either way).")
    var resymbolicate = false
}
