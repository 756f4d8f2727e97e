import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename, so a reader (or a crash of ours) never sees a half-written output. Devices,
/// FIFOs and our own stdout (`-o /dev/stdout`) are written in place instead (see
/// `AtomicFileWriter`).
package func writeAtomically(_ contents: String, to path: String) throws {
    let writer = try AtomicFileWriter(path: path)
    do {
        try writer.write(contents)
        try writer.commit()
    } catch {
        writer.discard()
        throw error
    }
}

/// Why an output could not be written; the message names the path.
package struct OutputFileError: Error, LocalizedError, Sendable {
    package var path: String
    package var reason: String
    package var errorDescription: String? { reason }
    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
    static func system(_ path: String, _ what: String) -> OutputFileError {
        OutputFileError(path, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// Writes a file in pieces to a temporary file next to it, then renames it into place, so
/// readers never see a half-written file (batch summaries stream through it).
///
/// The folders on the way are reached through trusted links only (`TrustedFolders`). What is
/// at the path decides how:
/// - a symbolic link owned by another user (not the effective user, not root): refused, never
///   followed (issue 38: run as root, `-o /tmp/out` with another user's link planted at
///   `/tmp/out` replaced a file in a root-only folder). Links of one's own (and root's, such as
///   `/dev/stdout`) are followed, each link of a chain checked.
/// - nothing, or a regular file (through trusted symlinks): temporary file in the folder of the
///   file finally named, then rename onto it (a symlink to the output stays a symlink, and a
///   link planted after the check is replaced by the rename, not followed). A replaced file
///   keeps its mode, and its owner and group when the user may give them (root can; others
///   keep the group when it is one of theirs). The temporary name has a fixed short
///   length, so any output name that fits NAME_MAX works; it is created through
///   `TemporaryFiles` (registered before it exists), so a signal or `exit()` mid-write
///   removes it and none can be created behind the clean-up.
/// - a device, FIFO or socket (`/dev/null`, `/dev/stdout` on a pipe or terminal), or the
///   file our stdout already writes to (`-o /dev/stdout >> log`): written in place, never
///   replaced — a rename would turn `/dev/full` into a regular file.
///   A FIFO without a reader is an error, not a hang.
package final class AtomicFileWriter {
    let path: String
    private let fd: Int32
    /// The temporary file and the final path for a rename; nil when writing in place.
    private let replacement: (temporary: String, final: String)?
    private var closed = false

    package init(path: String) throws {
        self.path = path
        // The folders on the way first: no other user's link among them is followed.
        try TrustedFolders.checkParents(of: path)
        // What the name is, without following a link planted after the check: the name
        // itself when it is no link, the end of a chain of trusted links, or (a chain that
        // ends in no name: `/dev/stdout` → `/proc/self/fd/1` → `pipe:[…]`) what the kernel
        // finds through it.
        let link = try Self.trustedLinks(path)
        var info = stat()
        let named = link.isLink ? link.end : path
        let exists = named.map { lstat($0, &info) == 0 } ?? (stat(path, &info) == 0)
        let isRegular = exists && info.st_mode & S_IFMT == S_IFREG
        if exists && info.st_mode & S_IFMT == S_IFDIR {
            throw OutputFileError(path, "is a folder")
        }
        if exists && (!isRegular || Self.isStandardStream(info)) {
            fd = try Self.openInPlace(named ?? path, info, following: named == nil)
            replacement = nil
            return
        }
        // Through the (trusted) symlinks to the real file, so the link is kept and the
        // temporary file lands in the real file's folder (rename never crosses file systems).
        let final = exists ? (named ?? path) : path
        // What the replaced file had: its mode, owner and group are given to the new one.
        let kept: stat? = exists ? info : nil
        let folder = (final as NSString).deletingLastPathComponent
        var attempt = 0
        while true {
            // Eight random hex digits (`UUID()` opens /dev/urandom on every call on Linux).
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            let name = ".symbolicate-\(String(repeating: "0", count: 8 - random.count) + random).tmp"
            let temporary = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
            // Registered before it exists, under the signal clean-up's lock.
            var opened: Int32 = -1
            if TemporaryFiles.create(
                temporary,
                {
                    opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                    return opened >= 0
                })
            {
                fd = opened
                replacement = (temporary, final)
                if let kept { Self.give(opened, kept) }
                return
            }
            attempt += 1
            if errno != EEXIST || attempt > 8 {
                throw OutputFileError.system(path, "cannot create a temporary file in \(folder.isEmpty ? "." : folder)")
            }
        }
    }

    /// Whether `path` is a symbolic link, and where the chain of links ends (nil when it ends
    /// in a name that is not there: a dangling link, or the `pipe:[…]` of `/proc/self/fd/1`).
    /// Throws when a link of the chain belongs to another user: someone who may plant a link
    /// where we write (a shared `/tmp`) must not choose what we replace. Links owned by the
    /// effective user or by root are followed.
    static func trustedLinks(_ path: String) throws -> (isLink: Bool, end: String?) {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else { return (current != path, nil) }
            guard info.st_mode & S_IFMT == S_IFLNK else { return (current != path, current) }
            if info.st_uid != geteuid() && info.st_uid != 0 {
                let what = current == path ? "is a symbolic link" : "goes through the symbolic link \(current)"
                throw OutputFileError(path, "\(what) owned by another user (uid \(info.st_uid)): not followed")
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { return (true, nil) }
            let destination = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                destination.hasPrefix("/")
                ? destination : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        throw OutputFileError(path, "has too many levels of symbolic links")
    }

    /// Gives the new file the mode, owner and group of the one it replaces (owner first:
    /// `fchown` clears the set-user-ID bits). A change the user may not make is left out:
    /// only root gives a file away; others keep the group when it is one of theirs.
    private static func give(_ descriptor: Int32, _ kept: stat) {
        if fchown(descriptor, kept.st_uid, kept.st_gid) != 0 {
            _ = fchown(descriptor, uid_t.max, kept.st_gid)
        }
        _ = fchmod(descriptor, kept.st_mode & 0o7777)
    }

    /// Whether `info` is the file our stdout or stderr already writes to (`-o /dev/stdout`
    /// with stdout redirected to a file).
    private static func isStandardStream(_ info: stat) -> Bool {
        [STDOUT_FILENO, STDERR_FILENO].contains { standard in
            var own = stat()
            return fstat(standard, &own) == 0 && own.st_dev == info.st_dev && own.st_ino == info.st_ino
        }
    }

    /// Our own stdout/stderr (same device and inode) are written through the descriptor we
    /// already have, so `-o /dev/stdout >> log` appends; other special files are opened
    /// for writing without creating or truncating anything.
    private static func openInPlace(_ path: String, _ info: stat, following: Bool) throws -> Int32 {
        for standard in [STDOUT_FILENO, STDERR_FILENO] {
            var own = stat()
            if fstat(standard, &own) == 0, own.st_dev == info.st_dev, own.st_ino == info.st_ino {
                let copy = dup(standard)
                guard copy >= 0 else { throw OutputFileError.system(path, "cannot write") }
                return copy
            }
        }
        // The name was checked as no link (or the end of trusted ones): a link put there
        // since is not followed. `following`: a chain that only the kernel resolves.
        let opened = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (following ? 0 : O_NOFOLLOW))
        guard opened >= 0 else {
            if errno == ENXIO { throw OutputFileError(path, "is a FIFO with no reader") }
            throw OutputFileError.system(path, "cannot open for writing")
        }
        // Non-blocking was only for the open (a FIFO without reader); writes may wait.
        _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
        return opened
    }

    /// Writes the string's own UTF-8 storage (no copy of a possibly large output).
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes raw bytes (debug files copied into a store).
    package func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write(bytes: $0) }
    }

    /// Writes raw bytes (a slice of a mapped file).
    package func write(bytes buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let n = posixWrite(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError.system(path, "cannot write")
            }
            offset += n
        }
    }

    package func commit() throws {
        closed = true
        guard close(fd) == 0 else {
            let error = OutputFileError.system(path, "cannot write")
            discardTemporary()
            throw error
        }
        guard let replacement else { return }
        var failure: OutputFileError?
        TemporaryFiles.settle(replacement.temporary) {
            if posixRename(replacement.temporary, replacement.final) == 0 { return true }
            failure = OutputFileError.system(path, "cannot write")
            return false
        }
        if let failure {
            discardTemporary()
            throw failure
        }
    }

    package func discard() {
        if !closed {
            close(fd)
            closed = true
        }
        discardTemporary()
    }

    private func discardTemporary() {
        guard let replacement else { return }
        TemporaryFiles.settle(replacement.temporary) {
            unlink(replacement.temporary)
            return true
        }
    }

    deinit { if !closed { close(fd) } }
}

// The class has `write` and `commit` methods; these reach the C functions by other names.
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
