import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateELF
import SymbolicateMachO
import SymbolicateStoreIndex

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of debug files keyed by identity: one file per Mach-O UUID or ELF build ID, at
/// `<root>/<id2>/<idrest>/debug` (lowercase hex, as debuginfod and Sentry's layouts split
/// it), with its metadata in `info.json` next to it, and an index of every entry in
/// `<root>/index.sqlite` (`SymbolicateStoreIndex`), so that lookups, listings, the store's
/// figures and eviction never walk the folders.
///
/// Used by the download cache (`SymbolicateSymbolSources`) and by `symbolicate serve --store`.
/// Several processes may share one folder: every file is written to a temporary file in its
/// own folder and renamed into place (`AtomicFileWriter`), the metadata last, inside the
/// index's transaction for that entry, so a reader sees a whole entry or none; a removal
/// renames the entry folder away before deleting it.
///
/// The store never loses what it has without being told: a file whose DWARF is cut short or
/// unreadable is refused, a different file under an identity already stored is refused with
/// both described unless the caller says `replace`, and every replacement is noted.
package final class DebugFileStore: Sendable {
    /// The store's folder.
    package let root: String
    /// The entries' index; nil when none can be opened (a read-only folder without one): the
    /// folders are then read directly, one walk per listing.
    package let index: (any StoreIndex)?
    /// Why there is no index, when there is none.
    package let indexProblem: String?
    /// The store's SQLite index was damaged and was made again from the folders at opening:
    /// what was wrong and where the damaged file was kept.
    package let indexRecovery: String?
    /// Called once an entry's folder exists, before its files are written; a throw fails the
    /// put there, as a full disk would (tests).
    private let beforeWriting: (@Sendable (_ folder: String) throws -> Void)?

    /// The index file's name in the store's folder.
    package static let indexName = "index.sqlite"

    /// Opens (and creates, with its parents) the store at `root`, with its index: `index` when
    /// given, else `<root>/index.sqlite` (made from the folders when it is new and the store is not).
    /// - Throws: when the folder cannot be created or is not a folder.
    /// `checkIndex`: read the whole SQLite index to find damage (a server's start, a rebuild);
    /// an index that cannot be opened as a database is found damaged in any case. A damaged
    /// index is made again from the folders in a new file that replaces it, the damaged one
    /// kept as `index.sqlite.damaged-<time>` (`indexRecovery` says so).
    package init(
        root: String, index: (any StoreIndex)? = nil, checkIndex: Bool = false,
        beforeWriting: (@Sendable (_ folder: String) throws -> Void)? = nil
    ) throws(DebugFileStoreError) {
        self.root = root
        self.beforeWriting = beforeWriting
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DebugFileStoreError(path: root, message: "is not a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw DebugFileStoreError(path: root, message: "cannot create the folder: \(Self.reason(error))")
            }
        }
        if let index {
            self.index = index
            indexProblem = nil
            indexRecovery = nil
            return
        }
        let path = root + "/" + Self.indexName
        let isNew = !FileManager.default.fileExists(atPath: path)
        var damage: String?
        var opened: SQLiteStoreIndex?
        do {
            let sqlite = try SQLiteStoreIndex(path: path)
            if checkIndex, let found = sqlite.damage() {
                sqlite.close()
                damage = found
            } else {
                opened = sqlite
            }
        } catch  where error.isDamage {
            damage = error.message
        } catch {
            self.index = nil
            indexProblem = error.description
            indexRecovery = nil
            return
        }
        if let damage {
            do {
                let recovered = try Self.replaceDamagedIndex(at: path, root: root)
                self.index = recovered.index
                indexProblem = nil
                indexRecovery =
                    "\(path): damaged (\(damage)); made again from the store's folders, the damaged file kept as \(recovered.aside)"
            } catch {
                self.index = nil
                indexProblem = "\(path): damaged (\(damage)) and cannot be made again: \(error.message)"
                indexRecovery = nil
            }
            return
        }
        self.index = opened
        indexProblem = nil
        indexRecovery = nil
        // A store kept before it had an index, or copied in by hand without one.
        if isNew, !entries().isEmpty { _ = try? rebuildIndex() }
    }

    /// Makes the index at `path` again from the store's folders in a new file, then puts that
    /// in its place in one rename; the damaged file (and its write-ahead log) is kept aside.
    /// - Returns: the new index and the damaged file's new name.
    private static func replaceDamagedIndex(at path: String, root: String) throws(DebugFileStoreError) -> (
        index: SQLiteStoreIndex, aside: String
    ) {
        let fresh = path + ".rebuilding-" + randomName()
        let cleanUp = {
            for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
        }
        do {
            let building = try SQLiteStoreIndex(path: fresh)
            _ = try DebugFileStore(root: root, index: building).rebuildIndex()
            building.close()
        } catch {
            cleanUp()
            throw DebugFileStoreError(path: path, message: "cannot make the index again: \(Self.reason(error))")
        }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        var aside = path + ".damaged-" + stamp
        if FileManager.default.fileExists(atPath: aside) { aside += "-" + randomName() }
        // The damaged file stays where it is until the new one replaces it (a hard link keeps
        // it aside); its log goes first, or SQLite would apply it to the new file.
        guard link(path, aside) == 0 || errno == ENOENT else {
            cleanUp()
            throw DebugFileStoreError(path: path, message: "cannot keep the damaged index aside: \(String(cString: strerror(errno)))")
        }
        for suffix in ["-wal", "-shm"] where rename(path + suffix, aside + suffix) != 0 { unlink(path + suffix) }
        guard rename(fresh, path) == 0 else {
            let why = String(cString: strerror(errno))
            cleanUp()
            throw DebugFileStoreError(path: path, message: "cannot put the new index in place: \(why)")
        }
        do { return (try SQLiteStoreIndex(path: path), aside) } catch {
            throw DebugFileStoreError(path: path, message: error.message)
        }
    }

    // MARK: Layout

    /// The folder of one identity: `<root>/<first two hex digits>/<the rest>`.
    package func folder(for id: DebugID) -> String {
        let hex = id.hexString
        let split = hex.index(hex.startIndex, offsetBy: min(2, hex.count))
        return "\(root)/\(hex[..<split])/\(hex[split...].isEmpty ? "_" : String(hex[split...]))"
    }

    /// The stored debug file of an identity (whether or not it exists).
    package func dataPath(for id: DebugID) -> String { folder(for: id) + "/" + Self.dataName }
    private func infoPath(for id: DebugID) -> String { folder(for: id) + "/" + Self.infoName }

    static let dataName = "debug"
    static let infoName = "info.json"

    // MARK: Storing

    /// Stores every build a file holds: each slice of a (universal) Mach-O on its own, an ELF
    /// file, the DWARF files of a `.dSYM` bundle, or of a zipped one (unpacked with the
    /// limits debug-file zips always have: `ZipExtractor`'s size, ratio and path checks).
    ///
    /// What is already stored is kept unless the new file is whole and the caller asked for
    /// it: a build whose DWARF is cut short or unreadable is not stored; the same bytes again
    /// change nothing; a build without DWARF never replaces one with DWARF; a different file
    /// under an identity already stored is refused (`conflicts`, nothing stored) unless
    /// `replace`; builds of one file that share an identity (slices of a universal file with
    /// one UUID) are not stored, since the store keeps one file per identity.
    /// - Parameters:
    ///   - path: the file or bundle to store; never modified.
    ///   - name: the image name to record when the file itself does not tell (an upload's
    ///     name); default: the debug file's own name.
    ///   - origin: where it came from, kept in the metadata (a URL, "upload").
    ///   - expected: the one identity wanted (a download for a report's image, an upload to
    ///     `/v1/debug-files/<id>`): only that build is stored, and a file without it is
    ///     refused with the identities it does hold.
    ///   - replace: a different file under an identity already stored replaces it (noted in
    ///     `replaced` and `notes`) instead of being refused.
    /// - Returns: what was stored (or was there already with the same bytes), what it
    ///   replaced, and what was passed over (files and zip entries that could not be read,
    ///   builds without an identity, damaged builds, a stored file with DWARF kept over one without).
    /// - Throws: when nothing in it can be stored, on a conflict, or when a file cannot be written.
    @discardableResult
    package func put(
        fileAt path: String, name: String? = nil, origin: String? = nil, expected: DebugID? = nil, replace: Bool = false
    ) throws(DebugFileStoreError) -> PutResult {
        let found: DebugFileIndex
        do { found = try DebugFileIndex(inputs: [path]) } catch {
            throw DebugFileStoreError(path: path, message: "not a debug file: \(error)")
        }
        defer { withExtendedLifetime(found) {} }
        var result = PutResult(stored: [], replaced: [], notes: found.problems.map(\.description))
        var entries = found.entries
        if let expected {
            entries = entries.filter { $0.debugID == expected }
            if entries.isEmpty, !found.entries.isEmpty {
                let held = Set(found.entries.map { "\($0.debugID) (\($0.architecture))" }).sorted().joined(separator: ", ")
                throw DebugFileStoreError(path: path, message: "identity mismatch: wanted \(expected), the file holds \(held)")
            }
        }
        // Each build read and checked before anything is written, so a refusal stores nothing.
        var incoming: [(item: StoredDebugFile, source: Source, displayPath: String)] = []
        for entry in entries {
            let fileName = (entry.path as NSString).lastPathComponent
            // A lone file's own name is our temporary name when it came as bytes.
            let imageName = DSYMBundle.holdsDWARFFile(entry.path) ? fileName : (name ?? fileName)
            guard let source = Self.source(of: entry) else {
                result.notes.append("\(entry.displayPath): cannot read the \(entry.architecture) build \(entry.debugID); skipped")
                continue
            }
            if case .damaged(let why) = source.completeness {
                result.notes.append("\(entry.displayPath): the \(entry.architecture) build \(entry.debugID) is damaged, not stored: \(why)")
                continue
            }
            let item = StoredDebugFile(
                debugID: entry.debugID, format: source.format, architecture: entry.architecture, name: imageName,
                size: UInt64(source.bytes.count), hasDWARF: source.completeness == .complete, storedAt: Date(), origin: origin,
                path: dataPath(for: entry.debugID), digest: SHA256.hex(of: source.bytes))
            incoming.append((item, source, entry.displayPath))
        }
        // One identity, several builds in what was given. A file with DWARF is kept over one
        // without (an ELF binary and the `.debug` file its debug link names); several different
        // ones with DWARF (slices of a universal file sharing a UUID): which one the store
        // should keep is not its guess.
        var byID: [DebugID: [Int]] = [:]
        for (position, candidate) in incoming.enumerated() { byID[candidate.item.debugID, default: []].append(position) }
        var skipped: Set<Int> = []
        for position in incoming.indices where !skipped.contains(position) {
            var same = byID[incoming[position].item.debugID] ?? [position]
            guard same.count > 1 else { continue }
            if let withDWARF = same.first(where: { incoming[$0].item.hasDWARF }) {
                for other in same where !incoming[other].item.hasDWARF && !skipped.contains(other) {
                    skipped.insert(other)
                    result.notes.append(
                        "\(incoming[other].displayPath): \(incoming[other].item.debugID) is already stored with DWARF "
                            + "(\(incoming[withDWARF].displayPath)); the file without DWARF was not stored")
                }
                same = same.filter { incoming[$0].item.hasDWARF }
                guard same.count > 1 else { continue }
            }
            let digests = Set(same.map { incoming[$0].item.digest })
            if digests.count == 1 {
                // The same bytes twice (a bundle and a zipped copy of it): stored once.
                skipped.formUnion(same.dropFirst())
                continue
            }
            skipped.formUnion(same)
            let builds = same.map { "\(incoming[$0].item.architecture) (\(incoming[$0].item.size) bytes)" }.joined(separator: ", ")
            result.notes.append(
                "\(incoming[position].displayPath): \(same.count) different builds share the identity \(incoming[position].item.debugID): "
                    + "\(builds); the store keeps one file per identity, so none was stored (store the one wanted alone, "
                    + "e.g. `lipo -thin ARCH`)")
        }
        var writes: [(item: StoredDebugFile, source: Source, replacing: StoredDebugFile?)] = []
        var conflicts: [StoreConflict] = []
        for (position, candidate) in incoming.enumerated() where !skipped.contains(position) {
            let item = candidate.item
            guard let existing = info(for: item.debugID) else {
                writes.append((item, candidate.source, nil))
                continue
            }
            if (existing.digest ?? Self.digest(ofFileAt: existing.path)) == item.digest {
                result.notes.append("\(candidate.displayPath): \(item.debugID) is already stored with the same bytes")
                result.stored.append(existing)
                continue
            }
            if !item.hasDWARF, existing.hasDWARF {
                result.notes.append(
                    "\(candidate.displayPath): \(item.debugID) is already stored with DWARF; the file without DWARF was not stored")
                result.stored.append(existing)
                continue
            }
            guard replace else {
                conflicts.append(StoreConflict(stored: existing, incoming: item))
                continue
            }
            writes.append((item, candidate.source, existing))
        }
        if !conflicts.isEmpty {
            let described = conflicts.map(\.description).joined(separator: "; ")
            throw DebugFileStoreError(
                path: path, message: "a different file is already stored under the same identity, nothing was stored: \(described)",
                conflicts: conflicts)
        }
        // Decided again as each is written, under the identity's lock in the index: another
        // upload of the same identity may have been stored since the check above.
        for write in writes {
            switch try self.write(write.item, bytes: write.source.bytes, replace: replace) {
            case .stored(let old):
                result.written.append(write.item.debugID)
                result.stored.append(write.item)
                if let old {
                    result.replaced.append(StoreReplacement(old: old, new: write.item))
                    result.notes.append("\(write.item.debugID) replaced: it was \(old.summary); it is now \(write.item.summary)")
                }
            case .sameBytes(let existing):
                result.notes.append("\(write.item.debugID) is already stored with the same bytes")
                result.stored.append(existing)
            case .keptDWARF(let existing):
                result.notes.append("\(write.item.debugID) is already stored with DWARF; the file without DWARF was not stored")
                result.stored.append(existing)
            case .conflict(let existing):
                conflicts.append(StoreConflict(stored: existing, incoming: write.item))
            }
        }
        if !conflicts.isEmpty {
            let described = conflicts.map(\.description).joined(separator: "; ")
            let stored =
                result.written.isEmpty
                ? "nothing was stored" : "only \(result.written.map(\.description).joined(separator: ", ")) was stored"
            throw DebugFileStoreError(
                path: path, message: "a different file is already stored under the same identity, \(stored): \(described)",
                conflicts: conflicts)
        }
        if result.stored.isEmpty {
            let why = result.notes.isEmpty ? "" : " (\(result.notes.joined(separator: "; ")))"
            throw DebugFileStoreError(path: path, message: "holds no debug file with a UUID or build ID that could be stored\(why)")
        }
        return result
    }

    /// Stores bytes (an upload, a download): written to a temporary file in the store's
    /// folder first, then read as `put(fileAt:)` reads a file.
    @discardableResult
    package func put(
        bytes: Data, name: String? = nil, origin: String? = nil, expected: DebugID? = nil, replace: Bool = false
    ) throws(DebugFileStoreError) -> PutResult {
        let incoming = root + "/.incoming"
        _ = mkdir(incoming, 0o777)
        let temporary = incoming + "/" + Self.randomName()
        do {
            let writer = try AtomicFileWriter(path: temporary)
            do {
                try writer.write(bytes)
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch {
            throw DebugFileStoreError(path: incoming, message: "cannot write: \(Self.reason(error))")
        }
        // Registered until removed, so a signal or `exit()` mid-store removes it too.
        TemporaryFiles.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
        }
        do { return try put(fileAt: temporary, name: name, origin: origin, expected: expected, replace: replace) } catch {
            var named = error
            named.path = name ?? "the bytes given"
            throw named
        }
    }

    /// What a put stored and what it passed over.
    package struct PutResult: Sendable {
        /// What the store holds for the file's builds now (new entries, or ones already there).
        package var stored: [StoredDebugFile]
        /// Entries replaced by this put (`replace`), with what they were.
        package var replaced: [StoreReplacement]
        /// Identities whose file this put wrote (empty: everything was there already).
        package var written: [DebugID] = []
        /// One line each, naming the file or zip entry.
        package var notes: [String]
    }

    /// The bytes of one build: a thin slice cut out of a universal file (slices are
    /// self-contained Mach-O files), or the whole file.
    private struct Source {
        var bytes: UnsafeRawBufferPointer
        var format: StoredDebugFile.Format
        var completeness: DWARFCompleteness.Verdict
        var keepAlive: [AnyObject]
    }

    private static func source(of entry: DebugFileEntry) -> Source? {
        if let slice = entry.object as? MachOSlice {
            guard let bytes = slice.mapping.bytes(at: slice.fileOffset, count: slice.size) else { return nil }
            return Source(bytes: bytes, format: .machO, completeness: DWARFCompleteness.of(slice), keepAlive: [slice.mapping])
        }
        guard let mapping = try? MappedFile(path: entry.path), let bytes = mapping.bytes(at: 0, count: mapping.count) else { return nil }
        let completeness: DWARFCompleteness.Verdict
        if let problem = DWARFCompleteness.elfSectionTableProblem(bytes) {
            return Source(bytes: bytes, format: .elf, completeness: .damaged(problem), keepAlive: [mapping])
        }
        do throws(ELFError) {
            completeness = DWARFCompleteness.of(try ELFFile(path: entry.path), fileSize: UInt64(mapping.count))
        } catch {
            completeness = .damaged(error.message)
        }
        return Source(bytes: bytes, format: .elf, completeness: completeness, keepAlive: [mapping])
    }

    /// What became of one build at its write, decided under the identity's lock.
    private enum Written {
        /// Stored, replacing the entry given (nil: there was none).
        case stored(replacing: StoredDebugFile?)
        /// The same bytes were there already.
        case sameBytes(StoredDebugFile)
        /// A file with DWARF was there and this one has none.
        case keptDWARF(StoredDebugFile)
        /// A different file was there and the put did not say `replace`.
        case conflict(StoredDebugFile)
    }

    /// Thrown inside the index's transaction to leave it (and the files) as they were.
    private struct NotWritten: Error {
        var outcome: Written
    }

    /// Writes the data, then the metadata, both renamed into place inside the index's
    /// transaction for the entry, once the entry there (read in that transaction, under the
    /// identity's lock) is known to allow it: none, or another file and `replace`. A failure
    /// leaves no folder it made behind.
    private func write(_ item: StoredDebugFile, bytes: UnsafeRawBufferPointer, replace: Bool) throws(DebugFileStoreError) -> Written {
        let folder = folder(for: item.debugID)
        let top = (folder as NSString).deletingLastPathComponent
        // Empty folders this put made go again when it fails (rmdir leaves anything with files).
        func removeEmptyFolders() {
            rmdir(folder)
            rmdir(top)
        }
        _ = mkdir(top, 0o777)
        _ = mkdir(folder, 0o777)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            removeEmptyFolders()
            throw DebugFileStoreError(path: folder, message: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        let info: Data
        do { info = try Self.encoder.encode(item) } catch {
            removeEmptyFolders()
            throw DebugFileStoreError(path: infoPath(for: item.debugID), message: "cannot encode: \(error)")
        }
        var writers: [AtomicFileWriter] = []
        do {
            try beforeWriting?(folder)
            let data = try AtomicFileWriter(path: item.path)
            writers.append(data)
            try data.write(bytes: bytes)
            let metadata = try AtomicFileWriter(path: infoPath(for: item.debugID))
            writers.append(metadata)
            try metadata.write(info)
            let record = Self.record(of: item, footprint: item.size + UInt64(info.count), lastUsed: item.storedAt)
            var replaced: StoredDebugFile?
            let commit = { (current: StoreIndexRecord?) throws in
                if let current, Self.regularFileSize(item.path) != nil {
                    let existing = Self.item(of: current, path: item.path)
                    if (existing.digest ?? Self.digest(ofFileAt: item.path)) == item.digest {
                        throw NotWritten(outcome: .sameBytes(existing))
                    }
                    if !item.hasDWARF, existing.hasDWARF { throw NotWritten(outcome: .keptDWARF(existing)) }
                    guard replace else { throw NotWritten(outcome: .conflict(existing)) }
                    replaced = existing
                }
                try data.commit()
                try metadata.commit()
            }
            if let index { try index.put(record, checking: commit) } else { try commit(nil) }
            return .stored(replacing: replaced)
        } catch let refused as NotWritten {
            for writer in writers { writer.discard() }
            removeEmptyFolders()
            return refused.outcome
        } catch {
            for writer in writers { writer.discard() }
            removeEmptyFolders()
            throw DebugFileStoreError(path: folder, message: "cannot store \(item.debugID): \(Self.reason(error))")
        }
    }

    // MARK: Reading

    /// The stored file for an identity, or nil; marks it used (for least-recently-used eviction).
    package func lookup(_ id: DebugID) -> StoredDebugFile? {
        guard let item = info(for: id) else { return nil }
        markUsed(id)
        return item
    }

    /// Records a use of an entry now, or at `date` (for least-recently-used eviction).
    package func markUsed(_ id: DebugID, at date: Date = Date()) {
        // The metadata's modification time too: a rebuilt index takes the last use from it.
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let time = timeval(tv_sec: .init(seconds), tv_usec: 0)
        _ = [time, time].withUnsafeBufferPointer { utimes(infoPath(for: id), $0.baseAddress) }
        try? index?.markUsed(id, at: date)
    }

    /// The metadata of an identity without marking it used, or nil when it is not stored
    /// (or only half: data without metadata, which the next put or eviction replaces).
    ///
    /// One index read and one `stat`; an entry the index does not have yet (written by a
    /// process that stopped before its index transaction, or copied in by hand) is read from
    /// its folder and added to the index.
    package func info(for id: DebugID) -> StoredDebugFile? {
        let data = dataPath(for: id)
        if let index, let record = try? index.record(for: id) {
            guard Self.regularFileSize(data) != nil else {
                // Removed behind the index's back.
                _ = try? index.remove(id, during: { false })
                return nil
            }
            return Self.item(of: record, path: data)
        }
        guard var item = folderInfo(for: id) else { return nil }
        if let index {
            if item.digest == nil { item.digest = Self.digest(ofFileAt: data) }
            let footprint = item.size + (Self.regularFileSize(infoPath(for: id)) ?? 0)
            try? index.put(Self.record(of: item, footprint: footprint, lastUsed: item.lastUsed ?? Date()), during: {})
        }
        return item
    }

    /// An entry's metadata from its folder alone.
    private func folderInfo(for id: DebugID) -> StoredDebugFile? {
        let data = dataPath(for: id)
        guard let size = Self.regularFileSize(data), let bytes = FileManager.default.contents(atPath: infoPath(for: id)),
            var item = try? Self.decoder.decode(StoredDebugFile.self, from: bytes), item.debugID == id
        else { return nil }
        item.path = data
        item.size = size
        item.lastUsed = Self.modificationDate(infoPath(for: id))
        return item
    }

    /// Every stored entry, oldest use first.
    package func items() -> [StoredDebugFile] {
        if let index, let records = try? index.records() {
            return records.map { Self.item(of: $0, path: dataPath(for: $0.id)) }
        }
        return entries().compactMap { entry in entry.id.flatMap { folderInfo(for: $0) } }.sorted {
            ($0.lastUsed ?? .distantPast) < ($1.lastUsed ?? .distantPast)
        }
    }

    /// Bytes held by the store's entries (debug files and metadata).
    package func totalSize() -> UInt64 {
        figures().bytes
    }

    /// Number of entries and the bytes they hold: from the index, without reading the entries.
    package func figures() -> (entries: Int, bytes: UInt64) {
        if let index, let figures = try? index.figures() { return figures }
        let all = entries()
        return (all.count, all.reduce(0) { $0 &+ $1.size })
    }

    /// Makes the index again from the folders (a store copied in by hand, an index lost):
    /// every entry with its metadata, its use from the metadata's modification time.
    /// - Returns: the number of entries indexed and a line for each folder that is no entry.
    @discardableResult
    package func rebuildIndex() throws(DebugFileStoreError) -> (entries: Int, problems: [String]) {
        guard let index else {
            throw DebugFileStoreError(path: root + "/" + Self.indexName, message: indexProblem ?? "no index")
        }
        var records: [StoreIndexRecord] = []
        var problems: [String] = []
        sweep()
        for entry in entries() {
            guard let id = entry.id, var item = folderInfo(for: id) else {
                problems.append("\(entry.folder): no debug file with its metadata; not indexed")
                continue
            }
            if item.digest == nil { item.digest = Self.digest(ofFileAt: item.path) }
            records.append(Self.record(of: item, footprint: entry.size, lastUsed: item.lastUsed ?? entry.lastUsed))
        }
        do { try index.replaceAll(with: records) } catch {
            throw DebugFileStoreError(path: index.location, message: error.message)
        }
        return (records.count, problems)
    }

    // MARK: Removing

    /// Removes the entry of an identity. True when there was one to remove.
    @discardableResult
    package func remove(_ id: DebugID) -> Bool {
        let folder = folder(for: id)
        guard let index else { return removeFolder(folder) }
        return (try? index.remove(id, during: { removeFolder(folder) })) ?? false
    }

    /// Removes least-recently-used entries until the store holds at most `limit` bytes.
    /// Entries in `keeping` (the ones a run is using) are never removed.
    /// - Returns: what was removed, oldest use first.
    @discardableResult
    package func evict(toAtMost limit: UInt64, keeping: Set<DebugID> = []) -> [EvictedEntry] {
        var all: [Entry]
        if let index, let records = try? index.records() {
            all = records.map { Entry(folder: folder(for: $0.id), id: $0.id, size: $0.footprint, lastUsed: $0.lastUsed) }
        } else {
            all = entries()
        }
        var total = all.reduce(0) { $0 &+ $1.size }
        guard total > limit else { return [] }
        all.sort { $0.lastUsed < $1.lastUsed }
        var evicted: [EvictedEntry] = []
        for entry in all where total > limit {
            if let id = entry.id, keeping.contains(id) { continue }
            let removed = entry.id.map { remove($0) } ?? removeFolder(entry.folder)
            if removed {
                total -= min(total, entry.size)
                evicted.append(EvictedEntry(debugID: entry.id, size: entry.size, lastUsed: entry.lastUsed))
            }
        }
        return evicted
    }

    /// One entry removed by `evict`.
    package struct EvictedEntry: Sendable, Equatable {
        package var debugID: DebugID?
        package var size: UInt64
        package var lastUsed: Date
    }

    /// Renames the folder out of the way (readers never see half of it), then deletes it.
    private func removeFolder(_ folder: String) -> Bool {
        let trash = root + "/.trash-" + Self.randomName()
        guard rename(folder, trash) == 0 else { return false }
        try? FileManager.default.removeItem(atPath: trash)
        return true
    }

    // MARK: Sweeping what a killed process left

    /// How old a leftover must be before it is swept: older than any write under way (a
    /// temporary file is written without a pause, an upload's body within the request's limits).
    package static let sweepGrace: TimeInterval = 3600

    /// Removes what a process killed mid-write left in the store (`kill -9`, a power cut): its
    /// temporary files (`.symbolicate-*.tmp` in entry folders, `.incoming/*`), half-removed
    /// entries (`.trash-*`) and entry folders left empty. Only names this code makes, and only
    /// those untouched for `grace` seconds, so another process's write under way is never
    /// touched. Walks the folders: done at a server's start (off its requests) and by a rebuild.
    /// - Returns: the paths removed.
    @discardableResult
    package func sweep(olderThan grace: TimeInterval = sweepGrace, now: Date = Date()) -> [String] {
        let manager = FileManager.default
        let cutoff = now.addingTimeInterval(-grace)
        func isStale(_ path: String) -> Bool { Self.modificationDate(path).map { $0 < cutoff } ?? false }
        var removed: [String] = []
        guard let tops = try? manager.contentsOfDirectory(atPath: root) else { return [] }
        for top in tops {
            let topPath = root + "/" + top
            if top.hasPrefix(".trash-"), isStale(topPath) {
                if (try? manager.removeItem(atPath: topPath)) != nil { removed.append(topPath) }
                continue
            }
            if top == ".incoming" {
                for name in (try? manager.contentsOfDirectory(atPath: topPath)) ?? [] where Self.isRandomName(name) {
                    let path = topPath + "/" + name
                    if isStale(path), unlink(path) == 0 { removed.append(path) }
                }
                continue
            }
            guard top.count == 2, top.allSatisfy(\.isHexDigit), let rests = try? manager.contentsOfDirectory(atPath: topPath) else {
                continue
            }
            // Ages taken before anything inside is removed (a removal makes a folder new).
            let topIsStale = isStale(topPath)
            for rest in rests where !rest.hasPrefix(".") {
                let folder = topPath + "/" + rest
                let folderIsStale = isStale(folder)
                guard let files = try? manager.contentsOfDirectory(atPath: folder) else { continue }
                for file in files where file.hasPrefix(".symbolicate-") && file.hasSuffix(".tmp") {
                    let path = folder + "/" + file
                    if isStale(path), unlink(path) == 0 { removed.append(path) }
                }
                // Empty now, and not just made by a put about to write into it.
                if folderIsStale, rmdir(folder) == 0 { removed.append(folder) }
            }
            if topIsStale, (try? manager.contentsOfDirectory(atPath: topPath))?.isEmpty == true, rmdir(topPath) == 0 {
                removed.append(topPath)
            }
        }
        return removed
    }

    /// Whether `name` is one `randomName()` makes (16 lowercase hex digits).
    static func isRandomName(_ name: String) -> Bool {
        name.utf8.count == 16 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    // MARK: Walking the folder

    private struct Entry {
        var folder: String
        var id: DebugID?
        var size: UInt64
        var lastUsed: Date
    }

    /// Every entry folder (`<xx>/<rest>`), from the file system alone: for a store without
    /// an index, and to make one.
    private func entries() -> [Entry] {
        let manager = FileManager.default
        guard let tops = try? manager.contentsOfDirectory(atPath: root) else { return [] }
        var out: [Entry] = []
        for top in tops where top.count == 2 && top.allSatisfy(\.isHexDigit) {
            let topPath = root + "/" + top
            guard let rests = try? manager.contentsOfDirectory(atPath: topPath) else { continue }
            for rest in rests where !rest.hasPrefix(".") {
                let folder = topPath + "/" + rest
                guard let files = try? manager.contentsOfDirectory(atPath: folder) else { continue }
                var size: UInt64 = 0
                var newest = Date.distantPast
                for file in files {
                    let path = folder + "/" + file
                    size &+= Self.regularFileSize(path) ?? 0
                    if let date = Self.modificationDate(path) { newest = max(newest, date) }
                }
                // The metadata's time is the last use; a half-written entry counts from its newest file.
                let lastUsed = Self.modificationDate(folder + "/" + Self.infoName) ?? newest
                out.append(Entry(folder: folder, id: DebugID(parsing: top + (rest == "_" ? "" : rest)), size: size, lastUsed: lastUsed))
            }
        }
        return out
    }

    // MARK: Helpers

    private static func record(of item: StoredDebugFile, footprint: UInt64, lastUsed: Date) -> StoreIndexRecord {
        StoreIndexRecord(
            id: item.debugID, format: item.format.rawValue, architecture: item.architecture.name, name: item.name, size: item.size,
            footprint: footprint, hasDWARF: item.hasDWARF, storedAt: item.storedAt, origin: item.origin, digest: item.digest ?? "",
            lastUsed: lastUsed)
    }

    private static func item(of record: StoreIndexRecord, path: String) -> StoredDebugFile {
        StoredDebugFile(
            debugID: record.id, format: StoredDebugFile.Format(rawValue: record.format) ?? .machO,
            architecture: Architecture(record.architecture), name: record.name, size: record.size, hasDWARF: record.hasDWARF,
            storedAt: record.storedAt, origin: record.origin, path: path, lastUsed: record.lastUsed,
            digest: record.digest.isEmpty ? nil : record.digest)
    }

    /// SHA-256 of a stored file, or nil when it cannot be read.
    static func digest(ofFileAt path: String) -> String? {
        guard let mapping = try? MappedFile(path: path), let bytes = mapping.bytes(at: 0, count: mapping.count) else { return nil }
        return withExtendedLifetime(mapping) { SHA256.hex(of: bytes) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func regularFileSize(_ path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(clamping: info.st_size)
    }

    static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static func randomName() -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - random.count) + random
    }

    static func reason(_ error: any Error) -> String {
        if let output = error as? OutputFileError { return output.reason }
        if let store = error as? DebugFileStoreError { return store.message }
        if let index = error as? StoreIndexError { return index.description }
        return (error as NSError).localizedDescription
    }
}

/// A different file offered under an identity already stored: both, to be shown side by side.
package struct StoreConflict: Sendable, Equatable, CustomStringConvertible {
    package var stored: StoredDebugFile
    package var incoming: StoredDebugFile
    package var description: String {
        "\(stored.debugID) is stored as \(stored.summary); this file is \(incoming.summary) (say replace to replace it)"
    }
}

/// An entry replaced by a put that asked for it.
package struct StoreReplacement: Sendable, Equatable {
    package var old: StoredDebugFile
    package var new: StoredDebugFile
}

/// What the store knows about one stored build.
package struct StoredDebugFile: Sendable, Equatable, Codable {
    package enum Format: String, Sendable, Codable {
        case machO = "mach-o"
        case elf
    }

    package var debugID: DebugID
    package var format: Format
    package var architecture: Architecture
    /// The image's file name (`App`, `libfoo.so`).
    package var name: String
    /// Bytes of the stored debug file.
    package var size: UInt64
    /// Whether it carries DWARF (a `.dSYM`'s file, an ELF debug file), not only symbols.
    package var hasDWARF: Bool
    package var storedAt: Date
    /// Where it came from (a URL, an upload), when known.
    package var origin: String?
    /// The stored file (not encoded: the folder decides it).
    package var path: String
    /// When it was last looked up (not encoded: the index keeps it).
    package var lastUsed: Date?
    /// SHA-256 of the stored file, lowercase hex (nil for an entry stored before digests were kept).
    package var digest: String?

    enum CodingKeys: String, CodingKey {
        case debugID = "id", format, architecture, name, size, hasDWARF = "has_dwarf", storedAt = "stored_at", origin, digest = "sha256"
    }

    package init(
        debugID: DebugID, format: Format, architecture: Architecture, name: String, size: UInt64, hasDWARF: Bool, storedAt: Date,
        origin: String?, path: String, lastUsed: Date? = nil, digest: String? = nil
    ) {
        self.digest = digest
        self.debugID = debugID
        self.format = format
        self.architecture = architecture
        self.name = name
        self.size = size
        self.hasDWARF = hasDWARF
        self.storedAt = storedAt
        self.origin = origin
        self.path = path
        self.lastUsed = lastUsed
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        debugID = try container.decode(DebugID.self, forKey: .debugID)
        format = try container.decode(Format.self, forKey: .format)
        architecture = try container.decode(Architecture.self, forKey: .architecture)
        name = try container.decode(String.self, forKey: .name)
        size = try container.decode(UInt64.self, forKey: .size)
        hasDWARF = try container.decode(Bool.self, forKey: .hasDWARF)
        storedAt = try container.decode(Date.self, forKey: .storedAt)
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
        digest = try container.decodeIfPresent(String.self, forKey: .digest)
        path = ""
        lastUsed = nil
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(debugID, forKey: .debugID)
        try container.encode(format, forKey: .format)
        try container.encode(architecture, forKey: .architecture)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(hasDWARF, forKey: .hasDWARF)
        try container.encode(storedAt, forKey: .storedAt)
        try container.encodeIfPresent(origin, forKey: .origin)
        try container.encodeIfPresent(digest, forKey: .digest)
    }

    /// One line for messages: name, architecture, size, digest, DWARF, when and where from.
    package var summary: String {
        let when = ISO8601DateFormatter().string(from: storedAt)
        var text = "\(name) \(architecture), \(size) bytes"
        if let digest { text += ", sha256 \(digest)" }
        text += hasDWARF ? ", with DWARF" : ", symbols only"
        text += ", stored \(when)"
        if let origin { text += " from \(origin)" }
        return text
    }
}

/// Why the store could not do something; names the path.
package struct DebugFileStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var message: String
    /// Set when the put was refused because different files are stored under its identities.
    package var conflicts: [StoreConflict]
    package var description: String { "\(path): \(message)" }
    package init(path: String, message: String, conflicts: [StoreConflict] = []) {
        self.path = path
        self.message = message
        self.conflicts = conflicts
    }
}
