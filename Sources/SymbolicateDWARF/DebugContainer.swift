import SymbolicateCore
import SymbolicateELF
import SymbolicateMachO

/// What a `DebugSession` reads from the file holding the debug information, whatever its
/// format (a Mach-O slice, an ELF executable or `.debug` file): identity, where the image's
/// addresses start, the DWARF sections by their ELF names, and the symbol table.
///
/// The container object keeps the file's bytes alive for the session (section bytes point
/// into them).
protocol DebugContainer: AnyObject {
    var path: String { get }
    var architecture: Architecture { get }
    var debugID: DebugID? { get }
    /// Where the image's addresses start in the file (`ImageSlide.linkedAddress`).
    var linkedAddress: UInt64 { get }
    var pointerSize: Int { get }
    /// Whether there is DWARF at all (else the session answers from symbols only).
    var hasDWARF: Bool { get }
    /// Hands the resident pages of `bytes` (one of this file's sections) back to the kernel
    /// after a pass; they are mapped again from the page cache if touched again. Does
    /// nothing where the bytes are not a file mapping (decompressed sections, an in-memory
    /// copy), since dropping anonymous pages would zero them.
    func releasePages(_ bytes: UnsafeRawBufferPointer)
    /// The same for everything lookups read from the file (DWARF sections, symbol and
    /// string tables): keeps peak memory to the pages in use rather than every page ever
    /// touched.
    func releaseResidentPages()
    /// A DWARF section's bytes by its ELF name (`.debug_info`), empty when absent or unreadable.
    func dwarfSection(_ name: String) -> UnsafeRawBufferPointer
    /// The sections to hand libdwarf (checked and patched; see `DWARFSections`).
    func servedSections(patchedAbbrev: inout OwnedBytes?) throws(DebugInfoError) -> [ServedSection]
    /// The nearest code symbol at or before `address`: its address, its name as stored, and
    /// whether it covers the address the way llvm-symbolizer's symbol table does (same
    /// section for Mach-O; within the symbol's size, or up to the next symbol, for ELF).
    /// nil outside the image's code.
    func nearestSymbol(atOrBefore address: UInt64) -> (address: UInt64, name: String, covers: Bool)?
    /// A stored symbol name as the linker's source spelled it: Darwin prefixes C names with
    /// `_` (`_main`), ELF does not (`_ZN3foo3barEv` is already the mangled name).
    func sourceName(ofSymbol stored: String) -> String
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
        hasDWARF = slice.segment(named: "__DWARF") != nil
    }

    var path: String { slice.path }
    var architecture: Architecture { slice.architecture }
    var debugID: DebugID? { slice.debugID }
    var pointerSize: Int { slice.is64Bit ? 8 : 4 }
    func releasePages(_ bytes: UnsafeRawBufferPointer) { slice.mapping.releasePages(bytes) }
    func releaseResidentPages() { slice.mapping.releaseAllPages() }

    func dwarfSection(_ name: String) -> UnsafeRawBufferPointer {
        guard let machOName = DWARFSections.machOName(of: name),
            let section = slice.section(segment: "__DWARF", name: machOName),
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
        // symbol reaches the next one, whatever the sections (as in LLVM's symbol table).
        if symbol.size > 0 {
            guard address - symbol.address < symbol.size else { return nil }
        }
        return (symbol.address, symbol.name, true)
    }
}
