import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders on the way to an output, checked before anything is written: a symbolic link
/// among them owned by another user (not the effective user, not root) is never followed.
/// Someone who may plant a link in a shared folder (`/tmp/ci` → `/etc`) must not choose
/// where we write, whichever component of the path the link replaces (issue 54, finding 6:
/// only the final name's links were checked). The rule is the kernel's
/// `fs.protected_symlinks`, applied everywhere rather than only in sticky folders, because
/// the tool often runs as root in CI. Every writer goes through here: `AtomicFileWriter`
/// (`-o`, batch outputs and summaries, `--junit`), batch's output folder and `audit --collect`.
package enum TrustedFolders {
    /// Throws when reaching the folder that holds `path` would follow a link owned by
    /// another user (the final name itself is `AtomicFileWriter`'s to check).
    package static func checkParents(of path: String) throws(OutputFileError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count > 1 else { return }
        _ = try resolve(path, components: Array(parts.dropLast()))
    }

    /// Creates `path` and the folders above it that are missing (as `mkdir -p`), one at a time
    /// and each through trusted links only; throws when the path, or a component of it, is
    /// not a folder.
    package static func createFolders(_ path: String, mode: mode_t = 0o755) throws(OutputFileError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // Each round makes one folder and checks the path again, so a link planted meanwhile
        // is checked like the others.
        for _ in 0..<(parts.count + 64) {
            let (reached, missing) = try resolve(path, components: parts)
            guard let next = missing.first else {
                var info = stat()
                guard stat(reached, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw OutputFileError(path, "is not a folder")
                }
                return
            }
            let folder = reached == "/" ? "/" + next : reached + "/" + next
            if mkdir(folder, mode) != 0 && errno != EEXIST {
                throw OutputFileError.system(path, "cannot create the folder \(folder)")
            }
        }
        throw OutputFileError(path, "cannot create the folder")
    }

    /// Walks `components` of `path` (absolute, or relative to the current folder), following
    /// links the user may trust, and returns the physical folder reached and the components
    /// that do not exist yet.
    private static func resolve(_ path: String, components: [String]) throws(OutputFileError) -> (reached: String, missing: [String]) {
        var pending = Array(components.reversed())
        var reached = "/"
        if !path.hasPrefix("/") {
            pending += FileManager.default.currentDirectoryPath.split(separator: "/").map(String.init).reversed()
        }
        var links = 0
        while let part = pending.popLast() {
            if part.isEmpty || part == "." { continue }
            if part == ".." {
                // `reached` has no links left in it: `..` is the physical parent, as for the kernel.
                reached = (reached as NSString).deletingLastPathComponent
                if reached.isEmpty { reached = "/" }
                continue
            }
            let candidate = reached == "/" ? "/" + part : reached + "/" + part
            var info = stat()
            guard lstat(candidate, &info) == 0 else {
                return (reached, [part] + pending.reversed())
            }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                reached = candidate
                continue
            }
            if info.st_uid != geteuid() && info.st_uid != 0 {
                throw OutputFileError(
                    path, "goes through the symbolic link \(candidate) owned by another user (uid \(info.st_uid)): not followed")
            }
            links += 1
            guard links <= 40 else { throw OutputFileError(path, "has too many levels of symbolic links") }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(candidate, &buffer, buffer.count - 1)
            guard length >= 0 else { throw OutputFileError.system(path, "cannot read the symbolic link \(candidate)") }
            let destination = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") { reached = "/" }
            pending += destination.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed()
        }
        return (reached, [])
    }
}
