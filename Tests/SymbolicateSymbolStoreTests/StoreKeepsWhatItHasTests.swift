import Foundation
import SymbolicateCore
import SymbolicateDiscovery
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// The store never loses what it has without being told (issue 38, findings 8, 9 and 12): a
/// cut-short file, a different file under a stored identity and a universal file whose slices
/// share a UUID all leave the stored entry as it was, and a failed put leaves no folder.
@Suite struct StoreKeepsWhatItHasTests {
    static let crashAppDWARF = TestPaths.dsyms + "/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp"
    static let macAppDWARF = TestPaths.dsyms + "/MacApp.app.dSYM/Contents/Resources/DWARF/MacApp"
    static let crashAppUUID = DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57")

    func withStore(_ body: (DebugFileStore, URL) throws -> Void) throws {
        let folder = try TestPaths.temporaryDirectory("store-keeps")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
        try body(store, folder)
    }

    /// The fixture's bytes with one source path changed: the same UUID, complete DWARF, another
    /// file (a rebuild from another checkout).
    static func rebuiltCrashApp() throws -> Data {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: crashAppDWARF))
        // Every spelling of the path (the line table's and the unit's).
        #expect(bytes.range(of: Data("Profile.swift".utf8)) != nil)
        while let range = bytes.range(of: Data("Profile.swift".utf8)) {
            bytes.replaceSubrange(range, with: Data("Profilf.swift".utf8))
        }
        return bytes
    }

    @Test(arguments: [0.3, 0.6, 0.95])
    func aTruncatedDSYMNeverReplacesTheCompleteEntry(keeping fraction: Double) throws {
        try withStore { store, folder in
            let id = try #require(Self.crashAppUUID)
            let stored = try #require(try store.put(fileAt: Self.crashAppDWARF).stored.first)
            #expect(stored.hasDWARF)
            let whole = try Data(contentsOf: URL(fileURLWithPath: Self.crashAppDWARF))
            let cut = folder.appendingPathComponent("CrashApp")
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: cut)
            #expect {
                try store.put(fileAt: cut.path, origin: "upload")
            } throws: { error in
                let message = (error as? DebugFileStoreError)?.message ?? ""
                return message.contains("is damaged, not stored") && message.contains(id.description)
            }
            // The entry is the complete file it was, and still opens with its DWARF.
            #expect(FileManager.default.contentsEqual(atPath: store.dataPath(for: id), andPath: Self.crashAppDWARF))
            let index = try DebugFileIndex(inputs: [store.dataPath(for: id)])
            let session = try #require(try index.entries(id: id).first?.openSession())
            #expect(session.hasDWARF)
            #expect(store.info(for: id)?.digest == stored.digest)
        }
    }

    @Test func aTruncatedDSYMIsRefusedInAnEmptyStoreToo() throws {
        try withStore { store, folder in
            let whole = try Data(contentsOf: URL(fileURLWithPath: Self.crashAppDWARF))
            let cut = folder.appendingPathComponent("CrashApp")
            try whole.prefix(whole.count / 2).write(to: cut)
            #expect(throws: DebugFileStoreError.self) { try store.put(fileAt: cut.path) }
            #expect(store.items().isEmpty)
        }
    }

    @Test func aTruncatedELFDebugFileNeverReplacesTheCompleteOne() throws {
        try withStore { store, folder in
            let stored = try #require(try store.put(fileAt: LinuxFixtures.debugFile).stored.first)
            let whole = try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.debugFile))
            // Past the ELF header and the notes, short of the section headers at the end.
            let cut = folder.appendingPathComponent("crashy.debug")
            try whole.prefix(whole.count * 2 / 3).write(to: cut)
            #expect(throws: DebugFileStoreError.self) { try store.put(fileAt: cut.path) }
            #expect(FileManager.default.contentsEqual(atPath: stored.path, andPath: LinuxFixtures.debugFile))
        }
    }

    @Test func unitHeadersThatRunPastTheSectionAreDamage() throws {
        // A 64-bit DWARF unit claiming more bytes than the section has.
        let info: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x05, 0x00, 0x01, 0x08]
        let problem = info.withUnsafeBytes { DWARFCompleteness.unitHeadersProblem($0, bigEndian: false) }
        #expect(problem?.contains("claims 0x1000 bytes") == true)
        // Two whole DWARF 4 units: complete.
        let two: [UInt8] = [3, 0, 0, 0, 4, 0, 0] + [3, 0, 0, 0, 4, 0, 0]
        #expect(two.withUnsafeBytes { DWARFCompleteness.unitHeadersProblem($0, bigEndian: false) } == nil)
        // A version no DWARF has.
        let bad: [UInt8] = [3, 0, 0, 0, 9, 0, 0]
        #expect(bad.withUnsafeBytes { DWARFCompleteness.unitHeadersProblem($0, bigEndian: false) }?.contains("no DWARF version") == true)
    }

    @Test func aDifferentFileUnderAStoredIdentityIsRefusedWithBothDescribed() throws {
        try withStore { store, folder in
            let id = try #require(Self.crashAppUUID)
            let stored = try #require(try store.put(fileAt: Self.crashAppDWARF, origin: "ci").stored.first)
            let rebuilt = folder.appendingPathComponent("CrashApp")
            try Self.rebuiltCrashApp().write(to: rebuilt)
            var refusal: DebugFileStoreError?
            do throws(DebugFileStoreError) { try store.put(fileAt: rebuilt.path, origin: "upload") } catch { refusal = error }
            let error = try #require(refusal)
            #expect(error.conflicts.count == 1)
            let conflict = try #require(error.conflicts.first)
            #expect(conflict.stored.digest == stored.digest)
            #expect(conflict.incoming.digest != stored.digest)
            #expect(conflict.incoming.debugID == id)
            // Both described in the message: names, sizes, digests, and where the stored one came from.
            for digest in [stored.digest, conflict.incoming.digest] { #expect(error.message.contains(try #require(digest))) }
            #expect(error.message.contains("\(stored.size) bytes"))
            #expect(error.message.contains("from ci"))
            #expect(FileManager.default.contentsEqual(atPath: store.dataPath(for: id), andPath: Self.crashAppDWARF))

            // Told to replace: replaced, and said so.
            let replaced = try store.put(fileAt: rebuilt.path, origin: "upload", replace: true)
            #expect(replaced.replaced.map(\.old.digest) == [stored.digest])
            #expect(replaced.notes.contains { $0.contains("replaced") && $0.contains(stored.digest ?? "-") })
            #expect(FileManager.default.contentsEqual(atPath: store.dataPath(for: id), andPath: rebuilt.path))
            #expect(store.info(for: id)?.digest == conflict.incoming.digest)
        }
    }

    @Test func theSameBytesAgainChangeNothing() throws {
        try withStore { store, _ in
            let id = try #require(Self.crashAppUUID)
            let first = try #require(try store.put(fileAt: Self.crashAppDWARF, origin: "ci").stored.first)
            let again = try store.put(fileAt: Self.crashAppDWARF, origin: "upload")
            #expect(again.stored.map(\.digest) == [first.digest])
            #expect(again.replaced.isEmpty)
            #expect(again.notes.contains { $0.contains("already stored with the same bytes") })
            // Nothing rewritten: the entry keeps its first origin.
            #expect(store.info(for: id)?.origin == "ci")
        }
    }

    /// A universal file whose two slices carry one UUID: the store keeps one file per identity,
    /// so neither is stored, and it says why (before, the last slice silently won).
    @Test func slicesSharingAUUIDAreNotStoredSilently() throws {
        try withStore { store, folder in
            let uuids = try DebugFileStoreTests.dwarfdumpUUIDs(Self.macAppDWARF)
            let arm = try #require(uuids.first { $0.value == "arm64" }.flatMap { DebugID(uuid: $0.key) })
            let intel = try #require(uuids.first { $0.value == "x86_64" }.flatMap { DebugID(uuid: $0.key) })
            var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.macAppDWARF))
            let at = try #require(bytes.range(of: Data(intel.bytes)))
            bytes.replaceSubrange(at, with: Data(arm.bytes))
            let fat = folder.appendingPathComponent("MacApp")
            try bytes.write(to: fat)
            #expect(try DebugFileStoreTests.dwarfdumpUUIDs(fat.path).keys.sorted() == [arm.description])
            #expect {
                try store.put(fileAt: fat.path)
            } throws: { error in
                ((error as? DebugFileStoreError)?.message ?? "").contains("2 different builds share the identity \(arm)")
            }
            #expect(store.items().isEmpty)
        }
    }

    /// A put that fails once the entry's folder exists (a full disk) leaves no folder behind.
    @Test func aFailedPutLeavesNoEmptyFolder() throws {
        let folder = try TestPaths.temporaryDirectory("store-failing")
        defer { try? FileManager.default.removeItem(at: folder) }
        struct DiskFull: Error {}
        let root = folder.appendingPathComponent("store").path
        let store = try DebugFileStore(root: root, beforeWriting: { _ in throw DiskFull() })
        #expect(throws: DebugFileStoreError.self) { try store.put(fileAt: Self.crashAppDWARF) }
        let left = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(DebugFileStore.indexName) }
        #expect(left.isEmpty, "\(left)")
        #expect(store.items().isEmpty)
    }
}
