import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command with a time limit and collects its standard output: the one way the tool
/// runs other programs it waits for (dsymForUUID, git). Standard input and error are the null
/// device, so a command can neither wait for a terminal nor fill a pipe nobody reads; a
/// command past its limit is killed.
package enum Subprocess {
    /// How one run ended.
    package enum Outcome: Sendable, Equatable {
        /// It exited (or was killed by a signal: `status` is then the signal's number).
        case exited(status: Int32, output: Data)
        /// It ran past the limit and was killed.
        case timedOut(seconds: Double)
        /// It could not be started (no such program, not executable).
        case cannotStart(String)

        /// The output of a run that exited with status 0; nil otherwise.
        package var successOutput: Data? {
            if case .exited(0, let output) = self { return output }
            return nil
        }
    }

    /// Runs `executable` with `arguments` (never through a shell unless the caller names
    /// one), in `environment` added to this process's own, for at most `timeout` seconds.
    /// `includingStandardError`: its standard error joins the output (a tool that says what went
    /// wrong only there, such as `dsymutil`).
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double,
        includingStandardError: Bool = false
    ) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = includingStandardError ? output : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch {
            return .cannotStart(error.localizedDescription)
        }
        // Read on another thread so a chatty command cannot fill the pipe and stall. The thread
        // gets the descriptor, not the Pipe: Apple's SDK does not mark Pipe `Sendable`.
        let collected = Collected()
        let descriptor = output.fileHandleForReading.fileDescriptor
        let reader = Thread {
            collected.set(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile())
        }
        reader.start()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + 2)
            _ = collected.wait(seconds: 2)
            withExtendedLifetime(output) {}
            return .timedOut(seconds: timeout)
        }
        let read = collected.wait(seconds: 2)
        // The pipe (and so the descriptor the reader uses) lives until the reader is done or given up.
        withExtendedLifetime(output) {}
        guard read, let data = collected.data else { return .cannotStart("its output could not be read") }
        return .exited(status: process.terminationStatus, output: data)
    }
}

/// Output gathered by a reader thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var value: Data?

    func set(_ data: Data) {
        lock.lock()
        value = data
        lock.unlock()
        done.signal()
    }

    func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    var data: Data? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
