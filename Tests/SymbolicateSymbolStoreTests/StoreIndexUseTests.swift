import Foundation
import SymbolicateCore
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// The store through its index (issue 38, findings 2 and 3): listings and figures come from
/// `index.sqlite`, a store copied by hand is indexed when opened or rebuilt, and an entry the
/// index does not have yet is found by its identity all the same.
@Suite struct StoreIndexUseTests {
    func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = try TestPaths.temporaryDirectory("store-index-use")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func theIndexIsKeptWithTheFilesAndAgreesWithThem() throws {
        try withFolder { folder in
            let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
            #expect(store.index != nil)
            #expect(FileManager.default.fileExists(atPath: store.root + "/" + DebugFileStore.indexName))
            let stored = try store.put(fileAt: DebugFileStoreTests.macApp).stored
            #expect(store.figures().entries == 2)
            #expect(Set(store.items().map(\.debugID)) == Set(stored.map(\.debugID)))
            let footprint = try stored.reduce(UInt64(0)) { total, item in
                let info = (item.path as NSString).deletingLastPathComponent + "/info.json"
                return total + item.size
                    + (try #require(FileManager.default.attributesOfItem(atPath: info)[.size] as? NSNumber)).uint64Value
            }
            #expect(store.totalSize() == footprint)
            // Each entry's metadata carries the digest of its file.
            for item in stored {
                let json = try String(contentsOfFile: (item.path as NSString).deletingLastPathComponent + "/info.json", encoding: .utf8)
                #expect(json.contains("\"sha256\" : \"\(try #require(item.digest))\""))
            }
        }
    }

    /// The digest is SHA-256, as `sha256sum` (or macOS's `shasum -a 256`) computes it.
    @Test func theDigestIsSHA256() throws {
        try withFolder { folder in
            let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
            let item = try #require(try store.put(fileAt: LinuxFixtures.debugFile).stored.first)
            let sum = try #require(
                try PortableTools.sha256(ofFile: LinuxFixtures.debugFile), "no SHA-256 tool (GNU coreutils or Perl shasum) is installed")
            #expect(sum == (try #require(item.digest)))
        }
    }

    @Test func aStoreCopiedByHandIsIndexedWhenOpened() throws {
        try withFolder { folder in
            let original = try DebugFileStore(root: folder.appendingPathComponent("a").path)
            let stored = try original.put(fileAt: DebugFileStoreTests.macApp).stored + original.put(fileAt: LinuxFixtures.debugFile).stored
            let copy = folder.appendingPathComponent("b").path
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: original.root) where !name.hasPrefix("index.sqlite") {
                try FileManager.default.copyItem(atPath: original.root + "/" + name, toPath: copy + "/" + name)
            }
            let store = try DebugFileStore(root: copy)
            #expect(Set(store.items().map(\.debugID)) == Set(stored.map(\.debugID)))
            #expect(Set(store.items().map(\.digest)) == Set(stored.map(\.digest)))
        }
    }

    @Test func rebuildIndexTakesInAnEntryAddedByHand() throws {
        try withFolder { folder in
            let source = try DebugFileStore(root: folder.appendingPathComponent("source").path)
            let item = try #require(try source.put(fileAt: LinuxFixtures.debugFile).stored.first)
            let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
            try store.put(fileAt: DebugFileStoreTests.crashApp)
            // Copied in by hand: the listing comes from the index, which has not seen it.
            let target = store.folder(for: item.debugID)
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source.folder(for: item.debugID), toPath: target)
            #expect(!store.items().contains { $0.debugID == item.debugID })
            let rebuilt = try store.rebuildIndex()
            #expect(rebuilt.entries == 2)
            #expect(rebuilt.problems.isEmpty)
            #expect(store.items().contains { $0.debugID == item.debugID && $0.digest == item.digest })
        }
    }

    /// An entry whose index transaction never happened (its writer stopped after the renames)
    /// is found by its identity and indexed then.
    @Test func anEntryMissingFromTheIndexIsFoundByItsIdentityAndAdopted() throws {
        try withFolder { folder in
            let source = try DebugFileStore(root: folder.appendingPathComponent("source").path)
            let item = try #require(try source.put(fileAt: LinuxFixtures.debugFile).stored.first)
            let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
            try store.put(fileAt: DebugFileStoreTests.crashApp)
            let target = store.folder(for: item.debugID)
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source.folder(for: item.debugID), toPath: target)
            #expect(store.lookup(item.debugID)?.digest == item.digest)
            #expect(store.items().contains { $0.debugID == item.debugID })
        }
    }

    /// A file removed by hand is not answered from the index.
    @Test func anEntryRemovedByHandIsGoneFromTheIndexToo() throws {
        try withFolder { folder in
            let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
            let item = try #require(try store.put(fileAt: LinuxFixtures.debugFile).stored.first)
            try FileManager.default.removeItem(atPath: store.folder(for: item.debugID))
            #expect(store.lookup(item.debugID) == nil)
            #expect(store.items().isEmpty)
        }
    }
}
