/// A defined symbol from LC_SYMTAB, used when DWARF has no answer.
public struct MachOSymbol: Sendable, Equatable {
    /// The name as stored, e.g. `_main` or `_$s4main3fooyyF`.
    public var name: String
    /// File (unslid) address.
    public var address: UInt64
    /// `n_sect`: 1-based section ordinal.
    public var section: UInt8
}

extension MachOSlice {
    /// Defined, non-debugging symbols that live in a section, sorted by address.
    ///
    /// Stabs (`N_STAB`) are skipped: dSYMs and unstripped binaries carry them, but they
    /// describe object files, not addresses. Symbols at the same address keep the
    /// first one, preferring a global over a local.
    public func symbols() throws(MachOError) -> [MachOSymbol] {
        guard let symtab else { return [] }
        let reader = ByteReader(file: mapping, start: fileOffset, count: size)
        let entrySize = is64Bit ? 16 : 12
        guard symtab.nsyms <= (size / entrySize) else {
            throw MachOError(path: path, offset: fileOffset + symtab.symoff, message: "LC_SYMTAB claims \(symtab.nsyms) symbols, more than fit in the file")
        }
        let table = try reader.window(symtab.symoff, count: symtab.nsyms * entrySize, "symbol table")
        let strings = try reader.window(symtab.stroff, count: symtab.strsize, "string table")
        var result: [(symbol: MachOSymbol, external: Bool)] = []
        result.reserveCapacity(symtab.nsyms)
        for index in 0..<symtab.nsyms {
            let at = index * entrySize
            let type = try table.u8(at + 4, "nlist n_type")
            guard type & 0xE0 == 0, type & 0x0E == 0x0E else { continue }  // not a stab, N_SECT
            let section = try table.u8(at + 5, "nlist n_sect")
            let stringIndex = Int(try table.u32(at, "nlist n_strx"))
            let value = is64Bit ? try table.u64(at + 8, "nlist n_value") : UInt64(try table.u32(at + 8, "nlist n_value"))
            guard stringIndex < symtab.strsize else { continue }
            let name = try strings.cString(stringIndex, "symbol name")
            guard !name.isEmpty else { continue }
            result.append((MachOSymbol(name: name, address: value, section: section), type & 0x01 != 0))
        }
        result.sort { $0.symbol.address != $1.symbol.address ? $0.symbol.address < $1.symbol.address : ($0.external && !$1.external) }
        var unique: [MachOSymbol] = []
        unique.reserveCapacity(result.count)
        for entry in result where unique.last?.address != entry.symbol.address {
            unique.append(entry.symbol)
        }
        return unique
    }
}

/// Defined symbols of chosen sections by address, for naming frames, built without reading
/// a single name: 16 bytes per symbol, each name read from the string table when asked for.
///
/// Looking up one frame's symbol must not cost a String per symbol of a large dSYM (144k
/// functions: megabytes of heap and every page of the string table).
public struct MachOSymbolIndex: Sendable {
    struct Entry {
        var address: UInt64
        var stringIndex: UInt32
        var section: UInt8
    }

    let entries: [Entry]
    let strings: ByteReader?

    public var count: Int { entries.count }

    /// No symbols (a slice whose symbol table cannot be read).
    public static let empty = MachOSymbolIndex(entries: [], strings: nil)

    /// The symbol nearest at or before `address`: its address, section ordinal and a handle for `name(of:)`.
    public func nearest(atOrBefore address: UInt64) -> (address: UInt64, section: UInt8, handle: Int)? {
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
    public func name(of handle: Int) -> String? {
        guard entries.indices.contains(handle), let strings else { return nil }
        return try? strings.cString(Int(entries[handle].stringIndex), "symbol name")
    }
}

extension MachOSlice {
    /// `MachOSymbolIndex` of the defined, non-debugging symbols in `sections` (`n_sect`
    /// ordinals). At one address a global symbol is kept over a local one, as `symbols()` does.
    public func symbolIndex(sections: Set<UInt8>) throws(MachOError) -> MachOSymbolIndex {
        guard let symtab else { return .empty }
        let reader = ByteReader(file: mapping, start: fileOffset, count: size)
        let entrySize = is64Bit ? 16 : 12
        guard symtab.nsyms <= (size / entrySize) else {
            throw MachOError(path: path, offset: fileOffset + symtab.symoff, message: "LC_SYMTAB claims \(symtab.nsyms) symbols, more than fit in the file")
        }
        let table = try reader.window(symtab.symoff, count: symtab.nsyms * entrySize, "symbol table")
        let strings = try reader.window(symtab.stroff, count: symtab.strsize, "string table")
        var found: [(entry: MachOSymbolIndex.Entry, external: Bool)] = []
        for index in 0..<symtab.nsyms {
            let at = index * entrySize
            let type = try table.u8(at + 4, "nlist n_type")
            guard type & 0xE0 == 0, type & 0x0E == 0x0E else { continue }  // not a stab, N_SECT
            let section = try table.u8(at + 5, "nlist n_sect")
            guard sections.contains(section) else { continue }
            let stringIndex = try table.u32(at, "nlist n_strx")
            guard Int(stringIndex) < symtab.strsize, stringIndex > 0 else { continue }
            let value = is64Bit ? try table.u64(at + 8, "nlist n_value") : UInt64(try table.u32(at + 8, "nlist n_value"))
            found.append((MachOSymbolIndex.Entry(address: value, stringIndex: stringIndex, section: section), type & 0x01 != 0))
        }
        // The table was read once; its pages need not stay resident.
        if let bytes = mapping.bytes(at: fileOffset + symtab.symoff, count: symtab.nsyms * entrySize) {
            MappedFile.releasePages(bytes)
        }
        found.sort { $0.entry.address != $1.entry.address ? $0.entry.address < $1.entry.address : ($0.external && !$1.external) }
        var unique: [MachOSymbolIndex.Entry] = []
        unique.reserveCapacity(found.count)
        for item in found where unique.last?.address != item.entry.address { unique.append(item.entry) }
        return MachOSymbolIndex(entries: unique, strings: strings)
    }
}
