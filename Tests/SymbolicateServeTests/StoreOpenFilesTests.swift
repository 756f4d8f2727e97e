import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateCore
import SymbolicateServe
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing

/// The server's hold on the store (issue 38, findings 2, 3, 8 and 9): store files are found by
/// identity and at most a bounded number stay mapped however many the store holds; uploads never
/// lose what the store has without being told.
@Suite struct StoreOpenFilesTests {
    /// Store files mapped into this process now, by path (from the kernel's own list, Linux's
    /// `/proc/self/maps`); none where the kernel keeps no such list (macOS), where the bound is
    /// then checked by the symbolicator's own count alone.
    static func mappedStoreFiles(under root: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: "/proc/self/maps") else { return [] }
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)  // guarded: exists, checked above
        var paths: Set<String> = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.hasPrefix(root + "/"), path.hasSuffix("/debug") { paths.insert(path) }
        }
        return paths
    }

    /// Seven entries, a bound of two: every report still gives what the same dSYMs give, and
    /// never more than two store files are mapped after a request.
    @Test func mappedStoreFilesStayWithinTheBoundWhileEveryEntrySymbolicates() throws {
        let folder = try TestPaths.temporaryDirectory("serve-open-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("store").path
        let store = try ServeStore(root: root)
        for bundle in ["CrashApp", "CrashApp-dwarf4", "MacApp", "MacApp-dwarf5"] {
            try store.store.put(fileAt: TestPaths.dsyms + "/\(bundle).app.dSYM")
        }
        try store.store.put(fileAt: TestPaths.dsyms + "/CrashKit.framework.dSYM")
        #expect(store.store.figures().entries == 7)

        let bounded = Symbolicator(debugFiles: [], store: store, openStoreFiles: 2)
        try bounded.validate()
        // The same reports against the dSYMs themselves, given as --debug-files.
        let reference = Symbolicator(debugFiles: [TestPaths.dsyms], store: nil)
        try reference.validate()
        let reports = ["macapp-x86_64.ips", "swift-trap.ips", "swift-index-dwarf4.ips"]
        for round in 0..<2 {
            for name in reports {
                let call = SymbolicateCall(body: try Serve.report(name))
                let expected = try #require(reference.run(call).output)
                let answer = bounded.run(call)
                #expect(answer.output == expected, "\(name), round \(round)")
                #expect(bounded.openStoreFileCount <= 2)
                let mapped = try Self.mappedStoreFiles(under: root)
                #expect(mapped.count <= 2, "\(name), round \(round): \(mapped.sorted())")
            }
        }
        // Symbolicated: the app frames have names from the store's files.
        let answer = bounded.run(SymbolicateCall(body: try Serve.report("swift-trap.ips")))
        #expect(answer.output?.contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]") == true)
        #expect(try Self.mappedStoreFiles(under: root).count <= 2)
    }

    /// An upload is used by the very next request, and a store file replaced behind the
    /// server's back (another instance) is opened again rather than read stale.
    @Test func anUploadIsUsedByTheNextRequest() throws {
        let folder = try TestPaths.temporaryDirectory("serve-next-request")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ServeStore(root: folder.appendingPathComponent("store").path)
        let symbolicator = Symbolicator(debugFiles: [], store: store, openStoreFiles: 4)
        try symbolicator.validate()
        let call = SymbolicateCall(body: try Serve.report("swift-trap.ips"))
        #expect(symbolicator.run(call).output?.contains("JSONScanner") == false)
        // Stored by another server on the same folder.
        let other = try ServeStore(root: store.root)
        try other.store.put(fileAt: Serve.crashAppDSYM)
        #expect(symbolicator.run(call).output?.contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]") == true)
        // Removed by the other: no longer used, and no longer mapped.
        #expect(other.store.remove(try #require(DebugIDs.crashApp)))
        #expect(symbolicator.run(call).output?.contains("JSONScanner") == false)
        #expect(try Self.mappedStoreFiles(under: store.root).isEmpty)
    }

    /// The same fixture with one source path changed: the same UUID, another file.
    static func rebuiltCrashApp() throws -> Data {
        var bytes = try StoreRouteTests.dwarf
        // Every spelling of the path (the line table's and the unit's).
        #expect(bytes.range(of: Data("Profile.swift".utf8)) != nil)
        while let range = bytes.range(of: Data("Profile.swift".utf8)) {
            bytes.replaceSubrange(range, with: Data("Profilf.swift".utf8))
        }
        return bytes
    }

    @Test func aDifferentUploadIs409WithBothUnlessItSaysReplace() async throws {
        let folder = try TestPaths.temporaryDirectory("serve-conflict")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try StoreRouteTests.server(store: folder)
        let report = try Serve.report()
        let original = try StoreRouteTests.dwarf
        let rebuilt = try Self.rebuiltCrashApp()
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(original))
            {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(rebuilt)) {
                response in
                #expect(response.status == .conflict)
                let text = String(buffer: response.body)
                #expect(text.contains("\"stored\""), "\(text)")
                #expect(text.contains("\"upload\""))
                // The API's one error shape, with both descriptions beside it.
                #expect(text.contains("\"status\" : 409"), "\(text)")
                #expect(text.components(separatedBy: "\"sha256\"").count == 3, "both digests: \(text)")
            }
            // Still the original: frame 0 names the function it names.
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(String(buffer: response.body).contains("(Profile.swift:28)"))
            }
            // The same bytes again: nothing changes.
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(original))
            {
                response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("already stored with the same bytes"), "\(text)")
                #expect(text.contains("\"replaced\" : [\n\n  ]"), "\(text)")
            }
            // Told to replace: replaced, and the answer says what it was.
            try await client.execute(
                uri: "/v1/debug-files?replace=1", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(rebuilt)
            ) { response in
                #expect(response.status == .created)
                let text = String(buffer: response.body)
                #expect(text.contains("replaced: it was "), "\(text)")
                #expect(text.contains(" arm64, \(original.count) bytes, sha256 "), "\(text)")
            }
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(String(buffer: response.body).contains("(Profilf.swift:28)"))
            }
        }
    }

    @Test func aTruncatedUploadIs422AndTheStoredFileStays() async throws {
        let folder = try TestPaths.temporaryDirectory("serve-truncated")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try StoreRouteTests.server(store: folder)
        let original = try StoreRouteTests.dwarf
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(original))
            {
                #expect($0.status == .created)
            }
            let cut = original.prefix(original.count * 6 / 10)
            try await client.execute(
                uri: "/v1/debug-files?replace=1", method: .put, headers: StoreRouteTests.authorized, body: Serve.body(Data(cut))
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("damaged"))
            }
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(try Serve.report())) { response in
                #expect(String(buffer: response.body).contains("(Profile.swift:28)"))
            }
        }
        #expect(
            FileManager.default.contentsEqual(
                atPath: folder.path + "/4c/4c443b55553144a1e9455154cffd57/debug",
                andPath: Serve.crashAppDSYM + "/Contents/Resources/DWARF/CrashApp"))
    }
}

enum DebugIDs {
    static let crashApp = DebugID(uuid: StoreRouteTests.crashAppUUID)
}
