import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicatePresentation

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
/// The debug files are indexed and opened once and shared by every request; the index is made
/// again when the store changed: after an upload or deletion here, when a report needs an
/// identity another instance stored since, or when a file it used was removed by another instance.
package final class Symbolicator: @unchecked Sendable {
    package let debugFiles: [String]
    package let store: (any StoreFolder)?
    private let lock = NSLock()
    private var prepared: PreparedDebugFiles?
    private let metrics: ServeMetrics?

    package init(debugFiles: [String], store: (any StoreFolder)?, metrics: ServeMetrics? = nil) {
        self.debugFiles = debugFiles
        self.store = store
        self.metrics = metrics
    }

    /// The index inputs: what the CLI is given for the same result (`symbolicate - FILES… STORE`).
    package var indexInputs: [String] { debugFiles + (store.map { [$0.root] } ?? []) }

    /// Checks the command-line debug files once at start-up, so a typo stops the server
    /// rather than every request.
    package func validate() throws(DiscoveryError) {
        let index = try DebugFileIndex(inputs: indexInputs)
        lock.lock()
        prepared = PreparedDebugFiles(index: index)
        lock.unlock()
    }

    /// Forgets the index (after an upload or a deletion): the next request indexes again.
    package func invalidate() {
        lock.lock()
        prepared = nil
        lock.unlock()
    }

    /// Runs one call. Never throws; the work is synchronous (call it off the event loop).
    /// `shouldStop` is asked between stages: true stops the run there (`ReportFailure.stopped`).
    package func run(_ call: SymbolicateCall, shouldStop: (@Sendable () -> Bool)? = nil) -> SymbolicateAnswer {
        var request = ReportRequest(
            report: .bytes(call.body, name: StandardInput.displayName), debugFiles: indexInputs, searchFolders: [],
            searchesNearReport: false, resymbolicate: call.resymbolicate, explain: call.explain, format: call.format,
            color: .never, headline: call.headline, destination: .standardOutput, terminal: .none, language: call.language)
        request.preparedDebugFiles = { [self] reports throws(DiscoveryError) in try self.debugFiles(for: reports) }
        request.shouldStop = shouldStop
        let response = request.run()
        if response.failure == .stopped { metrics?.abandoned() }
        let frames = response.reports.reduce(0) { $0 + ($1.summary?.framesSymbolicated ?? 0) }
        let lookups = response.reports.reduce(0) { $0 + ($1.summary?.debugFiles.count ?? 0) }
        if response.output != nil { metrics?.symbolicated(frames: frames, lookups: lookups) }
        return SymbolicateAnswer(
            output: response.standardOutput, messages: response.messages.map { $0.text(tool: "symbolicate") },
            status: response.status, failure: response.failure)
    }

    /// The shared index, made again when it cannot be right for these reports any more.
    /// Throws what the CLI would say of the same inputs (a `--debug-files` path removed since).
    func debugFiles(for reports: [CrashReport]) throws(DiscoveryError) -> PreparedDebugFiles {
        lock.lock()
        defer { lock.unlock() }
        if let current = prepared, !isStale(current, for: reports) { return current }
        let fresh = PreparedDebugFiles(index: try DebugFileIndex(inputs: indexInputs))
        prepared = fresh
        return fresh
    }

    /// Stale when a report needs an identity the store holds but the index does not (stored by
    /// another instance), or when an indexed store file is gone (removed by another instance).
    private func isStale(_ prepared: PreparedDebugFiles, for reports: [CrashReport]) -> Bool {
        guard let store else { return false }
        for report in reports {
            for image in report.binaryImages {
                guard let id = image.debugID else { continue }
                let entries = prepared.index.entries(id: id)
                if entries.isEmpty {
                    if store.contains(id) { return true }
                } else if entries.contains(where: {
                    $0.path.hasPrefix(store.root + "/") && !FileManager.default.fileExists(atPath: $0.path)
                }) {
                    return true
                }
            }
        }
        return false
    }
}

/// What the symbolicator needs of the debug-file store: its folder (indexed like a folder given
/// to the CLI) and whether it holds an identity now (another instance may have stored it).
package protocol StoreFolder: Sendable {
    var root: String { get }
    func contains(_ id: DebugID) -> Bool
}
