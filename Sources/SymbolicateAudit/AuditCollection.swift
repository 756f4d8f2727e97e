import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateMachO
import SymbolicatePresentation
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--collect` / `--collect-zip`: exactly the debug files that matched a slice of the build,
/// one `<UUID>.dSYM` bundle per UUID (`Contents/Info.plist` and
/// `Contents/Resources/DWARF/<name>` holding that slice alone, cut out of a universal file),
/// the layout App Store Connect, crash services and `symbolicate` itself read.
///
/// Only regular files are collected, and only from inside their bundle: a symbolic link is
/// never stored as a link (a local path in an upload), and a file reached through a link that
/// leaves its bundle is left out and named (issue 54, findings 5 and 17).
struct AuditCollection {
    struct Bundle {
        var id: DebugID
        /// The DWARF file's name inside the bundle (the image name the dSYM was made for).
        var dwarfName: String
        var slice: MachOSlice
        /// The source bundle's `Contents/Info.plist`, when the match came from a bundle and it
        /// is a regular file inside that bundle.
        var infoPlist: String?

        var folderName: String { "\(id).dSYM" }
    }

    var bundles: [Bundle]
    /// Files left out, each with why (said as warnings).
    let skipped: [(path: String, reason: String)]

    /// The debug files that matched a slice of `report` (`matched`: by UUID, local or fetched),
    /// one per UUID, in the report's order.
    init(report: AuditReport, matched: [DebugID: DebugFileEntry]) {
        var seen = Set<DebugID>()
        var bundles: [Bundle] = []
        var skipped: [(path: String, reason: String)] = []
        for finding in report.findings where finding.debugFile != nil {
            guard let id = finding.uuid, seen.insert(id).inserted, let entry = matched[id],
                let slice = entry.object as? MachOSlice
            else { continue }
            var plist: String?
            // A bare DWARF file or a store's `debug` file is named after the binary.
            var dwarfName = finding.name
            if DSYMBundle.holdsDWARFFile(entry.path) {
                dwarfName = (entry.path as NSString).lastPathComponent
                let dwarfFolder = (entry.path as NSString).deletingLastPathComponent
                let contents = ((dwarfFolder as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                let root = (contents as NSString).deletingLastPathComponent
                if let reason = Self.outsideReason(entry.path, bundle: root) {
                    skipped.append((entry.path, reason))
                    continue
                }
                let candidate = (contents as NSString).appendingPathComponent("Info.plist")
                var info = stat()
                if lstat(candidate, &info) == 0 {
                    if let reason = Self.outsideReason(candidate, bundle: root) {
                        skipped.append((candidate, reason + "; a generated Info.plist is collected instead"))
                    } else {
                        plist = candidate
                    }
                }
            }
            bundles.append(Bundle(id: id, dwarfName: dwarfName, slice: slice, infoPlist: plist))
        }
        self.bundles = bundles
        self.skipped = skipped
    }

    /// Why the file at `path` is not collected, or nil when it is a regular file inside `bundle`
    /// (through links that stay inside it, if any).
    static func outsideReason(_ path: String, bundle: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot be read: \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is \(RegularFile.kind(info.st_mode)), not a regular file" }
        guard let file = realpath(path, nil) else { return "cannot be read: \(String(cString: strerror(errno)))" }
        defer { free(file) }
        guard let root = realpath(bundle, nil) else { return "its bundle cannot be read: \(String(cString: strerror(errno)))" }
        defer { free(root) }
        let (resolved, base) = (String(cString: file), String(cString: root))
        guard resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            return "is a symbolic link (or lies behind one) leading out of \(bundle), to \(resolved); links are never collected"
        }
        return nil
    }

    /// Each bundle written into `folder` (created if missing, through trusted links only):
    /// built in a temporary folder beside it, then renamed into place, so a reader never sees
    /// half a bundle. A dSYM bundle already there is replaced (a rerun); anything else there
    /// (a file, a link, a device, a folder that is no dSYM bundle) and any input are never
    /// replaced: every place is checked before anything is written.
    func write(toFolder folder: String, guarding inputs: OutputGuard) throws {
        do throws(OutputFileError) { try TrustedFolders.createFolders(folder) } catch {
            throw CollectError(path: folder, reason: error.reason)
        }
        for bundle in bundles {
            let final = (folder as NSString).appendingPathComponent(bundle.folderName)
            if let input = inputs.input(replacedBy: final) { throw CollectError.replacesInput(output: final, input: input) }
            var info = stat()
            guard lstat(final, &info) == 0 else { continue }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw CollectError(path: final, reason: "is \(RegularFile.kind(info.st_mode)), not a dSYM bundle; not replaced")
            }
            var dwarf = stat()
            guard lstat(DSYMBundle.dwarfFolder(of: final), &dwarf) == 0, dwarf.st_mode & S_IFMT == S_IFDIR else {
                throw CollectError(path: final, reason: "is a folder but not a dSYM bundle (no \(DSYMBundle.dwarfFolder)); not replaced")
            }
        }
        for bundle in bundles {
            let staging = try Self.temporaryFolder(in: folder)
            do {
                try TemporaryFiles.createInside { try Self.build(bundle, at: staging) }
                let final = (folder as NSString).appendingPathComponent(bundle.folderName)
                var old: String?
                var info = stat()
                if lstat(final, &info) == 0 {
                    let away = try Self.temporaryFolder(in: folder, create: false)
                    guard TemporaryFiles.create(away, { rename(final, away) == 0 }) else {
                        throw CollectError.renaming(final)
                    }
                    old = away
                }
                guard TemporaryFiles.settle(staging, { rename(staging, final) == 0 }) else { throw CollectError.renaming(final) }
                if let old {
                    try? FileManager.default.removeItem(atPath: old)
                    TemporaryFiles.unregister(old)
                }
            } catch {
                try? FileManager.default.removeItem(atPath: staging)
                TemporaryFiles.unregister(staging)
                throw error
            }
        }
    }

    /// Every bundle in one zip (entries `<UUID>.dSYM/Contents/…`), built in a private temporary
    /// folder, then written to `path` as `-o` writes: through trusted links only, atomically
    /// for a file, in place for a device or FIFO (never renamed over it).
    func write(toZip path: String) throws {
        let staging = try Self.temporaryFolder(in: FileManager.default.temporaryDirectory.path, mode: 0o700)
        defer {
            try? FileManager.default.removeItem(atPath: staging)
            TemporaryFiles.unregister(staging)
        }
        let bundlesFolder = (staging as NSString).appendingPathComponent("bundles")
        let zip = (staging as NSString).appendingPathComponent("collected.zip")
        guard TemporaryFiles.createInside({ mkdir(bundlesFolder, 0o700) == 0 }) else { throw CollectError.renaming(bundlesFolder) }
        for bundle in bundles {
            try TemporaryFiles.createInside {
                try Self.build(bundle, at: (bundlesFolder as NSString).appendingPathComponent(bundle.folderName))
            }
        }
        do {
            try TemporaryFiles.createInside {
                try FileManager.default.zipItem(
                    at: URL(fileURLWithPath: bundlesFolder), to: URL(fileURLWithPath: zip), shouldKeepParent: false,
                    compressionMethod: .deflate)
            }
        } catch {
            throw CollectError(path: path, reason: "cannot make the zip: \(error.localizedDescription)")
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: zip), options: .alwaysMapped)
            let writer = try AtomicFileWriter(path: path)
            do {
                try writer.write(data)
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch let error as OutputFileError {
            throw CollectError(path: path, reason: error.reason)
        } catch {
            throw CollectError(path: path, reason: error.localizedDescription)
        }
    }

    /// `<root>/Contents/Info.plist` and `<root>/Contents/Resources/DWARF/<name>`, regular files only.
    private static func build(_ bundle: Bundle, at root: String) throws {
        let contents = (root as NSString).appendingPathComponent("Contents")
        let dwarf = (contents as NSString).appendingPathComponent(DSYMBundle.dwarfFolder.replacingOccurrences(of: "Contents/", with: ""))
        do {
            try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
            let plist = (contents as NSString).appendingPathComponent("Info.plist")
            // The source's bytes, never a copy of a link (`copyItem` keeps links as links).
            let plistBytes = try bundle.infoPlist.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            try (plistBytes ?? Data(minimalInfoPlist(for: bundle.dwarfName).utf8)).write(to: URL(fileURLWithPath: plist))
            let slice = bundle.slice
            guard let bytes = slice.mapping.bytes(at: slice.fileOffset, count: slice.size) else {
                throw CollectError(path: slice.path, reason: "the slice lies outside the file")
            }
            let data = bytes.baseAddress.map { Data(bytes: $0, count: bytes.count) } ?? Data()
            try data.write(to: URL(fileURLWithPath: (dwarf as NSString).appendingPathComponent(bundle.dwarfName)))
        } catch let error as CollectError {
            throw error
        } catch {
            throw CollectError(path: root, reason: error.localizedDescription)
        }
    }

    /// What dsymutil writes for a bundle, for a DWARF file that came without one.
    static func minimalInfoPlist(for name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleDevelopmentRegion</key>
        \t<string>English</string>
        \t<key>CFBundleIdentifier</key>
        \t<string>com.apple.xcode.dsym.\(name)</string>
        \t<key>CFBundleInfoDictionaryVersion</key>
        \t<string>6.0</string>
        \t<key>CFBundlePackageType</key>
        \t<string>dSYM</string>
        \t<key>CFBundleSignature</key>
        \t<string>????</string>
        </dict>
        </plist>

        """
    }

    /// A fresh `.symbolicate-collect-<hex>.tmp` path in `folder`, registered for clean-up
    /// (and created as a folder unless `create` is false).
    static func temporaryFolder(in folder: String, create: Bool = true, mode: mode_t = 0o755) throws -> String {
        for _ in 0..<8 {
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            let path = (folder as NSString).appendingPathComponent(".symbolicate-collect-\(random).tmp")
            var info = stat()
            guard lstat(path, &info) != 0 else { continue }
            if !create { return path }
            if TemporaryFiles.create(path, { mkdir(path, mode) == 0 }) { return path }
        }
        throw CollectError.renaming(folder)
    }
}

/// Why a collected bundle could not be put in place.
enum CollectError: Error, CustomStringConvertible {
    /// A bundle's place is an input (an App Store Connect-named `<UUID>.dSYM` given as DSYMS).
    case replacesInput(output: String, input: String)
    case other(path: String, reason: String)

    init(path: String, reason: String) { self = .other(path: path, reason: reason) }

    static func renaming(_ path: String) -> CollectError {
        CollectError(path: path, reason: "cannot move into place: \(String(cString: strerror(errno)))")
    }

    var description: String {
        switch self {
        case .replacesInput(let output, let input): return "\(output) would replace the input \(input)"
        case .other(let path, let reason): return "\(path): \(reason)"
        }
    }
}
