import ArgumentParser
import Foundation
import SymbolicateCore

/// Root command. `symbolicate REPORT [DEBUG_FILES…]` runs the default `report`
/// subcommand; the other subcommands are named explicitly.
@main
struct Symbolicate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Turn Apple crash reports (.crash, .txt, .ips, KSCrash, Sentry, PLCrashReporter) into answers.",
        discussion: """
            Exit codes: 0 success; 1 the report was processed but something asked for failed \
            (missing or mismatched debug files when required); 64 usage error; \
            65 unreadable or invalid input, or a text that states no crash (explain: also a report \
            of a condition the process survived, after its explanation); 73 an output cannot be \
            created or written.
            """,
        version: SymbolicateVersion.current,
        subcommands: [
            ReportCommand.self, AtosCommand.self, ExplainCommand.self, BatchCommand.self, AuditCommand.self, ServeCommand.self,
            StoreCommand.self, FetchCommand.self, ScrubCommand.self, MCPCommand.self,
        ],
        defaultSubcommand: ReportCommand.self
    )

    /// Temporary folders (unpacked zips) and half-written outputs are removed on every way
    /// out, Ctrl-C and `kill` included.
    /// `serve` shuts down gracefully on SIGINT/SIGTERM (finishing the requests under way), so
    /// its temporary files are removed at exit rather than by a signal handler that kills it.
    static func main() async {
        TemporaryFiles.installCleanup(signals: CommandLine.arguments.dropFirst().first != ServeCommand.configuration.commandName)
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let refusal = SubcommandTypo.refusal(
            Array(CommandLine.arguments.dropFirst()), subcommands: names, fileExists: { FileManager.default.fileExists(atPath: $0) })
        {
            // A usage error (64), printed the way the parser prints a mistyped flag.
            Self.exit(withError: ValidationError(refusal))
        }
        if let refusal = TermLength.refusal(
            Array(CommandLine.arguments.dropFirst()), explain: ExplainCommand.configuration.commandName ?? "explain")
        {
            Self.exit(withError: ValidationError(refusal))
        }
        await Self.main(nil)
    }
}
