import Foundation
import SymbolicateCore
import SymbolicateDWARF

/// One build in one debug file (a Mach-O slice or an ELF file): what the index knows without opening its DWARF.
package struct DebugFileEntry: Sendable {
    /// The file to open (inside `Contents/Resources/DWARF/` for a dSYM).
    package var path: String
    /// What to show the user: the `.dSYM` bundle (or `zip!bundle`), or the file itself.
    package var displayPath: String
    package var architecture: Architecture
    package var debugID: DebugID
    /// The build as the index parsed it (the file stays mapped), so opening it reads no
    /// header twice. Any `DebugFileFormat`'s objects fit here (Mach-O slices, ELF files).
    package var object: any DebugObject
    /// The image's name when the file's own name is not it (a debug file kept by identity in a
    /// cache is named `debug` there: the name recorded with it); nil when the file's name is.
    package var imageName: String?

    package init(path: String, displayPath: String, architecture: Architecture, debugID: DebugID, object: any DebugObject) {
        self.path = path
        self.displayPath = displayPath
        self.architecture = architecture
        self.debugID = debugID
        self.object = object
    }

    /// Opens the entry's debug information (DWARF, or the symbol table when it has none).
    /// `objectPathMap`: where a debug map's object files may have moved (`--object-path-map`).
    package func openSession(objectPathMap: ObjectPathMap = ObjectPathMap()) throws(DebugInfoError) -> any DebugLookup {
        try object.open(objectPathMap: objectPathMap)
    }
}

