import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateCore
import SymbolicateServe
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// Issue 38, finding 12: `DELETE` on a read-only store answered 404. A server started without
/// `SYMBOLICATE_SERVE_TOKEN` has a read-only store: a deletion is 403 whether or not the entry
/// is there (the identity is not even looked at), and the entry stays.
@Suite struct ReadOnlyStoreTests {
    @Test func deleteOnAReadOnlyStoreIs403AndRemovesNothing() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-read-only")
        defer { try? FileManager.default.removeItem(at: store) }
        try DebugFileStore(root: store.path).put(fileAt: Serve.crashAppDSYM, origin: "elsewhere")
        let absent = "00000000-1111-2222-3333-444444444444"
        try await Serve.routes(try StoreRouteTests.server(store: store, token: nil)) { client in
            for id in [StoreRouteTests.crashAppUUID, absent] {
                for headers: HTTPFields in [[:], StoreRouteTests.authorized] {
                    try await client.execute(uri: "/v1/debug-files/\(id)", method: .delete, headers: headers) { response in
                        #expect(response.status == .forbidden, "\(id) \(headers)")
                        #expect(Serve.apiError(response.body)?.message.contains("read-only") == true)
                    }
                }
            }
            try await client.execute(uri: "/v1/debug-files/\(StoreRouteTests.crashAppUUID)", method: .get) { response in
                #expect(response.status == .ok, "still stored")
            }
        }
        #expect(try DebugFileStore(root: store.path).info(for: #require(DebugID(uuid: StoreRouteTests.crashAppUUID))) != nil)
    }
}
