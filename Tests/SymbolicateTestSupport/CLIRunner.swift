import Foundation

/// Runs the real `symbolicate` binary built next to this test bundle, so end-to-end tests
/// exercise exactly what a user runs (argument parsing, exit codes, stdout/stderr).
public struct CLIResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The run outlived its `timeout` and was terminated: a hang, reported as a failure
    /// rather than a stuck suite.
    public var timedOut: Bool

    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool = false) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
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
            // On macOS Bundle.main is the runner (xctest or swiftpm-testing-helper), elsewhere
            // in the toolchain; the loaded .xctest bundle sits in the products folder.
            let me =
                (Bundle.allBundles + Bundle.allFrameworks).first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
                ?? Bundle.main.bundleURL
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
    /// `arguments`, feeding `stdin`, with `environment` overrides; terminated after `timeout`
    /// seconds when one is given (`timedOut` says so).
    /// Output is drained concurrently so large outputs cannot deadlock the pipe.
    public static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        executable: URL = binary,
        timeout: Double? = nil
    ) throws -> CLIResult {
        try runProcess(
            executable, arguments, stdin: stdin, environment: Self.environment(environment), currentDirectory: currentDirectory,
            timeout: timeout)
    }

    /// Starts the binary and returns it running, for tests that act on it mid-run (a signal)
    /// or hand it their own standard output (`-o /dev/stdout >> log`). Standard input and
    /// error are the null device, as is standard output unless given.
    public static func start(
        _ arguments: [String], environment: [String: String] = [:], standardOutput: FileHandle? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = Self.environment(environment)
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Variables through which a developer's own setup would reach the binary under test: debug
    /// files found on their machine or servers, their cache. Tests that want one pass it.
    static let hostVariables: Set<String> = [
        "SYMBOLICATE_DSYM_PATH", "SYMBOLICATE_SYSTEM_SYMBOLS", "SYMBOLICATE_SYMBOL_SERVERS",
        "SYMBOLICATE_SERVE_TOKEN", "DEBUGINFOD_URLS", "XDG_CACHE_HOME",
        "APP_STORE_CONNECT_KEY_ID", "APP_STORE_CONNECT_ISSUER_ID", "APP_STORE_CONNECT_KEY_PATH", "SYMBOLICATE_APP_STORE_CONNECT_URL",
        "SYMBOLICATE_SOURCE_ROOT",
    ]

    /// An empty `$HOME` for every run: Xcode's DeviceSupport folders, caches and settings of the
    /// machine running the tests must not change what the tests see.
    static let emptyHome: String = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("symbolicate-tests-home-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }()

    /// The test process's environment, without colour unless asked, without the developer's own
    /// setup (`hostVariables`, `$HOME`), with `overrides`.
    public static func environment(_ overrides: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !hostVariables.contains($0.key) }
        env["HOME"] = emptyHome
        env["NO_COLOR"] = env["NO_COLOR"] ?? "1"
        // The goldens are English: a developer's Japanese locale must not change them.
        env["SYMBOLICATE_LANGUAGE"] = "en"
        // The tests run in the package's own checkout, whose Fixtures/src holds the files the
        // fixture dSYMs name: no source lines unless a test asks ("" is unset, for the tests of that).
        env["SYMBOLICATE_SOURCE_ROOT"] = "none"
        for (key, value) in overrides { env[key] = value }
        return env
    }
}

/// Runs an executable to completion, feeding `stdin`; stdout and stderr are drained
/// concurrently so large outputs cannot deadlock the pipes.
func runProcess(
    _ executable: URL, _ arguments: [String], stdin: String?, environment: [String: String]? = nil,
    currentDirectory: URL? = nil, timeout: Double? = nil
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
    // The readers get descriptors, not the Pipes: Apple's SDK does not mark Pipe `Sendable`.
    // The Pipes stay alive (and their descriptors open) until group.wait() below.
    let outDescriptor = outPipe.fileHandleForReading.fileDescriptor
    let errDescriptor = errPipe.fileHandleForReading.fileDescriptor
    group.enter()
    DispatchQueue.global().async {
        outData = FileHandle(fileDescriptor: outDescriptor, closeOnDealloc: false).readDataToEndOfFile()
        group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
        errData = FileHandle(fileDescriptor: errDescriptor, closeOnDealloc: false).readDataToEndOfFile()
        group.leave()
    }
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? inPipe.fileHandleForWriting.close()
    var timedOut = false
    if let timeout {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
    process.waitUntilExit()
    group.wait()
    withExtendedLifetime((outPipe, errPipe)) {}
    return CLIResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self),
        timedOut: timedOut
    )
}