/// Identity → debug files, built once per run from every input, by reading headers only.
///
/// Batch mode shares one index across all reports; the index also keeps the unpacked zip
/// folders alive until it is released.
package final class DebugFileIndex: Sendable {
    package let entries: [DebugFileEntry]
    /// Inputs that were skipped (unreadable files in walked folders, bad zips) — reported,
    /// never fatal for the whole run.
    package let problems: [DebugFileProblem]
    private let byID: [DebugID: [DebugFileEntry]]
    /// File name (the image name a dSYM's DWARF file carries) → entries; asked for every
    /// image without a UUID match, so it is built once.
    private let byFileName: [String: [DebugFileEntry]]
    private let extractor: ZipExtractor?
    /// An index this one adds to (`init(adding:to:)`), kept alive for its unpacked zips.
    private let base: DebugFileIndex?
    /// The index added to `base` (`init(_:then:)`), kept alive for the same reason.
    private let added: DebugFileIndex?

    /// What the implicit searches (`shallowFolders`, `searchFolders`) looked at.
    package let searched: DebugFileDiscovery.Statistics
    /// Zips whose unpacked folder came from the `ZipCache` (nothing inflated in this run).
    package let reusedZips: Int

    /// Builds the index.
    /// - Parameters:
    ///   - inputs: explicit debug-file arguments; a missing or unusable one is an error.
    ///   - shallowFolders: places nobody said hold debug files (the report's folder, the
    ///     current directory): only their top level is looked at (see
    ///     `DebugFileDiscovery.add(shallowFolder:)`); missing ones are skipped.
    ///   - searchFolders: places the user keeps debug files (`SYMBOLICATE_DSYM_PATH`),
    ///     searched recursively; missing ones are skipped.
    ///   - zipCache: where debug-file zips are unpacked once and kept (`ZipCache`); nil
    ///     unpacks them for this run only.
    /// - Throws: why the first unusable explicit input cannot be used.
    package init(
        inputs: [String], shallowFolders: [String] = [], searchFolders: [String] = [], zipCache: ZipCache? = nil
    ) throws(DiscoveryError) {
        var discovery = DebugFileDiscovery()
        discovery.zipCache = zipCache
        for input in inputs { try discovery.add(input: input) }
        let beforeImplicit = discovery.statistics
        for folder in shallowFolders { discovery.add(shallowFolder: folder) }
        for folder in searchFolders { discovery.add(searchFolder: folder) }
        searched = DebugFileDiscovery.Statistics(
            folders: discovery.statistics.folders - beforeImplicit.folders,
            files: discovery.statistics.files - beforeImplicit.files)
        extractor = discovery.extractor
        reusedZips = discovery.reusedZips

        let found = discovery.found
        let results = Self.readHeaders(of: found)
        var entries: [DebugFileEntry] = []
        var problems = discovery.problems.map(DebugFileProblem.discovery)
        // Files not opened for want of mappings (`MappingBudget`): one warning for them all.
        var notOpened: [String] = []
        for (i, result) in results.enumerated() {
            switch result {
            case .success(let objects):
                entries += objects.compactMap { object in
                    guard let id = object.debugID else { return nil }
                    return DebugFileEntry(
                        path: found[i].path, displayPath: found[i].displayPath, architecture: object.architecture, debugID: id,
                        object: object)
                }
            case .failure(let error) where MappingBudget.isExhausted(error.message):
                notOpened.append(found[i].displayPath)
            case .failure(let error):
                // Name the file as the user knows it (a zip entry, a bundle), not our temp path.
                var shown = error
                shown.path = found[i].displayPath
                problems.append(.unreadable(shown))
            }
        }
        if let first = notOpened.first {
            let others = notOpened.count > 1 ? " (and \(notOpened.count - 1) other debug files)" : ""
            problems.append(.unreadable(DebugInfoError(path: first + others, message: MappingBudget.current.exhaustedMessage)))
        }
        self.entries = entries
        self.problems = problems
        base = nil
        added = nil
        byID = Dictionary(grouping: entries, by: \.debugID)
        byFileName = Self.byFileName(entries)
    }

    /// The entries of `base`, then `more` (debug files a server found by identity for one
    /// request), answering as one index; `base` is read as it is, never again.
    package init(adding more: [DebugFileEntry], to base: DebugFileIndex) {
        entries = base.entries + more
        problems = base.problems
        searched = base.searched
        reusedZips = 0
        extractor = nil
        self.base = base
        added = nil
        byID = Dictionary(grouping: entries, by: \.debugID)
        byFileName = Self.byFileName(entries)
    }

    /// `base`'s entries, then `more`'s (debug files found after `base` was built, for images it
    /// had none for: Xcode's dSYMs), answering as one index with both indexes' problems; `base`
    /// is read as it is, never walked again, and both stay alive for their unpacked zips.
    package init(_ base: DebugFileIndex, then more: DebugFileIndex) {
        entries = base.entries + more.entries
        problems = base.problems + more.problems
        searched = base.searched
        reusedZips = base.reusedZips + more.reusedZips
        extractor = nil
        self.base = base
        added = more
        byID = Dictionary(grouping: entries, by: \.debugID)
        byFileName = Self.byFileName(entries)
    }

    /// File name → entries. A separate ELF debug file is usually the binary's name plus `.debug`.
    private static func byFileName(_ entries: [DebugFileEntry]) -> [String: [DebugFileEntry]] {
        var byFileName: [String: [DebugFileEntry]] = [:]
        for entry in entries {
            let name = (entry.path as NSString).lastPathComponent
            byFileName[name, default: []].append(entry)
            if name.hasSuffix(".debug"), name.count > 6 { byFileName[String(name.dropLast(6)), default: []].append(entry) }
        }
        return byFileName
    }

    /// The builds in each found file, from headers only (any format of `DebugFileFormats`),
    /// read side by side: header reads are independent, and big folders have thousands.
    static func readHeaders(of found: [DebugFileDiscovery.Found]) -> [Result<[any DebugObject], DebugInfoError>] {
        let results = UnsafeMutableTransferBox<[Result<[any DebugObject], DebugInfoError>?]>(Array(repeating: nil, count: found.count))
        @Sendable func read(_ i: Int) {
            // Discovery only records files some format recognised (a named file excepted);
            // Mach-O is the fallback so that such a file still gets that format's error.
            let format = DebugFileFormats.format(ofFileAt: found[i].path) ?? MachODebugFormat.self
            do throws(DebugInfoError) {
                results.set(i, .success(try format.objects(inFile: found[i].path)))
            } catch {
                results.set(i, .failure(error))
            }
        }
        // The caller's mapping budget, on Dispatch's threads too.
        let budget = MappingBudget.current
        DispatchQueue.concurrentPerform(iterations: found.count) { i in
            MappingBudget.$current.withValue(budget) { read(i) }
        }
        return results.value.map { $0 ?? .success([]) }
    }

    /// Debug files whose slice has this identity, best first: files inside a `.dSYM` bundle
    /// (they carry the DWARF) before executables that only have a symbol table, and the
    /// report's architecture first.
    package func entries(id: DebugID, preferring arch: Architecture? = nil) -> [DebugFileEntry] {
        let matches = byID[id] ?? []
        return matches.enumerated().sorted { a, b in
            let rankA = Self.rank(a.element, arch), rankB = Self.rank(b.element, arch)
            return rankA != rankB ? rankA < rankB : a.offset < b.offset
        }.map(\.element)
    }

    private static func rank(_ entry: DebugFileEntry, _ arch: Architecture?) -> Int {
        (DSYMBundle.holdsDWARFFile(entry.path) ? 0 : 2) + (entry.architecture == arch ? 0 : 1)
    }

    /// Debug files whose file name matches an image name: used to explain a UUID mismatch
    /// ("dSYM X has UUID … but the report expects …").
    package func entries(imageName: String) -> [DebugFileEntry] {
        byFileName[imageName] ?? []
    }
}

/// A fixed-size array written from `concurrentPerform` iterations, each to its own slot.
final class UnsafeMutableTransferBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var value: Value
    init(_ value: Value) { self.value = value }
}

extension UnsafeMutableTransferBox {
    func set<Element>(_ index: Int, _ element: Element) where Value == [Element?] {
        lock.lock()
        value[index] = element
        lock.unlock()
    }
}
