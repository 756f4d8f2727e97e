import Foundation
import SymbolicateCore
import SymbolicateDiscovery
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The identity-keyed store over the committed fixtures: what goes in is checked with an
/// independent reader (llvm-dwarfdump's `--uuid`, readelf's build-ID note) where there is one.
@Suite struct DebugFileStoreTests {
    static let macApp = TestPaths.dsyms + "/MacApp.app.dSYM"
    static let crashApp = TestPaths.dsyms + "/CrashApp.app.dSYM"

    /// UUID → architecture of every slice, as llvm-dwarfdump prints them.
    static func dwarfdumpUUIDs(_ path: String) throws -> [String: String] {
        guard let tool = ExternalTool.uuidDumper else {
            Issue.record("llvm-dwarfdump-19 is needed (scripts/setup.sh installs it)")
            return [:]
        }
        var out: [String: String] = [:]
        for line in try ExternalTool.run(tool, ["--uuid", path]).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[0] == "UUID:" else { continue }
            out[String(parts[1])] = parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "()"))
        }
        return out
    }

    func withStore(_ body: (DebugFileStore, URL) throws -> Void) throws {
        let folder = try TestPaths.temporaryDirectory("store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
        try body(store, folder)
    }

    @Test func universalBundleIsStoredOneThinFilePerUUID() throws {
        try withStore { store, _ in
            let result = try store.put(fileAt: Self.macApp, origin: "test")
            let expected = try Self.dwarfdumpUUIDs(Self.macApp + "/Contents/Resources/DWARF/MacApp")
            #expect(expected.count == 2)
            #expect(Set(result.stored.map(\.debugID.description)) == Set(expected.keys))
            for item in result.stored {
                // The stored file is a thin Mach-O with that one UUID: checked by llvm-dwarfdump.
                #expect(try Self.dwarfdumpUUIDs(item.path) == [item.debugID.description: item.architecture.name])
                #expect(item.name == "MacApp")
                #expect(item.hasDWARF)
                #expect(item.format == .machO)
                let found = try #require(store.lookup(item.debugID))
                #expect(found.path == store.dataPath(for: item.debugID))
                #expect(found.size == item.size)
                #expect(found.origin == "test")
            }
            #expect(store.items().count == 2)
        }
    }

    @Test func layoutSplitsTheLowercaseHexAfterTwoDigits() throws {
        try withStore { store, _ in
            let id = try #require(DebugID(uuid: "4C4C44E9-5555-3144-A121-B971AA1071A6"))
            #expect(store.dataPath(for: id) == store.root + "/4c/4c44e955553144a121b971aa1071a6/debug")
        }
    }

    @Test func elfDebugFileByBuildIDAndTheStrippedBinaryDoesNotReplaceIt() throws {
        try withStore { store, _ in
            let stored = try store.put(fileAt: LinuxFixtures.debugFile).stored
            #expect(stored.count == 1)
            let item = try #require(stored.first)
            #expect(item.format == .elf)
            #expect(item.hasDWARF)
            // readelf's note is the independent reading of the identity.
            if let readelf = ExternalTool.readelf {
                let notes = try ExternalTool.run(readelf, ["-n", LinuxFixtures.debugFile])
                #expect(notes.contains("Build ID: \(item.debugID.hexString)"))
            } else {
                #if os(Linux)
                    Issue.record("readelf (binutils) reads the build ID independently")
                #else
                    print(
                        "DebugFileStoreTests: no readelf or llvm-readelf (not on a Mac by default): the build ID is not read independently")
                #endif
            }
            #expect(FileManager.default.contentsEqual(atPath: item.path, andPath: LinuxFixtures.debugFile))
            // The stripped binary has the same build ID but no DWARF: the debug file stays.
            let again = try store.put(fileAt: LinuxFixtures.binary)
            #expect(again.notes.contains { $0.contains("already stored with DWARF") })
            #expect(FileManager.default.contentsEqual(atPath: item.path, andPath: LinuxFixtures.debugFile))
        }
    }

    @Test func zippedBundleAsBytesIsUnpackedAndStored() throws {
        try withStore { store, folder in
            let zip = folder.appendingPathComponent("CrashApp.dSYM.zip")
            try FileManager.default.zipItem(at: URL(fileURLWithPath: Self.crashApp), to: zip)
            let result = try store.put(bytes: try Data(contentsOf: zip), name: "CrashApp.dSYM.zip", origin: "upload")
            let expected = try Self.dwarfdumpUUIDs(Self.crashApp + "/Contents/Resources/DWARF/CrashApp")
            #expect(Set(result.stored.map(\.debugID.description)) == Set(expected.keys))
            #expect(result.stored.allSatisfy { $0.name == "CrashApp" && $0.hasDWARF })
            // Nothing is left in the incoming folder or as a temporary file.
            let incoming = (try? FileManager.default.contentsOfDirectory(atPath: store.root + "/.incoming")) ?? []
            #expect(incoming.isEmpty)
            #expect(!TemporaryFiles.registered.contains { $0.hasPrefix(store.root) })
        }
    }

    @Test func zipEntryEscapingTheFolderIsANoteAndTheRestIsStored() throws {
        try withStore { store, _ in
            let dwarf = try Data(contentsOf: URL(fileURLWithPath: Self.crashApp + "/Contents/Resources/DWARF/CrashApp"))
            let zip = StoredZip([
                .init("../evil.dSYM/Contents/Resources/DWARF/evil", Data("x".utf8)),
                .init("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", dwarf),
            ]).bytes()
            let result = try store.put(bytes: zip, name: "mixed.zip")
            #expect(result.stored.count == 1)
            #expect(result.notes.contains { $0.contains("escapes") })
        }
    }

    @Test(arguments: [Data(), Data("not a debug file\n".utf8), Data([0xCF, 0xFA, 0xED, 0xFE, 0, 0])])
    func bytesWithoutAnIdentityAreRefusedByName(bytes: Data) throws {
        try withStore { store, _ in
            #expect {
                try store.put(bytes: bytes, name: "upload.bin")
            } throws: { error in
                (error as? DebugFileStoreError)?.path == "upload.bin"
            }
            #expect(store.items().isEmpty)
            #expect(store.totalSize() == 0)
        }
    }

    @Test func anExpectedIdentityStoresOnlyThatBuildAndRefusesAnotherLoudly() throws {
        try withStore { store, _ in
            let uuids = try Self.dwarfdumpUUIDs(Self.macApp + "/Contents/Resources/DWARF/MacApp")
            let arm = try #require(uuids.first { $0.value == "arm64" }.flatMap { DebugID(uuid: $0.key) })
            let stored = try store.put(fileAt: Self.macApp, expected: arm).stored
            #expect(stored.map(\.debugID) == [arm])
            #expect(store.items().map(\.debugID) == [arm])
            let crashApp = try Data(contentsOf: URL(fileURLWithPath: Self.crashApp + "/Contents/Resources/DWARF/CrashApp"))
            #expect {
                try store.put(bytes: crashApp, name: "from-server", expected: arm)
            } throws: { error in
                let message = (error as? DebugFileStoreError)?.description ?? ""
                return message.hasPrefix("from-server: identity mismatch: wanted \(arm), the file holds ") && message.contains("(arm64)")
            }
            #expect(store.items().map(\.debugID) == [arm])
        }
    }

    @Test func removeAndTotalSize() throws {
        try withStore { store, _ in
            let stored = try store.put(fileAt: Self.macApp).stored
            let dataBytes = stored.reduce(UInt64(0)) { $0 + $1.size }
            #expect(store.totalSize() > dataBytes)  // plus the metadata
            let first = try #require(stored.first)
            #expect(store.remove(first.debugID))
            #expect(!store.remove(first.debugID))
            #expect(store.lookup(first.debugID) == nil)
            #expect(store.items().map(\.debugID) == [stored[1].debugID])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.root).filter { $0.hasPrefix(".trash") }
            #expect(leftovers.isEmpty)
        }
    }

    /// Sets an entry's last use, as `lookup` would have at that time.
    static func setLastUse(_ store: DebugFileStore, _ id: DebugID, secondsAgo: Int) {
        store.markUsed(id, at: Date(timeIntervalSinceNow: -Double(secondsAgo)))
    }

    @Test func evictionRemovesTheLeastRecentlyUsedFirstAndKeepsWhatIsInUse() throws {
        try withStore { store, _ in
            let ids =
                try store.put(fileAt: Self.macApp).stored.map(\.debugID) + store.put(fileAt: Self.crashApp).stored.map(\.debugID)
                + store.put(fileAt: LinuxFixtures.debugFile).stored.map(\.debugID)
            #expect(ids.count == 4)
            for (age, id) in ids.enumerated() { Self.setLastUse(store, id, secondsAgo: 1000 - age * 100) }
            // A lookup makes the oldest the newest.
            _ = store.lookup(ids[0])
            let total = store.totalSize()
            #expect(store.evict(toAtMost: total).isEmpty)
            // The least recently used is ids[1], but it is in use: ids[2] goes, and only it.
            let size2 = try #require(store.info(for: ids[2])).size
            let evicted = store.evict(toAtMost: total - size2, keeping: [ids[1]])
            #expect(evicted.map(\.debugID) == [ids[2]])
            #expect(store.totalSize() <= total - size2)
            // Then the others, oldest use first, never the one in use.
            #expect(store.evict(toAtMost: 0, keeping: [ids[1]]).map(\.debugID) == [ids[3], ids[0]])
            #expect(store.items().map(\.debugID) == [ids[1]])
            store.evict(toAtMost: 0)
            #expect(store.items().isEmpty)
            #expect(store.totalSize() == 0)
        }
    }

    /// Writers racing on one identity and readers during the race: a reader sees a whole
    /// file or none, and no temporary file is left behind.
    @Test func concurrentWritersAndReadersOfOneIdentity() throws {
        try withStore { store, _ in
            let expected = try store.put(fileAt: Self.crashApp).stored
            let item = try #require(expected.first)
            store.remove(item.debugID)
            let failures = Collected()
            DispatchQueue.concurrentPerform(iterations: 16) { i in
                if i % 2 == 0 {
                    do { try store.put(fileAt: Self.crashApp) } catch { failures.append("put: \(error)") }
                } else {
                    for _ in 0..<50 {
                        guard let found = store.lookup(item.debugID) else { continue }
                        let size = DebugFileStoreTests.size(found.path)
                        if size != item.size { failures.append("read \(size) bytes of \(item.size)") }
                    }
                }
            }
            #expect(failures.all.isEmpty)
            let folder = (store.dataPath(for: item.debugID) as NSString).deletingLastPathComponent
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["debug", "info.json"])
            #expect(
                FileManager.default.contentsEqual(
                    atPath: store.dataPath(for: item.debugID), andPath: Self.crashApp + "/Contents/Resources/DWARF/CrashApp"))
        }
    }

    /// Two processes share one store: `symbolicate` is not needed, a second store object on
    /// the same folder sees the first one's entries.
    @Test func twoStoresOnOneFolderSeeEachOther() throws {
        try withStore { store, _ in
            let other = try DebugFileStore(root: store.root)
            let stored = try other.put(fileAt: LinuxFixtures.debugFile).stored
            #expect(store.lookup(stored[0].debugID)?.name == "crashy.debug")
        }
    }

    @Test func aFileWhereTheFolderShouldBeIsAnError() throws {
        let folder = try TestPaths.temporaryDirectory("store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect(throws: DebugFileStoreError.self) { try DebugFileStore(root: file) }
    }

    static func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }
}
