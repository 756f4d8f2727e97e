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
/// and the terminating signals (`cleanedSignals`). An interrupted batch used to leave its unpacked zips in TMPDIR.
///
/// Clean-up cannot race a creation (issue 26: a signal mid-unpack left thousands of files, and
/// output folders kept `.symbolicate-*.tmp` files): every temporary file or folder, and every
/// file or folder made inside one, is created through `create` or `createInside`, under the
/// lock the clean-up takes, with its path registered before it exists. Once the clean-up of a
/// signal or `exit()` has begun (`shutDown`), creators never create again: they wait for the
/// process to end. So the clean-up sees every path that will ever exist, and removes it after
/// the last creation.
package enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: [String: Int] = [:]
        var next = 0
        var installed = false
        /// Set by `shutDown`: the process is on its way out and nothing more is created.
        var closing = false
    }

    private static let registry = Registry()

    /// The signals after which the process cleans up, then dies of the same signal (so the
    /// parent sees the conventional status, 128 + n in a shell): every signal that can be
    /// caught and whose default action ends the process, except the faults of a crash
    /// (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS), which `BatchCrashGuard`
    /// handles where it matters. SIGQUIT, SIGUSR1 and SIGPIPE used to leave temporary folders
    /// behind (issue 38).
    package static let cleanedSignals: [Int32] = {
        let everywhere = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ]
        #if canImport(Glibc)
            // Linux only: their default action ends the process (SIGIO is ignored on macOS).
            return everywhere + [SIGIO, SIGPWR, SIGSTKFLT]
        #else
            return everywhere
        #endif
    }()

    /// Creates the temporary file or folder `path` with `make` (true when it was created),
    /// registered before it exists and under the clean-up's lock. Returns `make`'s answer;
    /// `errno` is kept from `make` when it fails. After `shutDown` began it never returns: the
    /// process is about to die of a signal or to exit.
    package static func create(_ path: String, _ make: () -> Bool) -> Bool {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        waitIfClosing()
        registry.next += 1
        registry.paths[path] = registry.next
        let made = make()
        if !made {
            let saved = errno
            registry.paths[path] = nil
            errno = saved
        }
        return made
    }

    /// Runs `make`, which creates something inside a registered temporary folder (an
    /// unpacked entry, its parent folders), under the clean-up's lock, so the folder's
    /// removal never races it. Never returns after `shutDown` began.
    package static func createInside<T>(_ make: () throws -> T) rethrows -> T {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        waitIfClosing()
        return try make()
    }

    /// Runs `settle` (a rename into place, an unlink) under the clean-up's lock and forgets
    /// `path` when it succeeded (returned true): a temporary file is either still registered
    /// or already gone from its name. Never returns after `shutDown` began (the file is then
    /// removed by the clean-up instead).
    @discardableResult
    package static func settle(_ path: String, _ settle: () -> Bool) -> Bool {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        waitIfClosing()
        let done = settle()
        if done { registry.paths[path] = nil }
        return done
    }

    /// Called with the lock held: once the clean-up has begun, the caller gives the lock back
    /// and waits for the end of the process (the clean-up then raises the signal or `exit`
    /// returns to the system), so nothing is created behind the clean-up.
    private static func waitIfClosing() {
        guard registry.closing else { return }
        registry.lock.unlock()
        while true { pause() }
    }

    /// Remembers `path` (a file or a folder) for removal on exit or signal. Prefer `create`,
    /// which registers the path before the file exists.
    package static func register(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.next += 1
        registry.paths[path] = registry.next
    }

    /// Forgets `path`: it was renamed into place or removed by its owner.
    package static func unregister(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths[path] = nil
    }

    /// Paths currently registered (for tests).
    package static var registered: [String] {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.paths.sorted { $0.value < $1.value }.map(\.key)
    }

    /// Removes every registered path, newest first (files inside folders before the folders).
    /// The process goes on: for owners done with their files (tests). Ways out use `shutDown`.
    package static func removeAll() {
        registry.lock.lock()
        let paths = registry.paths.sorted { $0.value > $1.value }.map(\.key)
        registry.paths.removeAll()
        registry.lock.unlock()
        remove(paths)
    }

    /// The clean-up of a way out (a signal, `exit()`, a fatal signal in batch mode): from now
    /// on nothing is created through `create`/`createInside`/`settle` (their callers wait for
    /// the end), then every registered path is removed. Creations run under the lock taken
    /// here, so when it is held no creation is half done, and none can follow.
    package static func shutDown() {
        registry.lock.lock()
        registry.closing = true
        let paths = registry.paths.sorted { $0.value > $1.value }.map(\.key)
        registry.paths.removeAll()
        registry.lock.unlock()
        remove(paths)
    }

    private static func remove(_ paths: [String]) {
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Installs the clean-up once per process: at `exit()` and on every signal of `cleanedSignals`.
    ///
    /// Each signal gets a handler at once (one `signal` call: before it the default action
    /// ends the process, which has created nothing yet; after it the handler runs), so no
    /// signal is lost. Setting "ignore" first and arming a dispatch source after lost the
    /// signals that came in between (7 runs in 100 killed at start-up kept running). The
    /// handler only writes the signal's number into a pipe; a thread of its own reads it and
    /// cleans up outside signal context, then restores the default action and raises the
    /// signal again, so the process still dies of it.
    /// `signals: false` installs only the `exit()` clean-up, for a process that handles
    /// SIGINT/SIGTERM itself (`serve` shuts down gracefully, then exits).
    package static func installCleanup(signals: Bool = true) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        guard !registry.installed else { return }
        registry.installed = true
        atexit { TemporaryFiles.shutDown() }
        guard signals else { return }
        var ends: [Int32] = [-1, -1]
        // No pipe (no descriptors left at start-up): the signals keep their default action.
        guard pipe(&ends) == 0 else { return }
        let reader = ends[0]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe must not block a handler; one byte per signal is more than enough.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        signalPipe = ends[1]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let n = read(reader, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1 else { return }
                let number = Int32(byte)
                TemporaryFiles.shutDown()
                signal(number, SIG_DFL)
                kill(getpid(), number)
            }
        }
        for number in cleanedSignals where !isIgnored(number) {
            // A signal ignored by whoever started us (`nohup`, a background job) stays ignored.
            signal(number, cleanupSignalHandler)
        }
    }

    /// Whether `number` is set to be ignored, asked without changing it.
    package static func isIgnored(_ number: Int32) -> Bool {
        handler(of: number) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The current action for `number` as an address (`SIG_DFL`, `SIG_IGN` or a handler);
    /// nil when it cannot be read.
    package static func handler(of number: Int32) -> Int? {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return nil }
        #if canImport(Darwin)
            let handler = current.__sigaction_u.__sa_handler
        #else
            let handler = current.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self)
    }
}

/// The write end of the clean-up's signal pipe (-1 before `installCleanup`); written once,
/// before any handler that reads it is installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// Async-signal-safe: writes the signal's number into the pipe and nothing else.
private let cleanupSignalHandler: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipe, &byte, 1)
    errno = saved
}
