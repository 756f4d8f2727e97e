import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery

/// Opens each debug-file slice at most once per run and shares it between reports.
///
/// Batch mode symbolicates hundreds of reports against the same few dSYMs: opening (mapping,
/// parsing Mach-O, initialising libdwarf) happens once, and `DebugSession` keeps its decoded
/// compile units, so later reports only pay for addresses not seen before.
package final class DebugSessionCache: @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [Key: Result<any DebugLookup, DebugInfoError>] = [:]

    private struct Key: Hashable {
        var path: String
        var id: DebugID
    }

    /// Where a debug map's object files may have moved (`--object-path-map`), for every session opened.
    package let objectPathMap: ObjectPathMap

    package init(objectPathMap: ObjectPathMap = ObjectPathMap()) {
        self.objectPathMap = objectPathMap
    }

    /// The session for one indexed slice, opening it on first use. Failures are cached too,
    /// so a damaged dSYM is reported once per report, not retried per frame.
    package func session(for entry: DebugFileEntry) -> Result<any DebugLookup, DebugInfoError> {
        let key = Key(path: entry.path, id: entry.debugID)
        lock.lock()
        defer { lock.unlock() }
        if let cached = sessions[key] { return cached }
        let result: Result<any DebugLookup, DebugInfoError>
        do {
            result = .success(try entry.openSession(objectPathMap: objectPathMap))
        } catch {
            result = .failure(error)
        }
        sessions[key] = result
        return result
    }

    /// Drops the sessions of the files `shouldForget` names (a server closing store files it
    /// no longer keeps open): their mappings go with the last reference.
    package func forget(where shouldForget: (_ path: String) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        sessions = sessions.filter { !shouldForget($0.key.path) }
    }

    /// Number of slices opened so far (for batch statistics and tests), less those forgotten.
    package var openedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }
}
