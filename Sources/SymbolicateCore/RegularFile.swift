import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads files that must be regular files: reports, and the first bytes of candidate debug
/// files and zips.
///
/// Why not `Data(contentsOf:)` or `FileHandle`: they open before looking at the file type,
/// and opening a FIFO blocks until a writer appears (a hang), while a device may never end.
/// Here the open is non-blocking and `fstat` on the opened descriptor decides, so the check
/// and the read are about the same file.
package enum RegularFile {
    package enum Failure: Error, Equatable, Sendable {
        case missing
        case folder
        /// FIFO, socket, device…: named by `kind`.
        case notRegular(kind: String)
        case tooLarge(size: Int)
        case unreadable(String)

        /// A plain sentence for error messages.
        package var message: String {
            switch self {
            case .missing: return "no such file"
            case .folder: return "is a folder"
            case .notRegular(let kind): return "is \(kind), not a regular file; refusing to read it"
            case .tooLarge(let size): return "file is \(size) bytes"
            case .unreadable(let why): return "cannot read file: \(why)"
            }
        }
    }

    /// The whole file, refused when it is not a regular file or is larger than `limit` bytes.
    package static func read(path: String, limit: Int) -> Result<Data, Failure> {
        read(path: path, upTo: nil, limit: limit)
    }

    /// The first `count` bytes (fewer when the file is shorter); nil for anything that is
    /// not a readable regular file.
    package static func prefix(path: String, count: Int) -> Data? {
        try? read(path: path, upTo: count, limit: Int.max).get()
    }

    /// What the file at `path` is when it exists and is neither a regular file nor a folder
    /// (`"a FIFO"`, `"a socket"`, …); nil otherwise. Follows symlinks, never opens the file.
    package static func specialKind(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        return type == S_IFREG || type == S_IFDIR ? nil : kind(info.st_mode)
    }

    /// Describes a file type from `st_mode`.
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "a special file"
        }
    }

    private static func read(path: String, upTo wanted: Int?, limit: Int) -> Result<Data, Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(.missing) }
            return .failure(.unreadable(String(cString: strerror(code))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(.folder) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: kind(info.st_mode))) }
        let size = Int(info.st_size)
        if wanted == nil, size > limit { return .failure(.tooLarge(size: size)) }
        // Read what is there now; a file that grows while we read stops at the size limit.
        let cap = min(wanted ?? size, limit)
        var data = Data(count: cap)
        var filled = 0
        let failure: Failure? = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Failure? in
            guard let base = buffer.baseAddress else { return nil }
            while filled < cap {
                let n = systemRead(fd, base + filled, cap - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .unreadable(String(cString: strerror(errno)))
                }
                if n == 0 { break }
                filled += n
            }
            return nil
        }
        if let failure { return .failure(failure) }
        data.count = filled
        return .success(data)
    }

    /// A file's modification time from `stat`: glibc names the field `st_mtim`, Darwin
    /// `st_mtimespec`. The one place the two SDKs' spellings meet.
    package static func modificationTime(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
            (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #else
            (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #endif
    }
}

/// The C `read`, out of reach of `RegularFile.read` inside the enum.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Which file a path names: its device and inode, symlinks followed. Two paths name the
/// same file exactly when their identities are equal, whatever links or `..` lie between
/// them — one `stat`, where resolving a path component by component costs one per component.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    /// nil when nothing is at `path` (or it cannot be examined).
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity `stat` already returned.
    package init(_ info: stat) {
        // dev_t is signed on Darwin (Int32): keep the bits, never trap on a negative one.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
