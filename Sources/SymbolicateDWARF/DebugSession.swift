import Foundation
import SymbolicateMachO

/// One source-level frame of a lookup: an inlined call or the concrete function.
public struct SourceFrame: Sendable, Equatable {
    /// Demangled (simplified, as atos prints it) function name, or the raw name when it
    /// cannot be demangled; `??` when nothing names the code.
    public var function: String
    /// The mangled linkage name or symbol-table name the function came from, when there is one.
    public var rawName: String?
    /// Full path of the source file.
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// File address of the start of the function (for a concrete frame) or of the inlined
    /// code range holding the address (for an inlined frame): `+ offset` is measured from it.
    public var functionStart: UInt64
    /// Whether this frame is an inlined call inside the next frame of the chain.
    public var isInlined: Bool

    public init(
        function: String, rawName: String?, file: String?, line: Int?, column: Int?,
        functionStart: UInt64, isInlined: Bool
    ) {
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
public enum LookupSource: String, Sendable, Equatable {
    /// DWARF: line table and DIE tree.
    case dwarf
    /// The nearest preceding LC_SYMTAB symbol; no file or line.
    case symbolTable
}

/// The answer for one address: the inline chain, innermost first, concrete function last.
public struct LookupResult: Sendable, Equatable {
    public var frames: [SourceFrame]
    public var source: LookupSource
    /// Set when the DWARF for this address could not be read and the symbol table answered
    /// instead (or nothing did): the caller should report it.
    public var dwarfError: DebugInfoError?
}

/// Symbolication for one Mach-O slice (a dSYM's DWARF file, or a binary with symbols).
///
/// Units are decoded lazily: the first address that falls in a compile unit decodes its
/// line table and its list of functions; the first address in a function decodes that
/// function's inline tree. Everything decoded is cached for later lookups.
///
/// Safe to share between threads: libdwarf is not thread-safe, so every lookup takes the
/// session's lock (the caches live behind it too).
public final class DebugSession: @unchecked Sendable {
    /// The Mach-O file read (inside the bundle, for a dSYM).
    public let path: String
    public let architecture: String
    public let uuid: String?
    /// `__TEXT` vmaddr: slide = load address − textVMAddress, fileAddress = runtime − slide.
    public let textVMAddress: UInt64
    /// Whether the slice has DWARF at all (a stripped binary answers from symbols only).
    public let hasDWARF: Bool

    private let lock = NSLock()
    private let slice: MachOSlice
    private let textRange: Range<UInt64>?
    // Everything below is guarded by `lock`.
    private var dwarf: LibDwarf?
    private var patchedAbbrev: OwnedBytes?
    private var unitIndex: [(range: AddressRange, unit: Int)]?
    private var units: [UnitState] = []
    private var names: [UInt64: (function: String, raw: String?)] = [:]
    private var symbols: [MachOSymbol]?
    private var textSections: Set<UInt8> = []
    private var openError: DebugInfoError?
    private let lineDecoder: LineProgramDecoder
    private let scanner: UnitScanner
    private let rangeDecoder: RangeListDecoder

    private struct UnitState {
        var headerOffset: UInt64
        var dieOffset: UInt64
        var data: UnitData?
        var error: DebugInfoError?
    }

    private final class UnitData {
        let base: UInt64
        var scan: UnitScanner.Unit
        let lines: LineTable
        let functions: [FunctionEntry]
        /// (range, function index) sorted by range start.
        let functionIndex: [(range: AddressRange, function: Int)]
        var inlines: [Int: [InlineEntry]] = [:]

        init(base: UInt64, scan: UnitScanner.Unit, lines: LineTable, functions: [FunctionEntry]) {
            self.base = base
            self.scan = scan
            self.lines = lines
            self.functions = functions
            var index: [(range: AddressRange, function: Int)] = []
            for (number, function) in functions.enumerated() {
                for range in function.ranges { index.append((range, number)) }
            }
            index.sort { $0.range.low < $1.range.low }
            functionIndex = index
        }
    }

    /// Opens a slice. Throws when the slice has DWARF that libdwarf cannot open at all;
    /// a slice without any `__DWARF` segment opens in symbol-table-only mode.
    public init(slice: MachOSlice) throws(DebugInfoError) {
        self.slice = slice
        path = slice.path
        architecture = slice.architecture.name
        uuid = slice.uuid
        let text = slice.segment(named: "__TEXT")
        textVMAddress = text?.vmAddress ?? 0
        textRange = text.map { $0.vmAddress ..< $0.vmAddress &+ $0.vmSize }
        textSections = Set(text?.sections.map { UInt8(truncatingIfNeeded: $0.ordinal) } ?? [])
        func bytes(_ name: String) -> UnsafeRawBufferPointer {
            guard let section = slice.section(segment: "__DWARF", name: name),
                  let contents = try? slice.contents(of: section) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return contents
        }
        scanner = UnitScanner(info: bytes("__debug_info"), abbrev: bytes("__debug_abbrev"), addr: bytes("__debug_addr"), path: slice.path)
        rangeDecoder = RangeListDecoder(ranges: bytes("__debug_ranges"), rnglists: bytes("__debug_rnglists"), addr: bytes("__debug_addr"), path: slice.path)
        lineDecoder = LineProgramDecoder(
            line: bytes("__debug_line"), lineStrings: bytes("__debug_line_str"), strings: bytes("__debug_str"), path: slice.path
        )
        if slice.segment(named: "__DWARF") != nil {
            var patched: OwnedBytes?
            let sections = try DWARFSections.sections(of: slice, patchedAbbrev: &patched)
            patchedAbbrev = patched
            dwarf = try LibDwarf(path: slice.path, sections: sections, pointerSize: slice.is64Bit ? 8 : 4)
            hasDWARF = true
        } else {
            hasDWARF = false
        }
    }

    /// The inline chain for a file (unslid) address, or `nil` when neither DWARF nor the
    /// symbol table knows it.
    public func lookup(fileAddress: UInt64) -> LookupResult? {
        lock.lock()
        defer { lock.unlock() }
        return lookupLocked(fileAddress)
    }

    /// Many lookups under one lock acquisition; results in input order.
    public func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        lock.lock()
        defer { lock.unlock() }
        return fileAddresses.map(lookupLocked)
    }

    /// Reads every unit index and decodes nothing else: surfaces a damaged unit table as
    /// an error up front (lookups themselves never throw; they fall back and report).
    public func validate() throws(DebugInfoError) {
        lock.lock()
        defer { lock.unlock() }
        _ = buildUnitIndex()
        if let openError { throw openError }
    }

    // MARK: - Lookup

    private func lookupLocked(_ address: UInt64) -> LookupResult? {
        guard dwarf != nil else { return symbolLookup(address, error: nil) }
        let index = buildUnitIndex()
        var error = openError
        for unitNumber in units(containing: address, in: index) {
            switch unitData(unitNumber) {
            case .failure(let failure):
                error = failure
            case .success(let data):
                do {
                    if let result = try dwarfLookup(address, in: data) { return result }
                } catch {
                    return symbolLookup(address, error: error)
                }
            }
        }
        return symbolLookup(address, error: error)
    }

    private func units(containing address: UInt64, in index: [(range: AddressRange, unit: Int)]) -> [Int] {
        // Last range starting at or before the address, then earlier ones that still reach it
        // (units can overlap when a producer emits odd ranges).
        let low = index.partitionPoint { $0.range.low > address }
        var out: [Int] = []
        var position = low - 1
        while position >= 0, out.count < 4 {
            if index[position].range.contains(address), !out.contains(index[position].unit) {
                out.append(index[position].unit)
            }
            if low - 1 - position > 64 { break }
            position -= 1
        }
        return out
    }

    private func buildUnitIndex() -> [(range: AddressRange, unit: Int)] {
        if let unitIndex { return unitIndex }
        guard let dwarf else { return [] }
        var index: [(range: AddressRange, unit: Int)] = []
        do {
            let offsets = try dwarf.unitDieOffsets()
            units = offsets.map { UnitState(headerOffset: $0.header, dieOffset: $0.die) }
            var byOffset: [UInt64: Int] = [:]
            for (number, offset) in offsets.enumerated() { byOffset[offset.die] = number }
            var covered = Set<Int>()
            for entry in (try? dwarf.aranges()) ?? [] {
                guard let unit = byOffset[entry.unitDieOffset] else { continue }
                index.append((entry.range, unit))
                covered.insert(unit)
            }
            // Units that .debug_aranges does not describe (or all, when it is absent).
            for (number, offset) in offsets.enumerated() where !covered.contains(number) {
                do {
                    for range in try dwarf.unitRanges(unitDieOffset: offset.die) { index.append((range, number)) }
                } catch {
                    units[number].error = error
                }
            }
        } catch {
            openError = error
        }
        index.sort { $0.range.low < $1.range.low }
        unitIndex = index
        return index
    }

    private func unitData(_ number: Int) -> Result<UnitData, DebugInfoError> {
        if let data = units[number].data { return .success(data) }
        if let error = units[number].error { return .failure(error) }
        guard let dwarf else { return .failure(DebugInfoError(path: path, message: "no DWARF")) }
        do {
            let offset = units[number].dieOffset
            let base = try dwarf.unitBase(unitDieOffset: offset)
            let location = try dwarf.lineTableLocation(unitDieOffset: offset)
            let lines = try location.offset.map { (at) throws(DebugInfoError) in
                try lineDecoder.decode(offset: at, compDir: location.compDir)
            } ?? LineTable(rows: [], files: [], fileIndexBase: 1)
            var scan = try scanner.unit(headerOffset: units[number].headerOffset)
            let functions = try self.functions(in: &scan, unitDieOffset: offset, base: base, dwarf: dwarf)
            let data = UnitData(base: base, scan: scan, lines: Self.sorted(lines), functions: functions)
            units[number].data = data
            return .success(data)
        } catch {
            units[number].error = error
            return .failure(error)
        }
    }

    /// Code ranges from what the scanner decoded, asking libdwarf only for DW_AT_ranges.
    private func ranges(of entry: UnitScanner.Entry, base: UInt64, unit: UnitScanner.Unit, dwarf: LibDwarf) throws(DebugInfoError) -> [AddressRange] {
        if entry.hasRanges {
            guard let value = entry.rangesValue else { return try dwarf.ranges(dieOffset: entry.offset, unitBase: base) }
            return try rangeDecoder.decode(value: value, form: entry.rangesForm, unit: unit)
        }
        guard let low = entry.lowPC, let high = entry.highPC else { return [] }
        let end = entry.highIsOffset ? low &+ high : high
        return end > low ? [AddressRange(low: low, high: end)] : []
    }

    /// Functions with code at unit or namespace level (and, in Swift units, nested in
    /// other functions, where Swift puts closures and local functions).
    private func functions(in scan: inout UnitScanner.Unit, unitDieOffset: UInt64, base: UInt64, dwarf: LibDwarf) throws(DebugInfoError) -> [FunctionEntry] {
        // The language is known once the unit DIE has been read; read it first.
        _ = try scanner.scan(unit: &scan, start: unitDieOffset, tags: [], descend: { _ in false })
        let nested = scan.language == 0x1E  // DW_LANG_Swift
        let entries = try scanner.scan(
            unit: &scan, start: unitDieOffset,
            tags: [UnitScanner.tagSubprogram, UnitScanner.tagNamespace, UnitScanner.tagModule],
            descend: { $0 != UnitScanner.tagSubprogram || nested }
        )
        var out: [FunctionEntry] = []
        for entry in entries where entry.tag == UnitScanner.tagSubprogram {
            let ranges = try ranges(of: entry, base: base, unit: scan, dwarf: dwarf)
            guard !ranges.isEmpty else { continue }
            var scope: [UInt64] = []
            var parent = entry.parent
            while let index = parent {
                if entries[index].tag != UnitScanner.tagSubprogram { scope.insert(entries[index].offset, at: 0) }
                parent = entries[index].parent
            }
            out.append(FunctionEntry(
                dieOffset: entry.offset, ranges: ranges, entry: entry.lowPC ?? ranges.map(\.low).min() ?? 0, scope: scope
            ))
        }
        return out
    }

    private func inlinedSubroutines(of function: FunctionEntry, in data: UnitData, dwarf: LibDwarf) throws(DebugInfoError) -> [InlineEntry] {
        let entries = try scanner.scan(unit: &data.scan, start: function.dieOffset, tags: [UnitScanner.tagInlined], descend: { _ in true })
        var out: [InlineEntry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            out.append(InlineEntry(
                dieOffset: entry.offset, parent: entry.parent,
                ranges: try ranges(of: entry, base: data.base, unit: data.scan, dwarf: dwarf),
                callFile: entry.callFile, callLine: entry.callLine.map { Int($0) }, callColumn: entry.callColumn.map { Int($0) }
            ))
        }
        return out
    }

    /// Rows by address; at equal addresses end-of-sequence rows first, then rows in table
    /// order, so "last row at or before the address" matches LLVM's choice.
    private static func sorted(_ table: LineTable) -> LineTable {
        var table = table
        let rows = table.rows
        // Usually one sequence per unit, already in order: skip the sort then.
        var inOrder = true
        for index in rows.indices.dropFirst() {
            let previous = rows[index - 1]
            let current = rows[index]
            if previous.address > current.address || (previous.address == current.address && current.endSequence && !previous.endSequence) {
                inOrder = false
                break
            }
        }
        if inOrder { return table }
        let order = rows.indices.sorted { a, b in
            let x = rows[a]
            let y = rows[b]
            if x.address != y.address { return x.address < y.address }
            if x.endSequence != y.endSequence { return x.endSequence }
            return a < b
        }
        table.rows = order.map { rows[$0] }
        return table
    }

    private func lineRow(_ address: UInt64, in table: LineTable) -> LineRow? {
        let rows = table.rows
        let low = rows.partitionPoint { $0.address > address }
        guard low > 0 else { return nil }
        let row = rows[low - 1]
        return row.endSequence ? nil : row
    }

    private func fileName(_ index: UInt64?, in table: LineTable) -> String? {
        guard let index, index < UInt64(table.files.count) else { return nil }
        let name = table.files[Int(index)]
        return name.isEmpty ? nil : name
    }

    private func dwarfLookup(_ address: UInt64, in data: UnitData) throws(DebugInfoError) -> LookupResult? {
        guard let dwarf else { return nil }
        let row = lineRow(address, in: data.lines)
        guard let functionNumber = function(containing: address, in: data) else {
            guard let row else { return nil }
            // Line information without a function DIE: name it from the symbol table.
            let symbol = symbolLookup(address, error: nil)?.frames.first
            return LookupResult(frames: [SourceFrame(
                function: symbol?.function ?? "??", rawName: symbol?.rawName,
                file: fileName(UInt64(row.file), in: data.lines), line: Int(row.line), column: Int(row.column),
                functionStart: symbol?.functionStart ?? address, isInlined: false
            )], source: .dwarf)
        }
        let function = data.functions[functionNumber]
        let inlines: [InlineEntry]
        if let cached = data.inlines[functionNumber] {
            inlines = cached
        } else {
            inlines = try inlinedSubroutines(of: function, in: data, dwarf: dwarf)
            data.inlines[functionNumber] = inlines
        }
        // Chain from the outermost inlined call inwards.
        var chain: [Int] = []
        var parent: Int? = nil
        while let next = inlines.indices.first(where: { inlines[$0].parent == parent && inlines[$0].ranges.contains { $0.contains(address) } }) {
            chain.append(next)
            parent = next
        }
        var frames: [SourceFrame] = []
        // Innermost first: its location comes from the line table.
        var file = row.flatMap { fileName(UInt64($0.file), in: data.lines) }
        var line = row.map { Int($0.line) }
        var column = row.map { Int($0.column) }
        for entryNumber in chain.reversed() {
            let entry = inlines[entryNumber]
            let name = try functionName(entry.dieOffset, scope: [])
            let start = entry.ranges.first { $0.contains(address) }?.low ?? address
            frames.append(SourceFrame(
                function: name.function, rawName: name.raw, file: file, line: line, column: column,
                functionStart: start, isInlined: true
            ))
            // The frame outside this inlined call is at the call site.
            file = fileName(entry.callFile.map { $0 &- data.lines.fileIndexBase }, in: data.lines)
            line = entry.callLine
            column = entry.callColumn
        }
        let name = try functionName(function.dieOffset, scope: function.scope)
        frames.append(SourceFrame(
            function: name.function, rawName: name.raw, file: file, line: line, column: column,
            functionStart: function.entry, isInlined: false
        ))
        return LookupResult(frames: frames, source: .dwarf)
    }

    private func function(containing address: UInt64, in data: UnitData) -> Int? {
        let index = data.functionIndex
        let low = index.partitionPoint { $0.range.low > address }
        var position = low - 1
        while position >= 0, low - 1 - position < 16 {
            if index[position].range.contains(address) { return index[position].function }
            position -= 1
        }
        return nil
    }

    private func functionName(_ dieOffset: UInt64, scope: [UInt64]) throws(DebugInfoError) -> (function: String, raw: String?) {
        if let cached = names[dieOffset] { return cached }
        guard let dwarf else { return ("??", nil) }
        let found = try dwarf.names(dieOffset: dieOffset)
        let result: (function: String, raw: String?)
        if let linkage = found.linkageName {
            result = (Demangler.demangle(linkage) ?? linkage, linkage)
        } else if let name = found.name {
            var parts: [String] = []
            for namespace in scope { parts.append(try dwarf.name(dieOffset: namespace) ?? "(anonymous namespace)") }
            result = ((parts + [name]).joined(separator: "::"), nil)
        } else {
            result = ("??", nil)
        }
        names[dieOffset] = result
        return result
    }

    // MARK: - Symbol table

    private func symbolLookup(_ address: UInt64, error: DebugInfoError?) -> LookupResult? {
        if symbols == nil {
            symbols = ((try? slice.symbols()) ?? []).filter { textSections.contains($0.section) }
        }
        guard let symbols, let textRange, textRange.contains(address) else {
            return error.map { LookupResult(frames: [], source: .dwarf, dwarfError: $0) }
        }
        let low = symbols.partitionPoint { $0.address > address }
        guard low > 0 else {
            return error.map { LookupResult(frames: [], source: .dwarf, dwarfError: $0) }
        }
        let symbol = symbols[low - 1]
        let stripped = Demangler.symbolName(fromSymbolTable: symbol.name)
        return LookupResult(
            frames: [SourceFrame(
                function: Demangler.demangle(stripped) ?? stripped, rawName: symbol.name,
                file: nil, line: nil, column: nil, functionStart: symbol.address, isInlined: false
            )],
            source: .symbolTable, dwarfError: error
        )
    }
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
