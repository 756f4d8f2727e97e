import Foundation
import SymbolicateCore
import SymbolicateDemangling

/// The DWARF side of a `DebugSession`: the unit index, each unit's decoded data (line table,
/// functions, inline trees, names) and the libdwarf session, all behind one lock, since
/// libdwarf is not thread-safe and the caches grow as lookups arrive.
///
/// Units are decoded lazily: the first address that falls in a compile unit decodes its
/// line table and its list of functions; the first address in a function decodes that
/// function's inline tree. Everything decoded is cached for later lookups. The symbol table
/// and the file's resident pages are `SessionFile`'s, under its own lock.
final class DWARFUnits: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private let file: SessionFile
    // Everything below is guarded by `lock`.
    private let dwarf: LibDwarf
    /// The patched `.debug_abbrev` libdwarf reads (see `DWARFSections`); kept alive with it.
    private let patchedAbbrev: OwnedBytes?
    private var unitIndex: [(range: AddressRange, unit: Int)]?
    private var units: [UnitState] = []
    private var names: [UInt64: (function: String, raw: String?)] = [:]
    private var openError: DebugInfoError?
    private let lineDecoder: LineProgramDecoder
    private let scanner: UnitScanner
    /// `.debug_aranges`, read once to build the unit index.
    private let aranges: UnsafeRawBufferPointer
    private let rangeDecoder: RangeListDecoder
    /// Units the current `lookup(fileAddresses:)` call needs for more than one address.
    private var repeatedInBatch = Set<Int>()

    private struct UnitState {
        var headerOffset: UInt64
        var dieOffset: UInt64
        var data: UnitData?
        var error: DebugInfoError?
    }

    private final class UnitData {
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

        init(scan: UnitScanner.Unit, lineLocation: (offset: UInt64?, compDir: String?), functions: [FunctionEntry]) {
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

    /// Opens libdwarf over the container's DWARF sections. Throws when libdwarf cannot open
    /// them at all.
    init(container: any DebugContainer, file: SessionFile) throws(DebugInfoError) {
        path = container.path
        self.file = file
        let bytes = container.dwarfSection
        aranges = bytes(".debug_aranges")
        scanner = UnitScanner(info: bytes(".debug_info"), abbrev: bytes(".debug_abbrev"), addr: bytes(".debug_addr"), path: path)
        rangeDecoder = RangeListDecoder(
            ranges: bytes(".debug_ranges"), rnglists: bytes(".debug_rnglists"), addr: bytes(".debug_addr"), path: path)
        lineDecoder = LineProgramDecoder(
            line: bytes(".debug_line"), lineStrings: bytes(".debug_line_str"), strings: bytes(".debug_str"), path: path
        )
        var patched: OwnedBytes?
        let sections = try container.servedSections(patchedAbbrev: &patched)
        patchedAbbrev = patched
        dwarf = try LibDwarf(path: path, sections: sections, pointerSize: container.pointerSize)
    }

    /// The inline chain for a file (unslid) address, or `nil` when neither DWARF nor the
    /// symbol table knows it. Lookups never throw: unreadable DWARF falls back to the symbol
    /// table and says why in `dwarfError`.
    func lookup(fileAddress: UInt64) -> LookupResult? {
        lock.lock()
        defer { lock.unlock() }
        return lookupLocked(fileAddress)
    }

    /// Many lookups under one lock acquisition; results in input order.
    func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        lock.lock()
        defer { lock.unlock() }
        // Units this batch visits more than once get their line tables kept from the start.
        if fileAddresses.count > 1 {
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
    func validate() throws(DebugInfoError) {
        lock.lock()
        defer { lock.unlock() }
        _ = buildUnitIndex()
        if let openError { throw openError }
    }

    // MARK: - Lookup

    private func lookupLocked(_ address: UInt64) -> LookupResult? {
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
                    return self.file.symbolLookup(address, error: error)
                }
            }
        }
        return self.file.symbolLookup(address, error: error)
    }

    /// A call site's line or column as LLVM keeps it (32 bits): the file's value can be any
    /// 64-bit number, which `Int(_:)` would trap on.
    static func lineNumber(_ value: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: value)) }

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
                    self.file.releasePages(UnsafeRawBufferPointer(rebasing: info[released..<walked]))
                    released = walked
                }
            }
            self.file.releasePages(UnsafeRawBufferPointer(rebasing: info[released...]))
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
            self.file.releasePages(aranges)
            // Units that .debug_aranges does not describe (or all, when it is absent).
            for (number, offset) in offsets.enumerated() where !covered.contains(number) {
                do throws(DebugInfoError) {
                    let unit = try scanner.unitWithRoot(headerOffset: offset.header)
                    guard let root = unit.root else { continue }
                    for range in try rangeDecoder.ranges(of: root, unit: unit) { index.append((range, number)) }
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
        self.file.willRead()
        do {
            let offset = units[number].dieOffset
            let location = try dwarf.lineTableLocation(unitDieOffset: offset)
            var scan = try scanner.unit(headerOffset: units[number].headerOffset)
            let functions = try self.functions(in: &scan, unitDieOffset: offset)
            let data = UnitData(scan: scan, lineLocation: location, functions: functions)
            units[number].data = data
            return .success(data)
        } catch {
            units[number].error = error
            return .failure(error)
        }
    }

    /// Functions with code anywhere in the unit's DIE tree, for every language: at unit
    /// level, in namespaces and modules, inside types (Swift 5 compilers put method
    /// definitions in their struct/class/enum: `module > class_type > subprogram`),
    /// lexical blocks, inlined calls and other functions (closures, nested functions) —
    /// everywhere llvm-symbolizer looks. The scan reads every DIE of the unit either way.
    private func functions(in scan: inout UnitScanner.Unit, unitDieOffset: UInt64) throws(DebugInfoError) -> [FunctionEntry] {
        let entries = try scanner.scan(unit: &scan, start: unitDieOffset, tags: [UnitScanner.tagSubprogram], transparent: { _ in true })
        var out: [FunctionEntry] = []
        for entry in entries {
            let ranges = try rangeDecoder.ranges(of: entry, unit: scan)
            guard !ranges.isEmpty else { continue }
            out.append(FunctionEntry(dieOffset: entry.offset, ranges: ranges, entry: entry.lowPC ?? ranges.map(\.low).min() ?? 0))
        }
        return out
    }

    private func inlinedSubroutines(of function: FunctionEntry, in data: UnitData) throws(DebugInfoError) -> [InlineEntry] {
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
                    ranges: try rangeDecoder.ranges(of: entry, unit: data.scan),
                    callFile: entry.callFile, callLine: entry.callLine.map(Self.lineNumber),
                    callColumn: entry.callColumn.map(Self.lineNumber)
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
        self.file.willRead()
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
        let row = lineRow(address, in: lines)
        guard let functionNumber = function(containing: address, in: data) else {
            guard let row else { return nil }
            // Line information without a function DIE: name it from the symbol table.
            let symbol = self.file.symbolLookup(address, error: nil)?.frames.first
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
            self.file.willRead()
            inlines = try inlinedSubroutines(of: function, in: data)
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
        if let symbol = self.file.symbolName(containing: address) {
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
        self.file.willRead()
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
}
