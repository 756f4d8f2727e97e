#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file.
///
/// Debug files are large (tens to hundreds of MB) and a lookup touches a few pages of
/// them, so we map instead of reading: only the pages actually used become resident.
/// The mapping is immutable for its whole life, which is what makes sharing it across
/// threads sound.
public final class MappedFile: @unchecked Sendable {
    /// The path the file was opened with (used in every error message).
    public let path: String
    /// Start of the mapping; `nil` for an empty file (mmap cannot map zero bytes).
    public let base: UnsafeRawPointer?
    /// Size of the file in bytes.
    public let count: Int

    public init(path: String) throws(MachOError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MachOError(path: path, offset: nil, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw MachOError(path: path, offset: nil, message: "cannot stat: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw MachOError(path: path, offset: nil, message: "not a regular file")
        }
        let size = Int(info.st_size)
        count = size
        if size == 0 {
            base = nil
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw MachOError(path: path, offset: nil, message: "cannot map: \(String(cString: strerror(errno)))")
        }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        if let base {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        }
    }

    /// The bytes `offset ..< offset + length`, or `nil` when that range is not inside the file.
    public func bytes(at offset: Int, count length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }
}
