import Foundation
import SymbolicateCore
import SymbolicateELF

/// ELF executables, shared objects and separate `.debug` files (Linux), through libelf.
package enum ELFDebugFormat: DebugFileFormat {
    package static func recognizes(magic: [UInt8]) -> Bool {
        ELFFile.hasELFMagic(magic)
    }

    package static func objects(inFile path: String) throws(DebugInfoError) -> [any DebugObject] {
        let file: ELFFile
        do { file = try ELFFile(path: path) } catch { throw DebugInfoError(error) }
        return [ELFDebugObject(path: path, architecture: file.architecture, debugID: file.buildID)]
    }

    /// The separate debug file a stripped binary names in `.gnu_debuglink`, where GDB looks
    /// for it: beside the binary, in its `.debug/` folder, and under `/usr/lib/debug/` plus
    /// the binary's folder. Whether it is the right build is decided later, by build ID.
    package static func companions(ofFile path: String) -> [String] {
        guard let file = try? ELFFile(path: path), let link = try? file.debugLink() else { return [] }
        let folder = ((path as NSString).deletingLastPathComponent as NSString).standardizingPath
        let absolute =
            folder.hasPrefix("/") ? folder : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder)
        let candidates = [
            (folder as NSString).appendingPathComponent(link.name),
            ((folder as NSString).appendingPathComponent(".debug") as NSString).appendingPathComponent(link.name),
            ("/usr/lib/debug" + absolute as NSString).appendingPathComponent(link.name),
        ]
        let own = (path as NSString).standardizingPath
        return candidates.filter { candidate in
            (candidate as NSString).standardizingPath != own
                && RegularFile.prefix(path: candidate, count: 4).map { ELFFile.hasELFMagic([UInt8]($0)) } == true
        }
    }
}

/// One ELF file's build, from its headers (the file is opened again for lookups: libelf
/// handles are not shared between threads).
package struct ELFDebugObject: DebugObject {
    package let path: String
    package let architecture: Architecture
    package let debugID: DebugID?

    package func open() throws(DebugInfoError) -> any DebugLookup {
        try DebugFile.openELF(path: path, id: debugID)
    }
}
