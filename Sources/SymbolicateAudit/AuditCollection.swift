import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateMachO
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
struct AuditCollection {
    struct Bundle {
        var id: DebugID
        /// The DWARF file's name inside the bundle (the image name the dSYM was made for).
        var dwarfName: String
        var slice: MachOSlice
        /// The source bundle's `Contents/Info.plist`, when the match came from a bundle.
        var infoPlist: String?

        var folderName: String { "\(id).dSYM" }
    }

    let bundles: [Bundle]

    /// The debug files that matched a slice of `report` (`matched`: by UUID, local or fetched),
    /// one per UUID, in the report's order.
    init(report: AuditReport, matched: [DebugID: DebugFileEntry]) {
        var seen = Set<DebugID>()
        var bundles: [Bundle] = []
        for finding in report.findings where finding.debugFile != nil {
            guard let id = finding.uuid, seen.insert(id).inserted, let entry = matched[id],
                let slice = entry.object as? MachOSlice
            else { continue }
            var plist: String?
            // A bare DWARF file or a store's `debug` file is named after the binary.
            var dwarfName = finding.name
            if DSYMBundle.holdsDWARFFile(entry.path) {
                dwarfName = (entry.path as NSString).lastPathComponent
                let contents = ((entry.path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                let candidate = ((contents as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Info.plist")
                if FileManager.default.fileExists(atPath: candidate) { plist = candidate }
            }
            bundles.append(Bundle(id: id, dwarfName: dwarfName, slice: slice, infoPlist: plist))
        }
        self.bundles = bundles
    }

    /// Each bundle written into `folder` (created if missing): built in a temporary folder
    /// beside it, then renamed into place, so a reader never sees half a bundle; a bundle
    /// already there is replaced.
    func write(toFolder folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for bundle in bundles {
            let staging = try Self.temporaryFolder(in: folder)
            do {
                try TemporaryFiles.createInside { try Self.build(bundle, at: staging) }
                let final = (folder as NSString).appendingPathComponent(bundle.folderName)
                var old: String?
                if FileManager.default.fileExists(atPath: final) {
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

    /// Every bundle in one zip (entries `<UUID>.dSYM/Contents/…`), written to a temporary
    /// file beside `path` and renamed into place.
    func write(toZip path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let staging = try Self.temporaryFolder(in: parent)
        let zip = try Self.temporaryFolder(in: parent, create: false) + ".zip"
        defer {
            try? FileManager.default.removeItem(atPath: staging)
            TemporaryFiles.unregister(staging)
        }
        for bundle in bundles {
            try TemporaryFiles.createInside { try Self.build(bundle, at: (staging as NSString).appendingPathComponent(bundle.folderName)) }
        }
        do {
            _ = TemporaryFiles.create(zip) { true }
            try FileManager.default.zipItem(
                at: URL(fileURLWithPath: staging), to: URL(fileURLWithPath: zip), shouldKeepParent: false, compressionMethod: .deflate)
            guard TemporaryFiles.settle(zip, { rename(zip, path) == 0 }) else { throw CollectError.renaming(path) }
        } catch {
            try? FileManager.default.removeItem(atPath: zip)
            TemporaryFiles.unregister(zip)
            throw error
        }
    }

    /// `<root>/Contents/Info.plist` and `<root>/Contents/Resources/DWARF/<name>`.
    private static func build(_ bundle: Bundle, at root: String) throws {
        let contents = (root as NSString).appendingPathComponent("Contents")
        let dwarf = (contents as NSString).appendingPathComponent(DSYMBundle.dwarfFolder.replacingOccurrences(of: "Contents/", with: ""))
        try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
        let plist = (contents as NSString).appendingPathComponent("Info.plist")
        if let source = bundle.infoPlist {
            try FileManager.default.copyItem(atPath: source, toPath: plist)
        } else {
            try Data(minimalInfoPlist(for: bundle.dwarfName).utf8).write(to: URL(fileURLWithPath: plist))
        }
        let slice = bundle.slice
        guard let bytes = slice.mapping.bytes(at: slice.fileOffset, count: slice.size) else {
            throw CollectError.renaming(slice.path)
        }
        let data = bytes.baseAddress.map { Data(bytes: $0, count: bytes.count) } ?? Data()
        try data.write(to: URL(fileURLWithPath: (dwarf as NSString).appendingPathComponent(bundle.dwarfName)))
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
    private static func temporaryFolder(in folder: String, create: Bool = true) throws -> String {
        for _ in 0..<8 {
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            let path = (folder as NSString).appendingPathComponent(".symbolicate-collect-\(random).tmp")
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            if !create { return path }
            if TemporaryFiles.create(path, { mkdir(path, 0o755) == 0 }) { return path }
        }
        throw CollectError.renaming(folder)
    }
}

/// Why a collected bundle could not be put in place.
struct CollectError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    static func renaming(_ path: String) -> CollectError {
        CollectError(path: path, reason: "cannot move into place: \(String(cString: strerror(errno)))")
    }

    var description: String { "\(path): \(reason)" }
}
