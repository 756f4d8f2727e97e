import Foundation
import SymbolicateCrashReport

/// `-` for a report (`symbolicate - App.dSYM`, `explain -`, `batch -`): a report pasted into a
/// pipe (`pbpaste | symbolicate - App.dSYM`).
package enum StandardInput {
    /// What messages call the report read from standard input.
    package static let displayName = "<stdin>"

    /// The argument that means standard input.
    package static let argument = "-"

    /// Reads `handle` to its end, but never more than one byte past `limit`: a report over the
    /// limit is then refused by the parser with the usual "over the limit" error instead of
    /// filling memory with whatever was piped in by mistake.
    package static func read(_ handle: FileHandle = .standardInput, limit: Int = CrashReport.defaultSizeLimit) -> Data {
        var data = Data()
        while data.count <= limit {
            let want = min(1 << 20, limit + 1 - data.count)
            guard let chunk = try? handle.read(upToCount: want), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }
}

extension ReportSource {
    /// The report piped into standard input, read once (see `StandardInput.read`).
    package static func standardInput(reading read: () -> Data = { StandardInput.read() }) -> ReportSource {
        .bytes(read(), name: StandardInput.displayName)
    }
}
