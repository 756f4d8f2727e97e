/// A defined symbol from LC_SYMTAB, used when DWARF has no answer.
package struct MachOSymbol: Sendable, Equatable {
    /// The name as stored, e.g. `_main` or `_$s4main3fooyyF`.
    package var name: String
    /// File (unslid) address.
    package var address: UInt64
    /// `n_sect`: 1-based section ordinal.
    package var section: UInt8
}

extension MachOSlice {
    /// Defined, non-debugging symbols that live in a section, sorted by address.
    ///
    /// Stabs (`N_STAB`) are skipped: dSYMs and unstripped binaries carry them, but they
    /// describe object files, not addresses. Symbols at the same address keep the
    /// first one, preferring a global over a local.
    package func symbols() throws(MachOError) -> [MachOSymbol] {
        guard let walk = try definedSymbols() else { return [] }
        var found: [NamedCandidate] = []
        found.reserveCapacity(walk.count)
        try walk.forEach { stringIndex, address, section, external throws(MachOError) in
            guard stringIndex < walk.strings.count else { return }
            let name = try walk.strings.cString(stringIndex, "symbol name")
            guard !name.isEmpty else { return }
            found.append(NamedCandidate(symbol: MachOSymbol(name: name, address: address, section: section), isExternal: external))
        }
        Self.keepFirstPerAddress(&found)
        return found.map(\.symbol)
    }

    /// How many defined, non-debugging symbols are local (what `strip -x` removes: static
    /// functions, Objective-C methods) and how many exported.
    package func definedSymbolCounts() throws(MachOError) -> (local: Int, external: Int) {
        guard let walk = try definedSymbols() else { return (0, 0) }
        var local = 0
        var external = 0
        try walk.forEach { _, _, _, isExternal throws(MachOError) in
            if isExternal { external += 1 } else { local += 1 }
        }
        return (local, external)
    }

    /// LC_SYMTAB's entries and strings, bounds-checked once: walked for defined symbols by
    /// `symbols()` and `symbolIndex(sections:)`, and entry by entry (stabs too) by the debug
    /// map; nil when the slice has no symbol table.
    func definedSymbols() throws(MachOError) -> DefinedSymbols? {
        guard let symtab else { return nil }
        let reader = ByteReader(file: mapping, start: fileOffset, count: size)
        let entrySize = is64Bit ? 16 : 12
        guard symtab.nsyms <= (size / entrySize) else {
            throw MachOError(
                path: path, offset: fileOffset + symtab.symoff,
                message: "LC_SYMTAB claims \(symtab.nsyms) symbols, more than fit in the file")
        }
        return DefinedSymbols(
            table: try reader.window(symtab.symoff, count: symtab.nsyms * entrySize, "symbol table"),
            strings: try reader.window(symtab.stroff, count: symtab.strsize, "string table"),
            count: symtab.nsyms, entrySize: entrySize, is64Bit: is64Bit)
    }

    /// Sorts by address, in place, and keeps at one address the first external symbol, else
    /// the first one (the stable sort keeps table order among equals). Shared by `symbols()`
    /// and `symbolIndex(sections:)`. Plain stored values in the comparator: a key path read
    /// there made building the index of a 36k-symbol dSYM cost ~15 ms per run.
    fileprivate static func keepFirstPerAddress<Symbol: AddressOrdered>(_ symbols: inout [Symbol]) {
        symbols.sort { $0.address != $1.address ? $0.address < $1.address : ($0.isExternal && !$1.isExternal) }
        var kept = 0
        for index in symbols.indices where kept == 0 || symbols[index].address != symbols[kept - 1].address {
            symbols[kept] = symbols[index]
            kept += 1
        }
        symbols.removeLast(symbols.count - kept)
    }
}

/// The nlist table and string table of a slice, walked entry by entry.
struct DefinedSymbols {
    let table: ByteReader
    let strings: ByteReader
    let count: Int
    let entrySize: Int
    let is64Bit: Bool

