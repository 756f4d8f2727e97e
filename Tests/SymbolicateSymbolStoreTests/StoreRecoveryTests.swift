import Foundation
import SymbolicateCore
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store after a crash (issue 54, findings 15 and 16): a damaged `index.sqlite` is found,
/// said by path and made again in a new file that replaces it (the damaged one kept aside), and
/// what a killed process left (temporary files, half-removed and empty entry folders) is swept,
/// never what a live write is making.
@Suite struct StoreRecoveryTests {
    static let crashAppDWARF = StoreKeepsWhatItHasTests.crashAppDWARF
    static let crashKitDWARF = TestPaths.dsyms + "/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit"

    /// A store folder with two entries, its index closed (checkpointed) when this returns.
    static func filledStore(_ label: String) throws -> URL {
        let folder = try TestPaths.temporaryDirectory(label)
        let store = try DebugFileStore(root: folder.path)
        try store.put(fileAt: crashAppDWARF, origin: "ci")
        try store.put(fileAt: crashKitDWARF, origin: "ci")
        return folder
    }

    static func damagedFiles(in folder: URL) throws -> [String] {
        // The damaged file itself (its write-ahead log, if any, is kept beside it as `…-wal`).
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("index.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
    }

    /// An hour and more ago: past the sweep's grace.
    static func age(_ path: String, seconds: Double = 2 * DebugFileStore.sweepGrace) {
        let then = Int(Date().timeIntervalSince1970 - seconds)
        let time = timeval(tv_sec: .init(then), tv_usec: 0)
        _ = [time, time].withUnsafeBufferPointer { utimes(path, $0.baseAddress) }
    }

    @Test(arguments: ["truncated", "overwritten page", "not a database"])
    func aDamagedIndexIsMadeAgainAndTheDamagedFileKeptAside(damage: String) throws {
        let folder = try Self.filledStore("store-damaged-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(DebugFileStore.indexName).path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count >= 3 * 4096, "the index has pages to damage: \(bytes.count) bytes")
        switch damage {
        case "truncated": bytes = bytes.prefix(bytes.count / 2 + 100)
        case "overwritten page":
            // The second page (the first of the tables'): noise over all of it.
            var generator = SystemRandomNumberGenerator()
            for offset in 4096..<8192 { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
        default: bytes.replaceSubrange(0..<100, with: Data(repeating: 0x41, count: 100))
        }
        try bytes.write(to: URL(fileURLWithPath: path))

        let store = try DebugFileStore(root: folder.path, checkIndex: true)
        let recovery = try #require(store.indexRecovery)
        #expect(recovery.hasPrefix(path + ": damaged"), "\(recovery)")
        #expect(store.indexProblem == nil)
        #expect(store.index != nil)
        // Both entries are indexed again, from the folders.
        #expect(store.figures().entries == 2)
        let id = try #require(StoreKeepsWhatItHasTests.crashAppUUID)
        #expect(store.info(for: id)?.origin == "ci")
        // The damaged file is kept as it was, aside.
        let aside = try Self.damagedFiles(in: folder)
        #expect(aside.count == 1, "\(aside)")
        #expect(recovery.contains(aside.first ?? "?"))
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside.first ?? "?")) == bytes)
        // And the store takes new files again.
        try store.put(fileAt: LinuxFixtures.debugFile, origin: "after")
        #expect(store.figures().entries > 2)
    }

    /// Without the whole-file check, a file that does not open as a database is still found.
    @Test func anIndexThatIsNoDatabaseIsFoundOnAnyOpen() throws {
        let folder = try Self.filledStore("store-garbage-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(DebugFileStore.indexName).path
        try Data(repeating: 0x5A, count: 64 * 1024).write(to: URL(fileURLWithPath: path))
        let store = try DebugFileStore(root: folder.path)
        #expect(store.indexRecovery?.hasPrefix(path) == true, "\(store.indexRecovery ?? "none")")
        #expect(store.figures().entries == 2)
    }

    @Test func aWholeIndexIsLeftAlone() throws {
        let folder = try Self.filledStore("store-whole-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DebugFileStore(root: folder.path, checkIndex: true)
        #expect(store.indexRecovery == nil)
        #expect(try Self.damagedFiles(in: folder).isEmpty)
    }

    @Test func aSweepRemovesWhatAKilledProcessLeftAndNothingLive() throws {
        let folder = try Self.filledStore("store-sweep")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DebugFileStore(root: folder.path)
        let id = try #require(StoreKeepsWhatItHasTests.crashAppUUID)
        let entry = store.folder(for: id)
        let manager = FileManager.default
        // Left by a killed process, an hour and more ago.
        let stale = [
            entry + "/.symbolicate-0badf00d.tmp", folder.path + "/.incoming/00000000deadbeef",
            folder.path + "/ab/cdef0123/.symbolicate-01234567.tmp",
        ]
        try manager.createDirectory(atPath: folder.path + "/.incoming", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder.path + "/ab/cdef0123", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder.path + "/.trash-0123456789abcdef/x", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder.path + "/cd/ef01", withIntermediateDirectories: true)
        for path in stale {
            try Data("half".utf8).write(to: URL(fileURLWithPath: path))
            Self.age(path)
        }
        for path in ["/ab/cdef0123", "/ab", "/.trash-0123456789abcdef", "/cd/ef01", "/cd"] { Self.age(folder.path + path) }
        // Being written now: a temporary file and a new entry folder.
        let live = [entry + "/.symbolicate-1feedbed.tmp", folder.path + "/ef/0123/.symbolicate-2feedbed.tmp"]
        try manager.createDirectory(atPath: folder.path + "/ef/0123", withIntermediateDirectories: true)
        for path in live { try Data("live".utf8).write(to: URL(fileURLWithPath: path)) }
        // Not ours: kept whatever its age.
        let foreign = folder.path + "/README"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: foreign))
        Self.age(foreign)

        let removed = Set(store.sweep())
        for path in stale { #expect(!manager.fileExists(atPath: path), "\(path)") }
        for path in ["/ab", "/.trash-0123456789abcdef", "/cd"] { #expect(!manager.fileExists(atPath: folder.path + path), "\(path)") }
        #expect(removed.contains(folder.path + "/cd/ef01"))
        for path in live + [foreign] { #expect(manager.fileExists(atPath: path), "\(path)") }
        // The entries are whole.
        #expect(store.lookup(id) != nil)
        #expect(store.figures().entries == 2)
    }

    /// A rebuild sweeps first: the empty folders a killed put left are not reported as entries.
    @Test func aRebuildSweepsFirst() throws {
        let folder = try Self.filledStore("store-sweep-rebuild")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: folder.path + "/cd/ef01", withIntermediateDirectories: true)
        Self.age(folder.path + "/cd/ef01")
        Self.age(folder.path + "/cd")
        let rebuilt = try DebugFileStore(root: folder.path).rebuildIndex()
        #expect(rebuilt.entries == 2)
        #expect(rebuilt.problems.isEmpty, "\(rebuilt.problems)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cd"))
    }
}
