import Foundation
import MCP
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateMCP

/// The folder guard and the answers' bound on their own, then the server with the official
/// Python MCP client as its peer (Tests/MCP/mcp_client_test.py).
@Suite struct MCPTests {
    @Test func pathsResolveOnlyInsideTheAllowedFolders() throws {
        let work = try TestPaths.temporaryDirectory("mcp-allow")
        defer { try? FileManager.default.removeItem(at: work) }
        let inside = work.appendingPathComponent("inside")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try "x".write(to: inside.appendingPathComponent("a.crash"), atomically: true, encoding: .utf8)
        try "y".write(to: work.appendingPathComponent("secret.crash"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: inside.appendingPathComponent("link.crash").path, withDestinationPath: work.appendingPathComponent("secret.crash").path)
        let allowed = try AllowedFolders([inside.path])
        let real = try #require(AllowedFolders.realPath(inside.path))
        #expect(try allowed.resolve(inside.appendingPathComponent("a.crash").path) == real + "/a.crash")
        #expect(try allowed.resolve("a.crash") == real + "/a.crash", "a relative path is taken in the first folder")
        #expect(throws: MCPPathError.self) { try allowed.resolve(work.appendingPathComponent("secret.crash").path) }
        #expect(throws: MCPPathError.self) { try allowed.resolve(inside.appendingPathComponent("../secret.crash").path) }
        #expect(throws: MCPPathError.self) { try allowed.resolve(inside.appendingPathComponent("link.crash").path) }
        #expect(throws: MCPPathError.self, "a folder holding a link out") { try allowed.resolve(inside.path) }
        #expect(throws: MCPPathError.self) { try allowed.resolve(inside.appendingPathComponent("missing.crash").path) }
        #expect(throws: MCPPathError.self) { try AllowedFolders([inside.appendingPathComponent("a.crash").path]) }
    }

    @Test func longAnswersAreCutAtALineWithAMark() throws {
        let toolbox = Toolbox(allowed: try AllowedFolders([TestPaths.fixtures.path]), maxAnswerBytes: 1024)
        let text = String(repeating: "0123456789abcdef\n", count: 200)
        let bounded = toolbox.bounded(text)
        #expect(bounded.utf8.count < 1200)
        #expect(
            bounded.hasSuffix(
                "[truncated by symbolicate mcp: 1020 of 3400 bytes shown (--max-answer-bytes 1024); ask for less, e.g. crashed_only]\n"))
        #expect(toolbox.bounded("short\n") == "short\n")
    }

    @Test func aCallOutsideTheFoldersIsAnErrorAnswer() throws {
        let toolbox = Toolbox(allowed: try AllowedFolders([TestPaths.fixtures.appendingPathComponent("reports").path]))
        let refused = toolbox.call("symbolicate", arguments: ["report": .string("/etc/passwd")])
        #expect(refused.isError)
        #expect(refused.texts.joined().contains("outside the folders"))
        let wrongType = toolbox.call("atos", arguments: ["debug_file": .int(3), "addresses": []])
        #expect(wrongType.isError)
        let unknown = toolbox.call("rm", arguments: [:])
        #expect(unknown.isError)
    }

    /// Whether the official Python client is installed (`make setup-test` installs it).
    static let pythonClient: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import mcp.client.stdio"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(
        "the official Python MCP client lists the tools, calls each, gets the CLI's JSON, and is refused paths outside",
        .enabled(if: pythonClient, "the Python MCP client is not installed: make setup-test (pip install mcp)"))
    func pythonClientAsPeer() throws {
        let work = try TestPaths.temporaryDirectory("mcp-peer")
        defer { try? FileManager.default.removeItem(at: work) }
        let store = try DebugFileStore(root: work.appendingPathComponent("store").path)
        let stored = try store.put(fileAt: TestPaths.dsyms + "/CrashApp.app.dSYM", origin: "test").stored
        let id = try #require(stored.first?.debugID)
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/MCP/mcp_client_test.py").path
        // python3 as `make test` finds it (the one `make setup-test` installed the client into),
        // with this environment: the interpreter may be found through $HOME (pyenv).
        let log = work.appendingPathComponent("client.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, CLI.binary.path, TestPaths.fixtures.path, work.path, store.root, id.description]
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        // The CLI the client compares with runs in the package's checkout: no source lines from it.
        process.environment = ProcessInfo.processInfo.environment.merging(["SYMBOLICATE_SOURCE_ROOT": "none"]) { $1 }
        try process.run()
        // A hang guard only: the client and server end on their own.
        let deadline = Date().addingTimeInterval(600)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("all checks passed"))
    }
}
