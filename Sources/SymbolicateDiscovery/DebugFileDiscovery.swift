import Foundation
import SymbolicateCore
import SymbolicateDWARF

/// Expands what the user passed as debug files — dSYM bundles, bare DWARF or Mach-O files,
/// folders (searched recursively, which covers `.xcarchive/dSYMs`), `.xcarchive`s and zips —
/// into the list of Mach-O files that may carry debug information.
///
/// Only paths are produced here; reading identities (arch, UUID) is the index's job, so a
/// folder of thousands of dSYMs costs one directory walk plus one header read per file.
package struct DebugFileDiscovery {
    /// A Mach-O file found in the inputs.
    struct Found: Hashable {
        /// The Mach-O file itself (inside `Contents/Resources/DWARF/` for a dSYM).
        var path: String
        /// What to call it in messages: the `.dSYM` bundle, or the file.
        var displayPath: String
    }

    /// Where zips are unpacked; created on first use, shared with the walks of unpacked zips.
    private(set) var extractor: ZipExtractor?
    /// The budget of the zip this walk is inside (nil for the user's own folders): zips met
    /// here are unpacked under it, so nesting never restarts a zip's allowance.
    private var zipBudget: ZipExtractor.ArchiveBudget?
    /// Where debug-file zips are unpacked once and kept for later runs; nil unpacks them into
    /// the run's private temporary folder.
    var zipCache: ZipCache?
    /// Zips whose unpacked folder was reused from `zipCache` (nothing inflated).
    private(set) var reusedZips = 0
    private(set) var found: [Found] = []
    private(set) var problems: [DiscoveryError] = []
    private var seen = Set<String>()
    /// Debug-file arguments added (for the "what was searched" line).
    private(set) var explicitInputs = 0

    /// Folders skipped during recursive walks: never debug files, often huge.
    private static let skippedFolderNames: Set<String> = [".git", ".build", "node_modules", "DerivedData", "__MACOSX"]
    /// Upper bound of directory entries visited per walked folder, so pointing at `/` or `$HOME`
    /// cannot hang the tool.
    static let walkLimit = 200_000

    /// Adds one user input. Problems with explicit inputs are errors; problems met while
    /// walking a folder are collected in `problems` (one bad file never stops the walk).
    mutating func add(input path: String) throws(DiscoveryError) {
        explicitInputs += 1
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if let kind = RegularFile.specialKind(path: path) {
            throw .io(path: path, message: "is \(kind), not a regular file; refusing to read it")
        }
        if isDirectory.boolValue {
            if Self.isDSYMBundle(path) { addBundle(path) } else { walk(folder: path) }
        } else if Self.isZip(path) {
            try addZip(path)
        } else if Self.hasDebugFileMagic(path) {
            record(path: path, displayPath: path)
        } else {
            throw .notADebugFile(path: path)
        }
    }

    /// Adds the one debug file a user named for one image (`atos -o`): a `.dSYM` bundle (any
    /// folder with `Contents/Resources/DWARF`) or a file. Every file is read whatever its
    /// first bytes say (a FIFO or device is refused by the reader, never opened), so that its
    /// format's own error names what is wrong with it. Nothing is searched and no zip
    /// unpacked: the user named the file itself.
    mutating func add(namedFile path: String) throws(DebugInfoError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DebugInfoError(path: path, message: "no such file or directory")
        }
        explicitInputs += 1
        guard isDirectory.boolValue else { return record(path: path, displayPath: path) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: DSYMBundle.dwarfFolder(of: path), isDirectory: &isFolder), isFolder.boolValue else {
            throw DebugInfoError(path: path, message: "a directory but not a .dSYM bundle (no \(DSYMBundle.dwarfFolder))")
        }
        addBundle(path, everyFile: true)
    }

    /// Adds a folder searched recursively because the user pointed at it for debug files
    /// (`SYMBOLICATE_DSYM_PATH`): a missing folder is simply skipped.
    mutating func add(searchFolder path: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        walk(folder: path)
    }

    /// Looks at the top level of a folder nobody said holds debug files (the report's folder,
    /// the current directory — which may be `$HOME` or `/`): `*.dSYM` bundles, `*.xcarchive`
    /// and `dSYMs` folders (their `dSYMs` searched as Xcode lays them out), and zips whose name
    /// says they hold dSYMs. Never descends anywhere else, so it costs one directory listing.
    mutating func add(shallowFolder path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        statistics.folders += 1
        for name in names.sorted() where !name.hasPrefix(".") {
            statistics.files += 1
            let full = (path as NSString).appendingPathComponent(name)
            let lower = name.lowercased()
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if Self.isDSYMBundle(full) {
                    addBundle(full)
                } else if lower.hasSuffix(".xcarchive") {
                    add(xcodeDSYMsFolder: (full as NSString).appendingPathComponent("dSYMs"))
                } else if lower == "dsyms" {
                    add(xcodeDSYMsFolder: full)
                }
            } else if lower.contains("dsym"), Self.isZip(full) {
                do { try addZip(full) } catch { problems.append(error) }
            }
        }
    }

    /// An Xcode `dSYMs` folder: the bundles directly inside it.
    private mutating func add(xcodeDSYMsFolder path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        statistics.folders += 1
        for name in names.sorted() where !name.hasPrefix(".") {
            statistics.files += 1
            let full = (path as NSString).appendingPathComponent(name)
            if Self.isDSYMBundle(full) { addBundle(full) }
        }
    }

    /// What the searches looked at, for the one line that says so.
    package struct Statistics: Sendable, Equatable {
        /// Folders listed.
        package var folders = 0
        /// Entries (files and bundles) looked at in them.
        package var files = 0
        package init(folders: Int = 0, files: Int = 0) {
            self.folders = folders
            self.files = files
        }
    }

    private(set) var statistics = Statistics()

    /// Whether `path` is something only a debug-file argument can be: a dSYM bundle, an
    /// `.xcarchive`, a Mach-O file. Used to notice swapped arguments.
    package static func looksLikeDebugFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            let lower = path.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return isDSYMBundle(path) || lower.hasSuffix(".dsym") || lower.hasSuffix(".xcarchive")
        }
        return hasDebugFileMagic(path)
    }

    private mutating func record(path: String, displayPath: String) {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        guard seen.insert(key).inserted else { return }
        found.append(Found(path: path, displayPath: displayPath))
        // A stripped ELF binary names its separate debug file (.gnu_debuglink).
        for companion in DebugFileFormats.format(ofFileAt: path)?.companions(ofFile: path) ?? [] {
            record(path: companion, displayPath: companion)
        }
    }

    /// A folder named `*.dSYM` that has `Contents/Resources/DWARF`. Some build systems (and
    /// users of MacSymbolicator) collect an app's dSYMs in a folder that is itself named
    /// `.dSYM` (`Embedded.app.dSYM/App.app.dSYM`, `…/Framework.framework.dSYM`): without
    /// that folder it is searched like any other.
    package static func isDSYMBundle(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".dsym") else { return false }
        var isDirectory: ObjCBool = false
        let dwarf = DSYMBundle.dwarfFolder(of: path)
        return FileManager.default.fileExists(atPath: dwarf, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every Mach-O file in `Bundle.dSYM/Contents/Resources/DWARF/`; with `everyFile` (a
    /// bundle the user named for one image) every file there, to be read and fail in its own words.
    private mutating func addBundle(_ bundle: String, everyFile: Bool = false) {
        let dwarfDir = DSYMBundle.dwarfFolder(of: bundle)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dwarfDir) else {
            problems.append(.notADebugFile(path: bundle))
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = (dwarfDir as NSString).appendingPathComponent(name)
            if everyFile {
                record(path: file, displayPath: bundle)
            } else if let kind = RegularFile.specialKind(path: file) {
                problems.append(.io(path: file, message: "is \(kind), not a regular file; skipped"))
            } else if Self.hasDebugFileMagic(file) {
                record(path: file, displayPath: bundle)
            }
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
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey],
                options: [], errorHandler: { _, _ in true })
        else { return }
        var visited = 0
        statistics.folders += 1
        while let url = enumerator.nextObject() as? URL {
            visited += 1
            if visited > Self.walkLimit {
                problems.append(
                    .io(path: folder, message: "stopped searching after \(Self.walkLimit) entries; pass the dSYM folder directly"))
                return
            }
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true { continue }
            let name = url.lastPathComponent
            if values?.isDirectory == true {
                // `.build-id/xx/rest.debug` trees (/usr/lib/debug, debuginfod caches) and GDB's
                // `.debug/` folders hold ELF debug files: the only hidden folders searched.
                if Self.skippedFolderNames.contains(name) || (name.hasPrefix(".") && name != ".build-id" && name != ".debug") {
                    enumerator.skipDescendants()
                } else if Self.isDSYMBundle(url.path) {
                    statistics.files += 1
                    addBundle(shown(url))
                    enumerator.skipDescendants()
                } else {
                    statistics.folders += 1
                }
                continue
            }
            statistics.files += 1
            guard values?.isRegularFile == true, !name.hasPrefix(".") else { continue }
            if Self.isZip(url.path) {
                do { try addZip(shown(url)) } catch { problems.append(error) }
            } else if Self.looksLikeBareDebugFile(name), Self.hasDebugFileMagic(url.path) {
                record(path: url.path, displayPath: shown(url))
            }
        }
    }

    /// Unpacks what may be a debug file in a zip and adds it, as the same files in a folder
    /// would be: dSYM bundles, bare DWARF files, Mach-O binaries and ELF files, an `.ipa`'s
    /// `Payload/App.app/App` and its frameworks. With `zipCache`, once for all runs.
    private mutating func addZip(_ path: String) throws(DiscoveryError) {
        if extractor == nil {
            do { extractor = try ZipExtractor() } catch {
                throw .io(path: path, message: "cannot create a private temporary folder: \(error)")
            }
        }
        guard let extractor else { return }
        let folder: URL
        let budget: ZipExtractor.ArchiveBudget
        if zipBudget == nil,
            let cached = try zipCache?.unpack(zipPath: path, displayPath: path, extractor: extractor, wanted: Self.mayBeDebugFile)
        {
            // Entries that could not be unpacked are named, so a dSYM lost that way is not just
            // a "no dSYM for …" later.
            problems += cached.skipped
            if cached.reused { reusedZips += 1 }
            folder = cached.folder
            budget = cached.budget
        } else {
            let extraction = try extractor.extract(zipPath: path, wanted: Self.mayBeDebugFile, nestedIn: zipBudget)
            problems += extraction.skipped
            folder = extraction.folder
            budget = extraction.budget
        }
        // Zips inside are unpacked by the same extractor (its per-run total) under this zip's budget.
        var nested = DebugFileDiscovery()
        nested.extractor = extractor
        nested.zipBudget = budget
        nested.seen = seen
        nested.walk(folder: folder.path)
        for item in nested.found {
            // Messages name the zip and the bundle inside it, not our temporary folder.
            let inside = item.displayPath.replacingOccurrences(of: folder.path + "/", with: "")
            record(path: item.path, displayPath: "\(path)!\(inside)")
        }
        problems += nested.problems
    }

    /// Whether a zip entry (by its path inside the archive) may be a debug file, as a folder's
    /// walk would open it: anything in a dSYM's DWARF folder, else a file whose name
    /// `looksLikeBareDebugFile` (code signatures and a dSYM's other files are never unpacked).
    static func mayBeDebugFile(_ entry: String) -> Bool {
        let lower = entry.lowercased()
        if lower.contains(".dsym/contents/resources/dwarf/") { return true }
        let parts = lower.split(separator: "/")
        if parts.contains(where: { $0 == "_codesignature" || $0 == "__macosx" || $0.hasPrefix(".") }) { return false }
        if lower.contains(".dsym/") { return false }
        return looksLikeBareDebugFile(String(parts.last ?? ""))
    }

    /// Files in walked folders worth opening: no extension (executables, DWARF files) or
    /// Mach-O extensions, or ELF's `.so`/`.debug`. Avoids reading the first bytes of every source file and image.
    static func looksLikeBareDebugFile(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext.isEmpty || ext == "dylib" || ext == "so" || ext == "bundle" || ext == "dwarf" || ext == "debug"
    }

    package static func isZip(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".zip") || path.lowercased().hasSuffix(".ipa") else {
            return firstBytes(path, count: 4) == [0x50, 0x4B, 0x03, 0x04]
        }
        return true
    }

    /// Whether the file starts like a debug file of a known format (`DebugFileFormats.all`:
    /// Mach-O thin or universal today).
    package static func hasDebugFileMagic(_ path: String) -> Bool {
        DebugFileFormats.format(ofFileAt: path) != nil
    }

    private static func firstBytes(_ path: String, count: Int) -> [UInt8]? {
        RegularFile.prefix(path: path, count: count).map { [UInt8]($0) }
    }
}
