#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounds-checked little-endian reads over a window of a mapped file.
///
/// Every read checks the window, so a truncated or corrupt file yields a `MachOError`
/// naming the absolute file offset instead of a crash.
package struct ByteReader {
    package let file: MappedFile
    /// Absolute file offset of the window's first byte.
    package let start: Int
    /// Length of the window.
    package let count: Int

    package init(file: MappedFile, start: Int, count: Int) {
        self.file = file
        self.start = start
        self.count = count
    }

    package init(file: MappedFile) {
        self.init(file: file, start: 0, count: file.count)
    }

    private func check(_ offset: Int, _ size: Int, _ what: String) throws(MachOError) {
        guard offset >= 0, size >= 0, offset <= count, size <= count - offset else {
            throw MachOError(
                path: file.path, offset: start + max(offset, 0),
                message: "truncated: \(what) needs \(size) bytes, only \(max(count - offset, 0)) remain"
            )
        }
    }

    package func u8(_ offset: Int, _ what: String) throws(MachOError) -> UInt8 {
        try check(offset, 1, what)
        return file.base.unsafelyUnwrapped.load(fromByteOffset: start + offset, as: UInt8.self)
    }

    package func u32(_ offset: Int, _ what: String, bigEndian: Bool = false) throws(MachOError) -> UInt32 {
        try check(offset, 4, what)
        let raw = file.base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: start + offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    package func u16(_ offset: Int, _ what: String, bigEndian: Bool = false) throws(MachOError) -> UInt16 {
        try check(offset, 2, what)
        let raw = file.base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: start + offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
    }

    package func u64(_ offset: Int, _ what: String, bigEndian: Bool = false) throws(MachOError) -> UInt64 {
        try check(offset, 8, what)
        let raw = file.base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }

    /// A fixed-size, NUL-padded name field such as `segname[16]`.
    package func fixedString(_ offset: Int, length: Int, _ what: String) throws(MachOError) -> String {
        try check(offset, length, what)
        let buffer = UnsafeRawBufferPointer(start: file.base.unsafelyUnwrapped + start + offset, count: length)
        let end = buffer.firstIndex(of: 0) ?? length
        return String(decoding: buffer[..<end], as: UTF8.self)
    }

    /// A NUL-terminated string starting at `offset`; an unterminated string ends at the window.
    package func cString(_ offset: Int, _ what: String) throws(MachOError) -> String {
        try check(offset, 0, what)
        let buffer = UnsafeRawBufferPointer(start: file.base.unsafelyUnwrapped + start + offset, count: count - offset)
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end], as: UTF8.self)
    }

    /// A sub-window, checked against this one.
    package func window(_ offset: Int, count length: Int, _ what: String) throws(MachOError) -> ByteReader {
        try check(offset, length, what)
        return ByteReader(file: file, start: start + offset, count: length)
    }

    /// Hands the resident pages this window touches back to the kernel (whole pages, rounded
    /// outward: the mapping is read-only and file-backed, so a dropped page is read again from
    /// the page cache if touched). On Linux one touched byte of a large file can map a whole
    /// page-cache folio; readers of big files (dyld shared caches) call this after a pass.
    /// Does nothing for an in-memory copy.
    package func releaseResidentPages() {
        guard let base = file.base, count > 0, !file.isCopy else { return }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let mappingStart = Int(bitPattern: base)
        let first = max((mappingStart + start) / page * page, (mappingStart + page - 1) / page * page)
        let last = min((mappingStart + start + count + page - 1) / page * page, (mappingStart + file.count) / page * page)
        guard last > first, let pointer = UnsafeRawPointer(bitPattern: first) else { return }
        MappedFile.releaseMappedPages(UnsafeRawBufferPointer(start: pointer, count: last - first))
    }
}
