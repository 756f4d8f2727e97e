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

/// Opening an ELF file's debug information. Which file and build to open is decided by
/// discovery and the index (`SymbolicateDiscovery`), for reports and `atos -o` alike.
package enum DebugFile {
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
