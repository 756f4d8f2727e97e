import Dispatch
import Foundation
import Hummingbird

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

/// Set once when the work's requester has given up on it (past the time limit); the pipeline
/// asks it between stages and stops there, so a timed-out request frees its worker.
package final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false

    package init() {}

    package func stop() {
        lock.lock()
        set = true
        lock.unlock()
    }

    package var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }
}

/// A one-shot timer that is gone as soon as it is cancelled. `Task.sleep` was the timer
/// before: a cancelled sleep keeps its job (about 1.4 KB) until its deadline, so memory grew
/// with request rate × time limit. A cancelled Dispatch source is released at once.
final class Deadline: @unchecked Sendable {
    private static let queue = DispatchQueue(label: "symbolicate.serve.deadlines")
    private let lock = NSLock()
    private var source: (any DispatchSourceTimer)?
    private let pending: PendingTimers?

    /// Calls `fire` once after `seconds`, unless cancelled first; counted in `pending` until then.
    init(seconds: Double, pending: PendingTimers? = nil, fire: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: Self.queue)
        self.source = source
        self.pending = pending
        pending?.add(1)
        source.setEventHandler { [weak self] in
            guard let self, self.finish() else { return }
            fire()
        }
        source.schedule(deadline: .now() + .nanoseconds(Int(min(max(0, seconds), 1e9) * 1e9)))
        source.resume()
    }

    /// Takes the source away: true for the first of firing and cancelling.
    private func finish() -> Bool {
        lock.lock()
        let taken = source
        source = nil
        lock.unlock()
        guard let taken else { return false }
        taken.cancel()
        pending?.add(-1)
        return true
    }

    func cancel() { _ = finish() }

    deinit { _ = finish() }
}

/// Timers started and not yet fired or cancelled (one server's): what a finished request leaves
/// behind, nothing.
package final class PendingTimers: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    package init() {}

    func add(_ change: Int) {
        lock.lock()
        value += change
        lock.unlock()
    }

    package var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

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

/// Holds a value set after creation (a timer made before the task it cancels).
private final class Later<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    var value: T? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}

/// Runs `operation` and answers with its result, or throws `TimedOut` once `seconds` have
/// passed, whichever comes first. The operation is cancelled then but not waited for: its
/// synchronous part (a symbolication under way) sees the cancellation through its `StopFlag`
/// at the next stage, and whatever it holds (its admission) is released by the operation itself.
/// The timer is cancelled as soon as the operation ends.
func withDeadline<T: Sendable>(
    seconds: Double, pending: PendingTimers? = nil, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let first = FirstOf(continuation)
        let work = Later<Task<Void, Never>>()
        let timer = Deadline(seconds: seconds, pending: pending) {
            if first.resume(.failure(TimedOut())) { work.value?.cancel() }
        }
        work.value = Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            timer.cancel()
            first.resume(result)
        }
    }
}

/// Runs `operation` with a deadline and waits for it to end when the deadline cancels it: for
/// reading a request body, which must be over before the response is sent. A result that
/// comes too late is given to `discard`.
func withCancellingDeadline<T: Sendable>(
    seconds: Double, pending: PendingTimers? = nil, discard: @Sendable (T) -> Void = { _ in },
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let work = Task { try await operation() }
    let expired = StopFlag()
    let timer = Deadline(seconds: seconds, pending: pending) {
        expired.stop()
        work.cancel()
    }
    defer { timer.cancel() }
    let result = await withTaskCancellationHandler {
        await work.result
    } onCancel: {
        work.cancel()
    }
    if expired.isSet {
        // Done just as the time ran out: what it made (a received upload's file) is let go.
        if case .success(let value) = result { discard(value) }
        throw TimedOut()
    }
    return try result.get()
}

/// The slowest a request body may come: `grace` seconds after its first byte, on average at
/// least `minimumRate` bytes a second, else the request is refused (408) and its connection
/// closed. A client sending a byte now and then would otherwise hold its place among the bodies
/// being read until the time limit, again and again.
final class BodyPace: @unchecked Sendable {
    private let lock = NSLock()
    private var started: ContinuousClock.Instant?
    private var bytes = 0
    let minimumRate: Int
    let grace: Double

    init(minimumRate: Int, grace: Double) {
        self.minimumRate = minimumRate
        self.grace = grace
    }

    /// Counts `count` bytes more; throws when the body has come too slowly so far.
    func received(_ count: Int) throws {
        let now = ContinuousClock.now
        lock.lock()
        bytes += count
        let total = bytes
        let first = started ?? now
        started = first
        lock.unlock()
        let elapsed = now - first
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > grace, minimumRate > 0 else { return }
        if Double(total) < Double(minimumRate) * seconds {
            throw HTTPError(.requestTimeout, message: "the body came slower than \(minimumRate) bytes a second")
        }
    }
}
