import ArgumentParser
import Foundation
import SymbolicateCore
import SymbolicatePipeline
import SymbolicatePresentation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI meets the terminal: a run's messages to their streams, its output to
/// standard output, its status to the exit code. Everything else is the library's.
enum Console {
    /// The columns of the terminal standard output is, or nil when it is none (a pipe, a
    /// file: nothing is shortened for them); `COLUMNS` when the terminal does not say.
    static func terminalColumns() -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Prints what a run said and produced, then ends the command with the run's status.
    /// `tool` prefixes each message so it stands out in CI logs. A stream that cannot be
    /// written ends the command with 73 (`ExitStatus.cannotWrite`), see `writeOrExit`.
    static func finish(
        _ messages: [some RunMessage], standardOutput: String?, status: ExitStatus, tool: String = "symbolicate"
    ) throws {
        for message in messages { try writeOrExit(message.text(tool: tool), to: message.stream, tool: tool) }
        if let standardOutput { try writeOrExit(standardOutput, to: .standardOutput, tool: tool) }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// Where `report` prints its text as it renders it, messages first: what `finish` does
    /// for a whole output, in pieces. A stream that cannot take a piece ends the process with
    /// 73 after the clean-up (the run cannot go on without its output).
    static let standardOutputSink = StandardOutputSink(
        messages: { messages in
            for message in messages { writeOrEnd(message.text(tool: "symbolicate"), to: message.stream) }
        },
        text: { writeOrEnd($0, to: .standardOutput) })

    private static func writeOrEnd(_ text: String, to stream: SymbolicatePipeline.OutputStream) {
        do { try writeOrExit(text, to: stream, tool: "symbolicate") } catch {
            TemporaryFiles.shutDown()
            exit(ExitStatus.cannotWrite.rawValue)
        }
    }

    /// Writes `text`, or ends the command with exit status 73 when the stream cannot take it
    /// (a full disk, `2>/dev/full`, a closed pipe while SIGPIPE is ignored, as Node-based CI
    /// runners leave it): never a trap. The reason goes to the other stream when that one can
    /// take it; a closed pipe ends quietly (the reader is gone, there is nothing to tell it).
    static func writeOrExit(_ text: String, to stream: SymbolicatePipeline.OutputStream, tool: String) throws {
        guard let error = write(text, to: stream) else { return }
        if error == EPIPE, !TemporaryFiles.isIgnored(SIGPIPE) {
            // SIGPIPE is on its way (the clean-up's handler caught it): die of it, as a filter
            // does when its reader goes away (`… | head`), after the clean-up.
            TemporaryFiles.shutDown()
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        if error != EPIPE {
            let name = stream == .standardOutput ? "standard output" : "standard error"
            let other: SymbolicatePipeline.OutputStream = stream == .standardOutput ? .standardError : .standardOutput
            _ = write("\(tool): error: cannot write to \(name): \(String(cString: strerror(error)))\n", to: other)
        }
        throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }

    /// Writes all of `text` to the stream with write(2), in pieces of 1 MiB (a whole copy of a
    /// large output, a report of a million frames is tens of megabytes, would add its size to
    /// the run's peak memory). Returns nil when every byte was written, else the `errno` of
    /// the failure. Progress lines and a server's log lines use it directly: for them a
    /// stream that cannot be written is no reason to stop.
    @discardableResult
    static func write(_ text: String, to stream: SymbolicatePipeline.OutputStream) -> Int32? {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            var start = 0
            while start < bytes.count, let base = bytes.baseAddress {
                let count = min(bytes.count - start, 1 << 20)
                let written = systemWrite(descriptor, base + start, count)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                start += written
            }
            return nil
        }
    }
}

/// write(2), named apart from `Console.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
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

/// `--scrub` (`report`, `explain`, `batch`): the output made fit to share (`symbolicate scrub`).
struct ScrubFlag: ParsableArguments {
    @Flag(
        help:
            "Replace user names in paths, device, incident and anonymous ids, UDIDs, e-mail and IP addresses in the output by placeholders (as symbolicate scrub does); image UUIDs and addresses are kept."
    )
    var scrub = false
}

/// `--resymbolicate` (`report`, `batch`).
struct ResymbolicateFlag: ParsableArguments {
    @Flag(help: "Also rewrite frames that already carry a file and line (frames with only a name are resolved either way).")
    var resymbolicate = false
}
