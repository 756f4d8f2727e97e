import SymbolicateCore

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
package final class MappedFile: @unchecked Sendable {
    /// The path the file was opened with (used in every error message).
    package let path: String
    /// Start of the mapping; `nil` for an empty file (mmap cannot map zero bytes).
    package let base: UnsafeRawPointer?
    /// Size of the file in bytes.
    package let count: Int

    /// The budget this mapping was counted against (given back when it goes).
    private let budget: MappingBudget?

    package init(path: String) throws(MachOError) {
        self.path = path
        isCopy = false
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below refuses it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw MachOError(path: path, offset: nil, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw MachOError(path: path, offset: nil, message: "cannot stat: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw MachOError(
                path: path, offset: nil, message: "not a regular file (\(RegularFile.kind(info.st_mode))); refusing to read it")
        }
        let size = Int(info.st_size)
        count = size
        if size == 0 {
            base = nil
            budget = nil
            return
        }
        let budget = MappingBudget.current
        guard budget.take() else { throw MachOError(path: path, offset: nil, message: budget.exhaustedMessage) }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            budget.giveBack()
            throw MachOError(path: path, offset: nil, message: "cannot map: \(String(cString: strerror(errno)))")
        }
        base = UnsafeRawPointer(mapped)
        self.budget = budget
    }

    /// Whether `base` came from `malloc` (a copy of bytes in memory) rather than `mmap`.
    let isCopy: Bool

    /// A copy of bytes already in memory, read exactly like a mapped file: the fuzz targets
    /// feed mutated Mach-O files through here without touching the disk.
    package init(path: String, copying bytes: UnsafeRawBufferPointer) {
        self.path = path
        count = bytes.count
        isCopy = true
        budget = nil
        guard bytes.count > 0, let source = bytes.baseAddress, let copy = malloc(bytes.count) else {
            base = nil
            return
        }
        copy.copyMemory(from: source, byteCount: bytes.count)
        base = UnsafeRawPointer(copy)
    }

    deinit {
        if let base {
            if isCopy { free(UnsafeMutableRawPointer(mutating: base)) } else { munmap(UnsafeMutableRawPointer(mutating: base), count) }
        }
        budget?.giveBack()
    }

    /// The bytes `offset ..< offset + length`, or `nil` when that range is not inside the file.
    /// Hands back the resident pages of `bytes` (part of this mapping) after a one-off walk.
    ///
    /// Every touched page of a mapped file maps a whole fault-around window or page-cache
    /// folio into the process (measured here: ~576 KiB per random touch of a 259 MB dSYM
    /// written moments before), so walking a large section — or a hundred lookups in a
    /// hundred units — makes most of it resident. The pages stay in the page cache;
    /// dropping them from the (read-only, never written) mapping keeps peak memory to what
    /// is in use, and a later read maps them again. Only whole pages inside `bytes` are
    /// dropped. A copy in memory (`init(path:copying:)`) is left alone: dropping anonymous
    /// pages would zero them.
    package func releasePages(_ bytes: UnsafeRawBufferPointer) {
        guard !isCopy else { return }
        Self.releaseMappedPages(bytes)
    }

    /// `releasePages` over the whole file.
    package func releaseAllPages() {
        guard let base else { return }
        releasePages(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The same for bytes of a file mapping made elsewhere (libelf's). The caller vouches
    /// that `bytes` lie in a read-only, file-backed private mapping.
    package static func releaseMappedPages(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let first = (Int(bitPattern: base) + page - 1) / page * page
        let last = (Int(bitPattern: base) + bytes.count) / page * page
        guard last > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, last - first, Int32(MADV_DONTNEED))
    }

    package func bytes(at offset: Int, count length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }
}
