import Foundation
import SymbolicateCore
import SymbolicateStoreIndex
import Testing

/// The store's SQLite index on its own: rows by identity, the transaction around the store's
/// change, the least-recently-used order, figures, a rebuild, and two connections on one file
/// (two processes sharing a store).
@Suite struct SQLiteStoreIndexTests {
    struct Failure: Error {}

    func withIndex(_ body: (SQLiteStoreIndex, String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-index-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/index.sqlite"
        try body(try SQLiteStoreIndex(path: path), path)
    }

    static func record(_ n: UInt8, lastUsed: TimeInterval = 1000, kind: DebugID.Kind = .uuid) throws -> StoreIndexRecord {
        let bytes = [UInt8](repeating: n, count: 16)
        let id = try #require(kind == .uuid ? DebugID(uuidBytes: bytes) : DebugID(buildIDBytes: bytes + [n, n, n, n]))
        return StoreIndexRecord(
            id: id, format: "mach-o", architecture: "arm64", name: "App\(n)", size: 100 * UInt64(n), footprint: 100 * UInt64(n) + 10,
            hasDWARF: n % 2 == 0, storedAt: Date(timeIntervalSince1970: 500), origin: n == 1 ? nil : "upload",
            digest: String(repeating: "ab", count: 32), lastUsed: Date(timeIntervalSince1970: lastUsed))
    }

    @Test func aRowIsReadBackAsItWasWritten() throws {
        try withIndex { index, _ in
            for n: UInt8 in [1, 2] {
                let record = try Self.record(n)
                try index.put(record, during: {})
                #expect(try index.record(for: record.id) == record)
            }
            let buildID = try Self.record(3, kind: .buildID)
            try index.put(buildID, during: {})
            #expect(try index.record(for: buildID.id)?.id.kind == .buildID)
            #expect(try index.record(for: #require(DebugID(uuidBytes: [UInt8](repeating: 9, count: 16)))) == nil)
        }
    }

    @Test func aChangeThatFailsLeavesTheIndexAsItWas() throws {
        try withIndex { index, _ in
            let old = try Self.record(4)
            try index.put(old, during: {})
            var new = old
            new.digest = String(repeating: "cd", count: 32)
            #expect(throws: Failure.self) { try index.put(new, during: { throw Failure() }) }
            #expect(try index.record(for: old.id) == old)
            #expect(throws: Failure.self) { _ = try index.remove(old.id, during: { throw Failure() }) }
            #expect(try index.record(for: old.id) == old)
            #expect(try index.remove(old.id, during: { true }))
            #expect(try index.record(for: old.id) == nil)
            #expect(try !index.remove(old.id, during: { false }))
        }
    }

    @Test func recordsComeLeastRecentlyUsedFirstAndFiguresAddUp() throws {
        try withIndex { index, _ in
            for (n, used) in [(UInt8(1), 300.0), (2, 100), (3, 200)] { try index.put(try Self.record(n, lastUsed: used), during: {}) }
            #expect(try index.records().map(\.name) == ["App2", "App3", "App1"])
            try index.markUsed(try Self.record(2).id, at: Date(timeIntervalSince1970: 400))
            #expect(try index.records().map(\.name) == ["App3", "App1", "App2"])
            let figures = try index.figures()
            #expect(figures.entries == 3)
            #expect(figures.bytes == 110 + 210 + 310)
            // Kept with every change: a replaced entry's new size, a removal, a rebuild.
            var bigger = try Self.record(2)
            bigger.footprint = 1000
            try index.put(bigger, during: {})
            #expect(try index.figures().entries == 3)
            #expect(try index.figures().bytes == 110 + 1000 + 310)
            #expect(try index.remove(try Self.record(1).id, during: { true }))
            #expect(try index.figures().entries == 2)
            #expect(try index.figures().bytes == 1000 + 310)
            #expect(throws: Failure.self) { try index.put(try Self.record(9), during: { throw Failure() }) }
            #expect(try index.figures().entries == 2)
            try index.replaceAll(with: [try Self.record(5)])
            #expect(try index.figures().entries == 1)
            #expect(try index.figures().bytes == 510)
        }
    }

    @Test func replaceAllIsARebuild() throws {
        try withIndex { index, _ in
            try index.put(try Self.record(1), during: {})
            try index.replaceAll(with: [try Self.record(5), try Self.record(6)])
            #expect(try index.records().map(\.name).sorted() == ["App5", "App6"])
            #expect(try index.record(for: try Self.record(1).id) == nil)
        }
    }

    /// Two processes on one store: each has its own connection; what one writes, the other reads.
    @Test func twoConnectionsOnOneFileSeeEachOther() throws {
        try withIndex { index, path in
            let other = try SQLiteStoreIndex(path: path)
            try index.put(try Self.record(7), during: {})
            #expect(try other.record(for: try Self.record(7).id)?.name == "App7")
            _ = try other.remove(try Self.record(7).id, during: { true })
            #expect(try index.record(for: try Self.record(7).id) == nil)
        }
    }

    @Test func aNewerSchemaIsRefusedByName() throws {
        try withIndex { _, path in
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [path, "PRAGMA user_version = 99;"]
            try sqlite.run()
            sqlite.waitUntilExit()
            #expect(sqlite.terminationStatus == 0)
            #expect {
                _ = try SQLiteStoreIndex(path: path)
            } throws: { error in
                (error as? StoreIndexError)?.description.contains("schema version 99") == true
            }
        }
    }

    @Test func aFileThatIsNoDatabaseIsAnErrorNamingIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-an-index-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteStoreIndex(path: path)
        } throws: { error in
            (error as? StoreIndexError)?.location == path
        }
    }
}
