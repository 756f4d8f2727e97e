import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateMachO

/// BUILD unpacked into what audit reads: the binaries (each Mach-O executable, dylib or
/// bundle in it, with its role), the debug files that came with it (an archive's `dSYMs`,
/// `.dSYM` bundles and DWARF files met in a folder) and the BCSymbolMaps.
package struct AuditBuild {
    /// One binary of the build.
    struct Binary {
        /// The file to read (inside the unpacked `.ipa` for an `.ipa`).
        var path: String
        /// Its path inside the build, as shown (`Shop.app/Frameworks/Ads.framework/Ads`).
        var shown: String
        var role: BinaryRole
        var file: MachOFile
    }

    var kind: AuditReport.BuildKind
    var binaries: [Binary] = []
    /// Debug-file inputs the build itself brings (`Shop.xcarchive/dSYMs/…`).
    var debugInputs: [String] = []
    /// UUIDs with a `<UUID>.bcsymbolmap` in the build (or next to the debug files), and where.
    var symbolMaps: [DebugID: String] = [:]
    /// What could not be read but is no binary's loss (a link in an `.ipa`): warnings.
    var problems: [AuditProblem] = []
    /// Files that may be binaries but could not be read (they start like Mach-O and do not
    /// parse, or an `.ipa` entry the unpack limit or damage kept back), by their path inside
    /// the build: findings that fail the gate.
    var unreadable: [(shown: String, reason: String)] = []
    /// Keeps an `.ipa`'s unpacked folder alive for the run.
    var extractor: ZipExtractor?

    /// Entries of an `.ipa` not read that get a finding each; the rest get one together.
    static let unreadableShown = 20
    /// Mach-O file types audit reads as binaries: MH_EXECUTE, MH_DYLIB, MH_BUNDLE.
    static let binaryFileTypes: Set<UInt32> = [0x2, 0x6, 0x8]
    /// MH_DSYM: a bare DWARF file met inside BUILD is a debug file, not a binary.
    static let dsymFileType: UInt32 = 0xA

    /// Reads BUILD: an `.xcarchive`, an `.ipa` (zip with `Payload/`), an `.app` or any folder.
    static func open(_ path: String, unpackLimit: UInt64? = nil) throws(AuditFailure) -> AuditBuild {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .buildNotFound(path: path) }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let lower = trimmed.lowercased()
        if !isDirectory.boolValue {
            guard DebugFileDiscovery.isZip(path) else {
                throw .notABuild(path: path, reason: "not a folder, an .xcarchive, an .app or an .ipa")
            }
            return try openIPA(path, unpackLimit: unpackLimit)
        }
        if lower.hasSuffix(".xcarchive") {
            var build = AuditBuild(kind: .archive)
            let products = (trimmed as NSString).appendingPathComponent("Products")
            let applications = (products as NSString).appendingPathComponent("Applications")
            build.walk(root: products, shownRoot: FileManager.default.fileExists(atPath: applications) ? applications : products)
            for folder in ["dSYMs"] {
                let full = (trimmed as NSString).appendingPathComponent(folder)
                if FileManager.default.fileExists(atPath: full) { build.debugInputs.append(full) }
            }
            build.findSymbolMaps(in: (trimmed as NSString).appendingPathComponent("BCSymbolMaps"))
            return try build.checked(path)
        }
        var build = AuditBuild(kind: lower.hasSuffix(".app") ? .app : .folder)
        // An `.app` is shown with its own name first (`Shop.app/Frameworks/…`).
        let shownRoot = build.kind == .app ? (trimmed as NSString).deletingLastPathComponent : trimmed
        build.walk(root: trimmed, shownRoot: shownRoot)
        build.findSymbolMaps(in: (trimmed as NSString).appendingPathComponent("BCSymbolMaps"))
        return try build.checked(path)
    }

    /// The binaries in the order they are shown: apps, extensions, frameworks, dylibs, others,
    /// each kind by path.
    private func checked(_ path: String) throws(AuditFailure) -> AuditBuild {
        guard !binaries.isEmpty || !unreadable.isEmpty else {
            throw .notABuild(path: path, reason: "no Mach-O executable, framework or dylib in it")
        }
        var build = self
        let order = Dictionary(uniqueKeysWithValues: BinaryRole.allCases.enumerated().map { ($1, $0) })
        build.binaries.sort { a, b in
            let (ra, rb) = (order[a.role] ?? 0, order[b.role] ?? 0)
            return ra != rb ? ra < rb : a.shown < b.shown
        }
        return build
    }

    /// An `.ipa`: only the files that can be binaries are unpacked (no extension or `.dylib`),
    /// plus Info.plist files, with `ZipExtractor`'s limits.
    private static func openIPA(_ path: String, unpackLimit: UInt64?) throws(AuditFailure) -> AuditBuild {
        let extractor: ZipExtractor
        do { extractor = try ZipExtractor(maximumUnpackedSize: unpackLimit) } catch { throw .cannotUnpack(path: path, reason: "\(error)") }
        let extraction: ZipExtractor.Extraction
        do {
            extraction = try extractor.extract(zipPath: path) { entry in
                guard entry.hasPrefix("Payload/") || entry.hasPrefix("SwiftSupport/") else { return false }
                let name = (entry as NSString).lastPathComponent
                let ext = (name as NSString).pathExtension.lowercased()
                return ext.isEmpty || ext == "dylib" || name == "Info.plist"
            }
        } catch {
            throw .notABuild(path: path, reason: error.description)
        }
        var build = AuditBuild(kind: .ipa)
        build.extractor = extractor
        // An entry that may be a binary and did not come out is a finding; other skips
        // (links, duplicates, an Info.plist) are warnings.
        // A hostile archive may hold any number: the first ones each, the rest in one finding.
        let name = (path as NSString).lastPathComponent
        let lostBinaries = extraction.lost.filter { ($0.entry as NSString).lastPathComponent != "Info.plist" }
        for (entry, reason) in lostBinaries.prefix(Self.unreadableShown) {
            let shown = entry.hasPrefix("Payload/") ? String(entry.dropFirst("Payload/".count)) : (entry.isEmpty ? name : entry)
            build.unreadable.append((shown, "\(name)\(entry.isEmpty ? "" : "!" + entry): \(reason)"))
        }
        if lostBinaries.count > Self.unreadableShown {
            build.unreadable.append((name, "\(lostBinaries.count - Self.unreadableShown) more entries of \(name) were not read"))
        }
        let lost = Set(extraction.lost.map(\.entry))
        for skipped in extraction.skipped {
            if case .zip(_, let entry, _) = skipped, lost.contains(entry ?? ""),
                (entry.map { ($0 as NSString).lastPathComponent } ?? "") != "Info.plist"
            {
                continue
            }
            build.problems.append(.unreadable(path: path, reason: skipped.description))
        }
        let payload = extraction.folder.appendingPathComponent("Payload").path
        guard FileManager.default.fileExists(atPath: payload) else {
            throw .notABuild(path: path, reason: "a zip without Payload/ (not an .ipa)")
        }
        build.walk(root: payload, shownRoot: payload)
        let swiftSupport = extraction.folder.appendingPathComponent("SwiftSupport").path
        if FileManager.default.fileExists(atPath: swiftSupport) {
            build.walk(root: swiftSupport, shownRoot: extraction.folder.path)
        }
        return try build.checked(path)
    }

    /// Every binary below `root`, in path order; `.dSYM` bundles and DWARF files met on the
    /// way become debug inputs. Symbolic links are not followed (a macOS framework's
    /// `Versions/Current` would give each binary twice).
    private mutating func walk(root: String, shownRoot: String) {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        let shownBase = URL(fileURLWithPath: shownRoot).standardizedFileURL.path
        guard
            let enumerator = FileManager.default.enumerator(
                at: rootURL, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey], options: [],
                errorHandler: { _, _ in true })
        else { return }
        var files: [String] = []
        while let url = enumerator.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true { continue }
            let name = url.lastPathComponent
            if values?.isDirectory == true {
                if name.lowercased().hasSuffix(".dsym") {
                    debugInputs.append(url.path)
                    enumerator.skipDescendants()
                } else if name == "_CodeSignature" || name.hasSuffix(".lproj") || name == "BCSymbolMaps" {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard values?.isRegularFile == true, !name.hasPrefix(".") else { continue }
            let ext = (name as NSString).pathExtension.lowercased()
            if ext == "bcsymbolmap" {
                recordSymbolMap(url.path)
            } else if ext.isEmpty || ext == "dylib" || url.path.contains("/Contents/MacOS/") {
                files.append(url.path)
            }
        }
        for file in files.sorted() {
            guard let prefix = RegularFile.prefix(path: file, count: 8), MachODebugFormat.recognizes(magic: [UInt8](prefix)) else {
                continue
            }
            let machO: MachOFile
            let shown = file.hasPrefix(shownBase + "/") ? String(file.dropFirst(shownBase.count + 1)) : file
            do { machO = try MachOFile(path: file) } catch {
                unreadable.append((shown, error.description))
                continue
            }
            if machO.slices.allSatisfy({ $0.fileType == Self.dsymFileType }) {
                debugInputs.append(file)
                continue
            }
            guard machO.slices.contains(where: { Self.binaryFileTypes.contains($0.fileType) }) else { continue }
            binaries.append(Binary(path: file, shown: shown, role: Self.role(of: shown), file: machO))
        }
    }

    /// The role of a binary from its place in the bundles around it: the innermost bundle
    /// folder (`.app`, `.appex`, `.xpc`, `.framework`, `.bundle`) decides; the bundle's own
    /// executable (named like the bundle, or in `Contents/MacOS/`) has the bundle's role,
    /// anything else inside it is a dylib or other.
    package static func role(of shown: String) -> BinaryRole {
        let parts = shown.split(separator: "/").map(String.init)
        let name = parts.last ?? shown
        let isDylib = name.lowercased().hasSuffix(".dylib")
        guard let bundleIndex = parts.dropLast().lastIndex(where: { Self.bundleRole(of: $0) != nil }),
            let kind = Self.bundleRole(of: parts[bundleIndex])
        else { return isDylib ? .dylib : .other }
        let stem = (parts[bundleIndex] as NSString).deletingPathExtension
        let inside = parts[(bundleIndex + 1)...].dropLast()
        // Xcode 16+ Debug builds put the main executable's code in `<name>.debug.dylib` beside
        // a stub executable: that dylib is the app (or extension) itself.
        let isMain =
            (name == stem || name == stem + ".debug.dylib")
            && (inside.isEmpty || Array(inside) == ["Contents", "MacOS"] || (inside.first == "Versions" && inside.count == 2))
        if isMain { return kind }
        return isDylib ? .dylib : .other
    }

    private static func bundleRole(of component: String) -> BinaryRole? {
        switch (component as NSString).pathExtension.lowercased() {
        case "app": return .app
        case "appex", "xpc": return .appExtension
        case "framework": return .framework
        case "bundle": return .other
        default: return nil
        }
    }

    /// `<UUID>.bcsymbolmap` files directly in `folder`.
    mutating func findSymbolMaps(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() where name.lowercased().hasSuffix(".bcsymbolmap") {
            recordSymbolMap((folder as NSString).appendingPathComponent(name))
        }
    }

    private mutating func recordSymbolMap(_ path: String) {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let id = DebugID(uuid: stem) { symbolMaps[id] = symbolMaps[id] ?? path }
    }
}
