import Foundation
import SymbolicateCore
import SymbolicateDiscovery
import SymbolicateSymbolStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debug files fetched by identity, for the images local files did not answer: first the
/// cache, then lldb's file-mapped UUID folders and dsymForUUID commands (UUIDs), HTTP symbol
/// servers (any identity) and debuginfod (build IDs), in that order.
///
/// Each identity is fetched once per run however many reports ask (batch mode's threads wait
/// for the one fetch in flight), and downloads of one report or batch run side by side
/// (`prefetch`). Every answer is read by content and must hold the identity asked for; a file
/// that does not is refused with a warning. A server that cannot be reached is not asked again
/// in the run; "not found" is remembered in the cache for `negativeLifetime`. Nothing here
/// throws or stops a run: what went wrong is a message, and the report goes on without it.
package final class SymbolSources: RemoteDebugFiles, @unchecked Sendable {
    package let settings: SymbolSourceSettings
    /// Called while a download runs: (what, bytes so far, expected total). The CLI draws a
    /// progress line on a terminal's stderr.
    package var progress: (@Sendable (String, UInt64, UInt64?) -> Void)?

    private let lock = NSLock()
    private var slots: [DebugID: Slot] = [:]
    private var messages: [String] = []
    private var said: Set<String> = []
    /// Sources that could not be reached, by label: not asked again this run.
    private var down: Set<String> = []
    /// Indexes of fetched files, kept for the run (their entries map the files).
    private var indexes: [DebugFileIndex] = []
    private var store: DebugFileStore?
    private var storeChecked = false
    /// This run's private store, when the cache cannot be written.
    private var fallback: DebugFileStore?
    private var cacheUnwritable = false
    private var fallbackFolder: String?
    private var addedSinceEviction: UInt64 = 0
    private var usedThisRun: Set<DebugID> = []
    private var downloader: HTTPDownloader?

    /// The HTTP client, made on first use (a run answered by the cache makes none).
    private func httpDownloader() -> HTTPDownloader {
        lock.lock()
        defer { lock.unlock() }
        if let downloader { return downloader }
        let made = HTTPDownloader(timeout: settings.timeout, maximumSize: settings.maximumDownloadSize)
        downloader = made
        return made
    }

    /// What the run did, for tests and `--verbose`-like summaries.
    package struct Statistics: Sendable, Equatable {
        package var cacheHits = 0
        package var downloads = 0
        package var commandsRun = 0
    }
    private var stats = Statistics()
    package var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    package init(settings: SymbolSourceSettings) {
        self.settings = settings
    }

    deinit {
        if let fallbackFolder {
            try? FileManager.default.removeItem(atPath: fallbackFolder)
            TemporaryFiles.unregister(fallbackFolder)
        }
    }

    // MARK: RemoteDebugFiles

    package func prefetch(_ wanted: [WantedDebugFile]) {
        let unique = Array(Dictionary(wanted.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }).values)
        guard unique.count > 1 else { return }
        // Each fetch waits on the network, not the CPU: more than the cores, within a bound.
        let width = max(1, settings.parallelDownloads)
        let queue = DispatchQueue(label: "symbolicate.fetch", attributes: .concurrent)
        let gate = DispatchSemaphore(value: width)
        let group = DispatchGroup()
        for item in unique {
            gate.wait()
            queue.async(group: group) {
                _ = self.entries(for: item)
                gate.signal()
            }
        }
        group.wait()
    }

    package func entries(for wanted: WantedDebugFile) -> [DebugFileEntry] {
        lock.lock()
        if let slot = slots[wanted.id] {
            lock.unlock()
            return slot.wait()
        }
        let slot = Slot()
        slots[wanted.id] = slot
        lock.unlock()
        let found = resolve(wanted)
        slot.finish(found)
        return found
    }

    package func takeMessages() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let out = messages
        messages.removeAll()
        return out
    }

    private func say(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        if said.insert(line).inserted { messages.append(line) }
    }

    /// One identity's fetch, shared by every caller asking while it runs.
    private final class Slot: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: [DebugFileEntry] = []
        func finish(_ entries: [DebugFileEntry]) {
            result = entries
            done.signal()
        }
        func wait() -> [DebugFileEntry] {
            done.wait()
            done.signal()
            return result
        }
    }

    // MARK: The order of sources

    /// The places to ask, in order, for one identity.
    enum Source {
        case fileMapped(String)
        case command(String)
        case server(SymbolServer)
        case debuginfod(String)

        var label: String {
            switch self {
            case .fileMapped(let folder): return "DBGFileMappedPaths folder \(folder)"
            case .command(let command): return "dsymForUUID command \(command)"
            case .server(let server): return "symbol server \(server.description)"
            case .debuginfod(let base): return "debuginfod server \(base)"
            }
        }
    }

    func sources(for wanted: WantedDebugFile) -> [Source] {
        var out: [Source] = []
        if wanted.isUUID {
            out += settings.fileMappedPaths.map(Source.fileMapped)
            out += settings.dsymForUUID.map(Source.command)
        }
        out += settings.servers.map(Source.server)
        if !wanted.isUUID { out += settings.debuginfod.map(Source.debuginfod) }
        return out
    }

    private func resolve(_ wanted: WantedDebugFile) -> [DebugFileEntry] {
        if let store = cacheStore(), let item = store.lookup(wanted.id) {
            let found = entries(atPath: item.path, for: wanted, shownAs: item.origin.map { "\($0) (cached)" } ?? item.path)
            if !found.isEmpty {
                count { $0.cacheHits += 1 }
                markUsed(wanted.id)
                return found
            }
        }
        guard !settings.offline else { return [] }
        // Sources that answered "not here" (a failure was a warning of its own).
        var asked: [String] = []
        for source in sources(for: wanted) {
            if isDown(source.label) { continue }
            if isKnownMissing(wanted.id, from: source.label) {
                asked.append(source.label)
                continue
            }
            let found: [DebugFileEntry]?
            switch source {
            case .fileMapped(let folder): found = fileMapped(folder, wanted)
            case .command(let command): found = runCommand(command, wanted)
            case .server(let server): found = fetch(server.urls(for: wanted), label: source.label, wanted)
            case .debuginfod(let base):
                let hex = wanted.id.hexString
                found = fetch(["\(base)/buildid/\(hex)/debuginfo", "\(base)/buildid/\(hex)/executable"], label: source.label, wanted)
            }
            if let found, !found.isEmpty { return found }
            if found != nil {
                asked.append(source.label)
                rememberMissing(wanted.id, from: source.label)
            }
        }
        if wanted.isAppImage, !asked.isEmpty {
            say("note: no symbol source has \(wanted.name) \(wanted.id) (asked: \(asked.joined(separator: ", ")))")
        }
        return []
    }

    // MARK: Local conventions (lldb)

    /// `<folder>/XXXX/XXXX/XXXX/XXXX/XXXX/XXXXXXXXXXXX`: a dSYM, its DWARF file, or a link to either.
    /// Empty when the folder does not have it; nil when what it has is refused.
    private func fileMapped(_ folder: String, _ wanted: WantedDebugFile) -> [DebugFileEntry]? {
        let path = folder + "/" + SymbolServer.uuidPath(wanted.id)
        let candidates = [path, path + ".dSYM"].filter { FileManager.default.fileExists(atPath: $0) }
        guard let first = candidates.first else { return [] }
        return checkedLocal(first, wanted, label: "DBGFileMappedPaths folder \(folder)")
    }

    private func runCommand(_ command: String, _ wanted: WantedDebugFile) -> [DebugFileEntry]? {
        count { $0.commandsRun += 1 }
        let label = "dsymForUUID command \(command)"
        switch DsymForUUID(command: command, timeout: settings.timeout).run(wanted.id) {
        case .path(let path):
            return checkedLocal(path, wanted, label: label)
        case .notFound:
            return []
        case .failed(let why):
            say("warning: \(label): \(why); \(wanted.name) \(wanted.id) not found there")
            return nil
        }
    }

    /// A local file a convention pointed at, refused (nil) unless it holds the identity.
    private func checkedLocal(_ path: String, _ wanted: WantedDebugFile, label: String) -> [DebugFileEntry]? {
        let found = entries(atPath: path, for: wanted, shownAs: nil)
        if found.isEmpty {
            let held = (try? DebugFileIndex(inputs: [path]))?.entries.map { "\($0.debugID) (\($0.architecture))" } ?? []
            say(
                "warning: \(label) named \(path) for \(wanted.name) \(wanted.id), but it holds \(held.isEmpty ? "no debug file" : held.joined(separator: ", ")); refused"
            )
            return nil
        }
        return found
    }

    // MARK: HTTP

    /// Tries the URLs of one source in order. Nil when the source failed (not "not found").
    private func fetch(_ urls: [String], label: String, _ wanted: WantedDebugFile) -> [DebugFileEntry]? {
        var failed = false
        for url in urls {
            switch download(url, label: label, wanted) {
            case .found(let entries): return entries
            case .notFound: continue
            case .failed: failed = true
            case .unreachable: return nil
            }
        }
        return failed ? nil : []
    }

    private enum Fetched {
        case found([DebugFileEntry])
        case notFound
        case failed
        case unreachable
    }

    private func download(_ url: String, label: String, _ wanted: WantedDebugFile) -> Fetched {
        let shown = HTTPDownloader.withoutQuery(url)
        guard let incoming = incomingFolder() else { return .failed }
        var attempt = 0
        while true {
            let temporary = incoming + "/" + "fetch-" + String(UInt64.random(in: .min ... .max), radix: 16)
            TemporaryFiles.register(temporary)
            defer {
                unlink(temporary)
                TemporaryFiles.unregister(temporary)
            }
            let what = "\(wanted.name) from \(HTTPDownloader.host(url) ?? label)"
            var onProgress: (@Sendable (UInt64, UInt64?) -> Void)?
            if let report = progress {
                onProgress = { received, expected in report(what, received, expected) }
            }
            let headers = settings.headers
            let outcome = httpDownloader().download(
                url, to: temporary,
                headersFor: { host in headers.filter { $0.host == host }.map { ($0.name, $0.value) } },
                progress: onProgress)
            let retryable: String
            switch outcome {
            case .downloaded:
                count { $0.downloads += 1 }
                return stored(temporary, from: shown, label: label, wanted)
            case .status(404), .status(410):
                return .notFound
            case .status(let status) where status == 408 || status == 429 || status >= 500:
                retryable = "HTTP \(status)"
            case .status(let status):
                let hint = status == 401 || status == 403 ? " (credentials: SYMBOLICATE_SYMBOL_SERVER_HEADERS)" : ""
                say("warning: \(label): HTTP \(status) for \(shown)\(hint); \(wanted.name) \(wanted.id) not fetched")
                return .failed
            case .failed(let why, reachable: false):
                // Parallel fetches may all meet it: said once.
                if markDown(label) { say("warning: \(label): \(why) (\(shown)); not asked again in this run") }
                return .unreachable
            case .failed(let why, reachable: true):
                retryable = why
            }
            attempt += 1
            if attempt > settings.retries {
                let tries = attempt == 1 ? "" : " (\(attempt) tries)"
                say("warning: \(label): \(retryable) for \(shown)\(tries); \(wanted.name) \(wanted.id) not fetched")
                return .failed
            }
            Thread.sleep(forTimeInterval: settings.backoff * pow(2, Double(attempt - 1)))
        }
    }

    /// A downloaded file into the cache, checked: it must hold the identity asked for.
    private func stored(_ temporary: String, from url: String, label: String, _ wanted: WantedDebugFile) -> Fetched {
        for _ in 0..<2 {
            guard let store = writableStore() else { return .failed }
            do {
                let result = try store.put(fileAt: temporary, name: wanted.name, origin: url, expected: wanted.id)
                guard let item = result.stored.first(where: { $0.debugID == wanted.id }) else { return .failed }
                markUsed(wanted.id)
                noteAdded(item.size, store)
                let found = entries(atPath: item.path, for: wanted, shownAs: url)
                return found.isEmpty ? .failed : .found(found)
            } catch let error where error.message.hasPrefix("identity mismatch") {
                say(
                    "warning: \(label): \(url) answered with the wrong file for \(wanted.name): \(error.message.replacingOccurrences(of: "identity mismatch: ", with: "")); refused"
                )
                return .failed
            } catch let error where error.message.hasPrefix("not a debug file") || error.message.hasPrefix("holds no debug file") {
                say(
                    "warning: \(label): \(url) did not answer with a debug file for \(wanted.name) \(wanted.id) (\(error.message)); refused"
                )
                return .failed
            } catch {
                // The cache could not be written: the run goes on with a private folder.
                useFallback(because: error)
            }
        }
        return .failed
    }

    // MARK: The cache

    private func cacheStore() -> DebugFileStore? {
        lock.lock()
        defer { lock.unlock() }
        if !storeChecked {
            storeChecked = true
            if let folder = settings.cacheDirectory {
                do { store = try DebugFileStore(root: folder + "/debug-files") } catch {
                    cacheUnwritable = true
                    if settings.offline {
                        messages.append("warning: the cache folder \(folder) cannot be used (\(error.message)); --offline finds nothing")
                    } else if settings.hasSources {
                        messages.append(
                            "warning: the cache folder \(folder) cannot be used (\(error.message)); downloads are kept for this run only")
                    }
                }
            }
        }
        return store
    }

    /// The store downloads go to: the cache, or this run's private folder when the cache
    /// cannot be written.
    private func writableStore() -> DebugFileStore? {
        lock.lock()
        let unwritable = cacheUnwritable
        lock.unlock()
        if !unwritable, let store = cacheStore() { return store }
        return fallbackStore()
    }

    private func fallbackStore() -> DebugFileStore? {
        lock.lock()
        defer { lock.unlock() }
        if let fallback { return fallback }
        let folder = NSTemporaryDirectory() + "symbolicate-downloads-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
        guard TemporaryFiles.create(folder, { mkdir(folder, 0o700) == 0 }) else { return nil }
        fallbackFolder = folder
        fallback = try? DebugFileStore(root: folder)
        return fallback
    }

    private func useFallback(because error: DebugFileStoreError) {
        lock.lock()
        let first = !cacheUnwritable
        cacheUnwritable = true
        lock.unlock()
        if first, let cache = settings.cacheDirectory {
            say("warning: the cache folder \(cache) cannot be written (\(error.message)); downloads are kept for this run only")
        }
    }

    private func incomingFolder() -> String? {
        guard let store = writableStore() else { return nil }
        let folder = store.root + "/.incoming"
        if mkdir(folder, 0o777) == 0 || errno == EEXIST, access(folder, W_OK) == 0, Self.canCreate(in: folder) { return folder }
        useFallback(because: DebugFileStoreError(path: folder, message: "cannot create files there"))
        guard let fallback = fallbackStore(), fallback.root != store.root else { return nil }
        let other = fallback.root + "/.incoming"
        _ = mkdir(other, 0o700)
        return other
    }

    /// Whether a file can be made in `folder` (root ignores modes; a read-only mount does not).
    private static func canCreate(in folder: String) -> Bool {
        let probe = folder + "/.probe-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }

    private func markUsed(_ id: DebugID) {
        lock.lock()
        usedThisRun.insert(id)
        lock.unlock()
    }

    /// Keeps the cache within its bound: checked on the first download of a run and then
    /// every twentieth of the bound downloaded, never evicting what this run uses.
    private func noteAdded(_ size: UInt64, _ store: DebugFileStore) {
        lock.lock()
        let first = addedSinceEviction == 0
        addedSinceEviction &+= max(1, size)
        let check = first || addedSinceEviction > settings.cacheSizeLimit / 20
        if check { addedSinceEviction = 1 }
        let keep = usedThisRun
        lock.unlock()
        guard check else { return }
        store.evict(toAtMost: settings.cacheSizeLimit, keeping: keep)
    }

    // MARK: Negative entries

    private func missingMarker(_ id: DebugID, _ label: String) -> String? {
        guard let folder = settings.cacheDirectory else { return nil }
        return "\(folder)/missing/\(Self.key(label))/\(id.hexString)"
    }

    private func isKnownMissing(_ id: DebugID, from label: String) -> Bool {
        guard settings.negativeLifetime > 0, let marker = missingMarker(id, label) else { return false }
        var info = stat()
        guard stat(marker, &info) == 0 else { return false }
        let age = Date().timeIntervalSince1970 - TimeInterval(RegularFile.modificationTime(info).seconds)
        return age >= 0 && age < settings.negativeLifetime
    }

    private func rememberMissing(_ id: DebugID, from label: String) {
        guard settings.negativeLifetime > 0, let marker = missingMarker(id, label) else { return }
        let folder = (marker as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd >= 0 {
            _ = write(fd, label, label.utf8.count)
            close(fd)
        }
    }

    /// A short stable name for a source (FNV-1a of its label).
    static func key(_ label: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    // MARK: Helpers

    private func isDown(_ label: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return down.contains(label)
    }

    /// True when the source was not marked already.
    private func markDown(_ label: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return down.insert(label).inserted
    }

    private func count(_ change: (inout Statistics) -> Void) {
        lock.lock()
        change(&stats)
        lock.unlock()
    }

    /// The entries of a file (or bundle) with the identity asked for, kept open for the run.
    private func entries(atPath path: String, for wanted: WantedDebugFile, shownAs: String?) -> [DebugFileEntry] {
        guard let index = try? DebugFileIndex(inputs: [path]) else { return [] }
        var found = index.entries(id: wanted.id, preferring: wanted.architecture)
        guard !found.isEmpty else { return [] }
        if let shownAs {
            for i in found.indices { found[i].displayPath = shownAs }
        }
        lock.lock()
        indexes.append(index)
        lock.unlock()
        return found
    }
}

extension WantedDebugFile {
    /// A Mach-O UUID (file-mapped folders, dsymForUUID, `{uuid}`) rather than an ELF build ID
    /// (debuginfod). A 16-byte build ID parses as a UUID too: the report's spelling decides.
    var isUUID: Bool { id.kind == .uuid }
}
