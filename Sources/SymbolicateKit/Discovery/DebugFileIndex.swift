import Foundation
import SymbolicateMachO

/// One slice of one debug file: what the index knows without opening its DWARF.
public struct DebugFileEntry: Sendable, Hashable, Codable {
    /// The Mach-O file to open (inside `Contents/Resources/DWARF/` for a dSYM).
    public var path: String
    /// What to show the user: the `.dSYM` bundle (or `zip!bundle`), or the file itself.
    public var displayPath: String
    public var arch: String
    /// Uppercase, dashed: the same normal form the report parser uses.
    public var uuid: String
}

/// UUID → debug files, built once per run from every input, by reading Mach-O headers only.
///
/// Batch mode shares one index across all reports; the index also keeps the unpacked zip
/// folders alive until it is released.
public final class DebugFileIndex: Sendable {
    public let entries: [DebugFileEntry]
    /// Inputs that were skipped (unreadable files in walked folders, bad zips) — reported,
    /// never fatal for the whole run.
    public let problems: [String]
    private let byUUID: [String: [DebugFileEntry]]
    /// File name (the image name a dSYM's DWARF file carries) → entries; asked for every
    /// image without a UUID match, so it is built once.
    private let byFileName: [String: [DebugFileEntry]]
    private let extractor: ZipExtractor?

    /// Builds the index.
    /// - Parameters:
    ///   - inputs: explicit debug-file arguments; a missing or unusable one is an error.
    ///   - searchFolders: implicit places (next to the report, the current directory,
    ///     `SYMBOLICATE_DSYM_PATH`); missing ones are skipped.
    public init(inputs: [String], searchFolders: [String] = []) throws(DiscoveryError) {
        var discovery = DebugFileDiscovery()
        for input in inputs { try discovery.add(input: input) }
        for folder in searchFolders { discovery.add(searchFolder: folder) }
        extractor = discovery.extractor

        let found = discovery.found
        // Header reads are independent: spread them over the cores for big folders.
        let results = UnsafeMutableTransferBox<[Result<[DebugFileEntry], MachOError>?]>(Array(repeating: nil, count: found.count))
        DispatchQueue.concurrentPerform(iterations: found.count) { i in
            let item = found[i]
            let result: Result<[DebugFileEntry], MachOError>
            do throws(MachOError) {
                let identities = try MachOFile.identities(atPath: item.path)
                result = .success(identities.compactMap { identity in
                    guard let uuid = identity.uuid else { return nil }
                    return DebugFileEntry(path: item.path, displayPath: item.displayPath, arch: identity.arch, uuid: uuid)
                })
            } catch {
                result = .failure(error)
            }
            results.set(i, result)
        }
        var entries: [DebugFileEntry] = []
        var problems = discovery.problems.map(\.description)
        for (i, result) in results.value.enumerated() {
            switch result {
            case .success(let list): entries += list
            case .failure(let error):
                // Name the file as the user knows it (a zip entry, a bundle), not our temp path.
                var shown = error
                shown.path = found[i].displayPath
                problems.append(shown.description)
            case nil: break
            }
        }
        self.entries = entries
        self.problems = problems
        byUUID = Dictionary(grouping: entries, by: \.uuid)
        byFileName = Dictionary(grouping: entries, by: { ($0.path as NSString).lastPathComponent })
    }

    /// Debug files whose slice has this UUID (any spelling: case and dashes are normalised),
    /// best first: files inside a `.dSYM` bundle (they carry the DWARF) before executables
    /// that only have a symbol table, and the report's architecture first.
    public func entries(uuid: String, preferringArch arch: String? = nil) -> [DebugFileEntry] {
        let matches = byUUID[normalizeUUID(uuid)] ?? []
        return matches.enumerated().sorted { a, b in
            let rankA = Self.rank(a.element, arch), rankB = Self.rank(b.element, arch)
            return rankA != rankB ? rankA < rankB : a.offset < b.offset
        }.map(\.element)
    }

    private static func rank(_ entry: DebugFileEntry, _ arch: String?) -> Int {
        (entry.path.lowercased().contains(".dsym/contents/resources/dwarf/") ? 0 : 2) + (entry.arch == arch ? 0 : 1)
    }

    /// Debug files whose file name matches an image name: used to explain a UUID mismatch
    /// ("dSYM X has UUID … but the report expects …").
    public func entries(imageName: String) -> [DebugFileEntry] {
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
