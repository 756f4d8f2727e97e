import Foundation
import SymbolicateCore

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
public func writeAtomically(_ contents: String, to path: String) throws {
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
public struct OutputFileError: Error, LocalizedError, Sendable {
    public var path: String
    public var reason: String
    public var errorDescription: String? { reason }
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
/// What is at the path decides how:
/// - nothing, or a regular file (through symlinks): temporary file + rename onto the resolved
///   path (a symlink to the output stays a symlink). The temporary name has a fixed short
///   length, so any output name that fits NAME_MAX works; it is created through
///   `TemporaryFiles` (registered before it exists), so a signal or `exit()` mid-write
///   removes it and none can be created behind the clean-up.
/// - a device, FIFO or socket (`/dev/null`, `/dev/stdout` on a pipe or terminal), or the
///   file our stdout already writes to (`-o /dev/stdout >> log`): written in place, never
///   replaced — a rename would turn `/dev/full` into a regular file.
///   A FIFO without a reader is an error, not a hang.
public final class AtomicFileWriter {
    let path: String
    private let fd: Int32
    /// The temporary file and the final path for a rename; nil when writing in place.
    private let replacement: (temporary: String, final: String)?
    private var closed = false

    public init(path: String) throws {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        let isRegular = exists && info.st_mode & S_IFMT == S_IFREG
        if exists && info.st_mode & S_IFMT == S_IFDIR {
            throw OutputFileError(path, "is a folder")
        }
        if exists && (!isRegular || Self.isStandardStream(info)) {
            fd = try Self.openInPlace(path, info)
            replacement = nil
            return
        }
        // Through symlinks to the real file, so the link is kept and the temporary file
        // lands in the real file's folder (rename never crosses file systems).
        let final = exists ? Self.resolved(path) : path
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
                return
            }
            attempt += 1
            if errno != EEXIST || attempt > 8 {
                throw OutputFileError.system(path, "cannot create a temporary file in \(folder.isEmpty ? "." : folder)")
            }
        }
    }

    /// `realpath(3)`, or the path itself when it cannot be resolved.
    private static func resolved(_ path: String) -> String {
        guard let pointer = realpath(path, nil) else { return path }
        defer { free(pointer) }
        return String(cString: pointer)
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
    private static func openInPlace(_ path: String, _ info: stat) throws -> Int32 {
        for standard in [STDOUT_FILENO, STDERR_FILENO] {
            var own = stat()
            if fstat(standard, &own) == 0, own.st_dev == info.st_dev, own.st_ino == info.st_ino {
                let copy = dup(standard)
                guard copy >= 0 else { throw OutputFileError.system(path, "cannot write") }
                return copy
            }
        }
        let opened = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard opened >= 0 else {
            if errno == ENXIO { throw OutputFileError(path, "is a FIFO with no reader") }
            throw OutputFileError.system(path, "cannot open for writing")
        }
        // Non-blocking was only for the open (a FIFO without reader); writes may wait.
        _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
        return opened
    }

    /// Writes the string's own UTF-8 storage (no copy of a possibly large output).
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { utf8 in
            let buffer = UnsafeRawBufferPointer(utf8)
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
    }

    public func commit() throws {
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

    public func discard() {
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

/// Outputs never replace inputs: `-o`, `--output` and `--junit` are compared with every
/// input report and debug file, by resolved path and by device and inode (hard links), and
/// never land inside an input folder or bundle.
public enum OutputSafety {
    /// The first of `inputs` that `output` would replace, or nil.
    public static func input(replacedBy output: String, inputs: [String]) -> String? {
        OutputGuard(inputs: inputs).input(replacedBy: output)
    }

    /// The path with symlinks resolved (as far as it exists) and `.`/`..` removed.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}

/// The inputs of a run, examined once, so that every output can be checked against all of
/// them with one `stat` (batch mode checks each of thousands of outputs against thousands
/// of reports: resolving every path component by component was most of its serial time).
public struct OutputGuard: Sendable {
    /// Regular input files by identity: an output replaces one exactly when it names the
    /// same file (through links, `..` or a hard link included).
    private let files: [FileIdentity: String]
    /// Inputs that are not regular files (folders such as dSYM bundles, paths that do not
    /// exist yet), by canonical path.
    private let others: [String: String]
    /// Input folders (dSYM bundles, `.xcarchive`s, folders of debug files) by canonical path:
    /// nothing below one may be written either (`-o App.dSYM/Contents/Info.plist`).
    private let folders: [(canonical: String, input: String)]

    public init(inputs: [String]) {
        var files: [FileIdentity: String] = [:]
        var others: [String: String] = [:]
        var folders: [(canonical: String, input: String)] = []
        for input in inputs {
            var info = stat()
            if stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                let identity = FileIdentity(info)
                if files[identity] == nil { files[identity] = input }
                // The DWARF file of a bundle found by search stands for its whole bundle.
                if let bundle = Self.enclosingBundle(input) {
                    folders.append((OutputSafety.canonical(bundle), bundle))
                }
            } else {
                let key = OutputSafety.canonical(input)
                if others[key] == nil { others[key] = input }
                if stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { folders.append((key, input)) }
            }
        }
        self.files = files
        self.others = others
        self.folders = folders
    }

    /// The input that writing `output` would replace, or nil. Special files (devices, FIFOs)
    /// are written in place, never replaced, so they cannot destroy an input.
    public func input(replacedBy output: String) -> String? {
        var target = stat()
        if stat(output, &target) == 0 {
            if target.st_mode & S_IFMT != S_IFREG { return nil }
            if let input = files[FileIdentity(target)] { return input }
        } else {
            // `dir/missing/../report.crash` names no file for the kernel, but is the report
            // once `..` is taken literally: said so rather than failing to write.
            if let literal = Self.withoutDotComponents(output), let identity = FileIdentity(path: literal), let input = files[identity] {
                return input
            }
        }
        guard !others.isEmpty || !folders.isEmpty else { return nil }
        let canonical = OutputSafety.canonical(output)
        if let input = others[canonical] { return input }
        return folders.first { canonical.hasPrefix($0.canonical.hasSuffix("/") ? $0.canonical : $0.canonical + "/") }?.input
    }

    /// The `.dSYM` bundle a file lies in (`A.dSYM/Contents/Resources/DWARF/A` → `A.dSYM`).
    static func enclosingBundle(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.dropLast().lastIndex(where: { $0.lowercased().hasSuffix(".dsym") }) else { return nil }
        return parts[...last].joined(separator: "/")
    }

    /// `path` with `.` and `..` components applied literally (no symlinks resolved), or nil
    /// when it has none.
    static func withoutDotComponents(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        var kept: [Substring] = []
        for part in parts {
            if part == "." { continue }
            if part == "..", let last = kept.last, !last.isEmpty, last != ".." {
                kept.removeLast()
                continue
            }
            kept.append(part)
        }
        return kept.joined(separator: "/")
    }
}