    /// Calls `body` with (string index, value, n_sect, external) for each defined symbol.
    func forEach(_ body: (Int, UInt64, UInt8, Bool) throws(MachOError) -> Void) throws(MachOError) {
        for index in 0..<count {
            let at = index * entrySize
            let type = try table.u8(at + 4, "nlist n_type")
            guard type & 0xE0 == 0, type & 0x0E == 0x0E else { continue }  // not a stab, N_SECT
            let section = try table.u8(at + 5, "nlist n_sect")
            let stringIndex = Int(try table.u32(at, "nlist n_strx"))
            let value = is64Bit ? try table.u64(at + 8, "nlist n_value") : UInt64(try table.u32(at + 8, "nlist n_value"))
            try body(stringIndex, value, section, type & 0x01 != 0)
        }
    }
}

/// Defined symbols of chosen sections by address, for naming frames, built without reading
/// a single name: 16 bytes per symbol, each name read from the string table when asked for.
///
/// Looking up one frame's symbol must not cost a String per symbol of a large dSYM (144k
/// functions: megabytes of heap and every page of the string table).
package struct MachOSymbolIndex: Sendable {
    struct Entry {
        var address: UInt64
        var stringIndex: UInt32
        var section: UInt8
        var isExternal: Bool
    }

    let entries: [Entry]
    let strings: ByteReader?

    package var count: Int { entries.count }

    /// No symbols (a slice whose symbol table cannot be read).
    package static let empty = MachOSymbolIndex(entries: [], strings: nil)

    /// The symbol nearest at or before `address`: its address, section ordinal and a handle for `name(of:)`.
    package func nearest(atOrBefore address: UInt64) -> (address: UInt64, section: UInt8, handle: Int)? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].address > address { high = mid } else { low = mid + 1 }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        return (entry.address, entry.section, low - 1)
    }

    /// The symbol's name as stored (`_main`, `__ZN3foo3barEv`); nil when unreadable.
    package func name(of handle: Int) -> String? {
        guard entries.indices.contains(handle), let strings else { return nil }
        return try? strings.cString(Int(entries[handle].stringIndex), "symbol name")
    }
}

extension MachOSlice {
    /// `MachOSymbolIndex` of the defined, non-debugging symbols in `sections` (`n_sect`
    /// ordinals). At one address a global symbol is kept over a local one, as `symbols()` does.
    package func symbolIndex(sections: Set<UInt8>) throws(MachOError) -> MachOSymbolIndex {
        guard let walk = try definedSymbols() else { return .empty }
        // Built in one array sized for the whole table (capacity never touched costs no memory)
        // and sorted in place: growing an array of tuples and sorting a copy cost ~40% of a
        // 100-address run on a 180k-symbol dSYM (fresh heap pages being zeroed), and several
        // times the index's own size at peak. Sections are tested through a table, not a Set
        // (hashing every symbol's n_sect was a quarter of the build).
        var wanted = [Bool](repeating: false, count: 256)
        for section in sections { wanted[Int(section)] = true }
        var entries: [MachOSymbolIndex.Entry] = []
        entries.reserveCapacity(walk.count)
        try walk.forEach { stringIndex, address, section, external throws(MachOError) in
            guard wanted[Int(section)], stringIndex > 0, stringIndex < walk.strings.count else { return }
            entries.append(
                MachOSymbolIndex.Entry(address: address, stringIndex: UInt32(stringIndex), section: section, isExternal: external))
        }
        // The table was read once; its pages need not stay resident.
        if let symtab, let bytes = mapping.bytes(at: fileOffset + symtab.symoff, count: walk.count * walk.entrySize) {
            mapping.releasePages(bytes)
        }
        Self.keepFirstPerAddress(&entries)
        return MachOSymbolIndex(entries: entries, strings: walk.strings)
    }
}

/// What the first-per-address rule reads of a symbol.
fileprivate protocol AddressOrdered {
    var address: UInt64 { get }
    var isExternal: Bool { get }
}

extension MachOSymbolIndex.Entry: AddressOrdered {}

/// A named symbol on its way into `symbols()`.
private struct NamedCandidate: AddressOrdered {
    var symbol: MachOSymbol
    var isExternal: Bool
    var address: UInt64 { symbol.address }
}
