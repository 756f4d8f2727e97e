import Foundation
import SymbolicateCore
import SymbolicateELF
import SymbolicateMachO

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

/// An ELF executable, shared object or separate `.debug` file.
final class ELFDebugContainer: DebugContainer {
    let file: ELFFile
    let linkedAddress: UInt64
    let hasDWARF: Bool
    private var symbols: [ELFSymbol]?

    init(file: ELFFile) {
        self.file = file
        linkedAddress = file.loadBase
        hasDWARF = file.hasDWARF
    }

    var path: String { file.path }
    var architecture: Architecture { file.architecture }
    var debugID: DebugID? { file.buildID }
    var pointerSize: Int { file.is64Bit ? 8 : 4 }
    /// libelf maps the file (`ELF_C_READ_MMAP`); decompressed sections are its own heap copies.
    private var sectionPagesAreReleasable: Bool { !file.sections.contains { $0.isCompressed || $0.name.hasPrefix(".zdebug") } }

    func releasePages(_ bytes: UnsafeRawBufferPointer) {
        if sectionPagesAreReleasable { MappedFile.releaseMappedPages(bytes) }
    }

    func releaseResidentPages() {
        guard sectionPagesAreReleasable else { return }
        for name in DWARFSections.served.values { MappedFile.releaseMappedPages(dwarfSection(name)) }
    }

    func dwarfSection(_ name: String) -> UnsafeRawBufferPointer {
        guard let section = file.section(named: name) ?? file.section(named: ".z" + name.dropFirst()),
            let bytes = try? file.contents(of: section)
        else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return bytes
    }

    func servedSections(patchedAbbrev: inout OwnedBytes?) throws(DebugInfoError) -> [ServedSection] {
        var found: [(name: String, bytes: UnsafeRawBufferPointer, fileOffset: UInt64)] = []
        for name in DWARFSections.served.values.sorted() {
            guard let section = file.section(named: name) ?? file.section(named: ".z" + name.dropFirst()) else { continue }
            do {
                found.append((name, try file.contents(of: section), section.fileOffset))
            } catch {
                throw DebugInfoError(error)
            }
        }
        return try DWARFSections.serve(found, path: file.path, patchedAbbrev: &patchedAbbrev)
    }

    func sourceName(ofSymbol stored: String) -> String { stored }

    func nearestSymbol(atOrBefore address: UInt64) -> (address: UInt64, name: String, covers: Bool)? {
        if symbols == nil { symbols = (try? file.functionSymbols()) ?? [] }
        guard let symbols else { return nil }
        let low = symbols.partitionPoint { $0.address > address }
        guard low > 0 else { return nil }
        let symbol = symbols[low - 1]
        // Past a sized symbol's end (the padding before the next function) nothing names the
        // address: llvm-symbolizer prints `??` there, for DWARF-less lookups too. An unsized
        // symbol reaches the next one, whatever the sections (as in LLVM's symbol table), but no
        // function runs past the end of its own section: there (`_init` before `.plt`, the last
        // symbol of a section) the name is only a guess (issue 40).
        if symbol.size > 0 {
            guard address - symbol.address < symbol.size else { return nil }
            return (symbol.address, symbol.name, true)
        }
        let section = file.sections.first { $0.index == symbol.section }
        let covers = section.map { address >= $0.address && address - $0.address < $0.size } ?? true
        return (symbol.address, symbol.name, covers)
    }
}
