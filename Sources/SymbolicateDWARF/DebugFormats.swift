import Foundation
import SymbolicateCore
import SymbolicateMachO

// The debug-file format protocols, all here: `DebugFileFormat` (what discovery and the index
// ask of a format), `DebugObject` (one build, from headers), `DebugLookup` (opened debug
// information) and `DebugContainer` (what a `DebugSession` reads from the file). Each format
// implements them in its own file: `MachODebugFormat.swift`, `ELFDebugFormat.swift`.

/// One build of one image whose debug information can be opened: a Mach-O slice or an ELF
/// file. The index keeps these, read from headers only, so that matching a report's
/// images needs no DWARF; `open()` is called for the few that a report actually uses.
package protocol DebugObject: Sendable {
    /// The file to open (inside `Contents/Resources/DWARF/` for a dSYM).
    var path: String { get }
    var architecture: Architecture { get }
    /// The identity a report names the image by (Mach-O UUID, ELF GNU build ID).
    var debugID: DebugID? { get }
    /// Opens the debug information (DWARF, or the symbol table when there is none). Reuses
    /// what the header read already parsed.
    func open() throws(DebugInfoError) -> any DebugLookup
    /// Opens it with the places to look for the object files a debug map names (a Mach-O
    /// binary without a dSYM); formats without debug maps open as `open()` does.
    func open(objectPathMap: ObjectPathMap) throws(DebugInfoError) -> any DebugLookup
}

extension DebugObject {
    package func open(objectPathMap: ObjectPathMap) throws(DebugInfoError) -> any DebugLookup { try open() }
}

/// Opened debug information answering address lookups. Shared between threads and reports
/// (batch mode), so implementations are classes that guard their caches themselves.
package protocol DebugLookup: AnyObject, Sendable {
    var path: String { get }
    var architecture: Architecture { get }
    var debugID: DebugID? { get }
    /// The address the image was linked at (Mach-O `__TEXT` vmaddr): slide = load address − this.
    var linkedAddress: UInt64 { get }
    /// False when only a symbol table answers (no file or line): a better candidate is preferred.
    var hasDWARF: Bool { get }
    /// The inline chain at a file address, innermost first; nil when nothing covers it.
    func lookup(fileAddress: UInt64) -> LookupResult?
    /// Many addresses at once (atos): one pass, in the given order.
    func lookup(fileAddresses: [UInt64]) -> [LookupResult?]
}

/// A file format debug files come in. Discovery asks `recognizes` with a file's first bytes;
/// the index asks `objects` for the builds a file holds. ELF plugs in by adding its type to
/// `DebugFileFormats.all`.
package protocol DebugFileFormat: Sendable {
    /// Whether a file starting with these bytes (up to 8) is in this format.
    static func recognizes(magic: [UInt8]) -> Bool
    /// Every build in the file (one per slice of a universal Mach-O), from headers only.
    static func objects(inFile path: String) throws(DebugInfoError) -> [any DebugObject]
    /// Other files the file points at that hold its debug information (an ELF binary's
    /// `.gnu_debuglink` target), for discovery to add; none by default.
    static func companions(ofFile path: String) -> [String]
}

extension DebugFileFormat {
    package static func companions(ofFile path: String) -> [String] { [] }
}

/// The debug-file formats, tried in order.
package enum DebugFileFormats {
    package static let all: [any DebugFileFormat.Type] = [MachODebugFormat.self, ELFDebugFormat.self]

    /// The format of the file at `path`, judged by its first bytes; nil for none (or unreadable).
    package static func format(ofFileAt path: String) -> (any DebugFileFormat.Type)? {
        guard let prefix = RegularFile.prefix(path: path, count: 8) else { return nil }
        let magic = [UInt8](prefix)
        return all.first { $0.recognizes(magic: magic) }
    }
}

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
