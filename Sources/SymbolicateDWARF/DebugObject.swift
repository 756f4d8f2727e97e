import Foundation
import SymbolicateCore
import SymbolicateMachO

/// One build of one image whose debug information can be opened: a Mach-O slice today, an
/// ELF file next. The index keeps these, read from headers only, so that matching a report's
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
        try DebugSession(slice: self)
    }
}

extension DebugSession: DebugLookup {
    package var linkedAddress: UInt64 { textVMAddress }
}
