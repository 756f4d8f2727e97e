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
