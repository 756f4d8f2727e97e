/// A linear scan of one unit's DIEs over the raw `.debug_info` bytes that finds functions
/// with code and, inside one function, its inlined calls.
///
/// libdwarf walks siblings by allocating a DIE per step and re-parsing every skipped
/// subtree; on a 54 MB dSYM that walk was most of the remaining lookup time. This scanner
/// reads each DIE once, decodes only the attributes symbolication needs when they use
/// simple forms (`DW_FORM_addr`/`addrx*` low_pc, constant or address high_pc, call
/// file/line/column, DW_AT_ranges values), and leaves names and reference chains to libdwarf
/// by DIE offset; `RangeListDecoder` turns the DW_AT_ranges values into ranges. Every read is
/// bounds-checked.
struct UnitScanner {
    let info: UnsafeRawBufferPointer
    let abbrev: UnsafeRawBufferPointer
    let addr: UnsafeRawBufferPointer
    let path: String

    /// A DIE the scanner found, with what it could decode itself.
    struct Entry {
        var offset: UInt64
        var tag: UInt64
        var depth: Int
        /// Index of the nearest enclosing recorded entry (function or inlined call).
        var parent: Int?
        var lowPC: UInt64?
        var highPC: UInt64?
        var highIsOffset = false
        var hasRanges = false
        /// DW_AT_ranges value and form (an offset or a DW_FORM_rnglistx index).
        var rangesValue: UInt64?
        var rangesForm: UInt64 = 0
        var callFile: UInt64?
        var callLine: UInt64?
        var callColumn: UInt64?
    }

    struct Unit {
        var version: UInt64
        var addressSize: Int
        var offsetSize: Int
        var firstDIE: Int
        var end: Int
        var abbreviations: AbbreviationTable
        /// Sizes of address- and offset-sized forms in this unit.
        var sizes: FormSizes { FormSizes(address: addressSize, offset: offsetSize, version: version) }
        var addrBase: UInt64?
        /// The unit DIE's DW_AT_low_pc: base address of its range lists.
        var baseAddress: UInt64?
        /// DW_AT_rnglists_base of the unit DIE (DWARF 5).
        var rnglistsBase: UInt64?
        /// The unit DIE itself (its low/high pc or DW_AT_ranges), once a scan has read it.
        var root: Entry?
    }

    /// One abbreviation: plain values only, so reading it per DIE copies no reference
    /// (an array of attributes per abbreviation was retained and released for every DIE).
    struct Abbreviation {
        var tag: UInt64
        var hasChildren: Bool
        /// Size in bytes of a DIE's attribute values when every form has a fixed size in this
        /// unit, else -1: such a DIE, when nobody asked for it, is skipped in one step instead
        /// of decoding each value (most DIEs of a unit: types, members, parameters, variables).
        var fixedSize: Int
        /// Its attributes are `AbbreviationTable.attributes[firstAttribute ..< endAttribute]`.
        var firstAttribute: Int
        var endAttribute: Int
    }

    /// A unit's abbreviations by code. Producers number them 1, 2, 3 …, so they are found
    /// through an array indexed by code (a hash lookup per DIE was ~5% of a lookup); stray
    /// large codes go to a dictionary. Attributes of all abbreviations share one array.
    struct AbbreviationTable {
        private(set) var entries: [Abbreviation] = []
        /// (attribute, form, implicit constant)
        private(set) var attributes: [(attribute: UInt64, form: UInt64, constant: Int64)] = []
        /// Code → index in `entries` + 1 (0: no such code).
        private var dense: [Int] = []
        private var sparse: [UInt64: Int] = [:]

        func slot(of code: UInt64) -> Int? {
            if code < UInt64(dense.count) { return dense[Int(code)] == 0 ? nil : dense[Int(code)] - 1 }
            return sparse[code]
        }

        /// Adds (or, for a repeated code, replaces) an abbreviation.
        mutating func add(
            code: UInt64, tag: UInt64, hasChildren: Bool, attributes new: [(attribute: UInt64, form: UInt64, constant: Int64)],
            fixedSize: Int?
        ) {
            let first = attributes.count
            attributes.append(contentsOf: new)
            entries.append(
                Abbreviation(
                    tag: tag, hasChildren: hasChildren, fixedSize: fixedSize ?? -1, firstAttribute: first, endAttribute: attributes.count))
            let slot = entries.count - 1
            if code < 4096 {
                if code >= UInt64(dense.count) { dense.append(contentsOf: repeatElement(0, count: Int(code) + 1 - dense.count)) }
                dense[Int(code)] = slot + 1
            } else {
                sparse[code] = slot
            }
        }
    }

