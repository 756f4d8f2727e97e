import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `symbolicate serve` as the real binary runs it: where it listens, and how it stops.
@Suite(.serialized, .tags(.launchesBinary)) struct ServeProcessTests {
    /// A running `symbolicate serve --port 0`, with the port it printed.
    final class Running: @unchecked Sendable {
        let process = Process()
        let errors = Pipe()
        var port = 0
        var firstLine = ""
        let store: URL

        init(_ arguments: [String]) throws {
            process.executableURL = CLI.binary
            // A store of its own: never the developer's default one.
            store = try TestPaths.temporaryDirectory("serve-process-store")
            process.arguments = ["serve", "--port", "0", "--store", store.path] + arguments
            process.currentDirectoryURL = TestPaths.packageRoot
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // "symbolicate serve: listening on http://127.0.0.1:PORT/ (open it in a browser)"
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !text.contains("(open it in a browser)") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let line = text.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
            firstLine = String(line)
            if let range = line.range(of: #":(\d+)/"#, options: .regularExpression) {
                port = Int(line[range].dropFirst().dropLast()) ?? 0
            }
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: store)
        }

        /// What the server wrote to standard error after its first line, once it has ended.
        func remainingErrors() -> String {
            process.isRunning ? "" : String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }

        /// Waits at most `seconds` for the process to end.
        func waitForExit(seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            return !process.isRunning
        }
    }

    @Test func listensOnLoopbackOnly() throws {
        let server = try Running([])
        defer { server.stop() }
        #expect(server.firstLine.contains("listening on http://127.0.0.1:"), "\(server.firstLine)")
        try #require(server.port > 0)
        #if os(Linux)
            // The kernel's own list of listening sockets: this port is bound to 127.0.0.1 alone.
            // Read to the end (procfs files say they are empty), and again while the list does
            // not show the socket yet: a sandboxed kernel may publish it a moment late.
            let port = String(format: "%04X", server.port)
            var listening: [String] = []
            for _ in 0..<100 {
                let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { path in
                    FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }
                }
                listening = []
                for line in tables.joined(separator: "\n").split(separator: "\n") {
                    // sl local_address rem_address st …; st 0A is LISTEN.
                    let fields = line.split(separator: " ").map(String.init)
                    guard fields.count > 3, fields[1].hasSuffix(":" + port), fields[3] == "0A" else { continue }
                    listening.append(fields[1])
                }
                if !listening.isEmpty { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(listening == ["0100007F:" + port])
        #endif
    }

    @Test func sigtermFinishesTheRequestUnderWayThenExits() async throws {
        let server = try Running(["--debug-files", TestPaths.dsyms])
        defer { server.stop() }
        try #require(server.port > 0)
        let report = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips"))
        let text = String(decoding: report, as: UTF8.self)
        let split = text.index(text.startIndex, offsetBy: 100)
        let connection = try RawConnection(port: server.port)
        // `Expect: 100-continue`: the interim answer proves the connection has read the
        // request's head (a busy machine may take longer than any fixed pause to accept it).
        connection.send(
            "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(report.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = await connection.readHead()
        try #require(interim.hasPrefix("HTTP/1.1 100 Continue"), "\(interim)")
        connection.send(String(text[..<split]))
        try await Task.sleep(nanoseconds: 300_000_000)
        kill(server.process.processIdentifier, SIGTERM)
        try await Task.sleep(nanoseconds: 300_000_000)
        // (What the server said, should it have ended: its access log and messages.)
        #expect(server.process.isRunning, "a request is under way; \(server.process.isRunning ? "" : server.remainingErrors())")
        connection.send(String(text[split...]))
        let head = await connection.readHead()
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        #expect(server.waitForExit(seconds: 20))
        #expect(server.process.terminationStatus == 0)
    }
}
