import Foundation
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Outputs never replace inputs: `-o`, `--output` and `--junit` are compared with every
/// input report and debug file, by resolved path and by device and inode (hard links), and
/// never land inside an input folder or bundle.
package enum OutputSafety {
    /// The first of `inputs` that `output` would replace, or nil.
    package static func input(replacedBy output: String, inputs: [String]) -> String? {
        OutputGuard(inputs: inputs).input(replacedBy: output)
    }

    /// The path with symlinks resolved (as far as it exists) and `.`/`..` removed: `realpath`
    /// of the longest part that exists, then the rest. Foundation's `resolvingSymlinksInPath`
    /// leaves a path that does not exist yet unresolved (an output inside an input bundle under
    /// a symlinked TMPDIR then escaped the check) and on Darwin strips `/private`.
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute.split(separator: "/").map(String.init)
        var rest: [String] = []
        while true {
            if let resolved = realpath("/" + existing.joined(separator: "/"), nil) {
                let base = String(cString: resolved)
                free(resolved)
                let joined = ([base == "/" ? "" : base] + rest).joined(separator: "/")
                return URL(fileURLWithPath: joined.isEmpty ? "/" : joined).standardizedFileURL.path
            }
            guard let last = existing.popLast() else { break }
            rest.insert(last, at: 0)
        }
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}

/// The inputs of a run, examined once, so that every output can be checked against all of
/// them with one `stat` (batch mode checks each of thousands of outputs against thousands
/// of reports: resolving every path component by component was most of its serial time).
package struct OutputGuard: Sendable {
    /// Regular input files by identity: an output replaces one exactly when it names the
    /// same file (through links, `..` or a hard link included).
    private let files: [FileIdentity: String]
    /// Inputs that are not regular files (folders such as dSYM bundles, paths that do not
    /// exist yet), by canonical path.
    private let others: [String: String]
    /// Input folders (dSYM bundles, `.xcarchive`s, folders of debug files) by canonical path:
    /// nothing below one may be written either (`-o App.dSYM/Contents/Info.plist`).
    private let folders: [(canonical: String, input: String)]

    package init(inputs: [String]) {
        var files: [FileIdentity: String] = [:]
        var others: [String: String] = [:]
        var folders: [(canonical: String, input: String)] = []
        for input in inputs {
            var info = stat()
            if stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                let identity = FileIdentity(info)
                if files[identity] == nil { files[identity] = input }
                // The DWARF file of a bundle found by search stands for its whole bundle.
                if let bundle = Self.enclosingBundle(input) {
                    folders.append((OutputSafety.canonical(bundle), bundle))
                }
            } else {
                let key = OutputSafety.canonical(input)
                if others[key] == nil { others[key] = input }
                if stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { folders.append((key, input)) }
            }
        }
        self.files = files
        self.others = others
        self.folders = folders
    }

    /// The input that writing `output` would replace, or nil. Special files (devices, FIFOs)
    /// are written in place, never replaced, so they cannot destroy an input. A folder is
    /// compared by path like an input folder (`--collect` into a dSYM bundle given as input).
    package func input(replacedBy output: String) -> String? {
        var target = stat()
        if stat(output, &target) == 0 {
            let type = target.st_mode & S_IFMT
            if type != S_IFREG && type != S_IFDIR { return nil }
            if type == S_IFREG, let input = files[FileIdentity(target)] { return input }
        } else {
            // `dir/missing/../report.crash` names no file for the kernel, but is the report
            // once `..` is taken literally: said so rather than failing to write.
            if let literal = Self.withoutDotComponents(output), let identity = FileIdentity(path: literal), let input = files[identity] {
                return input
            }
        }
        guard !others.isEmpty || !folders.isEmpty else { return nil }
        let canonical = OutputSafety.canonical(output)
        if let input = others[canonical] { return input }
        return folders.first { canonical.hasPrefix($0.canonical.hasSuffix("/") ? $0.canonical : $0.canonical + "/") }?.input
    }

    /// The `.dSYM` bundle a file lies in (`A.dSYM/Contents/Resources/DWARF/A` → `A.dSYM`).
    static func enclosingBundle(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.dropLast().lastIndex(where: { $0.lowercased().hasSuffix(".dsym") }) else { return nil }
        return parts[...last].joined(separator: "/")
    }

    /// `path` with `.` and `..` components applied literally (no symlinks resolved), or nil
    /// when it has none.
    static func withoutDotComponents(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        var kept: [Substring] = []
        for part in parts {
            if part == "." { continue }
            if part == "..", let last = kept.last, !last.isEmpty, last != ".." {
                kept.removeLast()
                continue
            }
            kept.append(part)
        }
        return kept.joined(separator: "/")
    }
}