    static let tagSubprogram: UInt64 = 0x2E
    static let tagInlined: UInt64 = 0x1D

    /// Parses the unit header at `headerOffset` and its abbreviation table.
    func unit(headerOffset: UInt64) throws(DebugInfoError) -> Unit {
        var cursor = DWARFCursor(bytes: info, at: Int(clamping: headerOffset), end: info.count, path: path, section: ".debug_info")
        guard headerOffset < UInt64(info.count) else { throw cursor.fail("unit offset outside the section") }
        let offsetSize: Int
        (cursor, offsetSize) = try cursor.lengthPrefixed("unit")
        let end = cursor.end
        let version = try cursor.fixed(2)
        guard (2...5).contains(version) else { throw cursor.fail("unsupported DWARF version \(version)") }
        let abbrevOffset: UInt64
        let addressSize: Int
        if version >= 5 {
            let unitType = try cursor.u8()
            addressSize = Int(try cursor.u8())
            abbrevOffset = try cursor.fixed(offsetSize)
            switch unitType {
            case 4, 5: _ = try cursor.fixed(8)  // skeleton, split_compile: dwo_id
            case 2, 6:
                _ = try cursor.fixed(8)
                _ = try cursor.fixed(offsetSize)  // type units
            default: break
            }
        } else {
            abbrevOffset = try cursor.fixed(offsetSize)
            addressSize = Int(try cursor.u8())
        }
        guard addressSize == 4 || addressSize == 8 else { throw cursor.fail("address size \(addressSize)") }
        return Unit(
            version: version, addressSize: addressSize, offsetSize: offsetSize, firstDIE: cursor.at, end: end,
            abbreviations: try abbreviations(
                at: abbrevOffset, sizes: FormSizes(address: addressSize, offset: offsetSize, version: version)),
            addrBase: nil
        )
    }

    /// The unit header at `headerOffset` with its unit DIE read (attributes only): what the
    /// unit index needs of a unit that `.debug_aranges` does not describe.
    func unitWithRoot(headerOffset: UInt64) throws(DebugInfoError) -> Unit {
        var unit = try unit(headerOffset: headerOffset)
        _ = try scan(unit: &unit, start: UInt64(unit.firstDIE), tags: [], transparent: { _ in false })
        return unit
    }

    /// What the sizes of address- and offset-sized forms are in one unit.
    struct FormSizes {
        var address: Int
        var offset: Int
        var version: UInt64

        /// Bytes of a value in `form`, nil when it varies (LEB128, strings, blocks, indirect).
        func size(of form: UInt64) -> Int? {
            switch form {
            case 0x01: return address  // addr
            case 0x0B, 0x11, 0x0C, 0x25, 0x29: return 1  // data1, ref1, flag, strx1, addrx1
            case 0x05, 0x12, 0x26, 0x2A: return 2  // data2, ref2, strx2, addrx2
            case 0x27, 0x2B: return 3  // strx3, addrx3
            case 0x06, 0x13, 0x1C, 0x28, 0x2C: return 4  // data4, ref4, ref_sup4, strx4, addrx4
            case 0x07, 0x14, 0x20, 0x24: return 8  // data8, ref8, ref_sig8, ref_sup8
            case 0x0E, 0x17, 0x1F, 0x1D, 0x1F20, 0x1F21: return offset  // strp, sec_offset, line_strp, strp_sup, GNU alt
            case 0x10: return version <= 2 ? address : offset  // ref_addr
            case 0x19, 0x21: return 0  // flag_present, implicit_const
            case 0x1E: return 16  // data16
            default: return nil
            }
        }
    }

