import Foundation
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a checkout's files without ever leaving it: every candidate is resolved (each
/// component, symlinks included) and refused unless the resolved path is still inside the
/// resolved root; the file is read through `RegularFile` (no FIFOs or devices, a size limit
/// checked before reading).
package struct SafeSourceFile: Sendable {
    /// Larger files are named in a note, never read whole.
    package static let sizeLimit = 1 << 20

    /// The checkout, resolved.
    package let root: String

    /// Nil when `root` is not a folder that exists.
    package init?(root: String) {
        guard let resolved = Self.resolve(root) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        self.root = resolved
    }

    /// Where `relative` (components under the root) leads.
    package enum Location: Sendable, Equatable {
        case missing
        /// It exists but resolves outside the root (a symlink leading out, `..`).
        case outside(resolved: String)
        case inside(resolved: String)
    }

    package func locate(_ relative: [String]) -> Location {
        guard !relative.isEmpty, !relative.contains(".."), !relative.contains(".") else { return .missing }
        let joined = root + "/" + relative.joined(separator: "/")
        guard let resolved = Self.resolve(joined) else { return .missing }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else { return .outside(resolved: resolved) }
        return .inside(resolved: resolved)
    }

    /// The text of a located file, or why not.
    package static func text(at resolved: String) -> Result<String, SourceNote.Kind> {
        switch RegularFile.read(path: resolved, limit: sizeLimit) {
        case .success(let data): return decode(data)
        case .failure(.tooLarge): return .failure(.tooLarge)
        case .failure(.missing): return .failure(.notInCheckout)
        case .failure: return .failure(.unreadable)
        }
    }

    /// UTF-8 text (a BOM dropped), or `.notUTF8`.
    package static func decode(_ data: Data) -> Result<String, SourceNote.Kind> {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }

    /// The path with every symlink and `..` resolved; nil when it does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
