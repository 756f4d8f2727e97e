import Foundation
import SymbolicateCore
import SymbolicateDemangling
import SymbolicateMachO

/// Thin and universal Mach-O files (dSYM DWARF files, executables with symbols).
package enum MachODebugFormat: DebugFileFormat {
    package static func recognizes(magic: [UInt8]) -> Bool {
        guard magic.count >= 4 else { return false }
        let value = UInt32(magic[0]) << 24 | UInt32(magic[1]) << 16 | UInt32(magic[2]) << 8 | UInt32(magic[3])
        return [0xFEEDFACE, 0xFEEDFACF, 0xCEFAEDFE, 0xCFFAEDFE, 0xCAFEBABE, 0xCAFEBABF].contains(value)
    }

    package static func objects(inFile path: String) throws(DebugInfoError) -> [any DebugObject] {
        do { return try MachOFile(path: path).slices } catch { throw DebugInfoError(error) }
    }
}

extension MachOSlice: DebugObject {
    package func open() throws(DebugInfoError) -> any DebugLookup {
        try open(objectPathMap: ObjectPathMap())
    }

    /// A binary without DWARF of its own but with a debug map answers through the object
    /// files the map names (`DebugMapLookup`); anything else opens as a `DebugSession`.
    package func open(objectPathMap: ObjectPathMap) throws(DebugInfoError) -> any DebugLookup {
        if sections(ofSegment: "__DWARF").isEmpty, fileType != 1,
            let mapped = try DebugMapLookup(slice: self, pathMap: objectPathMap)
        {
            return mapped
        }
        return try DebugSession(slice: self)
    }
}

/// A Mach-O slice (a dSYM's DWARF file or a binary).
final class MachODebugContainer: DebugContainer {
    let slice: MachOSlice
    let linkedAddress: UInt64
    let hasDWARF: Bool
    private let textRange: Range<UInt64>?
    private let textSections: Set<UInt8>
    /// `__TEXT` sections by `n_sect` ordinal: a symbol covers addresses of its own section only.
    private let textSectionRanges: [(ordinal: UInt8, range: Range<UInt64>)]
    private var symbols: MachOSymbolIndex?

    init(slice: MachOSlice) throws(DebugInfoError) {
        self.slice = slice
        let text = slice.segment(named: "__TEXT")
        linkedAddress = text?.vmAddress ?? 0
        if let text {
            // Header values: a segment that ends past 2^64 cannot be mapped, so the file is unusable.
            let (end, overflow) = text.vmAddress.addingReportingOverflow(text.vmSize)
            guard !overflow else {
                throw DebugInfoError(
                    path: slice.path, offset: nil,
                    message:
                        "__TEXT segment vmaddr 0x\(String(text.vmAddress, radix: 16)) + vmsize 0x\(String(text.vmSize, radix: 16)) passes the end of the address space"
                )
            }
            textRange = text.vmAddress..<end
        } else {
            textRange = nil
        }
        textSections = Set(text?.sections.map { UInt8(truncatingIfNeeded: $0.ordinal) } ?? [])
        // A section ending past 2^64 (a damaged header) cannot hold code: it is left out.
        textSectionRanges = (text?.sections ?? []).compactMap {
            let (end, overflow) = $0.address.addingReportingOverflow($0.size)
            return overflow ? nil : (UInt8(truncatingIfNeeded: $0.ordinal), $0.address..<end)
        }
        hasDWARF = !slice.sections(ofSegment: "__DWARF").isEmpty
    }

    var path: String { slice.path }
    var architecture: Architecture { slice.architecture }
    var debugID: DebugID? { slice.debugID }
    var pointerSize: Int { slice.is64Bit ? 8 : 4 }
    func releasePages(_ bytes: UnsafeRawBufferPointer) { slice.mapping.releasePages(bytes) }
    func releaseResidentPages() { slice.mapping.releaseAllPages() }

    func dwarfSection(_ name: String) -> UnsafeRawBufferPointer {
        guard let machOName = DWARFSections.machOName(of: name),
            let section = slice.sections(ofSegment: "__DWARF").first(where: { $0.name == machOName }),
            let contents = try? slice.contents(of: section)
        else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return contents
    }

    func servedSections(patchedAbbrev: inout OwnedBytes?) throws(DebugInfoError) -> [ServedSection] {
        try DWARFSections.sections(of: slice, patchedAbbrev: &patchedAbbrev)
    }

    func sourceName(ofSymbol stored: String) -> String { Demangler.symbolName(fromSymbolTable: stored) }

    func nearestSymbol(atOrBefore address: UInt64) -> (address: UInt64, name: String, covers: Bool)? {
        if symbols == nil {
            symbols = (try? slice.symbolIndex(sections: textSections)) ?? .empty
        }
        guard let symbols, let textRange, textRange.contains(address),
            let symbol = symbols.nearest(atOrBefore: address)
        else { return nil }
        let covers = textSectionRanges.contains { $0.ordinal == symbol.section && $0.range.contains(address) }
        return (symbol.address, symbols.name(of: symbol.handle) ?? "", covers)
    }
}
