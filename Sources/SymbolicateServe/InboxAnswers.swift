import Foundation

/// The inbox's read answers (`GET /v1/groups`, a group) as the JSON bytes sent, kept until the
/// inbox's generation moves. A release gate and the page ask the same few questions again and
/// again; each is read from the database and encoded once per change instead of once per
/// request (sixteen clients asking at once queued behind each other's page reads:
/// Benchmarks/README.md, "Crash inbox"). The generation is read from the database before the
/// answer, so a change by another server sharing it is seen as soon as it is committed.
package final class InboxAnswers: @unchecked Sendable {
    private struct Kept {
        var generation: Int64
        var body: Data
        var used: UInt64
    }

    /// Answers kept at most, and their bytes together at most; the least recently used go first.
    package let capacity: Int
    package let byteCapacity: Int
    private let lock = NSLock()
    private var kept: [String: Kept] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    /// Reads under way, one per question and generation.
    private var flights: [String: (generation: Int64, task: Task<Data?, any Error>)] = [:]

    package init(capacity: Int = 256, byteCapacity: Int = 32 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    /// The answer kept for `key` at `generation`; nil when none is, or it is of another
    /// generation (then it is let go). Generation 0 is an inbox that keeps none: never kept.
    package func answer(_ key: String, at generation: Int64) -> Data? {
        guard generation != 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard var entry = kept[key] else { return nil }
        guard entry.generation == generation else {
            if entry.generation < generation { remove(key) }
            return nil
        }
        clock += 1
        entry.used = clock
        kept[key] = entry
        return entry.body
    }

    /// Keeps `body` as the answer for `key` read at `generation`, unless a newer one is kept.
    package func keep(_ body: Data, for key: String, at generation: Int64) {
        guard generation != 0, body.count <= byteCapacity / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        if let existing = kept[key], existing.generation > generation { return }
        remove(key)
        clock += 1
        kept[key] = Kept(generation: generation, body: body, used: clock)
        bytes += body.count
        while kept.count > capacity || bytes > byteCapacity,
            let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key
        {
            remove(oldest)
        }
    }

    /// The answer for `key` at `generation`: the kept one, or the one being read for it by
    /// another request (sixteen clients asking the same question after a change wait for one
    /// read, not sixteen), or `reading`'s, kept when it gives one.
    package func answer(
        for key: String, at generation: Int64, reading: @escaping @Sendable () async throws -> Data?
    ) async throws -> Data? {
        guard generation != 0 else { return try await reading() }
        let flight: Task<Data?, any Error>
        switch join(key, generation, reading) {
        case .kept(let body): return body
        case .flight(let task): flight = task
        }
        let result: Data?
        do { result = try await flight.value } catch {
            settle(key, generation)
            throw error
        }
        settle(key, generation)
        if let result { keep(result, for: key, at: generation) }
        return result
    }

    private enum Joined {
        case kept(Data)
        case flight(Task<Data?, any Error>)
    }

    /// The kept answer, else the read under way for this generation, else a new one started.
    private func join(_ key: String, _ generation: Int64, _ reading: @escaping @Sendable () async throws -> Data?) -> Joined {
        lock.lock()
        defer { lock.unlock() }
        if let entry = kept[key], entry.generation == generation {
            clock += 1
            kept[key]?.used = clock
            return .kept(entry.body)
        }
        if let running = flights[key], running.generation == generation { return .flight(running.task) }
        let task = Task { try await reading() }
        flights[key] = (generation, task)
        return .flight(task)
    }

    private func settle(_ key: String, _ generation: Int64) {
        lock.lock()
        if flights[key]?.generation == generation { flights[key] = nil }
        lock.unlock()
    }

    /// How many answers are kept (for tests).
    package var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return kept.count
    }

    /// Whether a read for `key` is under way (for tests).
    package func flightCount(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return flights[key] == nil ? 0 : 1
    }

    private func remove(_ key: String) {
        if let gone = kept.removeValue(forKey: key) { bytes -= gone.body.count }
    }
}
