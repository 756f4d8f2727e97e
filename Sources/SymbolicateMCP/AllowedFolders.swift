import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders `symbolicate mcp` was started with (`--allow DIR`): every path a client names
/// must lie inside one of them once resolved, symbolic links included, because the client is
/// a model acting on text it was handed, and a crash report can ask it to read anything.
public struct AllowedFolders: Sendable {
    /// The folders, resolved (no symbolic link, no `.` or `..`).
    public let folders: [String]

    /// - Throws: when a folder does not exist or is not a folder.
    public init(_ paths: [String]) throws(MCPPathError) {
        var folders: [String] = []
        for path in paths {
            guard let resolved = Self.realPath(path) else { throw MCPPathError(path: path, reason: "does not exist") }
            guard Self.isFolder(resolved) else { throw MCPPathError(path: path, reason: "is not a folder") }
            folders.append(resolved)
        }
        self.folders = folders
    }

    /// The resolved path of `path` (relative paths are taken inside the first allowed folder),
    /// when it and, for a folder, everything below it that is a symbolic link stay inside the
    /// allowed folders.
    /// - Throws: why the path is refused (outside, missing, a link out), naming it as given.
    public func resolve(_ path: String) throws(MCPPathError) -> String {
        guard !path.isEmpty else { throw MCPPathError(path: path, reason: "is empty") }
        guard let first = folders.first else { throw MCPPathError(path: path, reason: "no folder is allowed (start with --allow DIR)") }
        let absolute = path.hasPrefix("/") ? path : first + "/" + path
        guard let resolved = Self.realPath(absolute) else { throw MCPPathError(path: path, reason: "does not exist") }
        guard contains(resolved) else {
            throw MCPPathError(
                path: path,
                reason: "is outside the folders this server may read (\(folders.joined(separator: ", "))); start it with --allow for more")
        }
        if Self.isFolder(resolved), let escape = linkOut(below: resolved) {
            throw MCPPathError(path: path, reason: "holds a symbolic link to a place outside the allowed folders: \(escape)")
        }
        return resolved
    }

    /// Whether a resolved path is one of the folders or lies below one.
    func contains(_ resolved: String) -> Bool {
        folders.contains { folder in
            resolved == folder || resolved.hasPrefix(folder == "/" ? "/" : folder + "/")
        }
    }

    /// The first symbolic link below `folder` that leads outside the allowed folders (or
    /// nowhere), or nil. Debug-file folders are searched recursively, so a link inside one
    /// would otherwise take the search out. At most `limit` entries are looked at; a folder
    /// larger than that is refused rather than half checked.
    func linkOut(below folder: String, limit: Int = 200_000) -> String? {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return nil }
        var seen = 0
        while let relative = walker.nextObject() as? String {
            seen += 1
            if seen > limit { return "\(folder) (more than \(limit) entries to check)" }
            let path = folder + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { continue }
            guard let target = Self.realPath(path), contains(target) else { return path }
        }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// A path a client may not use, and why.
public struct MCPPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
