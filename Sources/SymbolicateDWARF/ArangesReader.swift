/// `.debug_aranges` read in Swift, for the unit index built once per dSYM.
///
/// libdwarf's reader allocates one object per entry — one per function in a dsymutil
/// dSYM (144k on a 273 MB one) — and the index then kept one element per function. Here
/// each set (one per unit) is read in place and adjacent or overlapping entries are merged:
/// a unit's functions are laid out together, so the index holds about one range per unit.
enum ArangesReader {
    /// Ranges with the `.debug_info` offset of their unit's header, each set's entries merged.
    static func read(_ bytes: UnsafeRawBufferPointer, path: String) throws(DebugInfoError) -> [(
        range: AddressRange, unitHeaderOffset: UInt64
    )] {
        var out: [(range: AddressRange, unitHeaderOffset: UInt64)] = []
        var setStart = 0
        while setStart < bytes.count {
            var section = DWARFCursor(bytes: bytes, at: setStart, end: bytes.count, path: path, section: ".debug_aranges")
            let prefixed = try section.lengthPrefixed("set")
            var cursor = prefixed.body
            let offsetSize = prefixed.offsetSize
            let setEnd = cursor.end
            let version = try cursor.fixed(2)
            let unitOffset = try cursor.fixed(offsetSize)
            let addressSize = Int(try cursor.u8())
            let segmentSize = try cursor.u8()
            guard version == 2, addressSize == 4 || addressSize == 8, segmentSize == 0 else {
                throw cursor.fail("unsupported set (version \(version), address size \(addressSize), segment size \(segmentSize))")
            }
            // Tuples start at a multiple of twice the address size from the set's start.
            let tupleSize = 2 * addressSize
            let headerEnd = cursor.at - setStart
            try cursor.skip(UInt64((tupleSize - headerEnd % tupleSize) % tupleSize))
            var current: AddressRange?
            while cursor.at + tupleSize <= setEnd {
                let start = try cursor.fixed(addressSize)
                let size = try cursor.fixed(addressSize)
                if start == 0 && size == 0 { break }
                guard size > 0 else { continue }
                let range = AddressRange(low: start, high: start &+ size)
                if let open = current, range.low <= open.high, range.low >= open.low {
                    current = AddressRange(low: open.low, high: max(open.high, range.high))
                } else {
                    if let open = current { out.append((open, unitOffset)) }
                    current = range
                }
            }
            if let open = current { out.append((open, unitOffset)) }
            setStart = setEnd
        }
        return out
    }
}
