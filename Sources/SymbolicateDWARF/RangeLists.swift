/// DW_AT_ranges decoding over the raw `.debug_ranges` (DWARF 2–4) and `.debug_rnglists`
/// (DWARF 5) bytes, for the DIEs `UnitScanner` found. Bounds-checked; errors name the offset.
struct RangeListDecoder {
    let ranges: UnsafeRawBufferPointer
    let rnglists: UnsafeRawBufferPointer
    let addr: UnsafeRawBufferPointer
    let path: String

    private func fail(_ section: String, _ offset: UInt64, _ message: String) -> DebugInfoError {
        DebugInfoError(path: path, offset: offset, message: "\(section): \(message)")
    }

    private func read(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, _ size: Int, _ section: String) throws(DebugInfoError) -> UInt64 {
        guard at >= 0, size <= bytes.count, at <= bytes.count - size else {
            throw fail(section, UInt64(max(at, 0)), "list runs past the end of the section")
        }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
        at += size
        return value
    }

    private func uleb(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, _ section: String) throws(DebugInfoError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try read(bytes, &at, 1, section)
            if shift < 64 { value |= (byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 { return value }
        }
    }

    /// The ranges a DW_AT_ranges value (`form` as written in the DIE) stands for.
    func decode(value: UInt64, form: UInt64, unit: UnitScanner.Unit) throws(DebugInfoError) -> [AddressRange] {
        unit.version >= 5 ? try rnglist(value: value, form: form, unit: unit) : try rangeList(offset: value, unit: unit)
    }

    private func rangeList(offset: UInt64, unit: UnitScanner.Unit) throws(DebugInfoError) -> [AddressRange] {
        let section = ".debug_ranges"
        guard offset < UInt64(ranges.count) else { throw fail(section, offset, "offset outside the section") }
        var at = Int(offset)
        let size = unit.addressSize
        let selection: UInt64 = size == 8 ? .max : 0xFFFF_FFFF
        var base = unit.baseAddress ?? 0
        var out: [AddressRange] = []
        while true {
            let begin = try read(ranges, &at, size, section)
            let end = try read(ranges, &at, size, section)
            if begin == 0 && end == 0 { return out }
            if begin == selection {
                base = end
            } else if end > begin {
                out.append(AddressRange(low: base &+ begin, high: base &+ end))
            }
        }
    }

    private func rnglist(value: UInt64, form: UInt64, unit: UnitScanner.Unit) throws(DebugInfoError) -> [AddressRange] {
        let section = ".debug_rnglists"
        var offset = value
        if form == 0x23 {  // DW_FORM_rnglistx: through the unit's offset table
            guard let tableBase = unit.rnglistsBase else { throw fail(section, 0, "DW_FORM_rnglistx without DW_AT_rnglists_base") }
            var at = Int(clamping: tableBase &+ value &* UInt64(unit.offsetSize))
            offset = tableBase &+ (try read(rnglists, &at, unit.offsetSize, section))
        }
        guard offset < UInt64(rnglists.count) else { throw fail(section, offset, "offset outside the section") }
        var at = Int(offset)
        var base = unit.baseAddress ?? 0
        var out: [AddressRange] = []
        func address(_ index: UInt64) throws(DebugInfoError) -> UInt64 {
            guard let value = UnitScanner.address(at: index, in: addr, unit: unit) else {
                throw fail(section, UInt64(at), ".debug_addr index \(index) unavailable")
            }
            return value
        }
        func add(_ low: UInt64, _ high: UInt64) {
            if high > low { out.append(AddressRange(low: low, high: high)) }
        }
        while true {
            let kind = try read(rnglists, &at, 1, section)
            switch kind {
            case 0: return out  // DW_RLE_end_of_list
            case 1: base = try address(try uleb(rnglists, &at, section))  // base_addressx
            case 2:  // startx_endx
                let start = try address(try uleb(rnglists, &at, section))
                add(start, try address(try uleb(rnglists, &at, section)))
            case 3:  // startx_length
                let start = try address(try uleb(rnglists, &at, section))
                add(start, start &+ (try uleb(rnglists, &at, section)))
            case 4:  // offset_pair
                let low = try uleb(rnglists, &at, section)
                add(base &+ low, base &+ (try uleb(rnglists, &at, section)))
            case 5: base = try read(rnglists, &at, unit.addressSize, section)  // base_address
            case 6:  // start_end
                let low = try read(rnglists, &at, unit.addressSize, section)
                add(low, try read(rnglists, &at, unit.addressSize, section))
            case 7:  // start_length
                let low = try read(rnglists, &at, unit.addressSize, section)
                add(low, low &+ (try uleb(rnglists, &at, section)))
            default:
                throw fail(section, UInt64(at - 1), "unknown range list entry kind \(kind)")
            }
        }
    }
}

extension RangeListDecoder {
    /// Code ranges of a DIE the scanner read: its DW_AT_ranges list, else `[low_pc, high_pc)`
    /// (high_pc an address, or an offset from low_pc in a constant form); empty when it has none.
    /// The one place ranges are decoded, for unit DIEs (the unit index), functions and
    /// inlined calls alike.
    func ranges(of entry: UnitScanner.Entry, unit: UnitScanner.Unit) throws(DebugInfoError) -> [AddressRange] {
        if entry.hasRanges, let value = entry.rangesValue {
            return try decode(value: value, form: entry.rangesForm, unit: unit)
        }
        guard let low = entry.lowPC, let high = entry.highPC else { return [] }
        let end = entry.highIsOffset ? low &+ high : high
        return end > low ? [AddressRange(low: low, high: end)] : []
    }
}
