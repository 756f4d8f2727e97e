/// The debug map a linker leaves in a binary built without a dSYM (`N_OSO`, `N_FUN`, `N_STSYM`,
/// `N_GSYM` stab entries): which object files the code came from, each with the modification
/// time it had at link time, and where each of their functions landed in the binary. The
/// object files keep the DWARF; `dsymutil`, `atos` and LLDB follow this map to it.
package struct DebugMap: Sendable, Equatable {
    /// One object file (`/build/main.o`) or static-library member (`/build/libx.a(util.o)`).
    package struct Object: Sendable, Equatable {
        /// The path as the linker recorded it.
        package var path: String
        /// Seconds since 1970 as the linker saw the file (`N_OSO`'s value); 0 when the linker
        /// recorded none (`ZERO_AR_DATE`), in which case the time cannot be checked.
        package var modificationTime: UInt64
        /// Functions of the object, in map order.
        package var functions: [Function]
        /// Data symbols (`N_STSYM`, `N_GSYM`): name and address in the binary.
        package var dataSymbols: [DataSymbol]
    }

    /// A function as placed in the binary: its symbol name (`_main`), start and size.
    package struct Function: Sendable, Equatable {
        package var name: String
        package var address: UInt64
        package var size: UInt64
    }

    /// A data symbol as placed in the binary. `N_GSYM` records no address: it is the binary's
    /// external symbol of that name, nil when the symbol table has none.
    package struct DataSymbol: Sendable, Equatable {
        package var name: String
        package var address: UInt64?
    }

    package var objects: [Object]

    /// The object path and member name of an archive member path, `lib.a(util.o)` →
    /// (`lib.a`, `util.o`); nil for a plain path.
    package static func archiveMember(of path: String) -> (archive: String, member: String)? {
        guard path.hasSuffix(")"), let open = path.lastIndex(of: "("), open != path.startIndex else { return nil }
        let member = path[path.index(after: open)..<path.index(before: path.endIndex)]
        guard !member.isEmpty else { return nil }
        return (String(path[..<open]), String(member))
    }
}

extension MachOSlice {
    static let stabSO: UInt8 = 0x64
    static let stabOSO: UInt8 = 0x66
    static let stabFUN: UInt8 = 0x24
    static let stabSTSYM: UInt8 = 0x26
    static let stabGSYM: UInt8 = 0x20

    /// The slice's debug map, nil when its symbol table has no `N_OSO` entry (a dSYM, a
    /// stripped binary, one linked without debug information).
    package func debugMap() throws(MachOError) -> DebugMap? {
        guard let table = try nlistTable() else { return nil }
        var objects: [DebugMap.Object] = []
        var current: DebugMap.Object?
        var openFunction: (name: String, address: UInt64)?
        var globals: [String: UInt64]?
        for index in 0..<table.count {
            let entry = try table.entry(index)
            switch entry.type {
            case Self.stabOSO:
                if let current { objects.append(current) }
                current = DebugMap.Object(
                    path: try table.name(entry), modificationTime: entry.value, functions: [], dataSymbols: [])
                openFunction = nil
            case Self.stabSO:
                // An empty N_SO closes the compilation unit and with it the object's entries.
                if try table.name(entry).isEmpty, let finished = current {
                    objects.append(finished)
                    current = nil
                    openFunction = nil
                }
            case Self.stabFUN where current != nil:
                let name = try table.name(entry)
                if name.isEmpty {
                    // The second N_FUN of a pair carries the function's size.
                    if let function = openFunction {
                        current?.functions.append(DebugMap.Function(name: function.name, address: function.address, size: entry.value))
                    }
                    openFunction = nil
                } else {
                    openFunction = (name, entry.value)
                }
            case Self.stabSTSYM where current != nil:
                current?.dataSymbols.append(DebugMap.DataSymbol(name: try table.name(entry), address: entry.value))
            case Self.stabGSYM where current != nil:
                if globals == nil { globals = try externalSymbolAddresses(table) }
                let name = try table.name(entry)
                current?.dataSymbols.append(DebugMap.DataSymbol(name: name, address: globals?[name]))
            default:
                continue
            }
        }
        if let current { objects.append(current) }
        return objects.isEmpty ? nil : DebugMap(objects: objects)
    }

    /// Every defined (`N_SECT`, non-stab) symbol by name with its address: an object file's
    /// functions as the debug map names them. The first of several symbols of one name wins.
    package func definedSymbolAddresses() throws(MachOError) -> [String: UInt64] {
        guard let table = try nlistTable() else { return [:] }
        var found: [String: UInt64] = [:]
        for index in 0..<table.count {
            let entry = try table.entry(index)
            guard entry.type & 0xE0 == 0, entry.type & 0x0E == 0x0E else { continue }
            let name = try table.name(entry)
            if !name.isEmpty, found[name] == nil { found[name] = entry.value }
        }
        return found
    }

    private func externalSymbolAddresses(_ table: NlistTable) throws(MachOError) -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        for index in 0..<table.count {
            let entry = try table.entry(index)
            guard entry.type & 0xE0 == 0, entry.type & 0x0E == 0x0E, entry.type & 0x01 != 0 else { continue }
            found[try table.name(entry)] = entry.value
        }
        return found
    }

    /// The symbol table's window that `symbols()` walks, read here entry by entry.
    private func nlistTable() throws(MachOError) -> NlistTable? {
        try definedSymbols().map {
            NlistTable(table: $0.table, strings: $0.strings, count: $0.count, entrySize: $0.entrySize, is64Bit: $0.is64Bit)
        }
    }
}

/// Every nlist entry of a slice, stabs included.
private struct NlistTable {
    struct Entry {
        var stringIndex: Int
        var type: UInt8
        var value: UInt64
    }

    let table: ByteReader
    let strings: ByteReader
    let count: Int
    let entrySize: Int
    let is64Bit: Bool

    func entry(_ index: Int) throws(MachOError) -> Entry {
        let at = index * entrySize
        return Entry(
            stringIndex: Int(try table.u32(at, "nlist n_strx")),
            type: try table.u8(at + 4, "nlist n_type"),
            value: is64Bit ? try table.u64(at + 8, "nlist n_value") : UInt64(try table.u32(at + 8, "nlist n_value")))
    }

    /// The entry's name; empty for index 0 and for an index past the string table (a damaged
    /// entry names nothing rather than failing the whole map).
    func name(_ entry: Entry) throws(MachOError) -> String {
        guard entry.stringIndex > 0, entry.stringIndex < strings.count else { return "" }
        return try strings.cString(entry.stringIndex, "symbol name")
    }
}

extension MachOSlice {
    /// The sections that belong to `segment` by their own records: in a linked file those
    /// of the segment of that name; in an object file (`MH_OBJECT`), where every section sits
    /// in one unnamed segment, those whose section record names it (`__DWARF`).
    package func sections(ofSegment segment: String) -> [Section] {
        if let named = self.segment(named: segment) { return named.sections }
        return segments.flatMap { $0.sections.filter { $0.segmentName == segment } }
    }
}
