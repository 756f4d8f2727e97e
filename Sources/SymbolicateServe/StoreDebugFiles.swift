import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateSymbolStore
import SymbolicateSymbolication

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's debug files a server has open: found by identity when a report names one
/// (never by walking the store), at most `capacity` of them open at once, the least recently
/// used closed first together with their sessions, so the number of mapped files stays
/// bounded however many entries the store holds.
///
/// An open file is checked against the store on each use (one `stat`): one replaced or
/// removed since, by this server or another sharing the store, is opened again or dropped.
final class StoreDebugFiles: @unchecked Sendable {
    let store: DebugFileStore
    /// Most identities open at once.
    let capacity: Int
    private let sessions: DebugSessionCache
    private let lock = NSLock()
    private var open: [DebugID: Open] = [:]
    private var clock: UInt64 = 0

    private struct Open {
        var entries: [DebugFileEntry]
        var file: FileSignature
        var used: UInt64
    }

    /// What tells one stored file from the next under the same path (a rename replaces it).
    struct FileSignature: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
        }
    }

    init(store: DebugFileStore, capacity: Int, sessions: DebugSessionCache) {
        self.store = store
        self.capacity = max(1, capacity)
        self.sessions = sessions
    }

    /// The builds stored under this identity, opened now unless they are open and unchanged.
    func entries(for id: DebugID) -> [DebugFileEntry] {
        let path = store.dataPath(for: id)
        let file = FileSignature(path)
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let cached = open[id] {
            if cached.file == file {
                open[id]?.used = clock
                return cached.entries
            }
            closeLocked(id)
        }
        // One `stat` answers for identities the store does not have (most of a report's images).
        guard let file, let stored = store.lookup(id) else { return [] }
        // Named for the answer by what the store knows, never by its path on the server.
        let shown = "\(stored.name) (\(id) in the store)"
        let objects = (try? DebugFileFormats.format(ofFileAt: path)?.objects(inFile: path)) ?? []
        let entries = objects.compactMap { object -> DebugFileEntry? in
            guard object.debugID == id else { return nil }
            return DebugFileEntry(path: path, displayPath: shown, architecture: object.architecture, debugID: id, object: object)
        }
        while open.count >= capacity, let oldest = open.min(by: { $0.value.used < $1.value.used })?.key {
            closeLocked(oldest)
        }
        open[id] = Open(entries: entries, file: file, used: clock)
        return entries
    }

    /// Closes every open file (after this server changed the store).
    func closeAll() {
        lock.lock()
        defer { lock.unlock() }
        for id in Array(open.keys) { closeLocked(id) }
    }

    /// Drops sessions of store files that are not open any more: a request that was using a
    /// file while another request closed it may have opened a session for it since.
    func forgetClosedSessions() {
        lock.lock()
        defer { lock.unlock() }
        let prefix = store.root + "/"
        let openPaths = Set(open.values.flatMap { $0.entries.map(\.path) })
        sessions.forget { $0.hasPrefix(prefix) && !openPaths.contains($0) }
    }

    /// Number of identities open now (for tests).
    var openCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return open.count
    }

    private func closeLocked(_ id: DebugID) {
        guard let closed = open.removeValue(forKey: id) else { return }
        let paths = Set(closed.entries.map(\.path))
        sessions.forget { paths.contains($0) }
    }
}
