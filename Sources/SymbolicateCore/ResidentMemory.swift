#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's resident memory, split into file-backed pages (mapped files: debug files,
/// the binary and its libraries) and the rest (heap, stacks).
///
/// Read from `/proc/self/statm`, which the kernel fills from its counters without walking
/// the mappings (a few microseconds); nil where there is no such file (macOS).
package struct ResidentMemory: Sendable, Equatable {
    package var fileBacked: Int
    package var anonymous: Int

    package static func current() -> ResidentMemory? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = buffer[0..<count].split(separator: 0x20).prefix(3).map { field -> Int? in
            var value = 0
            for byte in field {
                guard (0x30...0x39).contains(byte) else { return nil }
                let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
                guard !overflowed else { return nil }
                value = times &+ Int(byte - 0x30)
            }
            return value
        }
        guard fields.count == 3, let resident = fields[1], let shared = fields[2], resident >= shared else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return ResidentMemory(fileBacked: shared &* page, anonymous: (resident - shared) &* page)
    }
}
