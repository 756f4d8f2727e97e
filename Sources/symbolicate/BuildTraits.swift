import ArgumentParser
import SymbolicatePipeline

/// What a build without one of the package's traits (Package.swift: `Server`, `SymbolSources`;
/// both on by default, off in `make demo`) says when asked for what it left out: the trait and
/// how to build with it, never a crash or an unknown command.
enum BuildTraits {
    enum Trait: String {
        case server = "Server"
        case symbolSources = "SymbolSources"
        case appStoreConnect = "AppStoreConnect"
        case mcp = "MCP"
    }

    /// The message for `what` (a subcommand, options, a variable) when `trait` was off.
    static func missing(_ trait: Trait, for what: String) -> String {
        """
        \(what): not in this build, which was made without the package's \(trait.rawValue) trait \
        (`make demo` builds only what symbolicating a report needs). To have it, build with the default \
        traits (`swift build`, `make install`) or with `swift build --traits \(trait.rawValue)`.
        """
    }
}

#if !AppStoreConnect
    /// `fetch` in a build without the AppStoreConnect trait, as `serve` without Server.
    struct FetchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch", abstract: "App Store Connect downloads: not in this build (AppStoreConnect trait).")

        @Argument(parsing: .allUnrecognized, help: "Ignored: this build has no App Store Connect client.")
        var arguments: [String] = []

        func run() throws {
            Console.write("symbolicate: error: \(BuildTraits.missing(.appStoreConnect, for: "fetch"))\n", to: .standardError)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
#endif

#if !MCP
    /// `mcp` in a build without the MCP trait, as `serve` without the Server trait.
    struct MCPCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp", abstract: "Model Context Protocol server: not in this build (MCP trait).")

        @Argument(parsing: .allUnrecognized, help: "Ignored: this build has no MCP server.")
        var arguments: [String] = []

        func run() throws {
            Console.write("symbolicate: error: \(BuildTraits.missing(.mcp, for: "mcp"))\n", to: .standardError)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
#endif

#if !Server
    /// `serve` in a build without the Server trait: the command exists (help and completions
    /// name it), takes any arguments, and ends with the trait's message and exit status 64.
    struct ServeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve", abstract: "Web page and API: not in this build (Server trait).")

        @Argument(parsing: .allUnrecognized, help: "Ignored: this build has no server.")
        var arguments: [String] = []

        func run() throws {
            try BuildTraits.unavailable(.server, for: "serve")
        }
    }

    /// `store` in a build without the Server trait, as `serve`.
    struct StoreCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store", abstract: "Debug-file store: not in this build (Server trait).")

        @Argument(parsing: .allUnrecognized, help: "Ignored: this build has no debug-file store.")
        var arguments: [String] = []

        func run() throws {
            try BuildTraits.unavailable(.server, for: "store")
        }
    }

    extension BuildTraits {
        /// Prints the trait's message on stderr and ends the command with 64 (a usage error: the
        /// command line asks for what this build does not have).
        static func unavailable(_ trait: Trait, for what: String) throws -> Never {
            Console.write("symbolicate: error: \(missing(trait, for: what))\n", to: .standardError)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
#endif
