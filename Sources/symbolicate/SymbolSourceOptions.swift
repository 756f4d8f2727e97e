import ArgumentParser
import Foundation
import SymbolicateDiscovery

#if SymbolSources
    import SymbolicateSymbolSources
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--symbol-server`, `--dsym-for-uuid`, `--cache-dir`, `--offline`, shared by `report`,
/// `explain`, `batch` and `atos`: where debug files are fetched by identity when no local file
/// has them (README "Where debug files come from").
struct SymbolSourceOptions: ParsableArguments {
    @Option(
        name: .customLong("symbol-server"),
        help: ArgumentHelp(
            "An HTTP(S) symbol server asked for images no local debug file matched (repeatable; before SYMBOLICATE_SYMBOL_SERVERS): a URL template with {uuid}, {id}, {id2}, {idrest}, {uuidpath}, {arch} or {name}, or native=URL / unified=URL for Sentry's layouts. DEBUGINFOD_URLS is asked for ELF build IDs. Headers (credentials) come from SYMBOLICATE_SYMBOL_SERVER_HEADERS only.",
            valueName: "url"))
    var servers: [String] = []

    @Option(
        name: .customLong("dsym-for-uuid"),
        help: ArgumentHelp(
            "A dsymForUUID command, run with a UUID, whose property list names the dSYM (DBGDSYMPath); DBGShellCommands and DBGFileMappedPaths are honoured too.",
            valueName: "command"))
    var dsymForUUID: String?

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "Where fetched debug files are kept by identity (default $XDG_CACHE_HOME/symbolicate, else ~/.cache/symbolicate, ~/Library/Caches/symbolicate on macOS; bound by SYMBOLICATE_CACHE_MAX_MIB, least recently used first out).",
            valueName: "folder"))
    var cacheDirectory: String?

    @Flag(help: "Use only debug files already in the cache: no server is asked and no command run.")
    var offline = false

    @Flag(
        help:
            "Ask symbol sources again for debug files remembered as missing (after a 404 a source is not asked again for SYMBOLICATE_NEGATIVE_CACHE_SECONDS, default 3600; 0 turns that off)."
    )
    var refresh = false

    /// Where debug-file zips are unpacked once and kept: `unzipped/` in the cache folder
    /// (`--cache-dir`, else UserCacheFolder), or nil
    /// without a home to put it in.
    func zipCache() -> ZipCache? {
        let environment = ProcessInfo.processInfo.environment
        return (cacheDirectory ?? ZipCache.defaultCacheFolder(environment: environment)).map {
            ZipCache(cacheFolder: $0, environment: environment)
        }
    }

    #if SymbolSources
        /// The run's remote sources, or nil when none is configured and the cache was not asked for
        /// (a run without them stays as it was: no cache is even looked at). `showingProgress`:
        /// a download line on a terminal's stderr (batch mode has its own progress bar there).
        func sources(showingProgress: Bool = true, verbose: Bool = false) throws -> SymbolSources? {
            let environment = ProcessInfo.processInfo.environment
            var settings: SymbolSourceSettings
            do {
                settings = try SymbolSourceSettings.resolve(
                    environment: environment, symbolServers: servers, dsymForUUID: dsymForUUID.map { [$0] } ?? [],
                    cacheDirectory: cacheDirectory, offline: offline, refresh: refresh)
                settings.verbose = verbose
            } catch {
                throw ValidationError(error.description)
            }
            guard settings.hasSources || offline || cacheDirectory != nil else { return nil }
            let sources = SymbolSources(settings: settings)
            if showingProgress, isatty(STDERR_FILENO) == 1 { sources.progress = ProgressLine.shared.update }
            return sources
        }
    #else
        /// A build without the SymbolSources trait (`make demo`) has no remote sources: nil, or a
        /// usage error naming the trait when the command line or SYMBOLICATE_SYMBOL_SERVERS asks
        /// for one (a silent run without them would leave frames unsymbolicated with no reason
        /// given). Other tools' variables (DEBUGINFOD_URLS, DBGShellCommands, DBGFileMappedPaths),
        /// set system-wide on some systems, are not a request to this build and are not read.
        func sources(showingProgress: Bool = true, verbose: Bool = false) throws -> (any RemoteDebugFiles)? {
            var asked: [String] = []
            if !servers.isEmpty { asked.append("--symbol-server") }
            if dsymForUUID != nil { asked.append("--dsym-for-uuid") }
            if offline { asked.append("--offline") }
            if refresh { asked.append("--refresh") }
            if let named = ProcessInfo.processInfo.environment["SYMBOLICATE_SYMBOL_SERVERS"],
                !named.allSatisfy(\.isWhitespace)
            {
                asked.append("SYMBOLICATE_SYMBOL_SERVERS")
            }
            guard asked.isEmpty else { throw ValidationError(BuildTraits.missing(.symbolSources, for: asked.joined(separator: ", "))) }
            return nil
        }
    #endif
}

#if SymbolSources
    /// One line on a terminal's stderr for downloads that take a while: redrawn at most four
    /// times a second, from the second second of a download on, and cleared when it is done.
    final class ProgressLine: @unchecked Sendable {
        static let shared = ProgressLine()
        private let lock = NSLock()
        private var started: [String: Date] = [:]
        private var lastDraw = Date.distantPast

        func update(_ what: String, _ received: UInt64, _ expected: UInt64?) {
            lock.lock()
            defer { lock.unlock() }
            let now = Date()
            let start = started[what] ?? now
            started[what] = start
            let done = expected.map { received >= $0 } ?? false
            if done {
                started[what] = nil
                if lastDraw != .distantPast { Console.write("\r\u{1B}[K", to: .standardError) }
                lastDraw = .distantPast
                return
            }
            guard now.timeIntervalSince(start) > 1, now.timeIntervalSince(lastDraw) > 0.25 else { return }
            lastDraw = now
            let size = Self.mebibytes(received) + (expected.map { " of " + Self.mebibytes($0) } ?? "")
            Console.write("\r\u{1B}[Kdownloading \(what): \(size)", to: .standardError)
        }

        static func mebibytes(_ bytes: UInt64) -> String {
            String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
    }
#endif
