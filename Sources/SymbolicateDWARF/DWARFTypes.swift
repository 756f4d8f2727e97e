// Plain Swift values the module's parts pass between them (section server, unit scanner,
// line-program decoder, session). No libdwarf types here: those stay in LibDwarf.swift.

/// A DWARF section as we serve it to libdwarf: ELF-style name, bytes, size.
struct ServedSection {
    var name: String
    var bytes: UnsafeRawPointer?
    var size: Int
}

/// An address range `[low, high)`.
struct AddressRange: Equatable {
    var low: UInt64
    var high: UInt64

    func contains(_ address: UInt64) -> Bool { low <= address && address < high }
}

/// One row of a unit's line table, compressed for the sorted lookup array.
struct LineRow {
    var address: UInt64
    var line: UInt32
    var column: UInt32
    /// Index into `LineTable.files`.
    var file: UInt32
    var endSequence: Bool
}

/// A unit's line table: rows sorted by address (end-of-sequence rows first at equal
/// addresses) and the unit's file names as full paths.
struct LineTable {
    var rows: [LineRow]
    var files: [String]
    /// What to subtract from a DW_AT_decl_file / DW_AT_call_file / row file number to index
    /// `files` (1 for DWARF 2–4, 0 for DWARF 5).
    var fileIndexBase: UInt64
}

/// A concrete out-of-line function (DW_TAG_subprogram with code), wherever it sits in its unit.
struct FunctionEntry {
    var dieOffset: UInt64
    var ranges: [AddressRange]
    /// DW_AT_low_pc (the entry), else the lowest range start.
    var entry: UInt64
}

/// A DW_TAG_inlined_subroutine inside a function, flattened with a parent index.
struct InlineEntry {
    var dieOffset: UInt64
    /// Index of the enclosing inline entry, or nil when directly inside the function.
    var parent: Int?
    var ranges: [AddressRange]
    var callFile: UInt64?
    var callLine: Int?
    var callColumn: Int?
}

/// Names for a function DIE, following DW_AT_abstract_origin and DW_AT_specification.
struct DieNames {
    var linkageName: String?
    var name: String?
}
