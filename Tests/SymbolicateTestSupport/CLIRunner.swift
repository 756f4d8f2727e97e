import Foundation

/// Runs the real `symbolicate` binary built next to this test bundle, so end-to-end tests
/// exercise exactly what a user runs (argument parsing, exit codes, stdout/stderr).
public struct CLIResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

public enum CLI {
    /// The built binary: `SYMBOLICATE_BIN` if set, else beside the running test executable.
    public static let binary: URL = {
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

    /// Runs the binary (or `executable`, e.g. `bash` for the install and action tests) with
    /// `arguments`, feeding `stdin`, with `environment` overrides.
    /// Output is drained concurrently so large outputs cannot deadlock the pipe.
    public static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        executable: URL = binary
    ) throws -> CLIResult {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = env["NO_COLOR"] ?? "1"
        // The goldens are English: a developer's Japanese locale must not change them.
        env["SYMBOLICATE_LANGUAGE"] = "en"
        for (key, value) in environment { env[key] = value }
        return try runProcess(executable, arguments, stdin: stdin, environment: env, currentDirectory: currentDirectory)
    }
}

/// Runs an executable to completion, feeding `stdin`; stdout and stderr are drained
/// concurrently so large outputs cannot deadlock the pipes.
func runProcess(
    _ executable: URL, _ arguments: [String], stdin: String?, environment: [String: String]? = nil,
    currentDirectory: URL? = nil
) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
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
