import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateSymbolStore
import SymbolicateSymbolication

/// One `POST /v1/symbolicate`: the body and what the query and headers asked for.
package struct SymbolicateCall: Sendable {
    package var body: Data
    package var format: OutputFormat = .text
    package var explain = false
    package var language: Language = .english
    package var headline = false
    package var resymbolicate = false

    package init(body: Data) { self.body = body }
}

/// What a call produced: the CLI's standard output for the same report and debug files, the
/// messages its standard error would show, and its exit status.
package struct SymbolicateAnswer: Sendable {
    package var output: String?
    package var messages: [String]
    package var status: ExitStatus
    /// What stopped the run, if anything (whose fault it is decides the HTTP status).
    package var failure: ReportFailure?

    package init(output: String?, messages: [String], status: ExitStatus, failure: ReportFailure? = nil) {
        self.output = output
        self.messages = messages
        self.status = status
        self.failure = failure
    }
}

/// Symbolicates request bodies with the server's debug files (`--debug-files` and the store),
/// through the CLI's own `ReportRequest`, so a body gives the bytes `symbolicate -` gives for
/// the same debug files.
///
/// The `--debug-files` are indexed and opened once and shared by every request. The store is
/// never walked: each identity a report names is looked up in it, and the files found stay
/// open in a bounded least-recently-used set (`StoreDebugFiles`), checked against the store on
/// each use, so an upload or a deletion, here or by another instance, counts from the next
/// request on.
package final class Symbolicator: @unchecked Sendable {
    package let debugFiles: [String]
    package let store: (any StoreFolder)?
    private let lock = NSLock()
    /// The `--debug-files` as requests see them: each named by its file name only.
    private var base: DebugFileIndex?
    /// The index `base` was made from, kept for its unpacked zips.
    private var opened: DebugFileIndex?
    private let sessions: DebugSessionCache
    private let storeFiles: StoreDebugFiles?
    private let metrics: ServeMetrics?
    private let storeImagesPerRequest: Int
    /// The checkout whose lines go with every answer (`--source-root`), shared by all requests
    /// (its git answers are cached); nil shows none.
    package let sourceContext: SourceContextProvider?

    /// - Parameters:
    ///   - debugFiles: the `--debug-files`, indexed once.
    ///   - store: the debug-file store, looked up by identity for each request.
    ///   - metrics: where symbolications are counted.
    ///   - openStoreFiles: most store files kept open (mapped) between requests.
    ///   - storeImagesPerRequest: most store identities one request opens: a report naming
    ///     more stored images (tens of thousands, a denial of service) has the rest left as
    ///     they are, so one request cannot take the process's mappings (`MappingBudget`).
    ///   - sourceContext: the `--source-root` checkout, for every request.
    ///   - objectPathMap: `--object-path-map`, carried by the shared sessions as `report`'s run carries it.
    package init(
        debugFiles: [String], store: (any StoreFolder)?, metrics: ServeMetrics? = nil, openStoreFiles: Int = 256,
        storeImagesPerRequest: Int = 1024, sourceContext: SourceContextProvider? = nil, objectPathMap: ObjectPathMap = ObjectPathMap()
    ) {
        self.debugFiles = debugFiles
        self.sourceContext = sourceContext
        self.store = store
        self.metrics = metrics
        self.storeImagesPerRequest = storeImagesPerRequest
        let sessions = DebugSessionCache(objectPathMap: objectPathMap)
        self.sessions = sessions
        storeFiles = store.map { StoreDebugFiles(store: $0.store, capacity: openStoreFiles, sessions: sessions) }
    }

    /// The index inputs: what the CLI is given for the same result (`symbolicate - FILES… STORE`).
    package var indexInputs: [String] { debugFiles + (store.map { [$0.root] } ?? []) }

    /// Checks the command-line debug files once at start-up, so a typo stops the server
    /// rather than every request.
    package func validate() throws(DiscoveryError) {
        let index = try DebugFileIndex(inputs: debugFiles)
        let shown = Self.hidingPaths(index)
        lock.lock()
        (base, opened) = (shown, index)
        lock.unlock()
    }

    /// The index with each debug file named by its file name (`CrashApp.app.dSYM`), never by
    /// the server's path to it: what a request's answer says of the debug files it used
    /// (the JSON's `debug_files`, a UUID mismatch's note) is read by web users.
    static func hidingPaths(_ index: DebugFileIndex) -> DebugFileIndex {
        guard !index.entries.isEmpty, let empty = try? DebugFileIndex(inputs: []) else { return index }
        let renamed = index.entries.map { entry -> DebugFileEntry in
            var entry = entry
            entry.displayPath = (entry.displayPath as NSString).lastPathComponent
            return entry
        }
        return DebugFileIndex(adding: renamed, to: empty)
    }

    /// Closes the store files it keeps open (after an upload or a deletion).
    package func invalidate() {
        storeFiles?.closeAll()
    }

    /// Number of store identities whose files are open now.
    package var openStoreFileCount: Int { storeFiles?.openCount ?? 0 }

    /// Runs one call. Never throws; the work is synchronous (call it off the event loop).
    /// `shouldStop` is asked between stages: true stops the run there (`ReportFailure.stopped`).
    package func run(_ call: SymbolicateCall, shouldStop: (@Sendable () -> Bool)? = nil) -> SymbolicateAnswer {
        var request = ReportRequest(
            report: .bytes(call.body, name: StandardInput.displayName), debugFiles: indexInputs, searchFolders: [],
            searchesNearReport: false, resymbolicate: call.resymbolicate, explain: call.explain, format: call.format,
            color: .never, headline: call.headline, destination: .standardOutput, terminal: .none, language: call.language)
        request.preparedDebugFiles = { [self] reports throws(DiscoveryError) in try self.debugFiles(for: reports) }
        request.shouldStop = shouldStop
        request.sourceContext = sourceContext
        let response = request.run()
        storeFiles?.forgetClosedSessions()
        if response.failure == .stopped { metrics?.abandoned() }
        let frames = response.reports.reduce(0) { $0 + ($1.summary?.framesSymbolicated ?? 0) }
        let lookups = response.reports.reduce(0) { $0 + ($1.summary?.debugFiles.count ?? 0) }
        if response.output != nil { metrics?.symbolicated(frames: frames, lookups: lookups) }
        return SymbolicateAnswer(
            output: response.standardOutput, messages: response.messages.map { $0.text(tool: "symbolicate") },
            status: response.status, failure: response.failure)
    }

    /// Symbolicates and diagnoses a body for the crash inbox: the reports themselves (the
    /// inbox keeps their facts, not a rendering), or what stopped them.
    package func process(_ body: Data, shouldStop: (@Sendable () -> Bool)? = nil) -> (
        reports: [ProcessedReport], failure: ReportFailure?
    ) {
        var request = ReportRequest(
            report: .bytes(body, name: StandardInput.displayName), debugFiles: indexInputs, searchFolders: [],
            searchesNearReport: false, explain: true, format: .json, color: .never, destination: .standardOutput, terminal: .none)
        request.preparedDebugFiles = { [self] reports throws(DiscoveryError) in try self.debugFiles(for: reports) }
        request.shouldStop = shouldStop
        let response = request.run()
        storeFiles?.forgetClosedSessions()
        let frames = response.reports.reduce(0) { $0 + ($1.summary?.framesSymbolicated ?? 0) }
        let lookups = response.reports.reduce(0) { $0 + ($1.summary?.debugFiles.count ?? 0) }
        if response.output != nil { metrics?.symbolicated(frames: frames, lookups: lookups) }
        return (response.failure == nil ? response.reports : [], response.failure)
    }

    /// The `--debug-files` index with the store's files for the identities these reports name.
    /// Throws what the CLI would say of the same inputs (a `--debug-files` path that is gone).
    func debugFiles(for reports: [CrashReport]) throws(DiscoveryError) -> PreparedDebugFiles {
        lock.lock()
        let known = base
        lock.unlock()
        let index: DebugFileIndex
        if let known {
            index = known
        } else {
            let made = try DebugFileIndex(inputs: debugFiles)
            index = Self.hidingPaths(made)
            lock.lock()
            (base, opened) = (index, made)
            lock.unlock()
        }
        guard let storeFiles else { return PreparedDebugFiles(index: index, sessions: sessions) }
        var more: [DebugFileEntry] = []
        var asked: Set<DebugID> = []
        var opened = 0
        for report in reports {
            for image in report.binaryImages where opened < storeImagesPerRequest {
                guard let id = image.debugID, asked.insert(id).inserted, index.entries(id: id).isEmpty else { continue }
                let found = storeFiles.entries(for: id)
                if !found.isEmpty { opened += 1 }
                more += found
            }
        }
        return PreparedDebugFiles(index: more.isEmpty ? index : DebugFileIndex(adding: more, to: index), sessions: sessions)
    }
}

/// What the symbolicator needs of the debug-file store: its folder (what the CLI would be
/// given for the same answer) and the store, to look identities up in.
package protocol StoreFolder: Sendable {
    var root: String { get }
    var store: DebugFileStore { get }
}
