import Foundation
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// lldb's `dsymForUUID` convention: a command run with the UUID as its last argument prints a
/// property list keyed by UUID whose `DBGDSYMPath` names the dSYM it found (and fetched);
/// `DBGError` says why not. The command is run by `/bin/sh -c` (it may carry its own
/// arguments, as `DBGShellCommands` does), with a time limit.
struct DsymForUUID: Sendable {
    var command: String
    var timeout: TimeInterval

    /// What one run said.
    enum Answer: Equatable {
        case path(String)
        case notFound(String?)
        case failed(String)
    }

    func run(_ id: DebugID) -> Answer {
        let uuid = SymbolServer.dashed(id)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // "$0" is the command, "$1" the UUID: the UUID is never spliced into shell text.
        process.arguments = ["-c", "\(command) \"$1\"", "dsymForUUID", uuid]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return .failed("cannot run: \(error.localizedDescription)")
        }
        // Read on another thread so a chatty command cannot fill the pipe and stall. The thread
        // gets the descriptor, not the Pipe: Apple's SDK does not mark Pipe `Sendable`.
        let collected = Collected()
        let descriptor = output.fileHandleForReading.fileDescriptor
        let reader = Thread {
            collected.set(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile())
        }
        reader.start()
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        if !process.isRunning { finished.signal() }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + 2)
            return .failed("no answer within \(Int(timeout)) s; stopped")
        }
        let read = collected.wait(seconds: 2)
        // The pipe (and so the descriptor the reader uses) lives until the reader is done or given up.
        withExtendedLifetime(output) {}
        guard read, let data = collected.data else { return .failed("its output could not be read") }
        guard process.terminationStatus == 0 else {
            return .failed("exited with status \(process.terminationStatus)")
        }
        return Self.parse(data, uuid: uuid)
    }

    /// The answer for `uuid` in the command's plist: its `DBGDSYMPath`, else its `DBGError`.
    static func parse(_ data: Data, uuid: String) -> Answer {
        guard !data.isEmpty else { return .notFound(nil) }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            return .failed("printed something that is not a property list")
        }
        let entry = plist.first { $0.key.uppercased() == uuid.uppercased() }?.value as? [String: Any]
        if let path = entry?["DBGDSYMPath"] as? String, !path.isEmpty { return .path(path) }
        return .notFound(entry?["DBGError"] as? String)
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
