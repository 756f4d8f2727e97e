import Foundation
import Hummingbird
import SymbolicateCore
import SymbolicateStoreIndex
import SymbolicateStoreIndexPostgres
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

    /// Opens the store at `root` with its index: the SQLite file kept with the files, or the
    /// PostgreSQL database `indexURL` names (several servers sharing the store folder).
    package init(root: String, indexURL: String? = nil) throws(DebugFileStoreError) {
        store = try DebugFileStore(root: root, index: try Self.openIndex(indexURL), checkIndex: true)
    }

    /// Whether `text` can name a store index (`--store-index`): a `postgres://` URL.
    package static func isIndexURL(_ text: String) -> Bool { PostgresIndexURL.isPostgres(text) }

    /// The index `url` names, nil for none (the store's own SQLite file).
    static func openIndex(_ url: String?) throws(DebugFileStoreError) -> (any StoreIndex)? {
        guard let url else { return nil }
        guard isIndexURL(url) else {
            throw DebugFileStoreError(path: url, message: "not a store index: write postgres://USER@HOST:PORT/DATABASE")
        }
        do { return try PostgresStoreIndex(url: url) } catch {
            throw DebugFileStoreError(path: error.location, message: error.message)
        }
    }

    /// One `stat`: asked for every image of a report that the index has no file for.
    package func contains(_ id: DebugID) -> Bool {
        FileManager.default.fileExists(atPath: store.dataPath(for: id))
    }

    /// Whether this process may change the store's folder.
    var isWritable: Bool { access(root, W_OK) == 0 }

    func figures() -> (bytes: UInt64, entries: Int) {
        let figures = store.figures()
        return (figures.bytes, figures.entries)
    }

    /// Makes the index of the store at `root` again from its folders (`symbolicate store --rebuild-index`).
    /// - Returns: the entries indexed, and a line for each folder that is no entry.
    /// `indexURL`: the PostgreSQL index to rebuild instead of the store's own SQLite file.
    package static func rebuildIndex(at root: String, indexURL: String? = nil) throws(DebugFileStoreError) -> (
        entries: Int, problems: [String]
    ) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DebugFileStoreError(path: root, message: "is not a folder")
        }
        let store = try DebugFileStore(root: root, index: try openIndex(indexURL), checkIndex: true)
        // A damaged index was made again as the store opened: said first.
        let rebuilt = try store.rebuildIndex()
        return (rebuilt.entries, (store.indexRecovery.map { [$0] } ?? []) + rebuilt.problems)
    }

    /// Prefix of an upload's private file in the temporary folder (`receive`).
    static let uploadPrefix = "symbolicate-upload-"

    /// Removes upload files a killed server left in the temporary folder (`folder`, default
    /// TMPDIR): only regular files of this user named as `receive` names them, untouched for
    /// `grace` seconds (another server's upload under way is never touched).
    /// - Returns: the paths removed.
    @discardableResult
    package static func sweepUploads(
        in folder: String = FileManager.default.temporaryDirectory.path, olderThan grace: TimeInterval = DebugFileStore.sweepGrace,
        now: Date = Date()
    ) -> [String] {
        let cutoff = now.addingTimeInterval(-grace)
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(uploadPrefix) && UUID(uuidString: String(name.dropFirst(uploadPrefix.count))) != nil {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == getuid(),
                let modified = attributes[.modificationDate] as? Date, modified < cutoff, unlink(path) == 0
            else { continue }
            removed.append(path)
        }
        return removed
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
    /// Inbox reports that waited for these debug files and were symbolicated again (absent
    /// without an inbox or when none waited).
    var resymbolicated: Int?
}

/// A refused upload: a different file is stored under an identity it holds (`409`).
struct ConflictAnswer: Codable {
    var error: Detail
    var conflicts: [Conflict]

