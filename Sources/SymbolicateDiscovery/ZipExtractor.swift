import Foundation
import ZIPFoundation

/// Unpacks the debug files of a zip (App Store Connect's "Download dSYMs" archive, a zipped
/// `.xcarchive`, a zip of crash reports) into a private temporary folder.
///
/// Why unpack at all: the DWARF reader memory-maps files, and dSYMs inside a zip are usually
/// deflated. Only entries that pass `wanted` are written, entries whose path would escape the
/// folder (`../`, absolute paths) are rejected, and symlinks are never followed or created.
/// The folder is removed by `removeAll()` (and on deinit), so nothing is left behind.
public final class ZipExtractor: @unchecked Sendable {
    /// Root of the private folder that holds the unpacked entries.
    public let root: URL
    private let lock = NSLock()
    private var removed = false

    /// Upper bound of bytes unpacked per archive: `SYMBOLICATE_MAX_UNZIP_GIB` GiB, default 16
    /// (App Store Connect dSYM zips of large apps reach a few GiB).
    public let maximumUnpackedSize: UInt64

    public init(maximumUnpackedSize: UInt64? = nil) throws {
        let gib = ProcessInfo.processInfo.environment["SYMBOLICATE_MAX_UNZIP_GIB"].flatMap(UInt64.init) ?? 16
        self.maximumUnpackedSize = maximumUnpackedSize ?? gib << 30
        let base = FileManager.default.temporaryDirectory
        let dir = base.appendingPathComponent("symbolicate-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        root = dir
    }

    deinit { removeAll() }

    /// Removes the private folder and everything unpacked into it.
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(at: root)
    }

    /// Unpacks the entries of `zipPath` that `wanted` accepts into a fresh sub-folder and
    /// returns that folder.
    /// - Throws: `DiscoveryError.zip` naming the archive and the offending entry.
    public func extract(zipPath: String, wanted: (String) -> Bool) throws(DiscoveryError) -> URL {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read)
        } catch {
            throw .zip(path: zipPath, entry: nil, message: "not a readable zip archive (\(error))")
        }
        let destination = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        } catch {
            throw .io(path: destination.path, message: "cannot create temporary folder: \(error)")
        }
        var unpacked: UInt64 = 0
        for entry in archive where entry.type == .file {
            let name = entry.path
            guard let relative = Self.safeRelativePath(name) else {
                throw .zip(path: zipPath, entry: name, message: "entry escapes the archive folder; refusing to unpack it")
            }
            guard wanted(relative) else { continue }
            // A zip bomb must not fill the disk: the sizes the archive declares are checked
            // before anything is written (ZIPFoundation enforces them while inflating).
            unpacked += entry.uncompressedSize
            guard unpacked <= maximumUnpackedSize else {
                throw .zip(path: zipPath, entry: name,
                           message: "would unpack more than \(maximumUnpackedSize / (1 << 30)) GiB; refusing (set SYMBOLICATE_MAX_UNZIP_GIB to raise the limit)")
            }
            let target = destination.appendingPathComponent(relative)
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                _ = try archive.extract(entry, to: target, skipCRC32: false, allowUncontainedSymlinks: false)
            } catch {
                throw .zip(path: zipPath, entry: name, message: "cannot unpack entry: \(error)")
            }
        }
        return destination
    }

    /// `path` as a relative path that stays inside the destination, or nil when it would
    /// escape it (absolute, `..` components, NUL bytes).
    static func safeRelativePath(_ path: String) -> String? {
        let normalised = path.replacingOccurrences(of: "\\", with: "/")
        if normalised.hasPrefix("/") || normalised.contains("\0") { return nil }
        var parts: [Substring] = []
        for part in normalised.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