    private func abbreviations(at offset: UInt64, sizes: FormSizes) throws(DebugInfoError) -> AbbreviationTable {
        var cursor = DWARFCursor(bytes: abbrev, at: Int(clamping: offset), end: abbrev.count, path: path, section: ".debug_abbrev")
        guard offset < UInt64(abbrev.count) else { throw cursor.fail("abbreviation offset outside the section") }
        var table = AbbreviationTable()
        while cursor.at < abbrev.count {
            let code = try cursor.uleb()
            if code == 0 { break }
            let tag = try cursor.uleb()
            let children = try cursor.u8() != 0
            var attributes: [(attribute: UInt64, form: UInt64, constant: Int64)] = []
            var fixedSize: Int? = 0
            while true {
                let attribute = try cursor.uleb()
                let form = try cursor.uleb()
                if attribute == 0 && form == 0 { break }
                let constant = form == 0x21 ? try cursor.sleb() : 0
                attributes.append((attribute, form, constant))
                if let total = fixedSize { fixedSize = sizes.size(of: form).map { total + $0 } }
            }
            table.add(code: code, tag: tag, hasChildren: children, attributes: attributes, fixedSize: fixedSize)
        }
        return table
    }

    /// Reads or skips one attribute value. Returns the value for constant, address,
    /// index and reference forms (not for strings, blocks or expressions).
    private func value(_ form: UInt64, _ constant: Int64, _ cursor: inout DWARFCursor, _ unit: FormSizes) throws(DebugInfoError) -> UInt64?
    {
        switch form {
        case 0x19: return 1  // flag_present
        case 0x21: return UInt64(bitPattern: constant)  // implicit_const
        case 0x1E:
            try cursor.skip(16)
            return nil  // data16
        case 0x03:
            try cursor.skip(try cursor.fixed(2))
            return nil  // block2
        case 0x04:
            try cursor.skip(try cursor.fixed(4))
            return nil  // block4
        case 0x08:
            try cursor.skipCString()
            return nil  // string
        case 0x09, 0x18:
            try cursor.skip(try cursor.uleb())
            return nil  // block, exprloc
        case 0x0A:
            try cursor.skip(UInt64(try cursor.u8()))
            return nil  // block1
        case 0x0D: return UInt64(bitPattern: try cursor.sleb())  // sdata
        // udata, ref_udata, strx, addrx, loclistx, rnglistx, GNU index
        case 0x0F, 0x15, 0x1A, 0x1B, 0x22, 0x23, 0x1F01, 0x1F02: return try cursor.uleb()
        case 0x16:  // indirect
            let actual = try cursor.uleb()
            guard actual != 0x16 else { throw cursor.fail("nested DW_FORM_indirect") }
            return try value(actual, constant, &cursor, unit)
        default:
            // Every fixed-size form: one table of sizes serves this and the one-step skip.
            guard let size = unit.size(of: form) else { throw cursor.fail("unknown attribute form 0x\(String(form, radix: 16))") }
            return try cursor.fixed(size)
        }
    }

    private static func isAddressIndex(_ form: UInt64) -> Bool {
        form == 0x1B || (0x29...0x2C).contains(form) || form == 0x1F01
    }

    private func resolveAddress(index: UInt64, _ unit: Unit, _ cursor: DWARFCursor) throws(DebugInfoError) -> UInt64 {
        guard let address = Self.address(at: index, in: addr, unit: unit) else {
            throw cursor.fail(
                unit.addrBase == nil ? "DW_FORM_addrx without DW_AT_addr_base" : ".debug_addr index \(index) outside the section")
        }
        return address
    }

    /// Entry `index` of the unit's `.debug_addr` table, or nil when it is not there.
    static func address(at index: UInt64, in addr: UnsafeRawBufferPointer, unit: Unit) -> UInt64? {
        guard let base = unit.addrBase, index < UInt64(addr.count) else { return nil }
        let at = base &+ index &* UInt64(unit.addressSize)
        guard at < UInt64(addr.count), UInt64(unit.addressSize) <= UInt64(addr.count) - at else { return nil }
        var value: UInt64 = 0
        for byte in 0..<unit.addressSize { value |= UInt64(addr[Int(at) + byte]) << (8 * UInt64(byte)) }
        return value
    }

