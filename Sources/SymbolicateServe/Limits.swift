import Dispatch
import Foundation

/// Requests admitted at once: past the limit a request is refused with 503 straight away
/// rather than queued, so an overloaded server says so instead of timing everyone out.
final class Admission: @unchecked Sendable {
    private let lock = NSLock()
    private var active = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place, or false when all are taken.
    func enter() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard active < limit else { return false }
        active += 1
        return true
    }

    func leave() {
        lock.lock()
        active -= 1
        lock.unlock()
    }

    var inUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return active
    }
}

/// Threads for the synchronous work (parsing, DWARF lookups, rendering), so that it never runs
/// on the server's event loops: `width` threads of its own, started once. A fixed set, not
/// Dispatch's pool: work waiting for a slot on a Dispatch queue blocks a pool thread, the pool
/// then starts more, and each new thread's malloc arena made the resident set grow with load.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    init(width: Int) {
        for number in 0..<max(1, width) {
            let thread = Thread { [self] in self.serve() }
            thread.name = "symbolicate.serve.worker.\(number)"
            thread.start()
        }
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            condition.lock()
            jobs.append { continuation.resume(returning: work()) }
            condition.signal()
            condition.unlock()
        }
    }
}

/// A request that outlived the time limit.
struct TimedOut: Error {}

/// Resumes a continuation once: with the first of the operation's result and the deadline.
private final class FirstOf<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    /// True when this call resumed it.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        lock.lock()
        let waiting = continuation
        continuation = nil
        lock.unlock()
        guard let waiting else { return false }
        waiting.resume(with: result)
        return true
    }
}

/// Runs `operation` and answers with its result, or throws `TimedOut` once `seconds` have
/// passed, whichever comes first. The operation is cancelled then but not waited for: work
/// that cannot be cancelled (a symbolication under way) finishes in the background, and
/// whatever it holds (its admission) is released by the operation itself.
func withDeadline<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let first = FirstOf(continuation)
        let work = Task {
            do { first.resume(.success(try await operation())) } catch { first.resume(.failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
            guard !Task.isCancelled else { return }
            if first.resume(.failure(TimedOut())) { work.cancel() }
        }
        Task {
            _ = await work.result
            timer.cancel()
        }
    }
}

/// Runs `operation` with a deadline and waits for it to end when the deadline cancels it: for
/// reading a request body, which must be over before the response is sent.
func withCancellingDeadline<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut() }
        return value
    }
}
