import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateDiscovery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A zip is read like a folder (issue 39, finding 1): dSYM bundles, bare DWARF files, Mach-O
/// binaries and an `.ipa`'s `Payload/App.app/App`; unpacked once into the cache and reused
/// (`ZipCache`); and every entry, folder and overlap counts against the bomb checks (issue 38,
/// finding 7).
@Suite struct ZipContentsTests {
    static let crashApp = DiscoveryTests.crashAppUUID
    static let crashKit = DiscoveryTests.crashKitUUID
    static let dwarf = "\(TestPaths.dsyms)/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp"

    /// A zip at `url` holding `files` (path in the archive → file on disk), deflated.
    static func zip(_ url: URL, _ files: [(String, String)]) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (name, file) in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            try DiscoveryTests.addEntry(archive, name, data, deflate: true)
        }
    }

    // MARK: What a zip holds

    @Test func bareDWARFFilesAndBinariesInAZipAreIndexed() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("symbols.zip")
        try Self.zip(url, [("CrashApp", Self.dwarf), ("bin/CrashKit", "\(TestPaths.binaries)/CrashKit")])
        let index = try DebugFileIndex(inputs: [url.path])
        #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashApp, Self.crashKit], "\(index.problems)")
        #expect(Set(index.entries.map(\.displayPath)) == [url.path + "!CrashApp", url.path + "!bin/CrashKit"])
    }

    /// An `.ipa`: `Payload/App.app/App` and its frameworks; the code signature and resources
    /// are never unpacked.
    @Test func anIPAPayloadIsIndexed() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("CrashApp.ipa")
        let info = root.appendingPathComponent("Info.plist")
        try Data("<plist/>".utf8).write(to: info)
        try Self.zip(
            url,
            [
                ("Payload/CrashApp.app/CrashApp", "\(TestPaths.binaries)/CrashApp"),
                ("Payload/CrashApp.app/Frameworks/CrashKit.framework/CrashKit", "\(TestPaths.binaries)/CrashKit"),
                ("Payload/CrashApp.app/Info.plist", info.path),
                ("Payload/CrashApp.app/_CodeSignature/CodeResources", info.path),
            ])
        let cache = ZipCache(cacheFolder: root.appendingPathComponent("cache").path, environment: [:])
        let index = try DebugFileIndex(inputs: [url.path], zipCache: cache)
        #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashApp, Self.crashKit], "\(index.problems)")
        let unpacked = try FileManager.default.subpathsOfDirectory(atPath: cache.folder).filter { !$0.hasSuffix("info.json") }
        #expect(!unpacked.contains { $0.hasSuffix("Info.plist") || $0.contains("_CodeSignature") }, "\(unpacked)")
    }

    // MARK: The cache

    @Test func aZipIsUnpackedOnceAndReused() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("CrashApp.dSYM.zip")
        try Self.zip(url, [("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", Self.dwarf)])
        let cache = ZipCache(cacheFolder: root.appendingPathComponent("cache").path, environment: [:])
        let first = try DebugFileIndex(inputs: [url.path], zipCache: cache)
        #expect(first.reusedZips == 0)
        let second = try DebugFileIndex(inputs: [url.path], zipCache: cache)
        #expect(second.reusedZips == 1)
        #expect(second.entries.map(\.path) == first.entries.map(\.path))
        #expect(second.entries.first?.path.hasPrefix(cache.folder + "/") == true)
        #expect(second.entries.map(\.displayPath) == [url.path + "!CrashApp.app.dSYM"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { !$0.hasPrefix(".") }.count == 1)
        // The folder outlives the index (it is the cache's, not the run's).
        #expect(FileManager.default.fileExists(atPath: try #require(first.entries.first?.path)))
    }

    /// Same size and modification time, other contents: another key, never the other's files.
    @Test func anotherZipOfTheSameSizeAndTimeIsUnpackedAgain() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("symbols.zip")
        let cache = ZipCache(cacheFolder: root.appendingPathComponent("cache").path, environment: [:])
        var ids: [DebugID?] = []
        var sizes: Set<UInt64> = []
        for (name, file) in [("X", Self.dwarf), ("Y", "\(TestPaths.binaries)/CrashKit")] {
            try? FileManager.default.removeItem(at: url)
            // The same stored size for both: each entry padded to 600 KiB in the archive.
            var data = try Data(contentsOf: URL(fileURLWithPath: file))
            data.append(Data(count: 600 << 10 - data.count))
            let archive = try Archive(url: url, accessMode: .create)
            try DiscoveryTests.addEntry(archive, name, data)
            var times = [timeval(tv_sec: 1_700_000_000, tv_usec: 0), timeval(tv_sec: 1_700_000_000, tv_usec: 0)]
            #expect(utimes(url.path, &times) == 0)
            sizes.insert(try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value))
            let index = try DebugFileIndex(inputs: [url.path], zipCache: cache)
            #expect(index.reusedZips == 0)
            ids += index.entries.map { Optional($0.debugID) }
        }
        #expect(sizes.count == 1)
        #expect(ids == [Self.crashApp, Self.crashKit])
    }

    /// An unpacking cut short by this run's limit is used for the run but never kept.
    @Test func anUnpackingCutByTheRunLimitIsNotKept() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("CrashApp.dSYM.zip")
        try Self.zip(url, [("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", Self.dwarf)])
        let cache = ZipCache(cacheFolder: root.appendingPathComponent("cache").path, environment: [:])
        let extractor = try ZipExtractor(maximumUnpackedSize: 4096)
        defer { extractor.removeAll() }
        let unpacked = try #require(try cache.unpack(zipPath: url.path, displayPath: url.path, extractor: extractor) { _ in true })
        #expect(!unpacked.skipped.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheBound() throws {
        let root = try TestPaths.temporaryDirectory("zip-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        // 1 MiB: one unpacked 700 KB file fits, two do not.
        let cache = ZipCache(cacheFolder: root.appendingPathComponent("cache").path, environment: ["SYMBOLICATE_UNZIP_CACHE_MAX_MIB": "1"])
        var keys: [String] = []
        for name in ["a", "b"] {
            let url = root.appendingPathComponent("\(name).zip")
            let archive = try Archive(url: url, accessMode: .create)
            try DiscoveryTests.addEntry(archive, "\(name)/App", Data(repeating: 7, count: 700_000), deflate: true)
            keys.append(try #require(cache.key(ofZipAt: url.path)))
            _ = try DebugFileIndex(inputs: [url.path], zipCache: cache)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { !$0.hasPrefix(".") }
        #expect(kept == [keys[1]])
    }

    // MARK: Bombs (issue 38, finding 7)

    /// Entries each under a per-entry threshold used to pass one by one (40 × 63 MiB from
    /// 2.5 MB); the ratio is the archive's now. Scaled down: a 1 MiB grace, 40 entries of 1 MB.
    @Test func manyEntriesUnderTheGraceAreOneBomb() throws {
        let root = try TestPaths.temporaryDirectory("zip-bomb")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("many.zip")
        let archive = try Archive(url: url, accessMode: .create)
        for n in 0..<40 { try DiscoveryTests.addEntry(archive, "e\(n).crash", Data(repeating: 0, count: 1_000_000), deflate: true) }
        let extractor = try ZipExtractor(ratioGrace: 1 << 20)
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: url.path) { _ in true }
        let written = try FileManager.default.contentsOfDirectory(atPath: result.folder.path)
        #expect(written.count <= 1, "\(written.count) entries unpacked")
        #expect(result.skipped.contains { $0.description.contains("zip bomb") }, "\(result.skipped)")
        #expect(result.unpackedBytes <= 2 << 20)
    }

    /// Folders cost like files: 2,000 empty entries, each in eight fresh folders, used to make
    /// 16,000 folders from a 300 KB zip.
    @Test func foldersCountAgainstTheRatio() throws {
        let root = try TestPaths.temporaryDirectory("zip-bomb")
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = (0..<2_000).map { StoredZip.Entry("d\($0)/a/b/c/d/e/f/g/x", Data()) }
        let url = root.appendingPathComponent("folders.zip")
        try StoredZip(entries).bytes().write(to: url)
        let extractor = try ZipExtractor(ratioGrace: 64 << 10)
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: url.path) { _ in true }
        let made = try FileManager.default.subpathsOfDirectory(atPath: result.folder.path).count
        #expect(made < 100, "\(made) files and folders made")
        #expect(result.skipped.contains { $0.description.contains("zip bomb") }, "\(result.skipped)")
    }

    /// Many central-directory records pointing at one entry's data (the overlapping-files
    /// bomb): every one is skipped, in one message, and nothing is inflated.
    @Test func overlappingEntriesAreSkipped() throws {
        let root = try TestPaths.temporaryDirectory("zip-bomb")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("overlap.zip")
        try Self.overlappingZip(names: (0..<500).map { "k\($0).crash" }, data: Data(repeating: 0x41, count: 10_000)).write(to: url)
        let extractor = try ZipExtractor()
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: url.path) { _ in true }
        #expect(try FileManager.default.contentsOfDirectory(atPath: result.folder.path).isEmpty)
        #expect(result.skipped.count == 1, "\(result.skipped.count) messages")
        #expect(result.skipped.first?.description.contains("overlaps") == true)
        #expect(result.skipped.first?.description.contains("499 more entries") == true)
        // A plain archive has no overlap (an empty entry included).
        #expect(ZipExtractor.overlappingEntries(try Self.records(of: StoredZip([.init("a", Data("x".utf8)), .init("b", Data())]))).isEmpty)
    }

    static func records(of zip: StoredZip) throws -> [ZipDirectory.Record] {
        let root = try TestPaths.temporaryDirectory("zip-bomb")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("plain.zip")
        try zip.bytes().write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try ZipDirectory(file: handle).records
    }

    /// One stored entry, and a central directory in which every name points at it.
    static func overlappingZip(names: [String], data: Data) -> Data {
        let first = StoredZip([.init(names[0], data)]).bytes()
        // The local header and data of the single entry end where its central record starts.
        let localEnd = 30 + names[0].utf8.count + data.count
        var out = Data(first.prefix(localEnd))
        let crc = StoredZip.crc32(data)
        var directory = Data()
        for name in names {
            let bytes = Data(name.utf8)
            for value in [UInt32(0x0201_4B50)] { StoredZip.put(&directory, value) }
            for value: UInt16 in [20, 20, 0, 0] { StoredZip.put(&directory, value) }
            StoredZip.put(&directory, UInt32(0))
            StoredZip.put(&directory, crc)
            StoredZip.put(&directory, UInt32(data.count))
            StoredZip.put(&directory, UInt32(data.count))
            for value: UInt16 in [UInt16(bytes.count), 0, 0, 0, 0] { StoredZip.put(&directory, value) }
            StoredZip.put(&directory, UInt32(0))
            StoredZip.put(&directory, UInt32(0))  // every record: the one local header at 0
            directory.append(bytes)
        }
        let directoryOffset = UInt32(out.count)
        out.append(directory)
        StoredZip.put(&out, UInt32(0x0605_4B50))
        for value: UInt16 in [0, 0, UInt16(names.count), UInt16(names.count)] { StoredZip.put(&out, value) }
        StoredZip.put(&out, UInt32(directory.count))
        StoredZip.put(&out, directoryOffset)
        StoredZip.put(&out, UInt16(0))
        return out
    }
}