    /// Scans the subtree of the DIE at `start` (the unit DIE, or a function), returning
    /// every DIE whose tag is in `tags`, with the attributes it could decode. The children
    /// of any other DIE are searched when `transparent(tag)` says so (they then belong to
    /// the nearest returned ancestor), else that subtree is skipped; children of a
    /// returned DIE are always searched. Skipping costs the same decoding as searching
    /// (every attribute is read to find the next DIE), so searching everywhere is cheap.
    func scan(
        unit: inout Unit, start: UInt64, tags: [UInt64], transparent: (UInt64) -> Bool
    ) throws(DebugInfoError) -> [Entry] {
        var cursor = DWARFCursor(bytes: info, at: Int(clamping: start), end: unit.end, path: path, section: ".debug_info")
        guard start >= UInt64(unit.firstDIE), start < UInt64(unit.end) else { throw cursor.fail("DIE offset outside its unit") }
        let sizes = unit.sizes
        var entries: [Entry] = []
        // One element per open (searched) level inside the root: the recorded entry it belongs to.
        var stack: [Int?] = []
        var skipDepth = 0  // > 0 while skipping a subtree nobody asked for
        var isRoot = true
        while cursor.at < unit.end {
            let dieOffset = UInt64(cursor.at)
            let code = try cursor.uleb()
            if code == 0 {
                if skipDepth > 0 {
                    skipDepth -= 1
                } else {
                    if stack.isEmpty { break }  // padding after the root
                    stack.removeLast()
                    if stack.isEmpty { break }  // the root's children are done
                }
                continue
            }
            guard let slot = unit.abbreviations.slot(of: code) else {
                throw cursor.fail("unknown abbreviation code \(code) at DIE 0x\(String(dieOffset, radix: 16))")
            }
            let abbreviation = unit.abbreviations.entries[slot]
            let searching = skipDepth == 0
            let wanted = searching && !isRoot && tags.contains(abbreviation.tag)
            if !wanted, !isRoot {
                if abbreviation.fixedSize >= 0 {
                    try cursor.skip(UInt64(abbreviation.fixedSize))
                } else {
                    for index in abbreviation.firstAttribute..<abbreviation.endAttribute {
                        let spec = unit.abbreviations.attributes[index]
                        _ = try value(spec.form, spec.constant, &cursor, sizes)
                    }
                }
                if skipDepth > 0 {
                    if abbreviation.hasChildren { skipDepth += 1 }
                } else if abbreviation.hasChildren {
                    if transparent(abbreviation.tag) {
                        stack.append(stack.last ?? nil)
                    } else {
                        skipDepth = 1
                    }
                }
                continue
            }
            var entry = Entry(offset: dieOffset, tag: abbreviation.tag, depth: stack.count, parent: stack.last ?? nil)
            var lowIndex: UInt64?
            var highIndex: UInt64?
            for index in abbreviation.firstAttribute..<abbreviation.endAttribute {
                let (attribute, form, constant) = unit.abbreviations.attributes[index]
                let decoded = try value(form, constant, &cursor, sizes)
                guard let decoded else { continue }
                switch attribute {
                case 0x11:  // low_pc
                    if Self.isAddressIndex(form) { lowIndex = decoded } else { entry.lowPC = decoded }
                case 0x12:  // high_pc
                    if Self.isAddressIndex(form) {
                        highIndex = decoded
                    } else {
                        entry.highPC = decoded
                        entry.highIsOffset = form != 0x01
                    }
                case 0x55:
                    entry.hasRanges = true
                    entry.rangesValue = decoded
                    entry.rangesForm = form
                // A call site in a signed form has no unsigned value for LLVM, which reads it as 0.
                case 0x58: entry.callFile = form == 0x0D ? 0 : decoded
                case 0x59: entry.callLine = form == 0x0D ? 0 : decoded
                case 0x57: entry.callColumn = form == 0x0D ? 0 : decoded
                case 0x73 where isRoot && (abbreviation.tag == 0x11 || abbreviation.tag == 0x41):
                    unit.addrBase = decoded  // DW_AT_addr_base
                case 0x74 where isRoot: unit.rnglistsBase = decoded  // DW_AT_rnglists_base
                default: break
                }
            }
            if let lowIndex { entry.lowPC = try resolveAddress(index: lowIndex, unit, cursor) }
            if let highIndex { entry.highPC = try resolveAddress(index: highIndex, unit, cursor) }
            if isRoot {
                isRoot = false
                if abbreviation.tag == 0x11 || abbreviation.tag == 0x41 { unit.baseAddress = entry.lowPC }
                unit.root = entry
                guard abbreviation.hasChildren, !tags.isEmpty else { break }  // no tags: the root's attributes only
                stack.append(nil)
                continue
            }
            entries.append(entry)
            if abbreviation.hasChildren { stack.append(entries.count - 1) }
        }
        return entries
    }
}
