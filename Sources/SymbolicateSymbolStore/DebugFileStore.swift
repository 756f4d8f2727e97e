import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateELF
import SymbolicateMachO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of debug files keyed by identity: one file per Mach-O UUID or ELF build ID, at
/// `<root>/<id2>/<idrest>/debug` (lowercase hex, as debuginfod and Sentry's layouts split
/// it), with its metadata in `info.json` next to it.
///
/// Used by the download cache (`SymbolicateSymbolSources`) and by `symbolicate serve --store`.
/// Several processes may share one folder: every file is written to a temporary file in its
/// own folder and renamed into place (`AtomicFileWriter`), the metadata last, so a reader sees
/// a whole entry or none; a removal renames the entry folder away before deleting it. Nothing
/// is locked: two processes storing the same identity store the same build.
package final class DebugFileStore: Sendable {
    /// The store's folder.
    package let root: String

    /// Opens (and creates, with its parents) the store at `root`.
    /// - Throws: when the folder cannot be created or is not a folder.
    package init(root: String) throws(DebugFileStoreError) {
        self.root = root
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DebugFileStoreError(path: root, message: "is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw DebugFileStoreError(path: root, message: "cannot create the folder: \(Self.reason(error))")
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
    /// - Parameters:
    ///   - path: the file or bundle to store; never modified.
    ///   - name: the image name to record when the file itself does not tell (an upload's
    ///     name); default: the debug file's own name.
    ///   - origin: where it came from, kept in the metadata (a URL, "upload").
    ///   - expected: the one identity wanted (a download for a report's image, an upload to
    ///     `/v1/debug-files/<id>`): only that build is stored, and a file without it is
    ///     refused with the identities it does hold.
    /// - Returns: what was stored, and what was passed over (files and zip entries that could
    ///   not be read, builds without an identity, a stored file with DWARF kept over one without).
    /// - Throws: when nothing in it has an identity, or a file cannot be written.
    @discardableResult
    package func put(
        fileAt path: String, name: String? = nil, origin: String? = nil, expected: DebugID? = nil
    ) throws(DebugFileStoreError) -> PutResult {
        let index: DebugFileIndex
        do { index = try DebugFileIndex(inputs: [path]) } catch {
            throw DebugFileStoreError(path: path, message: "not a debug file: \(error)")
        }
        var result = PutResult(stored: [], notes: index.problems.map(\.description))
        var entries = index.entries
        if let expected {
            entries = entries.filter { $0.debugID == expected }
            if entries.isEmpty, !index.entries.isEmpty {
                let held = Set(index.entries.map { "\($0.debugID) (\($0.architecture))" }).sorted().joined(separator: ", ")
                throw DebugFileStoreError(path: path, message: "identity mismatch: wanted \(expected), the file holds \(held)")
            }
        }
        for entry in entries {
            let fileName = (entry.path as NSString).lastPathComponent
            // A lone file's own name is our temporary name when it came as bytes.
            let imageName = DSYMBundle.holdsDWARFFile(entry.path) ? fileName : (name ?? fileName)
            guard let source = Self.source(of: entry) else {
                result.notes.append("\(entry.displayPath): cannot read the \(entry.architecture) build \(entry.debugID); skipped")
                continue
            }
            if !source.hasDWARF, let existing = info(for: entry.debugID), existing.hasDWARF {
                result.notes.append(
                    "\(entry.displayPath): \(entry.debugID) is already stored with DWARF; the file without DWARF was not stored")
                result.stored.append(existing)
                continue
            }
            let item = StoredDebugFile(
                debugID: entry.debugID, format: source.format, architecture: entry.architecture, name: imageName,
                size: UInt64(source.bytes.count), hasDWARF: source.hasDWARF, storedAt: Date(), origin: origin,
                path: dataPath(for: entry.debugID))
            try write(item, bytes: source.bytes)
            result.stored.append(item)
        }
        withExtendedLifetime(index) {}
        if result.stored.isEmpty {
            let why = result.notes.isEmpty ? "" : " (\(result.notes.joined(separator: "; ")))"
            throw DebugFileStoreError(path: path, message: "holds no debug file with a UUID or build ID\(why)")
        }
        return result
    }

    /// Stores bytes (an upload, a download): written to a temporary file in the store's
    /// folder first, then read as `put(fileAt:)` reads a file.
    @discardableResult
    package func put(
        bytes: Data, name: String? = nil, origin: String? = nil, expected: DebugID? = nil
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
        do { return try put(fileAt: temporary, name: name, origin: origin, expected: expected) } catch {
            throw DebugFileStoreError(path: name ?? "the bytes given", message: error.message)
        }
    }

    /// What a put stored and what it passed over.
    package struct PutResult: Sendable {
        package var stored: [StoredDebugFile]
        /// One line each, naming the file or zip entry.
        package var notes: [String]
    }

    /// The bytes of one build: a thin slice cut out of a universal file (slices are
    /// self-contained Mach-O files), or the whole file.
    private struct Source {
        var bytes: UnsafeRawBufferPointer
        var format: StoredDebugFile.Format
        var hasDWARF: Bool
        var keepAlive: AnyObject
    }

    private static func source(of entry: DebugFileEntry) -> Source? {
        if let slice = entry.object as? MachOSlice {
            guard let bytes = slice.mapping.bytes(at: slice.fileOffset, count: slice.size) else { return nil }
            let dwarf = slice.section(segment: "__DWARF", name: "__debug_info") != nil
            return Source(bytes: bytes, format: .machO, hasDWARF: dwarf, keepAlive: slice.mapping)
        }
        guard let mapping = try? MappedFile(path: entry.path), let bytes = mapping.bytes(at: 0, count: mapping.count) else { return nil }
        let sections = (try? ELFFile(path: entry.path))?.sections ?? []
        let dwarf = sections.contains { $0.name == ".debug_info" || $0.name == ".zdebug_info" }
        return Source(bytes: bytes, format: .elf, hasDWARF: dwarf, keepAlive: mapping)
    }

    /// Writes the data, then the metadata (the entry exists for readers once both are there).
    private func write(_ item: StoredDebugFile, bytes: UnsafeRawBufferPointer) throws(DebugFileStoreError) {
        let folder = folder(for: item.debugID)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw DebugFileStoreError(path: folder, message: "cannot create the folder: \(Self.reason(error))")
        }
        let info: Data
        do { info = try Self.encoder.encode(item) } catch {
            throw DebugFileStoreError(path: infoPath(for: item.debugID), message: "cannot encode: \(error)")
        }
        do {
            let data = try AtomicFileWriter(path: item.path)
            do {
                try data.write(bytes: bytes)
                try data.commit()
            } catch {
                data.discard()
                throw error
            }
            let writer = try AtomicFileWriter(path: infoPath(for: item.debugID))
            do {
                try writer.write(info)
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch {
            throw DebugFileStoreError(path: folder, message: "cannot store \(item.debugID): \(Self.reason(error))")
        }
    }

    // MARK: Reading

    /// The stored file for an identity, or nil; marks it used (for least-recently-used eviction).
    package func lookup(_ id: DebugID) -> StoredDebugFile? {
        guard let item = info(for: id) else { return nil }
        // The metadata's modification time is the entry's last use.
        _ = utimes(infoPath(for: id), nil)
        return item
    }

    /// The metadata of an identity without marking it used, or nil when it is not stored
    /// (or only half: data without metadata, which the next put or eviction replaces).
    package func info(for id: DebugID) -> StoredDebugFile? {
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
        entries().compactMap { entry in entry.id.flatMap { info(for: $0) } }.sorted {
            ($0.lastUsed ?? .distantPast) < ($1.lastUsed ?? .distantPast)
        }
    }

    /// Bytes held by the store's entries (debug files and metadata; half-written entries too).
    package func totalSize() -> UInt64 {
        entries().reduce(0) { $0 &+ $1.size }
    }

    // MARK: Removing

    /// Removes the entry of an identity. True when there was one to remove.
    @discardableResult
    package func remove(_ id: DebugID) -> Bool {
        removeFolder(folder(for: id))
    }

    /// Removes least-recently-used entries until the store holds at most `limit` bytes.
    /// Entries in `keeping` (the ones a run is using) are never removed.
    /// - Returns: what was removed, oldest use first.
    @discardableResult
    package func evict(toAtMost limit: UInt64, keeping: Set<DebugID> = []) -> [EvictedEntry] {
        var all = entries()
        var total = all.reduce(0) { $0 &+ $1.size }
        guard total > limit else { return [] }
        all.sort { $0.lastUsed < $1.lastUsed }
        var evicted: [EvictedEntry] = []
        for entry in all where total > limit {
            if let id = entry.id, keeping.contains(id) { continue }
            if removeFolder(entry.folder) {
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

    // MARK: Walking the folder

    private struct Entry {
        var folder: String
        var id: DebugID?
        var size: UInt64
        var lastUsed: Date
    }

    /// Every entry folder (`<xx>/<rest>`), from the file system alone.
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
        return (error as NSError).localizedDescription
    }
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
    /// When it was last looked up (the metadata file's modification time; not encoded).
    package var lastUsed: Date?

    enum CodingKeys: String, CodingKey {
        case debugID = "id", format, architecture, name, size, hasDWARF = "has_dwarf", storedAt = "stored_at", origin
    }

    package init(
        debugID: DebugID, format: Format, architecture: Architecture, name: String, size: UInt64, hasDWARF: Bool, storedAt: Date,
        origin: String?, path: String, lastUsed: Date? = nil
    ) {
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
    }
}

/// Why the store could not do something; names the path.
package struct DebugFileStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var message: String
    package var description: String { "\(path): \(message)" }
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
