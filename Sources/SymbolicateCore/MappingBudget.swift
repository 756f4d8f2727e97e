import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many files a process keeps mapped at once. The kernel allows a process a fixed number
/// of mappings (Linux's `vm.max_map_count`, 65,530 by default), shared with malloc, thread
/// stacks and libraries: past it `mmap` and then malloc fail and the process aborts. Every
/// debug file is mapped, and a run that gathers one per image or per input (a report naming
/// 66,000 stored images, an audit of 70,000 Mach-O files) would go past it; with the budget,
/// the files past it are not opened, each with a typed error (`exhaustedMessage`) that the
/// discovery turns into one warning, and the run goes on with what it has.
///
/// One budget serves the whole process (`process`: half the kernel's limit); a test gives a
/// small one to the work of one task (`current`).
package final class MappingBudget: @unchecked Sendable {
    /// Most mappings counted at once.
    package let limit: Int
    private let lock = NSLock()
    private var used = 0
    private var highest = 0

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The process's budget: half of what the kernel allows (the rest is malloc's and the
    /// runtime's), 32,765 with Linux's default.
    package static let process = MappingBudget(limit: kernelLimit() / 2)

    /// The budget mappings made by this task count against.
    @TaskLocal package static var current: MappingBudget = process

    /// What a file not opened for want of budget says (the same words for every such file, so
    /// a caller can count them as one problem).
    package var exhaustedMessage: String {
        "not opened: \(limit) files are mapped at once already, the most one run keeps (too many images or debug files)"
    }

    /// Whether an error is this budget's refusal.
    package static func isExhausted(_ message: String) -> Bool {
        message.hasPrefix("not opened: ") && message.hasSuffix("(too many images or debug files)")
    }

    /// Takes one place; false when all are taken.
    package func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard used < limit else { return false }
        used += 1
        highest = max(highest, used)
        return true
    }

    package func giveBack() {
        lock.lock()
        used -= 1
        lock.unlock()
    }

    /// Mappings counted now.
    package var inUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    /// The most mappings counted at once so far.
    package var peak: Int {
        lock.lock()
        defer { lock.unlock() }
        return highest
    }

    /// `vm.max_map_count` on Linux; elsewhere the same default (macOS has no such count, but
    /// other limits of the address space come first there).
    private static func kernelLimit() -> Int {
        #if os(Linux)
            let fd = open("/proc/sys/vm/max_map_count", O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                defer { close(fd) }
                var buffer = [UInt8](repeating: 0, count: 32)
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0, let value = Int(String(decoding: buffer[0..<count], as: UTF8.self).filter(\.isNumber)), value > 1000 {
                    return value
                }
            }
        #endif
        return 65_530
    }
}
