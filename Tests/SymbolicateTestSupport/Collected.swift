import Foundation

/// Lines gathered from callbacks that may run on other threads (failures seen by workers,
/// messages a run says as it goes), read once the work is done.
public final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    public init() {}

    public func append(_ line: String) {
        lock.lock()
        list.append(line)
        lock.unlock()
    }

    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}
