/// A DWARF 2–5 line-number program decoder over the raw `.debug_line` bytes.
///
/// libdwarf's `dwarf_srclines_b` allocates one object per row and needs six calls per row
/// to read it back; on a 54 MB dSYM that was most of the lookup time (measured in
/// Benchmarks/README.md). Decoding the program here into a flat array is many times faster.
/// It also sidesteps libdwarf 20210528 reporting `epilogue_begin` rows as `end_sequence`.
/// Every read is bounds-checked; damage yields a `DebugInfoError` with the offset.
struct LineProgramDecoder {
    let line: UnsafeRawBufferPointer
    let lineStrings: UnsafeRawBufferPointer
    let strings: UnsafeRawBufferPointer
    let path: String

    private func string(in section: UnsafeRawBufferPointer, at offset: UInt64, _ cursor: DWARFCursor) throws(DebugInfoError) -> String {
        guard offset < UInt64(section.count) else { throw cursor.fail("string offset 0x\(String(offset, radix: 16)) outside its section") }
        let start = Int(offset)
        var end = start
        while end < section.count, section[end] != 0 { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: section[start..<end]), as: UTF8.self)
    }

    /// Reads one attribute value of a DWARF 5 directory/file entry. Returns a string for
    /// string forms, a number for constant forms, nil for what is skipped (MD5, blocks).
    private func formValue(_ form: UInt64, _ cursor: inout DWARFCursor, offsetSize: Int) throws(DebugInfoError) -> (String?, UInt64?) {
        switch form {
        case 0x08: return (try cursor.cString(), nil)  // DW_FORM_string
        case 0x1F: return (try string(in: lineStrings, at: try cursor.fixed(offsetSize), cursor), nil)  // line_strp
        case 0x0E: return (try string(in: strings, at: try cursor.fixed(offsetSize), cursor), nil)  // strp
        case 0x0B: return (nil, try cursor.fixed(1))  // data1
        case 0x05: return (nil, try cursor.fixed(2))  // data2
        case 0x06: return (nil, try cursor.fixed(4))  // data4
        case 0x07: return (nil, try cursor.fixed(8))  // data8
        case 0x0F: return (nil, try cursor.uleb())  // udata
        case 0x1E:
            try cursor.skip(16)
            return (nil, nil)  // data16 (MD5)
        case 0x09:
            try cursor.skip(try cursor.uleb())
            return (nil, nil)  // block
        default: throw cursor.fail("unsupported form 0x\(String(form, radix: 16)) in a line table header")
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("/") || directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Decodes the line table at `offset` for a unit with `compDir`. With `onlyFor`, the
    /// table holds just the row that a lookup of that address in the whole (sorted) table
    /// would find — the last row at or before it, a row ending a sequence losing a tie — and
    /// nothing is stored for the others.
    func decode(offset: UInt64, compDir: String?, onlyFor target: UInt64? = nil) throws(DebugInfoError) -> LineTable {
        guard offset < UInt64(line.count) else {
            throw DebugInfoError(
                path: path, offset: offset, message: ".debug_line: offset 0x\(String(offset, radix: 16)) outside the section")
        }
        var section = DWARFCursor(bytes: line, at: Int(offset), end: line.count, path: path, section: ".debug_line")
        let prefixed = try section.lengthPrefixed("unit")
        var cursor = prefixed.body
        let offsetSize = prefixed.offsetSize
        let unitEnd = cursor.end
        let version = try cursor.fixed(2)
        guard (2...5).contains(version) else { throw cursor.fail("unsupported line table version \(version)") }
        var addressSize = 8
        if version >= 5 {
            addressSize = Int(try cursor.u8())
            _ = try cursor.u8()  // segment selector size
        }
        let headerLength = try cursor.fixed(offsetSize)
        guard headerLength <= UInt64(unitEnd - cursor.at) else { throw cursor.fail("header length past the end of the unit") }
        let programStart = cursor.at + Int(headerLength)
        let minimumInstructionLength = UInt64(try cursor.u8())
        if version >= 4 { _ = try cursor.u8() }  // maximum_operations_per_instruction
        let defaultIsStmt = try cursor.u8() != 0
        _ = defaultIsStmt
        let lineBase = Int64(Int8(bitPattern: try cursor.u8()))
        let lineRange = UInt64(try cursor.u8())
        let opcodeBase = try cursor.u8()
        guard lineRange != 0 else { throw cursor.fail("line_range is 0") }
        var standardLengths: [UInt8] = []
        if opcodeBase > 1 {
            for _ in 1..<opcodeBase { standardLengths.append(try cursor.u8()) }
        }

        let compDirectory = compDir ?? ""
        var files: [String] = []
        if version >= 5 {
            func entries(_ cursor: inout DWARFCursor) throws(DebugInfoError) -> [(path: String, directory: UInt64)] {
                let formatCount = Int(try cursor.u8())
                var formats: [(UInt64, UInt64)] = []
                for _ in 0..<formatCount { formats.append((try cursor.uleb(), try cursor.uleb())) }
                let count = try cursor.uleb()
                guard count <= UInt64(unitEnd - cursor.at) else { throw cursor.fail("entry count \(count) too large") }
                var out: [(String, UInt64)] = []
                for _ in 0..<count {
                    var name = ""
                    var directory: UInt64 = 0
                    for (contentType, form) in formats {
                        let (text, number) = try formValue(form, &cursor, offsetSize: offsetSize)
                        if contentType == 1, let text { name = text }  // DW_LNCT_path
                        if contentType == 2, let number { directory = number }  // DW_LNCT_directory_index
                    }
                    out.append((name, directory))
                }
                return out
            }
            let directories = try entries(&cursor).map { entry in
                entry.path.hasPrefix("/") ? entry.path : Self.join(compDirectory, entry.path)
            }
            for file in try entries(&cursor) {
                let directory = file.directory < UInt64(directories.count) ? directories[Int(file.directory)] : compDirectory
                files.append(Self.join(directory, file.path))
            }
        } else {
            var directories: [String] = []
            while true {
                let directory = try cursor.cString()
                if directory.isEmpty { break }
                directories.append(directory.hasPrefix("/") ? directory : Self.join(compDirectory, directory))
            }
            while true {
                let name = try cursor.cString()
                if name.isEmpty { break }
                let index = try cursor.uleb()
                _ = try cursor.uleb()
                _ = try cursor.uleb()
                let directory =
                    index == 0 ? compDirectory : (index - 1 < UInt64(directories.count) ? directories[Int(index - 1)] : compDirectory)
                files.append(Self.join(directory, name))
            }
        }
        let fileBase: UInt64 = version >= 5 ? 0 : 1

        // Each special opcode's address and line advance, computed once: the division per
        // row was the decoder's single largest cost.
        var specialAddress = [UInt64](repeating: 0, count: 256)
        var specialLine = [Int64](repeating: 0, count: 256)
        for opcode in Int(opcodeBase)..<256 {
            let adjusted = UInt64(opcode - Int(opcodeBase))
            specialAddress[opcode] = (adjusted / lineRange) &* minimumInstructionLength
            specialLine[opcode] = lineBase + Int64(adjusted % lineRange)
        }

        // The program.
        cursor.at = programStart
        var rows: [LineRow] = []
        if target == nil { rows.reserveCapacity((unitEnd - programStart) / 3) }
        var best: LineRow?
        var address: UInt64 = 0
        var file: UInt64 = 1
        var lineNumber: Int64 = 1
        var column: UInt64 = 0
        func emit(end: Bool) {
            let row = LineRow(
                address: address, line: UInt32(truncatingIfNeeded: max(lineNumber, 0)),
                column: UInt32(truncatingIfNeeded: column),
                file: UInt32(truncatingIfNeeded: file &- fileBase), endSequence: end
            )
            guard let target else {
                rows.append(row)
                return
            }
            // In table order: a later row at the highest address wins, except that a row ending
            // a sequence never replaces one that does not (the sorted table puts those first).
            guard row.address <= target else { return }
            if let current = best,
                row.address < current.address || (row.address == current.address && row.endSequence && !current.endSequence)
            {
                return
            }
            best = row
        }
        func reset() {
            address = 0
            file = 1
            lineNumber = 1
            column = 0
        }
        while cursor.at < unitEnd {
            let opcode = try cursor.u8()
            if opcode >= opcodeBase {
                address &+= specialAddress[Int(opcode)]
                lineNumber &+= specialLine[Int(opcode)]
                emit(end: false)
                continue
            }
            switch opcode {
            case 0:  // extended
                let length = try cursor.uleb()
                guard length > 0, length <= UInt64(unitEnd - cursor.at) else { throw cursor.fail("bad extended opcode length \(length)") }
                let next = cursor.at + Int(length)
                let sub = try cursor.u8()
                switch sub {
                case 1:  // DW_LNE_end_sequence
                    emit(end: true)
                    reset()
                case 2:  // DW_LNE_set_address
                    let size = Int(length) - 1
                    guard size == addressSize || size == 4 || size == 8 else { throw cursor.fail("bad address size \(size)") }
                    address = try cursor.fixed(size)
                case 3 where version < 5:  // DW_LNE_define_file
                    let name = try cursor.cString()
                    let index = try cursor.uleb()
                    _ = index
                    files.append(Self.join(compDirectory, name))
                default:
                    break
                }
                cursor.at = next
            case 1: emit(end: false)  // copy
            case 2: address &+= try cursor.uleb() &* minimumInstructionLength  // advance_pc
            case 3: lineNumber &+= try cursor.sleb()  // advance_line (wrapping: the value comes from the file)
            case 4: file = try cursor.uleb()  // set_file
            case 5: column = try cursor.uleb()  // set_column
            case 6, 7, 10, 11: break  // negate_stmt, basic_block, prologue_end, epilogue_begin
            case 8: address &+= ((255 - UInt64(opcodeBase)) / lineRange) &* minimumInstructionLength  // const_add_pc
            case 9: address &+= try cursor.fixed(2)  // fixed_advance_pc
            default:
                // set_isa and opcodes this decoder does not know: skip their ULEB operands.
                let operands = Int(opcode) - 1 < standardLengths.count ? standardLengths[Int(opcode) - 1] : 0
                for _ in 0..<operands { _ = try cursor.uleb() }
            }
        }
        if target != nil { rows = best.map { [$0] } ?? [] }
        return LineTable(rows: rows, files: files, fileIndexBase: fileBase)
    }
}
