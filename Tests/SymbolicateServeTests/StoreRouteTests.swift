import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// The debug-file store over HTTP: uploads by identity, metadata, deletion, the token, and two
/// servers sharing one store folder.
@Suite(.tags(.server)) struct StoreRouteTests {
    static let token = "s3cret-token"
    static let crashAppUUID = "4C4C443B-5555-3144-A1E9-455154CFFD57"
    static var dwarf: Data {
        get throws {
            try Data(contentsOf: URL(fileURLWithPath: Serve.crashAppDSYM + "/Contents/Resources/DWARF/CrashApp"))
        }
    }

    /// The server's temporary folder is left out of upload messages however it is spelled: as
    /// given, and as the kernel resolves it (on macOS TMPDIR is under /var, a link to
    /// /private/var, and Foundation's resolving gives /var back; issue 50).
    @Test func scrubbedTextNamesNoSpellingOfTheTemporaryFolder() throws {
        let temporary = FileManager.default.temporaryDirectory.path
        let real = try #require(realpath(temporary, nil))
        defer { free(real) }
        for folder in [temporary, String(cString: real)] {
            let text = "cannot read \(folder)/symbolicate-upload-1234/x.dSYM: truncated"
            let scrubbed = ServeServer.scrub(text, file: "/elsewhere")
            #expect(!scrubbed.contains(folder), "\(scrubbed)")
            #expect(scrubbed.contains("x.dSYM"), "\(scrubbed)")
        }
    }

    /// A server with only a store (no --debug-files), in a new folder.
    static func server(store: URL, token: String? = token, _ adjust: (inout ServeConfiguration) -> Void = { _ in }) throws
        -> ServeServer
    {
        try Serve.server(debugFiles: []) {
            $0.storePath = store.path
            $0.token = token
            adjust(&$0)
        }
    }

    static let authorized: HTTPFields = [.authorization: "Bearer \(token)"]

    @Test func uploadThenSymbolicateGivesTheCLIsBytesWithTheStoreFolder() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store")
        defer { try? FileManager.default.removeItem(at: store) }
        let server = try Self.server(store: store)
        let report = try Serve.report()
        try await Serve.routes(server) { client in
            let body = try Self.dwarf
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(body)) { response in
                #expect(response.status == .created)
                let text = String(buffer: response.body)
                #expect(text.contains("\"id\" : \"\(Self.crashAppUUID)\""), "\(text)")
                #expect(text.contains("\"hasDWARF\" : true"))
            }
            // The store folder given to the CLI gives the same bytes.
            let cli = try CLI.run(["-", store.path], stdin: String(decoding: report, as: UTF8.self))
            #expect(cli.stdout.contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"))
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(String(buffer: response.body) == cli.stdout)
            }
            try await client.execute(uri: "/v1/debug-files/\(Self.crashAppUUID.lowercased())", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"architecture\" : \"arm64\""))
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                // Counted as it happened: the store was empty at start, one file of the DWARF's size stored.
                #expect(text.contains("symbolicate_store_files_stored_total 1"), "\(text)")
                #expect(text.contains("symbolicate_store_bytes_stored_total \(body.count)"), "\(text)")
                #expect(text.contains("symbolicate_store_deletions_total 0"), "\(text)")
            }
            try await client.execute(uri: "/v1/debug-files/\(Self.crashAppUUID)", method: .delete, headers: Self.authorized) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/v1/debug-files/\(Self.crashAppUUID)", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(!String(buffer: response.body).contains("JSONScanner"), "deleted: no longer used")
            }
        }
    }

    @Test func aZippedDSYMIsStoredByTheIdentityInside() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-zip")
        defer { try? FileManager.default.removeItem(at: store) }
        let zip = StoredZip([.init("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", try Self.dwarf)]).bytes()
        try await Serve.routes(try Self.server(store: store)) { client in
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(zip)) { response in
                #expect(response.status == .created)
                #expect(String(buffer: response.body).contains(Self.crashAppUUID))
            }
        }
    }

    @Test func changesNeedTheToken() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-token")
        defer { try? FileManager.default.removeItem(at: store) }
        let body = try Self.dwarf
        let messages = try await Serve.routes(try Self.server(store: store)) { client in
            var messages: [String: String] = [:]
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "Basic \(Self.token)"]] {
                let given = headers[.authorization] ?? ""
                messages[given] = try await client.execute(uri: "/v1/debug-files", method: .put, headers: headers, body: Serve.body(body)) {
                    response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == (given.isEmpty ? "Bearer" : #"Bearer error="invalid_token""#))
                    return Serve.apiError(response.body)?.message
                }
                try await client.execute(uri: "/v1/debug-files/\(Self.crashAppUUID)", method: .delete, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            return messages
        }
        // The store's own index files excepted.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.path).filter { !$0.hasPrefix(".") && !$0.hasPrefix("index.sqlite") }
                .isEmpty, "nothing stored")
        // A missing token and a wrong one are told apart.
        #expect(messages[""]?.contains("a bearer token is needed") == true, "\(messages)")
        #expect(messages["Bearer wrong"]?.contains("is not this server's SYMBOLICATE_SERVE_TOKEN") == true, "\(messages)")
        #expect(messages["Bearer wrong"] == messages["Basic \(Self.token)"])
        // Without SYMBOLICATE_SERVE_TOKEN the store is read-only.
        try await Serve.routes(try Self.server(store: store, token: nil)) { client in
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(body)) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func anUploadOverTheLimitIs413() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-limit")
        defer { try? FileManager.default.removeItem(at: store) }
        let body = try Self.dwarf
        try await Serve.routes(try Self.server(store: store) { $0.limits.uploadBytes = body.count - 1 }) { client in
            try await client.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(body)) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
        // Streamed without a length, the count while receiving refuses it too.
        try await Serve.live(try Self.server(store: store) { $0.limits.uploadBytes = 1000 }) { client in
            let connection = try RawConnection(port: try #require(client.port))
            let chunk = String(repeating: "A", count: 2000)
            connection.send(
                "PUT /v1/debug-files HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.token)\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
            #expect(await connection.readHead().hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test(arguments: ["..%2F..%2Fetc%2Fpasswd", "..", "x", "4C4C443B-5555-3144-A1E9-455154CFFD57%2F..%2F..", "%2Fetc%2Fpasswd"])
    func noRequestValueBecomesAPath(id: String) async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-path")
        defer { try? FileManager.default.removeItem(at: store) }
        try await Serve.routes(try Self.server(store: store)) { client in
            for method: HTTPRequest.Method in [.get, .delete] {
                try await client.execute(uri: "/v1/debug-files/\(id)", method: method, headers: Self.authorized) { response in
                    #expect(response.status == .badRequest || response.status == .notFound, "\(method) \(id): \(response.status)")
                    #expect(response.status != .ok && response.status != .noContent)
                }
            }
        }
    }

    @Test func notADebugFileIs422AndNothingIsKept() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-bad")
        defer { try? FileManager.default.removeItem(at: store) }
        try await Serve.routes(try Self.server(store: store)) { client in
            try await client.execute(
                uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: ByteBuffer(string: "not a debug file")
            ) { response in
                #expect(response.status == .unprocessableContent)
                let text = String(buffer: response.body)
                #expect(!text.contains("symbolicate-upload-"), "the private file's name is not shown")
                #expect(!text.contains(FileManager.default.temporaryDirectory.path), "no private path is shown: \(text)")
                #expect(Serve.apiError(response.body)?.status == 422, "\(text)")
            }
        }
        // The store's own index files excepted.
        let left = try FileManager.default.subpathsOfDirectory(atPath: store.path).filter {
            !$0.hasPrefix(".incoming") && $0 != ".incoming" && !$0.hasPrefix("index.sqlite")
        }
        #expect(left.isEmpty, "\(left)")
    }

    /// Two servers on loopback sharing one store folder: what one stores, the other uses; what
    /// one removes, the other stops using.
    @Test func twoInstancesShareTheStore() async throws {
        let store = try TestPaths.temporaryDirectory("serve-store-shared")
        defer { try? FileManager.default.removeItem(at: store) }
        let first = try Self.server(store: store)
        let second = try Self.server(store: store)
        let report = try Serve.report()
        try await Serve.live(second) { reader in
            // The second has indexed the empty store and answered once before the upload.
            try await reader.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(!String(buffer: response.body).contains("JSONScanner"))
            }
            try await Serve.live(first) { writer in
                try await writer.execute(uri: "/v1/debug-files", method: .put, headers: Self.authorized, body: Serve.body(try Self.dwarf)) {
                    response in
                    #expect(response.status == .created)
                }
            }
            try await reader.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(String(buffer: response.body).contains("static JSONScanner.field(_:key:) + 4 (Profile.swift:28) [inlined]"))
            }
            try await reader.execute(uri: "/v1/debug-files/\(Self.crashAppUUID)", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await Serve.live(first) { writer in
                try await writer.execute(uri: "/v1/debug-files/\(Self.crashAppUUID)", method: .delete, headers: Self.authorized) {
                    response in
                    #expect(response.status == .noContent)
                }
            }
            try await reader.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(!String(buffer: response.body).contains("JSONScanner"))
            }
        }
    }
}
