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
