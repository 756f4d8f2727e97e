import Foundation

/// Expands what the user passed as debug files — dSYM bundles, bare DWARF or Mach-O files,
/// folders (searched recursively, which covers `.xcarchive/dSYMs`), `.xcarchive`s and zips —
/// into the list of Mach-O files that may carry debug information.
///
/// Only paths are produced here; reading identities (arch, UUID) is the index's job, so a
/// folder of thousands of dSYMs costs one directory walk plus one header read per file.
struct DebugFileDiscovery {
    /// A Mach-O file found in the inputs.
    struct Found: Hashable {
        /// The Mach-O file itself (inside `Contents/Resources/DWARF/` for a dSYM).
        var path: String
        /// What to call it in messages: the `.dSYM` bundle, or the file.
        var displayPath: String
    }

    /// Where zips are unpacked; created on first use.
    private(set) var extractor: ZipExtractor?
    private(set) var found: [Found] = []
    private(set) var problems: [DiscoveryError] = []
    private var seen = Set<String>()

    /// Folders skipped during recursive walks: never debug files, often huge.
    private static let skippedFolderNames: Set<String> = [".git", ".build", "node_modules", "DerivedData", "__MACOSX"]
    /// Upper bound of directory entries visited per walked folder, so pointing at `/` or `$HOME`
    /// cannot hang the tool.
    static let walkLimit = 200_000

    /// Adds one user input. Problems with explicit inputs are errors; problems met while
    /// walking a folder are collected in `problems` (one bad file never stops the walk).
    mutating func add(input path: String) throws(DiscoveryError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if isDirectory.boolValue {
            if path.lowercased().hasSuffix(".dsym") { addBundle(path) } else { walk(folder: path) }
        } else if Self.isZip(path) {
            try addZip(path)
        } else if Self.hasMachOMagic(path) {
            record(path: path, displayPath: path)
        } else {
            throw .notADebugFile(path: path)
        }
    }

    /// Adds a folder searched implicitly (next to the report, the current directory,
    /// `SYMBOLICATE_DSYM_PATH`): a missing folder is simply skipped.
    mutating func add(searchFolder path: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        walk(folder: path)
    }

    private mutating func record(path: String, displayPath: String) {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        guard seen.insert(key).inserted else { return }
        found.append(Found(path: path, displayPath: displayPath))
    }

    /// Every Mach-O file in `Bundle.dSYM/Contents/Resources/DWARF/`.
    private mutating func addBundle(_ bundle: String) {
        let dwarfDir = (bundle as NSString).appendingPathComponent("Contents/Resources/DWARF")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dwarfDir) else {
            problems.append(.notADebugFile(path: bundle))
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = (dwarfDir as NSString).appendingPathComponent(name)
            if Self.hasMachOMagic(file) { record(path: file, displayPath: bundle) }
        }
    }

    private mutating func walk(folder: String) {
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        // Paths are shown as the user spelled the folder, not as absolute paths.
        func shown(_ url: URL) -> String {
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(root.path + "/") else { return full }
            return (folder as NSString).appendingPathComponent(String(full.dropFirst(root.path.count + 1)))
        }
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey],
            options: [], errorHandler: { _, _ in true })
        else { return }
        var visited = 0
        while let url = enumerator.nextObject() as? URL {
            visited += 1
            if visited > Self.walkLimit {
                problems.append(.io(path: folder, message: "stopped searching after \(Self.walkLimit) entries; pass the dSYM folder directly"))
                return
            }
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true { continue }
            let name = url.lastPathComponent
            if values?.isDirectory == true {
                if Self.skippedFolderNames.contains(name) || name.hasPrefix(".") {
                    enumerator.skipDescendants()
                } else if name.lowercased().hasSuffix(".dsym") {
                    addBundle(shown(url))
                    enumerator.skipDescendants()
                }
                continue
            }
            guard values?.isRegularFile == true, !name.hasPrefix(".") else { continue }
            if Self.isZip(url.path) {
                do { try addZip(shown(url)) } catch { problems.append(error) }
            } else if Self.looksLikeBareDebugFile(name), Self.hasMachOMagic(url.path) {
                record(path: url.path, displayPath: shown(url))
            }
        }
    }

    /// Unpacks the dSYM DWARF files of a zip and adds them.
    private mutating func addZip(_ path: String) throws(DiscoveryError) {
        if extractor == nil {
            do { extractor = try ZipExtractor() } catch {
                throw .io(path: path, message: "cannot create a private temporary folder: \(error)")
            }
        }
        guard let extractor else { return }
        let folder = try extractor.extract(zipPath: path) { entry in
            entry.lowercased().contains(".dsym/contents/resources/dwarf/")
        }
        var nested = DebugFileDiscovery()
        nested.seen = seen
        nested.walk(folder: folder.path)
        for item in nested.found {
            // Messages name the zip and the bundle inside it, not our temporary folder.
            let inside = item.displayPath.replacingOccurrences(of: folder.path + "/", with: "")
            record(path: item.path, displayPath: "\(path)!\(inside)")
        }
        problems += nested.problems
    }

    /// Files in walked folders worth opening: no extension (executables, DWARF files) or
    /// Mach-O extensions. Avoids reading the first bytes of every source file and image.
    static func looksLikeBareDebugFile(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext.isEmpty || ext == "dylib" || ext == "so" || ext == "bundle" || ext == "dwarf"
    }

    static func isZip(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".zip") || path.lowercased().hasSuffix(".ipa") else {
            return firstBytes(path, count: 4) == [0x50, 0x4B, 0x03, 0x04]
        }
        return true
    }

    /// Thin (32/64-bit, either byte order) or fat (32/64-bit) Mach-O magic.
    static func hasMachOMagic(_ path: String) -> Bool {
        guard let bytes = firstBytes(path, count: 4), bytes.count == 4 else { return false }
        let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        return [0xFEEDFACE, 0xFEEDFACF, 0xCEFAEDFE, 0xCFFAEDFE, 0xCAFEBABE, 0xCAFEBABF].contains(magic)
    }

    private static func firstBytes(_ path: String, count: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: count) else { return nil }
        return [UInt8](data)
    }
}
