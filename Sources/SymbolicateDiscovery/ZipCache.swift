import Foundation
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debug-file zips unpacked once and kept: `<cache>/unzipped/<key>/contents/` with
/// `info.json` beside it (what was skipped, how much was unpacked). A 300 MB dSYM zip cost
/// 1.7 s on every run and on every implicit search of a folder that holds it; reused, it costs
/// a read of its central directory.
///
/// The key is the zip's size, its modification time and a SHA-256 of its central directory
/// (every entry's name, sizes, offsets and CRC-32), so a zip rewritten in place, or another zip
/// of the same size and time, gets its own folder. Entries are unpacked with the same
/// `ZipExtractor` (limits, ratio, paths) into a temporary folder inside the cache, then renamed
/// into place: several processes can share the cache, and an interrupted unpack leaves no
/// half folder under a key. An extraction cut short by a limit of this run is used for the run
/// and never kept. Least recently used folders go first once the cache passes its size bound
/// (`SYMBOLICATE_UNZIP_CACHE_MAX_MIB`, default 10 GiB).
package struct ZipCache: Sendable {
    /// The folder holding the unpacked zips (`<cache>/unzipped`).
    package let folder: String
    /// Bytes kept at most (files plus `ZipExtractor.inodeCost` per file and folder).
    package let sizeLimit: UInt64

    /// What changes the key beyond the zip: the rules of what is unpacked.
    static let version = "debug-files-1"

    /// The unzip cache inside the cache folder `cacheFolder` (the download cache's: `--cache-dir`,
    /// else UserCacheFolder).
    package init(cacheFolder: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        folder = (cacheFolder as NSString).appendingPathComponent("unzipped")
        let mebibytes = environment["SYMBOLICATE_UNZIP_CACHE_MAX_MIB"].flatMap(UInt64.init) ?? 10_240
        sizeLimit = mebibytes >= 1 << 40 ? UInt64.max : mebibytes << 20
    }

    /// The cache folder a run uses without `--cache-dir` (UserCacheFolder), or none.
    package static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        UserCacheFolder.path(environment: environment)
    }

    /// What `info.json` keeps of an unpacking.
    struct Info: Codable {
        var zip: String
        var bytes: UInt64
        var skipped: [Skipped]
        struct Skipped: Codable {
            var entry: String?
            var message: String
        }
    }

    /// A zip's unpacked folder.
    package struct Unpacked {
        /// The entries, as laid out in the archive.
        package var folder: URL
        /// Entries not unpacked, naming the zip as the caller shows it.
        package var skipped: [DiscoveryError]
        /// Whether the folder was already there (nothing was inflated in this run).
        package var reused: Bool
        /// The budget zips found inside are unpacked under (`ZipExtractor.extract(nestedIn:)`).
        package var budget: ZipExtractor.ArchiveBudget
    }

    /// The key of the zip at `path`, or nil when it cannot be read as a zip (the extractor then
    /// says why).
    func key(ofZipAt path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.uint64Value,
            let modified = attributes[.modificationDate] as? Date,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        guard let directory = try? ZipDirectory(file: handle) else { return nil }
        let microseconds = Int64((modified.timeIntervalSince1970 * 1_000_000).rounded())
        let prefix = Array("\(Self.version) \(size) \(microseconds)\n".utf8)
        return String(SHA256.hex(prefix + directory.centralDirectory).prefix(40))
    }

    /// The unpacked folder of the zip at `path`: the cached one, or a fresh unpacking kept for
    /// later runs. Nil when the cache cannot be used (no folder, not writable): the caller
    /// unpacks into its private temporary folder instead.
    /// - Parameters:
    ///   - path: the zip.
    ///   - displayPath: how messages name it.
    ///   - extractor: the run's extractor (its limits and its per-run total).
    ///   - wanted: the entries to unpack (by safe relative path).
    /// - Returns: the folder, the skipped entries, and whether it was reused.
    /// - Throws: `DiscoveryError.zip` when the file is not a readable zip.
    package func unpack(
        zipPath path: String, displayPath: String, extractor: ZipExtractor, wanted: (String) -> Bool
    ) throws(DiscoveryError) -> Unpacked? {
        let zipSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        guard let key = key(ofZipAt: path) else { return nil }
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            access(folder, W_OK) == 0
        else { return nil }
        let entry = (folder as NSString).appendingPathComponent(key)
        if let unpacked = reuse(entry, displayPath: displayPath, extractor: extractor, zipSize: zipSize) { return unpacked }

        let temporary = (folder as NSString).appendingPathComponent(".unpacking-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        let contents = URL(fileURLWithPath: temporary).appendingPathComponent("contents", isDirectory: true)
        guard TemporaryFiles.create(temporary, { mkdir(temporary, 0o700) == 0 }),
            TemporaryFiles.createInside({ mkdir(contents.path, 0o700) == 0 })
        else { return nil }
        let extraction: ZipExtractor.Extraction
        do {
            extraction = try extractor.extract(zipPath: path, displayPath: displayPath, wanted: wanted, into: contents)
        } catch {
            discard(temporary)
            throw error
        }
        // Cut short by this run's limits: used now, never kept (it stays registered and goes at exit).
        guard !extraction.reachedRunLimit else {
            return Unpacked(folder: extraction.folder, skipped: extraction.skipped, reused: false, budget: extraction.budget)
        }
        let info = Info(
            zip: displayPath, bytes: extraction.unpackedBytes,
            skipped: extraction.skipped.map { error in
                if case .zip(_, let entry, let message) = error { return Info.Skipped(entry: entry, message: message) }
                return Info.Skipped(entry: nil, message: error.description)
            })
        let infoPath = (temporary as NSString).appendingPathComponent("info.json")
        guard let data = try? JSONEncoder().encode(info),
            TemporaryFiles.createInside({ FileManager.default.createFile(atPath: infoPath, contents: data) })
        else { return Unpacked(folder: extraction.folder, skipped: extraction.skipped, reused: false, budget: extraction.budget) }
        if TemporaryFiles.settle(temporary, { rename(temporary, entry) == 0 }) {
            evict(keeping: key)
            return Unpacked(
                folder: URL(fileURLWithPath: entry).appendingPathComponent("contents", isDirectory: true), skipped: extraction.skipped,
                reused: false, budget: extraction.budget)
        }
        // Another process kept the same zip meanwhile: use theirs.
        if let theirs = reuse(entry, displayPath: displayPath, extractor: extractor, zipSize: zipSize) {
            discard(temporary)
            return theirs
        }
        return Unpacked(folder: extraction.folder, skipped: extraction.skipped, reused: false, budget: extraction.budget)
    }

    /// The kept folder under `entry`, marked as used now, or nil.
    private func reuse(_ entry: String, displayPath: String, extractor: ZipExtractor, zipSize: UInt64) -> Unpacked? {
        let infoPath = (entry as NSString).appendingPathComponent("info.json")
        guard let data = FileManager.default.contents(atPath: infoPath), let info = try? JSONDecoder().decode(Info.self, from: data)
        else { return nil }
        // Least recently used goes first: the info file's time is the last use.
        _ = utimes(infoPath, nil)
        return Unpacked(
            folder: URL(fileURLWithPath: entry).appendingPathComponent("contents", isDirectory: true),
            skipped: info.skipped.map { .zip(path: displayPath, entry: $0.entry, message: $0.message) }, reused: true,
            // What the first unpacking charged, against the whole zip: zips inside go on from there.
            budget: ZipExtractor.ArchiveBudget(grace: extractor.ratioGrace, archiveBytes: zipSize, charged: info.bytes))
    }

    /// Removes a temporary folder of this process and forgets it.
    private func discard(_ temporary: String) {
        TemporaryFiles.settle(temporary) {
            (try? FileManager.default.removeItem(atPath: temporary)) != nil || !FileManager.default.fileExists(atPath: temporary)
        }
    }

    /// Removes the least recently used folders until the cache is within `sizeLimit` (never
    /// `keeping`), and leftovers of processes that died mid-unpack (a day old).
    func evict(keeping: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var kept: [(name: String, used: Date, bytes: UInt64)] = []
        let dayAgo = Date().addingTimeInterval(-86_400)
        for name in names {
            let path = (folder as NSString).appendingPathComponent(name)
            if name.hasPrefix(".") {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
                if name.hasPrefix(".unpacking-") || name.hasPrefix(".evicted-"), let modified, modified < dayAgo {
                    try? FileManager.default.removeItem(atPath: path)
                }
                continue
            }
            let infoPath = (path as NSString).appendingPathComponent("info.json")
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: infoPath),
                let used = attributes[.modificationDate] as? Date,
                let data = FileManager.default.contents(atPath: infoPath),
                let info = try? JSONDecoder().decode(Info.self, from: data)
            else { continue }
            kept.append((name, used, info.bytes))
        }
        var total: UInt64 = kept.first { $0.name == keeping }?.bytes ?? 0
        for item in kept.sorted(by: { $0.used > $1.used }) where item.name != keeping {
            total = total.addingReportingOverflow(item.bytes).partialValue
            guard total > sizeLimit else { continue }
            // Renamed away first, so no other process finds a folder half removed.
            let path = (folder as NSString).appendingPathComponent(item.name)
            let away = (folder as NSString).appendingPathComponent(".evicted-\(UUID().uuidString.prefix(8).lowercased())")
            if rename(path, away) == 0 { try? FileManager.default.removeItem(atPath: away) }
        }
    }
}
