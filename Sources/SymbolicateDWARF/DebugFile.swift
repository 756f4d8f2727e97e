import Foundation
import SymbolicateCore
import SymbolicateELF
import SymbolicateMachO

/// The `.dSYM` bundle layout, written down here only: a bundle's DWARF files (one per image,
/// each a Mach-O file, possibly universal) live in `Contents/Resources/DWARF/`.
package enum DSYMBundle {
    package static let dwarfFolder = "Contents/Resources/DWARF"

    /// The folder holding the DWARF files of `bundle`.
    package static func dwarfFolder(of bundle: String) -> String {
        (bundle as NSString).appendingPathComponent(dwarfFolder)
    }

    /// Whether `path` is a file in a bundle's DWARF folder (`A.dSYM/Contents/Resources/DWARF/A`):
    /// such files carry the DWARF, where an executable of the same build may only have symbols.
    package static func holdsDWARFFile(_ path: String) -> Bool {
        path.lowercased().contains(".dsym/" + dwarfFolder.lowercased() + "/")
    }
}

/// Finds the Mach-O file and slice that hold debug information for an image.
package enum DebugFile {
    /// The Mach-O files a path stands for: every file in a `.dSYM` bundle's
    /// `Contents/Resources/DWARF/`, or the path itself (bare DWARF file or executable).
    package static func machOPaths(for path: String) throws(DebugInfoError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DebugInfoError(path: path, message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let dwarfFolder = DSYMBundle.dwarfFolder(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dwarfFolder) else {
            throw DebugInfoError(path: path, message: "a directory but not a .dSYM bundle (no \(DSYMBundle.dwarfFolder))")
        }
        let files = names.filter { !$0.hasPrefix(".") }.sorted().map { (dwarfFolder as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw DebugInfoError(path: path, message: "the .dSYM bundle has no DWARF file in \(DSYMBundle.dwarfFolder)")
        }
        return files
    }

    /// Every slice of every Mach-O file `path` stands for, reading headers and load
    /// commands only. The slices keep the file mapped, so a session opened on one later
    /// (`DebugSession(slice:)`) reads nothing twice.
    package static func slices(atPath path: String) throws(DebugInfoError) -> [MachOSlice] {
        var out: [MachOSlice] = []
        for file in try machOPaths(for: path) {
            do { out += try MachOFile(path: file).slices } catch { throw DebugInfoError(error) }
        }
        return out
    }

    /// Opens the slice for an image: by identity when given (a mismatch is an error, never
    /// a silent fallback), else by architecture, else the only slice.
    package static func open(path: String, id: DebugID? = nil, architecture: Architecture? = nil) throws(DebugInfoError) -> DebugSession {
        if isELF(path) { return try openELF(path: path, id: id, architecture: architecture) }
        var seen: [String] = []
        for file in try machOPaths(for: path) {
            let macho: MachOFile
            do { macho = try MachOFile(path: file) } catch { throw DebugInfoError(error) }
            seen += macho.slices.map { "\($0.architecture) \($0.debugID?.description ?? "no UUID")" }
            let slice: MachOSlice?
            if let id {
                // A UUID names exactly one build of one slice: it wins over the arch.
                slice = macho.slice(id: id)
            } else if let architecture {
                slice = macho.slice(architecture: architecture)
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
        let wanted = id.map { "UUID \($0)" } ?? "architecture \(architecture?.name ?? "?")"
        throw DebugInfoError(path: path, message: "no slice with \(wanted) (found: \(seen.joined(separator: "; ")))")
    }
}

extension DebugFile {
    /// Whether `path` is a regular file starting with the ELF magic (a FIFO or device is
    /// never opened).
    package static func isELF(_ path: String) -> Bool {
        ELFFile.hasELFMagic([UInt8](RegularFile.prefix(path: path, count: 4) ?? Data()))
    }

    /// Opens an ELF file (a `.debug` file or a binary with symbols). A build ID or
    /// architecture that differs from the one asked for is an error naming both.
    package static func openELF(path: String, id: DebugID? = nil, architecture: Architecture? = nil) throws(DebugInfoError) -> DebugSession
    {
        let file: ELFFile
        do { file = try ELFFile(path: path) } catch { throw DebugInfoError(error) }
        if let id, file.buildID != id {
            throw DebugInfoError(
                path: path,
                message:
                    "build ID mismatch: the report's image has \(id.hexString), this file has \(file.buildID?.hexString ?? "no build ID")"
            )
        }
        if let architecture, architecture.family != file.architecture.family {
            throw DebugInfoError(
                path: path, message: "architecture mismatch: asked for \(architecture), this ELF file is \(file.architecture)")
        }
        return try DebugSession(elf: file)
    }
}

extension DebugInfoError {
    /// Carries an ELF reading error over with its path and offset.
    package init(_ error: ELFError) {
        self.init(path: error.path, offset: error.offset, message: error.message)
    }

    /// Carries a Mach-O reading error over with its path and offset.
    package init(_ error: MachOError) {
        self.init(path: error.path, offset: error.offset.map { UInt64($0) }, message: error.message)
    }
}
