import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every temporary path this process created (unzip folders, atomic-write temporary files),
/// so that they are removed on every way out: normal return, `exit()` (which skips deinit),
/// and SIGINT/SIGTERM/SIGHUP. An interrupted batch used to leave its unpacked zips in TMPDIR.
public enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: [String: Int] = [:]
        var next = 0
        var installed = false
        var sources: [DispatchSourceSignal] = []
    }

    private static let registry = Registry()

    /// The signals after which the process cleans up, then dies of the same signal (so the
    /// parent sees the conventional status, 128 + n in a shell).
    public static let cleanedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Remembers `path` (a file or a folder) for removal on exit or signal.
    public static func register(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.next += 1
        registry.paths[path] = registry.next
    }

    /// Forgets `path`: it was renamed into place or removed by its owner.
    public static func unregister(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths[path] = nil
    }

    /// Paths currently registered (for tests).
    public static var registered: [String] {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.paths.sorted { $0.value < $1.value }.map(\.key)
    }

    /// Removes every registered path, newest first (files inside folders before the folders).
    public static func removeAll() {
        registry.lock.lock()
        let paths = registry.paths.sorted { $0.value > $1.value }.map(\.key)
        registry.paths.removeAll()
        registry.lock.unlock()
        for path in paths {
            // Another thread may still be unpacking into a folder while it is removed (a
            // signal arrives mid-run), so a pass can fail on a file created behind it; once
            // the folder itself is gone nothing can be created below it, so retry until then.
            for _ in 0..<20 {
                try? FileManager.default.removeItem(atPath: path)
                var info = stat()
                if lstat(path, &info) != 0 { break }
            }
        }
    }

    /// Installs the clean-up once per process: at `exit()` and on SIGINT/SIGTERM/SIGHUP.
    ///
    /// The signals are turned into dispatch sources (handled on a queue of their own, not in
    /// signal context, so removing folders is safe); after clean-up the default action is
    /// restored and the signal raised again, so the process still dies of it.
    public static func installCleanup() {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        guard !registry.installed else { return }
        registry.installed = true
        atexit { TemporaryFiles.removeAll() }
        let queue = DispatchQueue(label: "symbolicate.signal-cleanup")
        for number in cleanedSignals {
            // A signal ignored by whoever started us (`nohup`, a background job) stays ignored.
            let previous = signal(number, SIG_IGN)
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                TemporaryFiles.removeAll()
                signal(number, SIG_DFL)
                kill(getpid(), number)
            }
            source.resume()
            registry.sources.append(source)
        }
    }
}
