import Foundation

/// Runs the real `symbolicate` binary built next to this test bundle, so end-to-end tests
/// exercise exactly what a user runs (argument parsing, exit codes, stdout/stderr).
struct CLIResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The package root, derived from this file's location (Tests/symbolicateCLITests/…).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures: URL = packageRoot.appendingPathComponent("Fixtures")

    /// The built binary: `SYMBOLICATE_BIN` if set, else beside the running test executable.
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SYMBOLICATE_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        #if os(Linux)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        let me = Bundle.main.bundleURL
        #endif
        var dir = me.deletingLastPathComponent()
        // On macOS the xctest bundle sits in the products directory; on Linux the test
        // executable does. Walk up a little in case of nesting.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("symbolicate")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return me.deletingLastPathComponent().appendingPathComponent("symbolicate")
    }()

    /// Runs the binary with `arguments`, feeding `stdin`, with `environment` overrides.
    /// Output is drained concurrently so large outputs cannot deadlock the pipe.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = env["NO_COLOR"] ?? "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
