// Built with the MCP trait (on by default); without it BuildTraits.swift names the trait instead.
#if MCP
    import ArgumentParser
    import SymbolicateMCP
    import SymbolicatePipeline

    /// `symbolicate mcp`: the tools of this CLI for a coding agent, over the Model Context Protocol.
    struct MCPCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve symbolicate, explain, atos, audit, store lookups and scrub to an AI agent (Model Context Protocol, stdio).",
            discussion: """
                Speaks the Model Context Protocol on standard input and output, for one client that \
                starts it (an agent or editor: "command": "symbolicate", "args": ["mcp", "--allow", \
                "DIR"]). Tools: symbolicate (a report as a path or as text, with debug files), \
                explain (a term or a report), atos (addresses in a debug file), audit (a build), \
                store_lookup (a debug file by UUID in a serve --store folder) and scrub. Each answers \
                the JSON the CLI prints for the same request (symbolicate … --format json, \
                explain --format json, atos --json, audit --format json; scrub: the scrubbed text, \
                then --report-json's report), cut at --max-answer-bytes with a last line saying so. \
                Every path a client names must lie inside a folder given with --allow once symbolic \
                links are resolved, and a folder it names may hold no link that leads out; \
                anything else is refused with the reason. Nothing is written anywhere.
                """
        )

        @Option(
            name: .customLong("allow"),
            help: ArgumentHelp("A folder the client may name paths in (repeatable; at least one).", valueName: "dir"))
        var allow: [String] = []

        @Option(help: ArgumentHelp("The most bytes of one answer; a longer one is cut at a line end.", valueName: "bytes"))
        var maxAnswerBytes = 256 * 1024

        func validate() throws {
            if allow.isEmpty { throw ValidationError("give the folders the client may read: --allow DIR (repeatable)") }
            if maxAnswerBytes < 1024 { throw ValidationError("--max-answer-bytes is at least 1024") }
        }

        func run() async throws {
            let allowed: AllowedFolders
            do { allowed = try AllowedFolders(allow) } catch { throw ValidationError("--allow \(error)") }
            try await MCPServer.run(toolbox: Toolbox(allowed: allowed, maxAnswerBytes: maxAnswerBytes), version: SymbolicateVersion.current)
        }
    }
#endif
