import Testing

@testable import SymbolicateDWARF

/// DW_AT_ranges decoding on hand-written `.debug_ranges` / `.debug_rnglists` bytes.
@Suite struct RangeListTests {
    static func le(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) } }
    static var empty: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    static func unit(version: UInt64, base: UInt64?, addrBase: UInt64? = nil, rnglistsBase: UInt64? = nil) -> UnitScanner.Unit {
        var unit = UnitScanner.Unit(version: version, addressSize: 8, offsetSize: 4, firstDIE: 0, end: 0, abbreviations: .init())
        unit.baseAddress = base
        unit.addrBase = addrBase
        unit.rnglistsBase = rnglistsBase
        return unit
    }

    @Test func dwarf4PairsWithBaseSelection() throws {
        // At offset 8: (0x10,0x20) from the unit base, base selection to 0x5000, (0x4,0x8), end.
        let bytes: [UInt8] =
            Array(repeating: 0, count: 8)
            + Self.le(0x10, 8) + Self.le(0x20, 8)
            + Self.le(.max, 8) + Self.le(0x5000, 8)
            + Self.le(0x4, 8) + Self.le(0x8, 8)
            + Self.le(0, 8) + Self.le(0, 8)
        let ranges = try bytes.withUnsafeBytes { section in
            try RangeListDecoder(ranges: section, rnglists: Self.empty, addr: Self.empty, path: "t")
                .decode(value: 8, form: 0x17, unit: Self.unit(version: 4, base: 0x1000))
        }
        #expect(ranges == [AddressRange(low: 0x1010, high: 0x1020), AddressRange(low: 0x5004, high: 0x5008)])
    }

    @Test func dwarf5EntriesThroughTheOffsetTable() throws {
        // .debug_addr: header (8 bytes) then two addresses; addr_base = 8.
        let addr: [UInt8] = Array(repeating: 0, count: 8) + Self.le(0x2000, 8) + Self.le(0x3000, 8)
        // .debug_rnglists: 12-byte header, offset table (1 entry) at 12, list at 16.
        var lists: [UInt8] = Array(repeating: 0, count: 12) + Self.le(4, 4)
        lists += [0x03, 0, 0x10]  // startx_length: addr[0] = 0x2000, length 0x10
        lists += [0x01, 1]  // base_addressx: addr[1] = 0x3000
        lists += [0x04, 0x04, 0x08]  // offset_pair 0x3004..0x3008
        lists += [0x06] + Self.le(0x9000, 8) + Self.le(0x9100, 8)  // start_end
        lists += [0x07] + Self.le(0xA000, 8) + [0x20]  // start_length
        lists += [0x00]
        let unit = Self.unit(version: 5, base: 0x1000, addrBase: 8, rnglistsBase: 12)
        let ranges = try addr.withUnsafeBytes { addrBytes in
            try lists.withUnsafeBytes { listBytes in
                try RangeListDecoder(ranges: Self.empty, rnglists: listBytes, addr: addrBytes, path: "t")
                    .decode(value: 0, form: 0x23, unit: unit)
            }
        }
        #expect(
            ranges == [
                AddressRange(low: 0x2000, high: 0x2010), AddressRange(low: 0x3004, high: 0x3008),
                AddressRange(low: 0x9000, high: 0x9100), AddressRange(low: 0xA000, high: 0xA020),
            ])
    }

    @Test func damagedListsAreErrors() {
        let truncated: [UInt8] = Self.le(0x10, 8) + Self.le(0x20, 4)
        #expect(throws: DebugInfoError.self) {
            try truncated.withUnsafeBytes { section in
                try RangeListDecoder(ranges: section, rnglists: Self.empty, addr: Self.empty, path: "t")
                    .decode(value: 0, form: 0x17, unit: Self.unit(version: 4, base: 0))
            }
        }
        let unknownKind: [UInt8] = [0x09, 0x00]
        #expect(throws: DebugInfoError.self) {
            try unknownKind.withUnsafeBytes { section in
                try RangeListDecoder(ranges: Self.empty, rnglists: section, addr: Self.empty, path: "t")
                    .decode(value: 0, form: 0x17, unit: Self.unit(version: 5, base: 0))
            }
        }
    }
}
