import SymbolicateDWARF

/// Why a debug-file input could not be used. Each case names the path (and, for zips, the
/// entry) so the user can find the problem.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case notADebugFile(path: String)
    case zip(path: String, entry: String?, message: String)
    case io(path: String, message: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file or folder"
        case .notADebugFile(let path):
            return "\(path): not a dSYM, DWARF/Mach-O file, folder, .xcarchive or .zip"
        case .zip(let path, let entry?, let message):
            return "\(path): entry '\(entry)': \(message)"
        case .zip(let path, nil, let message):
            return "\(path): \(message)"
        case .io(let path, let message):
            return "\(path): \(message)"
        }
    }
}

/// A file skipped while building a `DebugFileIndex`: one a search met and could not use, or
/// one whose headers could not be read. Never fatal for the whole run; commands decide which
/// are worth a word (`mentionsDSYM`), so they are kept typed rather than as text.
public enum DebugFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// A file or zip entry discovery could not use.
    case discovery(DiscoveryError)
    /// A debug file whose headers could not be read; `path` is the name the user knows.
    case unreadable(DebugInfoError)

    public var description: String {
        switch self {
        case .discovery(let error): return error.description
        case .unreadable(let error): return error.description
        }
    }

    /// Whether the problem concerns a `.dSYM` (in its path, a zip entry's name or the reason):
    /// an implicit search of a folder full of other files only mentions those.
    package var mentionsDSYM: Bool {
        let named: [String]
        switch self {
        case .discovery(.notFound(let path)), .discovery(.notADebugFile(let path)):
            named = [path]
        case .discovery(.zip(let path, let entry, let message)):
            named = [path, entry ?? "", message]
        case .discovery(.io(let path, let message)):
            named = [path, message]
        case .unreadable(let error):
            named = [error.path, error.message]
        }
        return named.contains { $0.lowercased().contains(".dsym") }
    }
}
