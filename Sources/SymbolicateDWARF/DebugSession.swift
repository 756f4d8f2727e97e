import Foundation
import SymbolicateCore
import SymbolicateELF
import SymbolicateMachO

/// One source-level frame of a lookup: an inlined call or the concrete function.
package struct SourceFrame: Sendable, Equatable {
    /// Demangled (simplified, as atos prints it) function name, or the raw name when it
    /// cannot be demangled; `??` when nothing names the code.
    package var function: String
    /// The mangled linkage name or symbol-table name the function came from, when there is one.
    package var rawName: String?
    /// Full path of the source file.
    package var file: String?
    package var line: Int?
    package var column: Int?
    /// File address of the start of the function (for a concrete frame) or of the inlined
    /// code range holding the address (for an inlined frame): `+ offset` is measured from it.
    package var functionStart: UInt64
    /// Whether this frame is an inlined call inside the next frame of the chain.
    package var isInlined: Bool
    /// Where `function` was read: the DWARF subprogram or inlined call, or the symbol table
    /// (the outermost frame takes the covering symbol's name, as llvm-symbolizer does).
    package var nameSource: LookupSource
    /// A symbol-table answer whose offset is more than the function could span: the address
    /// lies past the end of the section the nearest symbol is in (it belongs to code no symbol
    /// names), so the name is a guess.
    package var isGuess: Bool

    package init(
        function: String, rawName: String?, file: String?, line: Int?, column: Int?,
        functionStart: UInt64, isInlined: Bool, nameSource: LookupSource = .dwarf, isGuess: Bool = false
    ) {
        self.nameSource = nameSource
        self.isGuess = isGuess
        self.function = function
        self.rawName = rawName
        self.file = file
        self.line = line
        self.column = column
        self.functionStart = functionStart
        self.isInlined = isInlined
    }
}

/// Where an answer came from.
package enum LookupSource: String, Sendable, Equatable {
    /// DWARF: line table and DIE tree.
    case dwarf
    /// The nearest preceding LC_SYMTAB symbol; no file or line.
    case symbolTable
}

/// The answer for one address: the inline chain, innermost first, concrete function last.
package struct LookupResult: Sendable, Equatable {
    package var frames: [SourceFrame]
    package var source: LookupSource
    /// Set when the DWARF for this address could not be read and the symbol table answered
    /// instead (or nothing did): the caller should report it.
    package var dwarfError: DebugInfoError?

    package init(frames: [SourceFrame], source: LookupSource, dwarfError: DebugInfoError? = nil) {
        self.frames = frames
        self.source = source
        self.dwarfError = dwarfError
    }
}

/// Symbolication for one debug file: a Mach-O slice (a dSYM's DWARF file, or a binary with
/// symbols) or an ELF file (a separate `.debug` file, or a binary with symbols).
///
/// Split by job: `DWARFUnits` answers from DWARF (unit index, line tables, functions, inline
/// trees, names; libdwarf) under its own lock; `SessionFile` holds the symbol table and the
/// file's resident pages under another. A session without DWARF answers from the symbol
/// table alone and never takes the DWARF lock.
///
/// Safe to share between threads and reports (batch mode).
package final class DebugSession: Sendable {
    /// The Mach-O file read (inside the bundle, for a dSYM).
    package let path: String
    package let architecture: Architecture
    package let debugID: DebugID?
    /// Where the image's addresses start in the file: `__TEXT` vmaddr (Mach-O), lowest
    /// `PT_LOAD` vaddr (ELF). slide = load address − textVMAddress, fileAddress = runtime − slide.
    package let textVMAddress: UInt64
    /// Whether the slice has DWARF at all (a stripped binary answers from symbols only).
    package var hasDWARF: Bool { dwarf != nil }

    /// The file (keeps its bytes alive), its symbol table and its resident pages.
    private let file: SessionFile
    /// nil when the file has no DWARF.
    private let dwarf: DWARFUnits?

    /// Opens a slice. Throws when the slice has DWARF that libdwarf cannot open at all;
    /// a slice without any `__DWARF` segment opens in symbol-table-only mode.
    package convenience init(slice: MachOSlice) throws(DebugInfoError) {
        try self.init(container: try MachODebugContainer(slice: slice))
    }

    /// Opens an ELF file. Throws when it has DWARF that cannot be read at all (libdwarf
    /// refuses it, or its sections are compressed in a way libelf cannot undo); a file
    /// without `.debug_info` opens in symbol-table-only mode.
    package convenience init(elf: ELFFile) throws(DebugInfoError) {
        try self.init(container: ELFDebugContainer(file: elf))
    }

    init(container: any DebugContainer) throws(DebugInfoError) {
        path = container.path
        architecture = container.architecture
        debugID = container.debugID
        textVMAddress = container.linkedAddress
        file = SessionFile(container: container)
        dwarf = container.hasDWARF ? try DWARFUnits(container: container, file: file) : nil
    }

    /// The inline chain for a file (unslid) address, or `nil` when neither DWARF nor the
    /// symbol table knows it.
    package func lookup(fileAddress: UInt64) -> LookupResult? {
        guard let dwarf else { return file.symbolLookup(fileAddress, error: nil) }
        return dwarf.lookup(fileAddress: fileAddress)
    }

    /// Many lookups at once (one DWARF lock acquisition); results in input order.
    package func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        guard let dwarf else { return fileAddresses.map { file.symbolLookup($0, error: nil) } }
        return dwarf.lookup(fileAddresses: fileAddresses)
    }

    /// Reads every unit index and decodes nothing else: surfaces a damaged unit table as
    /// an error up front (lookups themselves never throw; they fall back and report).
    package func validate() throws(DebugInfoError) {
        try dwarf?.validate()
    }
}

extension DebugSession: DebugLookup {
    package var linkedAddress: UInt64 { textVMAddress }
}

extension RandomAccessCollection where Index == Int {
    /// Index of the first element for which `isAbove` holds, in a collection sorted so that
    /// it holds for a suffix (binary search). Every address index here asks "last element
    /// starting at or below this address", which is `partitionPoint { $0.start > address } - 1`.
    func partitionPoint(where isAbove: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if isAbove(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
