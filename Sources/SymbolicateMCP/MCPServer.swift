import Foundation
import MCP

/// `symbolicate mcp`: the toolbox served over stdio to one Model Context Protocol client
/// (the modelcontextprotocol Swift SDK), until the client closes standard input.
public enum MCPServer {
    /// Serves `toolbox` on standard input and output; returns when the client has gone.
    /// Nothing else may write to standard output meanwhile: it carries the protocol.
    public static func run(toolbox: Toolbox, version: String) async throws {
        let server = Server(
            name: "symbolicate", version: version,
            instructions: """
                Symbolicate and explain Apple crash reports offline with the team's debug files. \
                Paths must lie in the folders the server was started with (--allow): \
                \(toolbox.allowed.folders.joined(separator: ", ")).
                """,
            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in
            .init(tools: Toolbox.tools)
        }
        await server.withMethodHandler(CallTool.self) { params in
            // The requests are synchronous work (reading, DWARF): off the server's actor.
            let answer = await Task.detached { toolbox.call(params.name, arguments: params.arguments ?? [:]) }.value
            return .init(content: answer.texts.map { Tool.Content.text(text: $0, annotations: nil, _meta: nil) }, isError: answer.isError)
        }
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
    }
}
