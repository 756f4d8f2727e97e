import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateCore
import SymbolicateServe
import SymbolicateStoreIndex
import SymbolicateStoreIndexPostgres
import SymbolicateTestSupport
import Testing

/// Two servers on loopback sharing one store folder and one PostgreSQL index
/// (`--store-index postgres://…`), against the real PostgreSQL `make test` starts
/// (`scripts/with-postgres.sh`; skipped, saying so, under a plain `swift test`).
@Suite struct PostgresSharedStoreTests {
    static let databaseURL = ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The database's URL with a schema of this test's own.
    static func indexURL(_ name: String) throws -> String {
        let base = try #require(databaseURL)
        return base + (base.contains("?") ? "&" : "?") + "schema=t\(ProcessInfo.processInfo.processIdentifier)_\(name)"
    }

    @Test(.enabled(if: databaseURL != nil, "SYMBOLICATE_TEST_POSTGRES_URL is not set (make test sets it: scripts/with-postgres.sh)"))
    func anUploadToOneIsUsedByTheOtherAndADeletionOnTheOtherIsSeenByTheFirst() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-postgres")
        defer { try? FileManager.default.removeItem(at: store) }
        let url = try Self.indexURL("serve_shared")
        let a = try StoreRouteTests.server(store: store) { $0.storeIndex = url }
        let b = try StoreRouteTests.server(store: store) { $0.storeIndex = url }
        // A third connection to the index, as an operator's look at the database.
        let index = try PostgresStoreIndex(url: url)
        let id = try #require(DebugID(uuid: StoreRouteTests.crashAppUUID))
        let report = try Serve.report()
        let frame = "static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"
        try await Serve.live(a) { a in
            try await Serve.live(b) { b in
                // B answers once before the upload: the image has no debug file.
                try await b.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                    #expect(response.status == .ok)
                    #expect(!String(buffer: response.body).contains("JSONScanner"))
                }
                try await a.execute(
                    uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(try StoreRouteTests.dwarf)
                ) { response in
                    #expect(response.status == .created)
                }
                // The entry is in PostgreSQL, and the folder has no index of its own.
                #expect(try index.record(for: id)?.origin == "upload")
                #expect(try index.figures().entries == 1)
                #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("index.sqlite").path))
                // A's upload is used by B's next request.
                try await b.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                    #expect(String(buffer: response.body).contains(frame))
                }
                try await b.execute(uri: "/v1/debug-files/\(StoreRouteTests.crashAppUUID)", method: .get) { response in
                    #expect(response.status == .ok)
                }
                // A has the file open (it symbolicates with it) when B deletes it.
                try await a.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                    #expect(String(buffer: response.body).contains(frame))
                }
                try await b.execute(
                    uri: "/v1/debug-files/\(StoreRouteTests.crashAppUUID)", method: .delete, headers: StoreRouteTests.authorized
                ) { response in
                    #expect(response.status == .noContent)
                }
                #expect(try index.record(for: id) == nil)
                #expect(try index.figures().entries == 0)
                // The deletion on B is seen by A.
                try await a.execute(uri: "/v1/debug-files/\(StoreRouteTests.crashAppUUID)", method: .get) { response in
                    #expect(response.status == .notFound)
                }
                try await a.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                    #expect(!String(buffer: response.body).contains("JSONScanner"))
                }
                try await a.execute(
                    uri: "/v1/debug-files/\(StoreRouteTests.crashAppUUID)", method: .delete, headers: StoreRouteTests.authorized
                ) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    /// `symbolicate store --rebuild-index --store-index URL DIR` makes the PostgreSQL index again
    /// from the folder.
    @Test(.enabled(if: databaseURL != nil, "SYMBOLICATE_TEST_POSTGRES_URL is not set (make test sets it: scripts/with-postgres.sh)"))
    func theRebuildCommandRebuildsThePostgresIndex() throws {
        let store = try TestPaths.temporaryDirectory("serve-store-postgres-rebuild")
        defer { try? FileManager.default.removeItem(at: store) }
        let url = try Self.indexURL("rebuild_cli")
        let served = try ServeStore(root: store.path, indexURL: url)
        try served.store.put(fileAt: Serve.crashAppDSYM, origin: "test")
        let index = try PostgresStoreIndex(url: url)
        let id = try #require(DebugID(uuid: StoreRouteTests.crashAppUUID))
        #expect(try index.record(for: id) != nil)
        // The index lost (an operator's mistake): emptied.
        try index.replaceAll(with: [])
        #expect(try index.record(for: id) == nil)
        let run = try CLI.run(["store", "--rebuild-index", "--store-index", url, store.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("indexed 1 entries"), "\(run.stdout)")
        #expect(try index.record(for: id)?.origin == "test")
        #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("index.sqlite").path))
    }

    @Test func aStoreIndexThatIsNotAPostgresURLIsAUsageError() throws {
        let run = try CLI.run(["serve", "--store-index", "/tmp/index.sqlite", "--port", "0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--store-index is a postgres://"), "\(run.stderr)")
    }
}

extension PostgresSharedStoreTests {
    /// Overlapping uploads to two servers sharing the PostgreSQL index (issue 54, finding 4):
    /// the identity's advisory lock makes deciding and writing one step across instances.
    @Test(.enabled(if: databaseURL != nil, "SYMBOLICATE_TEST_POSTGRES_URL is not set (make test sets it: scripts/with-postgres.sh)"))
    func overlappingUploadsStoreOneFile() async throws {
        let store = try TestPaths.temporaryDirectory("serve-race-postgres")
        defer { try? FileManager.default.removeItem(at: store) }
        let url = try Self.indexURL("serve_race")
        try await HardeningTests.overlappingUploads([
            try StoreRouteTests.server(store: store) { $0.storeIndex = url },
            try StoreRouteTests.server(store: store) { $0.storeIndex = url },
        ])
    }
}
