import Foundation
import Hummingbird
import SymbolicateCore
import SymbolicateSymbolStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's debug-file store: `SymbolicateSymbolStore`'s folder of files by identity (the
/// same store the download cache uses), shared safely by several `serve` instances. Identities
/// come from the files themselves; no request value is ever part of a path (an id in a URL is
/// parsed as hex into a `DebugID` first, an upload is received under a random name).
package final class ServeStore: StoreFolder {
    package let store: DebugFileStore
    package var root: String { store.root }

    package init(root: String) throws(DebugFileStoreError) {
        store = try DebugFileStore(root: root)
    }

    /// One `stat`: asked for every image of a report that the index has no file for.
    package func contains(_ id: DebugID) -> Bool {
        FileManager.default.fileExists(atPath: store.dataPath(for: id))
    }

    func figures() -> (bytes: UInt64, entries: Int) {
        let figures = store.figures()
        return (figures.bytes, figures.entries)
    }

    /// Makes the index of the store at `root` again from its folders (`symbolicate store --rebuild-index`).
    /// - Returns: the entries indexed, and a line for each folder that is no entry.
    package static func rebuildIndex(at root: String) throws(DebugFileStoreError) -> (entries: Int, problems: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DebugFileStoreError(path: root, message: "is not a folder")
        }
        return try DebugFileStore(root: root).rebuildIndex()
    }

    /// The store's default folder: `$XDG_DATA_HOME/symbolicate/store`, else
    /// `~/.local/share/symbolicate/store`.
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/symbolicate/store" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/symbolicate/store"
    }
}

/// What the API says of one stored build (`GET /v1/debug-files/{id}`, a `PUT`'s answer).
struct StoredFileInfo: Codable {
    var id: String
    var kind: String
    var architecture: String
    var format: String
    var name: String
    var size: UInt64
    var hasDWARF: Bool
    var storedAt: String
    var origin: String?
    var sha256: String?

    init(_ file: StoredDebugFile) {
        id = file.debugID.description
        kind = file.debugID.kind == .uuid ? "uuid" : "build-id"
        architecture = file.architecture.description
        format = file.format.rawValue
        name = file.name
        size = file.size
        hasDWARF = file.hasDWARF
        storedAt = ISO8601DateFormatter().string(from: file.storedAt)
        origin = file.origin
        sha256 = file.digest
    }
}

struct PutAnswer: Codable {
    var stored: [StoredFileInfo]
    /// Entries this upload replaced (it said `replace`), as they were.
    var replaced: [StoredFileInfo]
    var notes: [String]
}

/// A refused upload: a different file is stored under an identity it holds (`409`).
struct ConflictAnswer: Codable {
    var error: String
    var conflicts: [Conflict]

    struct Conflict: Codable {
        var stored: StoredFileInfo
        var upload: StoredFileInfo
    }
}

extension ServeServer {
    /// `PUT /v1/debug-files`, `GET` and `DELETE /v1/debug-files/{id}`.
    func addStoreRoutes(to router: Router<BasicRequestContext>) {
        router.put("/v1/debug-files") { request, _ in try await upload(request) }
        router.get("/v1/debug-files/:id") { _, context in
            let (store, id) = try storeAndID(context)
            guard let file = store.store.info(for: id) else { throw HTTPError(.notFound, message: "\(id) is not in the store\n") }
            return try Self.json(StoredFileInfo(file), status: .ok)
        }
        router.delete("/v1/debug-files/:id") { request, context in
            try authorize(request)
            let (store, id) = try storeAndID(context)
            guard store.store.remove(id) else { throw HTTPError(.notFound, message: "\(id) is not in the store\n") }
            symbolicator.invalidate()
            return Response(status: .noContent)
        }
    }

    private func storeAndID(_ context: BasicRequestContext) throws -> (ServeStore, DebugID) {
        guard let store else { throw HTTPError(.notFound, message: "this server has no store\n") }
        // Hex only (a UUID, dashed or not, or a build ID): never a path.
        guard let text = context.parameters.get("id"), text.count <= 80, let id = DebugID(parsing: text) else {
            throw HTTPError(.badRequest, message: "the id is a UUID or a build ID in hex\n")
        }
        return (store, id)
    }

