import Foundation
import SymbolicateCore

/// lldb's `dsymForUUID` convention: a command run with the UUID as its last argument prints a
/// property list keyed by UUID whose `DBGDSYMPath` names the dSYM it found (and fetched);
/// `DBGError` says why not. The command is run by `/bin/sh -c` (it may carry its own
/// arguments, as `DBGShellCommands` does), with a time limit.
struct DsymForUUID: Sendable {
    var command: String
    var timeout: TimeInterval

    /// What one run said.
    enum Answer: Equatable {
        case path(String)
        case notFound(String?)
        case failed(String)
    }

    func run(_ id: DebugID) -> Answer {
        let uuid = SymbolServer.dashed(id)
        // "$0" is the command, "$1" the UUID: the UUID is never spliced into shell text.
        switch Subprocess.run("/bin/sh", ["-c", "\(command) \"$1\"", "dsymForUUID", uuid], timeout: timeout) {
        case .cannotStart(let why):
            return .failed("cannot run: \(why)")
        case .timedOut:
            return .failed("no answer within \(Int(timeout)) s; stopped")
        case .exited(let status, let data):
            guard status == 0 else { return .failed("exited with status \(status)") }
            return Self.parse(data, uuid: uuid)
        }
    }

    /// The answer for `uuid` in the command's plist: its `DBGDSYMPath`, else its `DBGError`.
    static func parse(_ data: Data, uuid: String) -> Answer {
        guard !data.isEmpty else { return .notFound(nil) }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            return .failed("printed something that is not a property list")
        }
        let entry = plist.first { $0.key.uppercased() == uuid.uppercased() }?.value as? [String: Any]
        if let path = entry?["DBGDSYMPath"] as? String, !path.isEmpty { return .path(path) }
        return .notFound(entry?["DBGError"] as? String)
    }
}
