import Foundation
import SymbolicateCore
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// Overlapping puts of one identity (issue 54, finding 4): the store decides (same bytes, keep
/// DWARF, conflict, replace) inside the index's transaction under the identity's lock, so
/// exactly one put writes and the others get the answer the written file calls for. Two store
/// objects on one folder stand for two processes sharing it (each has its own connections to
/// the SQLite index).
@Suite struct StoreConcurrencyTests {
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var results: [(variant: Int, result: Result<DebugFileStore.PutResult, DebugFileStoreError>)] = []
        func add(_ variant: Int, _ result: Result<DebugFileStore.PutResult, DebugFileStoreError>) {
            lock.lock()
            results.append((variant, result))
            lock.unlock()
        }
    }

    /// Puts `variants[i % count]` from `rounds` threads at once, alternating between two store
    /// objects on one folder.
    static func race(_ variants: [Data], rounds: Int, replace: Bool = false, in folder: URL) throws -> Outcomes {
        let stores = [try DebugFileStore(root: folder.path), try DebugFileStore(root: folder.path)]
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            let variant = round % variants.count
            let result = Result { () throws(DebugFileStoreError) in
                try stores[round % 2].put(bytes: variants[variant], name: "CrashApp", origin: "round \(round)", replace: replace)
            }
            outcomes.add(variant, result)
        }
        return outcomes
    }

    @Test func theSameBytesFromManyAtOnceAreWrittenOnce() throws {
        let folder = try TestPaths.temporaryDirectory("store-race-same")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: StoreKeepsWhatItHasTests.crashAppDWARF))
        let outcomes = try Self.race([bytes], rounds: 8, in: folder)
        let puts = try outcomes.results.map { try $0.result.get() }
        #expect(puts.filter { !$0.written.isEmpty }.count == 1)
        #expect(puts.filter { $0.notes.contains { $0.contains("already stored with the same bytes") } }.count == 7)
    }

    @Test func twoDifferentFilesAtOnceStoreOneAndRefuseTheOther() throws {
        let folder = try TestPaths.temporaryDirectory("store-race-conflict")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: StoreKeepsWhatItHasTests.crashAppDWARF))
        let rebuilt = try StoreKeepsWhatItHasTests.rebuiltCrashApp()
        let outcomes = try Self.race([original, rebuilt], rounds: 8, in: folder)
        let winners = outcomes.results.filter { (try? $0.result.get())?.written.isEmpty == false }
        #expect(winners.count == 1)
        let winner = try #require(winners.first?.variant)
        for (variant, result) in outcomes.results {
            switch result {
            case .success:
                // The winner's variant: written once, the same bytes for the others.
                #expect(variant == winner)
            case .failure(let error):
                // The other variant: refused with both described, never stored over the winner.
                #expect(variant != winner, "\(error)")
                #expect(!error.conflicts.isEmpty, "\(error)")
            }
        }
        let id = try #require(StoreKeepsWhatItHasTests.crashAppUUID)
        let stored = try Data(contentsOf: URL(fileURLWithPath: try DebugFileStore(root: folder.path).dataPath(for: id)))
        #expect(stored == (winner == 0 ? original : rebuilt))
    }

    /// Replacing at once: one put replaces the stored file; the others find their bytes stored.
    @Test func oneReplacementIsReportedOnce() throws {
        let folder = try TestPaths.temporaryDirectory("store-race-replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        try DebugFileStore(root: folder.path).put(fileAt: StoreKeepsWhatItHasTests.crashAppDWARF)
        let rebuilt = try StoreKeepsWhatItHasTests.rebuiltCrashApp()
        let outcomes = try Self.race([rebuilt], rounds: 6, replace: true, in: folder)
        let puts = try outcomes.results.map { try $0.result.get() }
        #expect(puts.map(\.replaced.count).reduce(0, +) == 1)
        #expect(puts.filter { !$0.written.isEmpty }.count == 1)
    }
}