    /// Uploads and deletions need `Authorization: Bearer <SYMBOLICATE_SERVE_TOKEN>`; a server
    /// started without a token has a read-only store.
    func authorize(_ request: Request) throws {
        guard let token = configuration.token, !token.isEmpty else {
            metrics.refused("token")
            throw HTTPError(
                .forbidden, message: "the store is read-only: start the server with SYMBOLICATE_SERVE_TOKEN set to allow changes\n")
        }
        let given = request.headers[.authorization] ?? ""
        guard Self.sameBytes(given, "Bearer " + token) else {
            metrics.refused("token")
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "a bearer token is needed to change the store\n")
        }
    }

    /// Compares in time that depends on the length only, so the token cannot be guessed byte by byte.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    private func upload(_ request: Request) async throws -> Response {
        try authorize(request)
        guard let store else { throw HTTPError(.notFound, message: "this server has no store\n") }
        let replace = try Self.asksToReplace(request)
        let limit = configuration.limits.uploadBytes
        return try await limited(bodyLimit: limit, request: request, collect: false) { _ in
            // Streamed to a private file (an upload may be hundreds of MiB), stored from there.
            let file = try await Self.receive(request.body, limit: limit)
            defer {
                unlink(file)
                TemporaryFiles.unregister(file)
            }
            let result = await workers.run { () -> Result<DebugFileStore.PutResult, DebugFileStoreError> in
                Result { () throws(DebugFileStoreError) in try store.store.put(fileAt: file, origin: "upload", replace: replace) }
            }
            switch result {
            case .success(let put):
                symbolicator.invalidate()
                for replaced in put.replaced {
                    logger.notice(
                        "replaced a stored debug file",
                        metadata: ["id": "\(replaced.new.debugID)", "was": "\(replaced.old.summary)", "now": "\(replaced.new.summary)"])
                }
                let answer = PutAnswer(
                    stored: put.stored.map(StoredFileInfo.init), replaced: put.replaced.map { StoredFileInfo($0.old) }, notes: put.notes)
                return try Self.json(answer, status: .created)
            case .failure(let error) where !error.conflicts.isEmpty:
                let answer = ConflictAnswer(
                    error:
                        "a different file is already stored under the same identity; nothing was stored "
                        + "(PUT again with ?replace=1 to replace it)",
                    conflicts: error.conflicts.map { .init(stored: StoredFileInfo($0.stored), upload: StoredFileInfo($0.incoming)) })
                return try Self.json(answer, status: .conflict)
            case .failure(let error):
                // The private file's name means nothing to the client.
                let message = error.message.replacingOccurrences(of: file, with: "the upload")
                throw HTTPError(.unprocessableContent, message: "not stored: \(message)\n")
            }
        }
    }

    /// Whether an upload may replace different files stored under its identities:
    /// `?replace=1` (as every flag: 1/true/yes or 0/false/no).
    static func asksToReplace(_ request: Request) throws -> Bool {
        try flag("replace", in: request)
    }

    /// Writes the body to a new private file, refusing it past `limit` bytes.
    static func receive(_ body: RequestBody, limit: Int) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-upload-\(UUID().uuidString)").path
        var fd: Int32 = -1
        // Registered before it exists: a signal or `exit()` mid-upload removes it too.
        guard
            TemporaryFiles.create(
                path,
                {
                    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                    return fd >= 0
                })
        else { throw HTTPError(.internalServerError, message: "cannot receive the upload\n") }
        defer { close(fd) }
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= limit else { throw HTTPError(.contentTooLarge, message: "the upload is over the \(limit)-byte limit\n") }
                try chunk.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count, let base = bytes.baseAddress {
                        let count = write(fd, base + offset, bytes.count - offset)
                        if count < 0 {
                            if errno == EINTR { continue }
                            throw HTTPError(.internalServerError, message: "cannot receive the upload\n")
                        }
                        offset += count
                    }
                }
            }
        } catch {
            unlink(path)
            TemporaryFiles.unregister(path)
            throw error
        }
        return path
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
