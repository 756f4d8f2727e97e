import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 38, finding 11: the CLI died with SIGILL (a `try!` inside `FileHandle.write`) when
/// standard output or standard error could not be written: a full disk (`/dev/full`), or a
/// pipe whose reader is gone while SIGPIPE is ignored (as Node-based CI runners leave it).
/// Now a write failure ends with exit status 73 and says why on the other stream; a closed
/// pipe ends quietly with 73. The real binary, its streams set up by the test.
@Suite(.tags(.launchesBinary)) struct ConsoleWriteFailureCLITests {
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path

    /// Runs the binary through `sh`, which sets SIGPIPE to be ignored (`trap '' PIPE`, kept
    /// across `exec`) when asked, with the given standard output and error; the ones not given
    /// are pipes read by the test.
    static func run(
        _ arguments: [String], standardOutput: FileHandle? = nil, standardError: FileHandle? = nil, ignoringSIGPIPE: Bool
    ) throws -> (status: Int32, reason: Process.TerminationReason, stdout: String, stderr: String) {
        let process = Process()
        // SIGPIPE ignored (`trap '' PIPE`, kept across `exec`) or set to its default action
        // whatever this test process has (PortableTools.withDefaultSignals).
        if ignoringSIGPIPE {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"trap '' PIPE; exec "$0" "$@""#, CLI.binary.path] + arguments
        } else {
            let launcher = PortableTools.withDefaultSignals(CLI.binary.path, arguments)
            process.executableURL = launcher.executable
            process.arguments = launcher.arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SYMBOLICATE_LANGUAGE"] = "en"
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = standardOutput ?? outPipe
        process.standardError = standardError ?? errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The write ends belong to the child now: the reads below end when it does.
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        let out = standardOutput == nil ? outPipe.fileHandleForReading.readDataToEndOfFile() : Data()
        let err = standardError == nil ? errPipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (
            process.terminationStatus, process.terminationReason, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
        )
    }

    /// The write end of a pipe whose read end is already closed: every write fails with EPIPE
    /// (or raises SIGPIPE, when it is not ignored).
    static func closedPipe() throws -> FileHandle {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        close(ends[0])
        return FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    static func full() throws -> FileHandle {
        let device = try #require(PortableTools.fullDevice)
        return try #require(FileHandle(forWritingAtPath: device))
    }

    @Test(.enabled(if: PortableTools.fullDevice != nil, "no always-full device here (Linux has one): skipped"))
    func standardOutputOnAFullDiskEndsWith73AndSaysSo() throws {
        let result = try Self.run(["report", Self.report, TestPaths.dsyms], standardOutput: Self.full(), ignoringSIGPIPE: false)
        #expect(result.reason == .exit)
        #expect(result.status == 73)
        #expect(result.stderr.contains("symbolicate: error: cannot write to standard output: No space left on device"), "\(result.stderr)")
    }

    @Test(.enabled(if: PortableTools.fullDevice != nil, "no always-full device here (Linux has one): skipped"))
    func standardErrorOnAFullDiskEndsWith73AndSaysSoOnStandardOutput() throws {
        // A missing report: the run has an error message to print and nothing else.
        let result = try Self.run(["report", "/nonexistent/report.ips"], standardError: Self.full(), ignoringSIGPIPE: false)
        #expect(result.reason == .exit)
        #expect(result.status == 73)
        #expect(result.stdout.contains("symbolicate: error: cannot write to standard error: No space left on device"), "\(result.stdout)")
    }

    @Test(.enabled(if: PortableTools.fullDevice != nil, "no always-full device here (Linux has one): skipped"))
    func explainToAFullDiskEndsWith73() throws {
        let result = try Self.run(["explain", Self.report], standardOutput: Self.full(), ignoringSIGPIPE: false)
        #expect(result.reason == .exit)
        #expect(result.status == 73)
        #expect(result.stderr.contains("cannot write to standard output"), "\(result.stderr)")
    }

    @Test func closedPipeOnStandardOutputWithSIGPIPEIgnoredEndsQuietlyWith73() throws {
        let result = try Self.run(
            ["report", Self.report, TestPaths.dsyms], standardOutput: Self.closedPipe(), ignoringSIGPIPE: true)
        #expect(result.reason == .exit)
        #expect(result.status == 73)
        // The headline still goes to stderr (stdout is no terminal); no word about the pipe.
        #expect(result.stderr.hasPrefix("Crashed:"), "\(result.stderr)")
        #expect(!result.stderr.contains("cannot write"), "\(result.stderr)")
    }

    @Test func closedPipeOnStandardErrorWithSIGPIPEIgnoredEndsQuietlyWith73() throws {
        let result = try Self.run(["report", "/nonexistent/report.ips"], standardError: Self.closedPipe(), ignoringSIGPIPE: true)
        #expect(result.reason == .exit)
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }

    /// SIGPIPE not ignored: the process dies of it, as any Unix filter does (`… | head`).
    @Test func closedPipeWithSIGPIPEDefaultDiesOfSIGPIPE() throws {
        let result = try Self.run(
            ["report", Self.report, TestPaths.dsyms], standardOutput: Self.closedPipe(), ignoringSIGPIPE: false)
        #expect(result.reason == .uncaughtSignal)
        #expect(result.status == SIGPIPE)
    }
}
