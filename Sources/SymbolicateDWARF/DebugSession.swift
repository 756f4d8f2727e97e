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

    package init(
        function: String, rawName: String?, file: String?, line: Int?, column: Int?,
        functionStart: UInt64, isInlined: Bool, nameSource: LookupSource = .dwarf
    ) {
        self.nameSource = nameSource
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
/// Units are decoded lazily: the first address that falls in a compile unit decodes its
/// line table and its list of functions; the first address in a function decodes that
/// function's inline tree. Everything decoded is cached for later lookups.
///
/// Safe to share between threads: libdwarf is not thread-safe, so every lookup takes the
/// session's lock (the caches live behind it too).
package final class DebugSession: @unchecked Sendable {
    /// The Mach-O file read (inside the bundle, for a dSYM).
    package let path: String
    package let architecture: Architecture
    package let debugID: DebugID?
    /// Where the image's addresses start in the file: `__TEXT` vmaddr (Mach-O), lowest
    /// `PT_LOAD` vaddr (ELF). slide = load address − textVMAddress, fileAddress = runtime − slide.
    package let textVMAddress: UInt64
    /// Whether the slice has DWARF at all (a stripped binary answers from symbols only).
    package let hasDWARF: Bool

    private let lock = NSLock()
    /// The file (keeps its bytes alive) and its symbol table.
    private let container: any DebugContainer
    // Everything below is guarded by `lock`.
    private var dwarf: LibDwarf?
    private var patchedAbbrev: OwnedBytes?
    private var unitIndex: [(range: AddressRange, unit: Int)]?
    private var units: [UnitState] = []
    private var names: [UInt64: (function: String, raw: String?)] = [:]
    private var symbolNames: [UInt64: (function: String, raw: String?)] = [:]
    private var openError: DebugInfoError?
    private let lineDecoder: LineProgramDecoder
    private let scanner: UnitScanner
    /// `.debug_aranges`, read once to build the unit index.
    private let aranges: UnsafeRawBufferPointer
    private let rangeDecoder: RangeListDecoder
    /// Units the current `lookup(fileAddresses:)` call needs for more than one address.
    private var repeatedInBatch = Set<Int>()
    /// Cache misses that read the file (a unit decoded, an inline tree scanned, a name read)
    /// since the resident pages were last looked at.
    private var touchesSinceCheck = 0
    /// File-backed resident memory just after the file's pages were last handed back.
    private var fileBackedAfterRelease: Int?

    private struct UnitState {
        var headerOffset: UInt64
        var dieOffset: UInt64
        var data: UnitData?
        var error: DebugInfoError?
    }

    private final class UnitData {
        let base: UInt64
        var scan: UnitScanner.Unit
        /// Where the unit's line program is (DW_AT_stmt_list) and its DW_AT_comp_dir.
        let lineLocation: (offset: UInt64?, compDir: String?)
        /// The whole line table, decoded once a second address needs it (see `lines(for:)`).
        var lines: LineTable?
        /// Whether an address was answered from the line program without keeping its table.
        var answeredWithoutTable = false
        let functions: [FunctionEntry]
        /// (range, function index) sorted by range start.
        let functionIndex: [(range: AddressRange, function: Int)]
        var inlines: [Int: [InlineEntry]] = [:]

        init(base: UInt64, scan: UnitScanner.Unit, lineLocation: (offset: UInt64?, compDir: String?), functions: [FunctionEntry]) {
            self.base = base
            self.scan = scan
            self.lineLocation = lineLocation
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
    package convenience init(slice: MachOSlice) throws(DebugInfoError) {
        try self.init(container: try MachODebugContainer(slice: slice))
    }

    /// Opens an ELF file. Throws when it has DWARF that cannot be read at all (libdwarf
    /// refuses it, or its sections are compressed in a way libelf cannot undo); a file
    /// without `.debug_info` opens in symbol-table-only mode.
    package convenience init(elf: ELFFile) throws(DebugInfoError) {
        try self.init(container: ELFDebugContainer(file: elf))
    }

    private init(container: any DebugContainer) throws(DebugInfoError) {
        self.container = container
        path = container.path
        architecture = container.architecture
        debugID = container.debugID
        textVMAddress = container.linkedAddress
        let bytes = container.dwarfSection
        aranges = bytes(".debug_aranges")
        scanner = UnitScanner(info: bytes(".debug_info"), abbrev: bytes(".debug_abbrev"), addr: bytes(".debug_addr"), path: path)
        rangeDecoder = RangeListDecoder(
            ranges: bytes(".debug_ranges"), rnglists: bytes(".debug_rnglists"), addr: bytes(".debug_addr"), path: path)
        lineDecoder = LineProgramDecoder(
            line: bytes(".debug_line"), lineStrings: bytes(".debug_line_str"), strings: bytes(".debug_str"), path: path
        )
        if container.hasDWARF {
            var patched: OwnedBytes?
            let sections = try container.servedSections(patchedAbbrev: &patched)
            patchedAbbrev = patched
            dwarf = try LibDwarf(path: path, sections: sections, pointerSize: container.pointerSize)
            hasDWARF = true
        } else {
            hasDWARF = false
        }
    }

    /// The inline chain for a file (unslid) address, or `nil` when neither DWARF nor the
    /// symbol table knows it.
    package func lookup(fileAddress: UInt64) -> LookupResult? {
        lock.lock()
        defer { lock.unlock() }
        return lookupLocked(fileAddress)
    }

    /// Many lookups under one lock acquisition; results in input order.
    package func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        lock.lock()
        defer { lock.unlock() }
        // Units this batch visits more than once get their line tables kept from the start.
        if fileAddresses.count > 1, dwarf != nil {
            let index = buildUnitIndex()
            var seen = Set<Int>()
            for address in fileAddresses {
                for unit in units(containing: address, in: index) where !seen.insert(unit).inserted {
                    repeatedInBatch.insert(unit)
                }
            }
        }
        defer { repeatedInBatch.removeAll() }
        return fileAddresses.map(lookupLocked)
    }

    /// Reads every unit index and decodes nothing else: surfaces a damaged unit table as
    /// an error up front (lookups themselves never throw; they fall back and report).
    package func validate() throws(DebugInfoError) {
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
                let lines: LineTable
                do {
                    lines = try self.lines(for: address, unit: unitNumber, data: data)
                } catch let failure {
                    // A unit whose line program cannot be read is unusable, as when its DIEs cannot.
                    units[unitNumber].data = nil
                    units[unitNumber].error = failure
                    error = failure
                    continue
                }
                do {
                    if let result = try dwarfLookup(address, in: data, lines: lines) { return result }
                } catch {
                    return symbolLookup(address, error: error)
                }
            }
        }
        return symbolLookup(address, error: error)
    }

    /// Hands the file's mapped pages back when they have grown past what the session's own
    /// decoded data takes (and past 16 MiB). Each touch of a mapped debug file maps a whole
    /// page-cache folio (up to megabytes), so without it a hundred lookups in a hundred units
    /// kept ~100 MB of a 259 MB dSYM resident. Re-mapping a dropped page is a minor fault,
    /// so a run that touches most of a file anyway (thousands of addresses, a small dSYM)
    /// keeps its pages: its decoded data is larger than they are. Checked every 12 misses;
    /// reading the counters costs a few microseconds. Without the counters (macOS), pages
    /// are handed back every 12 misses.
    private func releasePagesIfGrown() {
        touchesSinceCheck += 1
        guard touchesSinceCheck >= 12 else { return }
        touchesSinceCheck = 0
        guard let now = ResidentMemory.current() else {
            container.releaseResidentPages()
            return
        }
        let baseline = fileBackedAfterRelease ?? now.fileBacked
        if fileBackedAfterRelease == nil { fileBackedAfterRelease = baseline }
        guard now.fileBacked - baseline > max(16 << 20, now.anonymous) else { return }
        container.releaseResidentPages()
        fileBackedAfterRelease = ResidentMemory.current()?.fileBacked ?? baseline
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
            // libdwarf learns every unit once, here (later DIE reads then never re-walk):
            // the walked stretch of .debug_info is handed back every MiB, so peak memory
            // does not grow with the number of units.
            let info = scanner.info
            var released = 0
            let offsets = try dwarf.unitDieOffsets { next in
                let walked = min(Int(clamping: next), info.count)
                if walked >= released + (1 << 20) {
                    container.releasePages(UnsafeRawBufferPointer(rebasing: info[released..<walked]))
                    released = walked
                }
            }
            container.releasePages(UnsafeRawBufferPointer(rebasing: info[released...]))
            units = offsets.map { UnitState(headerOffset: $0.header, dieOffset: $0.die) }
            var byHeader: [UInt64: Int] = [:]
            for (number, offset) in offsets.enumerated() { byHeader[offset.header] = number }
            var covered = Set<Int>()
            // A damaged .debug_aranges is ignored: every unit's own ranges are used instead.
            for entry in (try? ArangesReader.read(aranges, path: path)) ?? [] {
                guard let unit = byHeader[entry.unitHeaderOffset] else { continue }
                index.append((entry.range, unit))
                covered.insert(unit)
            }
            container.releasePages(aranges)
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
        releasePagesIfGrown()
        do {
            let offset = units[number].dieOffset
            let base = try dwarf.unitBase(unitDieOffset: offset)
            let location = try dwarf.lineTableLocation(unitDieOffset: offset)
            var scan = try scanner.unit(headerOffset: units[number].headerOffset)
            let functions = try self.functions(in: &scan, unitDieOffset: offset, base: base, dwarf: dwarf)
            let data = UnitData(base: base, scan: scan, lineLocation: location, functions: functions)
            units[number].data = data
            return .success(data)
        } catch {
            units[number].error = error
            return .failure(error)
        }
    }

    /// Code ranges from what the scanner decoded, asking libdwarf only for DW_AT_ranges.
    private func ranges(of entry: UnitScanner.Entry, base: UInt64, unit: UnitScanner.Unit, dwarf: LibDwarf) throws(DebugInfoError)
        -> [AddressRange]
    {
        if entry.hasRanges {
            guard let value = entry.rangesValue else { return try dwarf.ranges(dieOffset: entry.offset, unitBase: base) }
            return try rangeDecoder.decode(value: value, form: entry.rangesForm, unit: unit)
        }
        guard let low = entry.lowPC, let high = entry.highPC else { return [] }
        let end = entry.highIsOffset ? low &+ high : high
        return end > low ? [AddressRange(low: low, high: end)] : []
    }

    /// Functions with code anywhere in the unit's DIE tree, for every language: at unit
    /// level, in namespaces and modules, inside types (Swift 5 compilers put method
    /// definitions in their struct/class/enum: `module > class_type > subprogram`),
    /// lexical blocks, inlined calls and other functions (closures, nested functions) —
    /// everywhere llvm-symbolizer looks. The scan reads every DIE of the unit either way.
    private func functions(in scan: inout UnitScanner.Unit, unitDieOffset: UInt64, base: UInt64, dwarf: LibDwarf) throws(DebugInfoError)
        -> [FunctionEntry]
    {
        let entries = try scanner.scan(unit: &scan, start: unitDieOffset, tags: [UnitScanner.tagSubprogram], transparent: { _ in true })
        var out: [FunctionEntry] = []
        for entry in entries {
            let ranges = try ranges(of: entry, base: base, unit: scan, dwarf: dwarf)
            guard !ranges.isEmpty else { continue }
            out.append(FunctionEntry(dieOffset: entry.offset, ranges: ranges, entry: entry.lowPC ?? ranges.map(\.low).min() ?? 0))
        }
        return out
    }

    private func inlinedSubroutines(of function: FunctionEntry, in data: UnitData, dwarf: LibDwarf) throws(DebugInfoError) -> [InlineEntry]
    {
        // Inlined calls anywhere below the function except inside nested functions (theirs).
        let entries = try scanner.scan(
            unit: &data.scan, start: function.dieOffset, tags: [UnitScanner.tagInlined],
            transparent: { $0 != UnitScanner.tagSubprogram }
        )
        var out: [InlineEntry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            out.append(
                InlineEntry(
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

    /// The line table to answer `address` from. The first address in a unit is answered by
    /// running its line program and keeping only the row that holds it (storing thousands of
    /// rows for one answer was a fifth of a 100-address lookup, mostly fresh pages); the
    /// whole table is decoded and kept once a second address needs the unit — at once when
    /// the current batch of addresses already holds more than one for it.
    private func lines(for address: UInt64, unit: Int, data: UnitData) throws(DebugInfoError) -> LineTable {
        if let lines = data.lines { return lines }
        guard let offset = data.lineLocation.offset else { return LineTable(rows: [], files: [], fileIndexBase: 1) }
        if !data.answeredWithoutTable, !repeatedInBatch.contains(unit) {
            data.answeredWithoutTable = true
            return try lineDecoder.decode(offset: offset, compDir: data.lineLocation.compDir, onlyFor: address)
        }
        releasePagesIfGrown()
        let lines = Self.sorted(try lineDecoder.decode(offset: offset, compDir: data.lineLocation.compDir))
        data.lines = lines
        return lines
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

    private func dwarfLookup(_ address: UInt64, in data: UnitData, lines: LineTable) throws(DebugInfoError) -> LookupResult? {
        guard let dwarf else { return nil }
        let row = lineRow(address, in: lines)
        guard let functionNumber = function(containing: address, in: data) else {
            guard let row else { return nil }
            // Line information without a function DIE: name it from the symbol table.
            let symbol = symbolLookup(address, error: nil)?.frames.first
            return LookupResult(
                frames: [
                    SourceFrame(
                        function: symbol?.function ?? "??", rawName: symbol?.rawName,
                        file: fileName(UInt64(row.file), in: lines), line: Int(row.line), column: Int(row.column),
                        functionStart: symbol?.functionStart ?? address, isInlined: false,
                        nameSource: symbol == nil ? .dwarf : .symbolTable
                    )
                ], source: .dwarf)
        }
        let function = data.functions[functionNumber]
        let inlines: [InlineEntry]
        if let cached = data.inlines[functionNumber] {
            inlines = cached
        } else {
            releasePagesIfGrown()
            inlines = try inlinedSubroutines(of: function, in: data, dwarf: dwarf)
            data.inlines[functionNumber] = inlines
        }
        // Chain from the outermost inlined call inwards.
        var chain: [Int] = []
        var parent: Int? = nil
        while let next = inlines.indices.first(where: {
            inlines[$0].parent == parent && inlines[$0].ranges.contains { $0.contains(address) }
        }) {
            chain.append(next)
            parent = next
        }
        var frames: [SourceFrame] = []
        // Innermost first: its location comes from the line table.
        var file = row.flatMap { fileName(UInt64($0.file), in: lines) }
        var line = row.map { Int($0.line) }
        var column = row.map { Int($0.column) }
        for entryNumber in chain.reversed() {
            let entry = inlines[entryNumber]
            let name = try functionName(entry.dieOffset)
            let start = entry.ranges.first { $0.contains(address) }?.low ?? address
            frames.append(
                SourceFrame(
                    function: name.function, rawName: name.raw, file: file, line: line, column: column,
                    functionStart: start, isInlined: true
                ))
            // The frame outside this inlined call is at the call site.
            file = fileName(entry.callFile.map { $0 &- lines.fileIndexBase }, in: lines)
            line = entry.callLine
            column = entry.callColumn
        }
        let name: (function: String, raw: String?)
        let nameSource: LookupSource
        if let symbol = symbolName(containing: address) {
            name = symbol
            nameSource = .symbolTable
        } else {
            name = try functionName(function.dieOffset)
            nameSource = .dwarf
        }
        frames.append(
            SourceFrame(
                function: name.function, rawName: name.raw, file: file, line: line, column: column,
                functionStart: function.entry, isInlined: false, nameSource: nameSource
            ))
        return LookupResult(frames: frames, source: .dwarf)
    }

    /// The function whose code holds the address. When ranges overlap (a nested function
    /// inside its parent's range), the DIE latest in the tree wins — the innermost one, as
    /// llvm-symbolizer's address map does (children are entered after their parents).
    private func function(containing address: UInt64, in data: UnitData) -> Int? {
        let index = data.functionIndex
        let low = index.partitionPoint { $0.range.low > address }
        var position = low - 1
        var best: Int?
        while position >= 0, low - 1 - position < 16 {
            let candidate = index[position].function
            if index[position].range.contains(address),
                best.map({ data.functions[candidate].dieOffset > data.functions[$0].dieOffset }) ?? true
            {
                best = candidate
            }
            position -= 1
        }
        return best
    }

    /// The DWARF name of a function: its demangled linkage name, else its DW_AT_name alone
    /// (never qualified by enclosing namespaces or types: an `extern "C"` function declared
    /// in a namespace is its plain name, as atos and llvm-symbolizer print it).
    private func functionName(_ dieOffset: UInt64) throws(DebugInfoError) -> (function: String, raw: String?) {
        if let cached = names[dieOffset] { return cached }
        guard let dwarf else { return ("??", nil) }
        releasePagesIfGrown()
        let found = try dwarf.names(dieOffset: dieOffset)
        let result: (function: String, raw: String?)
        if let linkage = found.linkageName {
            result = (Demangler.demangle(linkage) ?? linkage, linkage)
        } else if let name = found.name {
            result = (name, nil)
        } else {
            result = ("??", nil)
        }
        names[dieOffset] = result
        return result
    }

    // MARK: - Symbol table

    /// The nearest code symbol at or before the address, with its display name.
    private func nearestSymbol(_ address: UInt64) -> (address: UInt64, covers: Bool, name: (function: String, raw: String?))? {
        guard let symbol = container.nearestSymbol(atOrBefore: address) else { return nil }
        if let cached = symbolNames[symbol.address] { return (symbol.address, symbol.covers, cached) }
        releasePagesIfGrown()
        let stripped = container.sourceName(ofSymbol: symbol.name)
        let name = (function: Demangler.demangle(stripped) ?? stripped, raw: Optional(symbol.name))
        symbolNames[symbol.address] = name
        return (symbol.address, symbol.covers, name)
    }

    /// The name llvm-symbolizer and atos give the outermost (concrete) frame: the symbol
    /// that covers the address — the nearest one before it in the same section, up to the
    /// next symbol — when the slice has one; the DWARF name only otherwise. They differ
    /// for compiler-renamed functions (`helper.1`), aliases, and functions whose DWARF has
    /// only a DW_AT_name (methods of interface types, `extern "C"` in namespaces).
    private func symbolName(containing address: UInt64) -> (function: String, raw: String?)? {
        guard let symbol = nearestSymbol(address), symbol.covers else { return nil }
        return symbol.name
    }

    private func symbolLookup(_ address: UInt64, error: DebugInfoError?) -> LookupResult? {
        guard let symbol = nearestSymbol(address) else {
            return error.map { LookupResult(frames: [], source: .dwarf, dwarfError: $0) }
        }
        return LookupResult(
            frames: [
                SourceFrame(
                    function: symbol.name.function, rawName: symbol.name.raw,
                    file: nil, line: nil, column: nil, functionStart: symbol.address, isInlined: false,
                    nameSource: .symbolTable
                )
            ],
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
