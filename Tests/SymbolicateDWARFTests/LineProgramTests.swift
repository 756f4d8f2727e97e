import Testing

@testable import SymbolicateDWARF

/// The line-program decoder on a hand-assembled DWARF 4 table, so every expected row is
/// derived from the opcodes written here.
@Suite struct LineProgramTests {
    static func le(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) } }

    static func table() -> [UInt8] {
        var header: [UInt8] = [1, 1, 1, UInt8(bitPattern: -5), 14, 13]  // min_inst, max_ops, is_stmt, line_base, line_range, opcode_base
        header += [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]  // standard_opcode_lengths
        header += Array("inc".utf8) + [0, 0]  // include_directories
        header += Array("a.c".utf8) + [0, 1, 0, 0]  // file 1 in directory 1
        header += Array("/abs/b.h".utf8) + [0, 0, 0, 0]  // file 2, absolute
        header += [0]
        var program: [UInt8] = [0x00, 9, 0x02] + le(0x1000, 8)  // DW_LNE_set_address 0x1000
        program += [0x05, 7]  // set_column 7
        program += [0x03, 9]  // advance_line +9 -> 10
        program += [0x01]  // copy: row 0x1000 line 10
        program += [75]  // special: address +4, line +1 -> row 0x1004 line 11
        program += [0x04, 2]  // set_file 2
        program += [0x02, 8]  // advance_pc 8 -> 0x100c
        program += [0x03, 0x7E]  // advance_line -2 -> 9
        program += [0x01]  // copy: row 0x100c line 9 file 2
        program += [0x02, 4, 0x00, 1, 0x01]  // advance_pc 4, end_sequence at 0x1010
        let afterLength = le(4, 2) + le(UInt64(header.count), 4) + header + program
        return le(UInt64(afterLength.count), 4) + afterLength
    }

    @Test func decodesRowsAndFilePaths() throws {
        let bytes = Self.table()
        let table = try bytes.withUnsafeBytes { line in
            try LineProgramDecoder(
                line: line, lineStrings: UnsafeRawBufferPointer(start: nil, count: 0),
                strings: UnsafeRawBufferPointer(start: nil, count: 0), path: "test"
            )
            .decode(offset: 0, compDir: "/cd")
        }
        #expect(table.files == ["/cd/inc/a.c", "/abs/b.h"])
        #expect(table.fileIndexBase == 1)
        #expect(table.rows.map(\.address) == [0x1000, 0x1004, 0x100C, 0x1010])
        #expect(table.rows.map(\.line) == [10, 11, 9, 9])
        #expect(table.rows.map(\.column) == [7, 7, 7, 7])
        #expect(table.rows.map(\.file) == [0, 0, 1, 1])
        #expect(table.rows.map(\.endSequence) == [false, false, false, true])
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
        let bytes = Self.table()
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            #expect(throws: DebugInfoError.self) {
                try prefix.withUnsafeBytes { line in
                    try LineProgramDecoder(
                        line: line, lineStrings: UnsafeRawBufferPointer(start: nil, count: 0),
                        strings: UnsafeRawBufferPointer(start: nil, count: 0), path: "test"
                    )
                    .decode(offset: 0, compDir: nil)
                }
            }
        }
    }

    /// Two advance_line operands near Int64.max: the line number wraps (and is clamped to a
    /// row's UInt32) instead of trapping on the file's numbers.
    @Test func hugeLineAdvancesDoNotTrap() throws {
        var bytes = Self.table()
        let huge: [UInt8] = [0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F]  // advance_line +(2^62 - 1)
        // Before the final end_sequence (`advance_pc 4, 0x00 1 0x01`): four huge advances and a copy.
        let insertAt = bytes.count - 5
        bytes.insert(contentsOf: huge + huge + huge + huge + [0x01], at: insertAt)
        // The unit length (first 4 bytes) grows by what was inserted.
        let length = UInt64(bytes.count - 4)
        bytes.replaceSubrange(0..<4, with: Self.le(length, 4))
        let table = try bytes.withUnsafeBytes { line in
            try LineProgramDecoder(
                line: line, lineStrings: UnsafeRawBufferPointer(start: nil, count: 0),
                strings: UnsafeRawBufferPointer(start: nil, count: 0), path: "test"
            )
            .decode(offset: 0, compDir: "/cd")
        }
        #expect(table.rows.count == 5)
    }

    /// Two sequences written out of address order, a sequence ending where the next one
    /// starts, and two rows at one address: the program written here, header as in `table()`.
    static func twoSequences() -> [UInt8] {
        var header: [UInt8] = [1, 1, 1, UInt8(bitPattern: -5), 14, 13]
        header += [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]
        header += [0]  // no include directories
        header += Array("a.c".utf8) + [0, 0, 0, 0]
        header += [0]
        var program: [UInt8] = [0x00, 9, 0x02] + le(0x2000, 8)  // sequence 1 at 0x2000
        program += [0x03, 4, 0x01]  // line 5, row 0x2000
        program += [0x02, 8, 0x03, 1, 0x01]  // row 0x2008 line 6
        program += [0x02, 8, 0x00, 1, 0x01]  // end_sequence at 0x2010
        program += [0x00, 9, 0x02] + le(0x1000, 8)  // sequence 2 at 0x1000
        program += [0x01]  // row 0x1000 line 1
        program += [0x02, 4, 0x03, 1, 0x01]  // row 0x1004 line 2
        program += [0x03, 1, 0x01]  // row 0x1004 line 3 (same address, later)
        program += [0x02, 0x80, 0x18, 0x00, 1, 0x01]  // advance 0xC00 -> end_sequence at 0x1C04
        program += [0x00, 9, 0x02] + le(0x1C04, 8)  // sequence 3 starts where 2 ended
        program += [0x03, 9, 0x01]  // row 0x1C04 line 10
        program += [0x02, 0xFC, 0x07, 0x00, 1, 0x01]  // end_sequence at 0x2000, after sequence 1's row there
        let afterLength = le(4, 2) + le(UInt64(header.count), 4) + header + program
        return le(UInt64(afterLength.count), 4) + afterLength
    }

    /// What a lookup finds in the whole table: rows by address, end-of-sequence rows first at
    /// equal addresses, then table order; the last row at or before the address, nothing when
    /// that row ends a sequence.
    static func expectedRow(_ rows: [LineRow], _ address: UInt64) -> LineRow? {
        let sorted = rows.indices.sorted { a, b in
            if rows[a].address != rows[b].address { return rows[a].address < rows[b].address }
            if rows[a].endSequence != rows[b].endSequence { return rows[a].endSequence }
            return a < b
        }
        guard let last = sorted.last(where: { rows[$0].address <= address }), !rows[last].endSequence else { return nil }
        return rows[last]
    }

    /// One address answered without keeping the table gives the row the whole table gives.
    @Test func answeringOneAddressMatchesTheWholeTable() throws {
        let bytes = Self.twoSequences()
        try bytes.withUnsafeBytes { line in
            let decoder = LineProgramDecoder(
                line: line, lineStrings: UnsafeRawBufferPointer(start: nil, count: 0),
                strings: UnsafeRawBufferPointer(start: nil, count: 0), path: "test")
            let whole = try decoder.decode(offset: 0, compDir: "/cd")
            #expect(whole.rows.count == 9)
            #expect(Self.expectedRow(whole.rows, 0x2004)?.line == 5)  // the end row at 0x2000 does not hide line 5
            for address in stride(from: UInt64(0xFF0), through: 0x2018, by: 2) {
                let single = try decoder.decode(offset: 0, compDir: "/cd", onlyFor: address)
                let expected = Self.expectedRow(whole.rows, address)
                let found = single.rows.last.flatMap { $0.endSequence ? nil : $0 }
                #expect(found?.address == expected?.address && found?.line == expected?.line, "0x\(String(address, radix: 16))")
                #expect(single.files == whole.files)
            }
        }
    }
}
