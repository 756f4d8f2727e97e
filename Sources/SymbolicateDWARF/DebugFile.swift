import Foundation
import SymbolicateMachO

/// Finds the Mach-O file and slice that hold debug information for an image.
public enum DebugFile {
    /// The Mach-O files a path stands for: every file in a `.dSYM` bundle's
    /// `Contents/Resources/DWARF/`, or the path itself (bare DWARF file or executable).
    public static func machOPaths(for path: String) throws(DebugInfoError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DebugInfoError(path: path, message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let dwarfFolder = (path as NSString).appendingPathComponent("Contents/Resources/DWARF")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dwarfFolder) else {
            throw DebugInfoError(path: path, message: "a directory but not a .dSYM bundle (no Contents/Resources/DWARF)")
        }
        let files = names.filter { !$0.hasPrefix(".") }.sorted().map { (dwarfFolder as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw DebugInfoError(path: path, message: "the .dSYM bundle has no DWARF file in Contents/Resources/DWARF")
        }
        return files
    }

    /// Architecture and UUID of every slice of every Mach-O file `path` stands for, reading
    /// headers only. UUIDs are uppercase and dashed.
    public static func identities(atPath path: String) throws(DebugInfoError) -> [(path: String, arch: String, uuid: String?)] {
        var out: [(String, String, String?)] = []
        for file in try machOPaths(for: path) {
            do {
                for identity in try MachOFile.identities(atPath: file) { out.append((file, identity.arch, identity.uuid)) }
            } catch {
                throw DebugInfoError(error)
            }
        }
        return out
    }

    /// Opens the slice for an image: by UUID when given (a mismatch is an error, never a
    /// silent fallback), else by architecture, else the only slice.
    public static func open(path: String, uuid: String? = nil, arch: String? = nil) throws(DebugInfoError) -> DebugSession {
        var seen: [String] = []
        for file in try machOPaths(for: path) {
            let macho: MachOFile
            do { macho = try MachOFile(path: file) } catch { throw DebugInfoError(error) }
            seen += macho.slices.map { "\($0.architecture.name) \($0.uuid ?? "no UUID")" }
            let slice: MachOSlice?
            if let uuid {
                // A UUID names exactly one build of one slice: it wins over the arch.
                slice = macho.slice(uuid: uuid)
            } else if let arch {
                slice = macho.slice(arch: arch)
            } else if macho.slices.count == 1 {
                slice = macho.slices[0]
            } else {
                throw DebugInfoError(
                    path: file,
                    message: "universal file with \(macho.slices.map(\.architecture.name).joined(separator: ", ")): choose one with --arch"
                )
            }
            if let slice { return try DebugSession(slice: slice) }
        }
        let wanted = uuid.map { "UUID \(normalizeUUID($0))" } ?? "architecture \(arch ?? "?")"
        throw DebugInfoError(path: path, message: "no slice with \(wanted) (found: \(seen.joined(separator: "; ")))")
    }
}

extension DebugInfoError {
    /// Carries a Mach-O reading error over with its path and offset.
    public init(_ error: MachOError) {
        self.init(path: error.path, offset: error.offset.map { UInt64($0) }, message: error.message)
    }
}
