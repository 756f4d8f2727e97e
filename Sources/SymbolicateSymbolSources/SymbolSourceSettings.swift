import Foundation
import SymbolicateCore
import SymbolicateDiscovery

/// Where debug files are fetched from and how, read once per run from the flags and the
/// environment. Authentication headers come from the environment only
/// (`SYMBOLICATE_SYMBOL_SERVER_HEADERS`), never from the command line, and never appear in a
/// message.
package struct SymbolSourceSettings: Sendable {
    /// HTTP(S) symbol servers in the order they are asked (`--symbol-server`, then
    /// `SYMBOLICATE_SYMBOL_SERVERS`).
    package var servers: [SymbolServer] = []
    /// debuginfod servers (`DEBUGINFOD_URLS`), asked for ELF build IDs.
    package var debuginfod: [String] = []
    /// dsymForUUID commands (`--dsym-for-uuid`, then `DBGShellCommands`), asked for UUIDs.
    package var dsymForUUID: [String] = []
    /// lldb's file-mapped UUID folders (`DBGFileMappedPaths`), asked for UUIDs.
    package var fileMappedPaths: [String] = []
    /// The cache folder; nil keeps downloads for this run only.
    package var cacheDirectory: String?
    /// Use the cache only: no command is run and no server asked.
    package var offline = false
    /// Time limit of one request, connect to last byte (`SYMBOLICATE_FETCH_TIMEOUT`, seconds).
    package var timeout: TimeInterval = 60
    /// Further tries after a server error or a cut transfer (`SYMBOLICATE_FETCH_RETRIES`).
    package var retries = 2
    /// First wait before a retry; doubled each time.
    package var backoff: TimeInterval = 0.5
    /// Largest file downloaded (`SYMBOLICATE_MAX_DOWNLOAD_MIB`).
    package var maximumDownloadSize: UInt64 = 4 << 30
    /// The cache's size bound (`SYMBOLICATE_CACHE_MAX_MIB`), kept by least-recently-used eviction.
    package var cacheSizeLimit: UInt64 = 10 << 30
    /// How long "this server does not have it" is remembered (`SYMBOLICATE_NEGATIVE_CACHE_SECONDS`).
    package var negativeLifetime: TimeInterval = 3600
    /// Ask again what is remembered as missing (`--refresh`); the answers are remembered anew.
    package var refresh = false
    /// Say each download, when it starts and what it brought (`-v`).
    package var verbose = false
    /// Headers by host (`SYMBOLICATE_SYMBOL_SERVER_HEADERS`: one `host Name: value` a line).
    package var headers: [HostHeader] = []
    /// Parallel downloads at most.
    package var parallelDownloads = 8

    package struct HostHeader: Sendable, Equatable {
        package var host: String
        package var name: String
        package var value: String
    }

    package init() {}

    /// Whether anything is configured beyond the cache: without it a run reads the cache only
    /// when asked (`--cache-dir`, `--offline`), so a run with no servers costs nothing.
    package var hasSources: Bool {
        !servers.isEmpty || !debuginfod.isEmpty || !dsymForUUID.isEmpty || !fileMappedPaths.isEmpty
    }

    /// The settings of a run.
    /// - Parameters:
    ///   - environment: the process's environment (the variables above).
    ///   - symbolServers: `--symbol-server` values, asked before the environment's.
    ///   - dsymForUUID: `--dsym-for-uuid`, asked before `DBGShellCommands`.
    ///   - cacheDirectory: `--cache-dir`; default UserCacheFolder (`$XDG_CACHE_HOME/symbolicate`, else the platform's user cache).
    ///   - offline: `--offline`.
    ///   - refresh: `--refresh`: identities remembered as missing are asked for again.
    /// - Returns: the settings; `hasSources` says whether anything is to be asked.
    /// - Throws: a malformed server URL or setting, naming it.
    package static func resolve(
        environment: [String: String], symbolServers: [String] = [], dsymForUUID: [String] = [], cacheDirectory: String? = nil,
        offline: Bool = false, refresh: Bool = false
    ) throws(SymbolSourceError) -> SymbolSourceSettings {
        var settings = SymbolSourceSettings()
        let words = { (name: String) -> [String] in
            (environment[name] ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        }
        for text in symbolServers + words("SYMBOLICATE_SYMBOL_SERVERS") {
            settings.servers.append(try SymbolServer(parsing: text))
        }
        for url in words("DEBUGINFOD_URLS") {
            let lower = url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw SymbolSourceError("DEBUGINFOD_URLS: \"\(url)\" is not an http:// or https:// URL")
            }
            settings.debuginfod.append(url.hasSuffix("/") ? String(url.dropLast()) : url)
        }
        settings.dsymForUUID = dsymForUUID + (environment["DBGShellCommands"].map { [$0] } ?? []).filter { !$0.isEmpty }
        settings.fileMappedPaths = (environment["DBGFileMappedPaths"] ?? "").split(separator: ":").map(String.init)
        if let cacheDirectory {
            settings.cacheDirectory = cacheDirectory
        } else {
            settings.cacheDirectory = UserCacheFolder.path(environment: environment)
        }
        settings.offline = offline
        settings.refresh = refresh
        if let value = try number(environment, "SYMBOLICATE_FETCH_TIMEOUT") { settings.timeout = max(0.1, value) }
        if let value = try number(environment, "SYMBOLICATE_FETCH_RETRIES") { settings.retries = Int(min(10, value)) }
        if let value = try number(environment, "SYMBOLICATE_MAX_DOWNLOAD_MIB") { settings.maximumDownloadSize = UInt64(value * 1_048_576) }
        if let value = try number(environment, "SYMBOLICATE_CACHE_MAX_MIB") { settings.cacheSizeLimit = UInt64(value * 1_048_576) }
        if let value = try number(environment, "SYMBOLICATE_NEGATIVE_CACHE_SECONDS") { settings.negativeLifetime = value }
        settings.headers = try headers(environment["SYMBOLICATE_SYMBOL_SERVER_HEADERS"] ?? "")
        return settings
    }

    private static func number(_ environment: [String: String], _ name: String) throws(SymbolSourceError) -> Double? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = Double(text), value >= 0, value < 1e12 else {
            throw SymbolSourceError("\(name)=\(text): not a number")
        }
        return value
    }

    /// `host Name: value`, one a line. The value is never echoed in an error.
    static func headers(_ text: String) throws(SymbolSourceError) -> [HostHeader] {
        var out: [HostHeader] = []
        for (number, raw) in text.split(separator: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard let space = line.firstIndex(of: " "), let colon = line[space...].firstIndex(of: ":") else {
                throw SymbolSourceError(
                    "SYMBOLICATE_SYMBOL_SERVER_HEADERS line \(number + 1): expected \"host Header-Name: value\"")
            }
            let host = String(line[..<space]).lowercased()
            let name = line[space..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !host.isEmpty, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw SymbolSourceError(
                    "SYMBOLICATE_SYMBOL_SERVER_HEADERS line \(number + 1): expected \"host Header-Name: value\"")
            }
            out.append(HostHeader(host: host, name: name, value: value))
        }
        return out
    }

    /// The headers for one host.
    func headers(forHost host: String) -> [(String, String)] {
        headers.filter { $0.host == host }.map { ($0.name, $0.value) }
    }
}
