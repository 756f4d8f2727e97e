import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Real servers on loopback for the symbol-source tests: Python's `http.server` serving a
/// folder laid out by identity (`Fixtures/symbol-sources/server.py`, with its `/fault/…`
/// paths), and Debian's `debuginfod` serving a folder of ELF files. Each is started by the
/// test and stopped when the value is released.
public final class SymbolServerProcess: @unchecked Sendable {
    public let port: Int
    public let root: URL
    public let log: URL
    private let process: Process

    public static let script = TestPaths.fixtures.appendingPathComponent("symbol-sources/server.py")
    public static let dsymForUUID = TestPaths.fixtures.appendingPathComponent("symbol-sources/dsymForUUID")

    /// Starts the Python server on `root` (a folder the test laid out).
    public init(root: URL) throws {
        self.root = root
        log = root.deletingLastPathComponent().appendingPathComponent("server-\(UUID().uuidString.prefix(8)).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--root", root.path, "--log", log.path, "--lifetime", "900"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the port it bound.
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Self.stop(process)
            throw FixtureError("server.py did not start (no port printed)")
        }
        self.port = port
    }

    deinit { Self.stop(process) }

    /// SIGKILL: a test runner may hand its children SIGTERM ignored.
    static func stop(_ process: Process) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public var base: String { "http://127.0.0.1:\(port)" }

    /// Lines of the request log: "GET /path status".
    public var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Requests answered with a file (what a download is).
    public var downloads: [String] { requests.filter { $0.hasSuffix(" 200") } }
}

/// Debian's debuginfod serving a folder of ELF files on a free loopback port.
public final class DebuginfodProcess: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let database: URL

    public static var executable: String? { ExternalTool.find("debuginfod") }

    /// Starts debuginfod on `folder` and waits until it serves `buildID` (it scans first).
    public init(folder: URL, waitingFor buildID: String) throws {
        guard let executable = Self.executable else {
            throw FixtureError("debuginfod is not installed (scripts/setup.sh installs Debian's debuginfod)")
        }
        database = folder.deletingLastPathComponent().appendingPathComponent("debuginfod-\(UUID().uuidString.prefix(8)).sqlite")
        var lastError = "no free port"
        for _ in 0..<5 {
            let port = try Self.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-p", "\(port)", "-d", database.path, "-F", folder.path, "-t", "0", "-g", "0"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                if Self.status("http://127.0.0.1:\(port)/buildid/\(buildID)/debuginfo") == 200 {
                    self.port = port
                    self.process = process
                    return
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
            lastError = process.isRunning ? "did not serve \(buildID) within 30 s" : "exited with status \(process.terminationStatus)"
            SymbolServerProcess.stop(process)
        }
        throw FixtureError("debuginfod: \(lastError)")
    }

    deinit {
        SymbolServerProcess.stop(process)
        try? FileManager.default.removeItem(at: database)
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    /// A port nothing listens on now (bound, then closed).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw FixtureError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw FixtureError("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The HTTP status of a GET (curl is not needed: one request by hand).
    static func status(_ url: String) -> Int? {
        let done = DispatchSemaphore(value: 0)
        let box = StatusBox()
        guard let address = URL(string: url) else { return nil }
        let request = URLRequest(url: address, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 2)
        let task = URLSession.shared.dataTask(with: request) { _, response, _ in
            box.value = (response as? HTTPURLResponse)?.statusCode
            done.signal()
        }
        task.resume()
        _ = done.wait(timeout: .now() + 3)
        return box.value
    }
}

private final class StatusBox: @unchecked Sendable {
    var value: Int?
}

public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs blocking work (a CLI run, a server's start) on a thread of its own and awaits it, so a
/// long end-to-end test does not hold one of Swift Testing's few cooperative threads (on two
/// cores, two such tests starved the async server tests running beside them). Expectations stay
/// in the test's task; `body` only computes.
public func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// `SOCK_STREAM` as `socket()` takes it: an enum case on glibc, an `Int32` on Darwin.
public var streamSocketType: Int32 {
    #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
    #else
        SOCK_STREAM
    #endif
}