    /// As every API error: `{"error": {"code": "conflict", "message": …, "status": 409}}`.
    struct Detail: Codable {
        var code = APIErrorCode.conflict.rawValue
        var message: String
        var status: Int
    }

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
            guard let file = store.store.info(for: id) else { throw HTTPError(.notFound, message: "\(id) is not in the store") }
            return try Self.json(StoredFileInfo(file), status: .ok)
        }
        router.delete("/v1/debug-files/:id") { request, context in
            try authorize(request)
            let (store, id) = try storeAndID(context)
            let removed = await workers.run { () -> Removal in
                guard store.contains(id) else { return .absent }
                if store.store.remove(id) { return .removed }
                return store.isWritable ? .failed : .readOnly
            }
            switch removed {
            case .removed: break
            case .absent: throw HTTPError(.notFound, message: "\(id) is not in the store")
            case .readOnly:
                throw HTTPError(.forbidden, message: "the store's folder is read-only for this server: \(id) cannot be removed")
            case .failed: throw HTTPError(.internalServerError, message: "\(id) could not be removed from the store")
            }
            metrics.deleted()
            symbolicator.invalidate()
            return Response(status: .noContent)
        }
    }

    private enum Removal: Sendable { case removed, absent, readOnly, failed }

    private func storeAndID(_ context: BasicRequestContext) throws -> (ServeStore, DebugID) {
        guard let store else { throw HTTPError(.notFound, message: "this server has no store") }
        // Hex only (a UUID, dashed or not, or a build ID): never a path.
        guard let text = context.parameters.get("id"), text.count <= 80, let id = DebugID(parsing: text) else {
            throw HTTPError(.badRequest, message: "the id is a UUID or a build ID in hex")
        }
        return (store, id)
    }

    /// Uploads and deletions need `Authorization: Bearer <SYMBOLICATE_SERVE_TOKEN>`; a server
    /// started without a token has a read-only store.
    func authorize(_ request: Request) throws {
        if let refusal = tokenRefusal(request.headers[.authorization]) {
            metrics.refused("token")
            throw refusal
        }
    }

    /// Why an `Authorization` header does not allow changing the store, or nil: no token on
    /// the server (403), none given (401), or another one (401, said differently).
    func tokenRefusal(_ given: String?) -> HTTPError? {
        guard let token = configuration.token, !token.isEmpty else {
            return HTTPError(
                .forbidden, message: "the store is read-only: start the server with SYMBOLICATE_SERVE_TOKEN set to allow changes")
        }
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer"]
        guard let given, !given.isEmpty else {
            return HTTPError(
                .unauthorized, headers: challenge,
                message: "a bearer token is needed to change the store: send Authorization: Bearer <SYMBOLICATE_SERVE_TOKEN>")
        }
        guard Self.sameBytes(given, "Bearer " + token) else {
            return HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#],
                message: "the bearer token is not this server's SYMBOLICATE_SERVE_TOKEN")
        }
        return nil
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
        guard let store else { throw HTTPError(.notFound, message: "this server has no store") }
        let replace = try Self.asksToReplace(request)
        let limit = configuration.limits.uploadBytes
        // The image name for a lone binary (a zip or dSYM names its own): `?name=`, else "upload".
        let name = request.uri.queryParameters["name"].map(String.init).flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 } ?? "upload"
        // Streamed to a private file (an upload may be hundreds of MiB), stored from there.
        let discard: @Sendable (String) -> Void = { file in
            unlink(file)
            TemporaryFiles.unregister(file)
        }
        return try await limited(
            bodyLimit: limit, request: request, receive: { try await Self.receive($0, limit: limit, pace: $1) }, discard: discard
        ) { file in
            defer { discard(file) }
            let result = await workers.run { () -> Result<DebugFileStore.PutResult, DebugFileStoreError> in
                Result { () throws(DebugFileStoreError) in try store.store.put(fileAt: file, name: name, origin: "upload", replace: replace)
                }
            }
            let scrub = { (text: String) in Self.scrub(text, file: file) }
            // The inbox's reports that waited for these files, symbolicated with them now.
            var resymbolicated = 0
            if case .success(let put) = result, inbox != nil {
                symbolicator.invalidate()
                let written = put.written
                resymbolicated = await workers.run { resymbolicateWaiting(for: written) }
            }
            switch result {
            case .success(let put):
                symbolicator.invalidate()
                metrics.stored(files: put.stored.count, bytes: put.stored.reduce(0) { $0 &+ $1.size })
                for replaced in put.replaced {
                    logger.notice(
                        "replaced a stored debug file",
                        metadata: ["id": "\(replaced.new.debugID)", "was": "\(replaced.old.summary)", "now": "\(replaced.new.summary)"])
                }
                var answer = PutAnswer(
                    stored: put.stored.map(StoredFileInfo.init), replaced: put.replaced.map { StoredFileInfo($0.old) },
                    notes: put.notes.map(scrub), resymbolicated: resymbolicated > 0 ? resymbolicated : nil)
                for index in answer.stored.indices { answer.stored[index].name = scrub(answer.stored[index].name) }
                for index in answer.replaced.indices { answer.replaced[index].name = scrub(answer.replaced[index].name) }
                // 201 when this upload wrote something; 200 when all it holds was there already
                // (the same bytes, or a file with DWARF kept over one without).
                return try Self.json(answer, status: put.written.isEmpty ? .ok : .created)
            case .failure(let error) where !error.conflicts.isEmpty:
                // The API's one error shape, with both descriptions beside it.
                var conflicts = error.conflicts.map {
                    ConflictAnswer.Conflict(stored: StoredFileInfo($0.stored), upload: StoredFileInfo($0.incoming))
                }
                for index in conflicts.indices { conflicts[index].upload.name = scrub(conflicts[index].upload.name) }
                let answer = ConflictAnswer(
                    error: .init(
                        message: "a different file is already stored under the same identity; nothing was stored "
                            + "(PUT again with ?replace=1 to replace it)",
                        status: 409),
                    conflicts: conflicts)
                return try Self.json(answer, status: .conflict)
            case .failure(let error):
                // About the upload itself (not a debug file, no identity): the client's; about
                // the store's folder (cannot write): the server's.
                if error.path.hasPrefix(store.root + "/") || error.path == store.root {
                    logger.error("upload not stored", metadata: ["reason": "\(error)"])
                    throw HTTPError(.internalServerError, message: "not stored: the store cannot be written; the server's log says why")
                }
                throw HTTPError(.unprocessableContent, message: "not stored: \(scrub(error.message))")
            }
        }
    }

    /// Whether an upload may replace different files stored under its identities:
    /// `?replace=1` (as every flag: 1/true/yes or 0/false/no).
    static func asksToReplace(_ request: Request) throws -> Bool {
        try flag("replace", in: request)
    }

    /// Text about an upload without the server's own paths: the private file is "the upload",
    /// and the name of any other private file or folder of this process is left out.
    package static func scrub(_ text: String, file: String) -> String {
        var text = text.replacingOccurrences(of: file, with: "the upload")
        let temporary = FileManager.default.temporaryDirectory.path
        // Every spelling of it: as given, as Foundation resolves it, and as the kernel does
        // (on macOS /var is a link to /private/var, which Foundation's resolving drops again).
        let real = realpath(temporary, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        for folder in Set([temporary, (temporary as NSString).resolvingSymlinksInPath, real ?? temporary]) where folder.count > 1 {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            while let start = text.range(of: prefix) {
                // Up to the end of the path: the next space, colon or quote.
                let end = text[start.upperBound...].firstIndex { " :\"'\n".contains($0) } ?? text.endIndex
                let inner = text[start.upperBound..<end]
                let last = inner.split(separator: "/").last.map(String.init) ?? ""
                text.replaceSubrange(start.lowerBound..<end, with: last.hasPrefix("symbolicate-") || last.isEmpty ? "the upload" : last)
            }
        }
        return text
    }

    /// Writes the body to a new private file, refusing it past `limit` bytes.
    static func receive(_ body: RequestBody, limit: Int, pace: BodyPace? = nil) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(ServeStore.uploadPrefix + UUID().uuidString).path
        var fd: Int32 = -1
        // Registered before it exists: a signal or `exit()` mid-upload removes it too.
        guard
            TemporaryFiles.create(
                path,
                {
                    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                    return fd >= 0
                })
        else { throw HTTPError(.internalServerError, message: "cannot receive the upload") }
        defer { close(fd) }
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= limit else { throw HTTPError(.contentTooLarge, message: "the upload is over the \(limit)-byte limit") }
                try chunk.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count, let base = bytes.baseAddress {
                        let count = write(fd, base + offset, bytes.count - offset)
                        if count < 0 {
                            if errno == EINTR { continue }
                            throw HTTPError(.internalServerError, message: "cannot receive the upload")
                        }
                        offset += count
                    }
                }
                try pace?.received(chunk.readableBytes)
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
