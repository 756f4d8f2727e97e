import Foundation
import SymbolicateELF
import SymbolicateMachO

/// Whether a debug file's DWARF is really there: every DWARF section the headers declare lies
/// inside the file and can be read, and the `.debug_info` unit headers follow each other to
/// the section's end. A file cut short (an interrupted copy or upload) keeps its headers, so
/// the section table alone says DWARF is there when it is not.
package enum DWARFCompleteness {
    /// What the file holds: DWARF that reads whole, none at all, or DWARF it cannot read (why).
    package enum Verdict: Equatable {
        case complete
        case none
        case damaged(String)
    }

    static func of(_ slice: MachOSlice) -> Verdict {
        guard let segment = slice.segment(named: "__DWARF"), segment.sections.contains(where: { $0.name == "__debug_info" }) else {
            return .none
        }
        var info = UnsafeRawBufferPointer(start: nil, count: 0)
        for section in segment.sections {
            do throws(MachOError) {
                let bytes = try slice.contents(of: section)
                if section.name == "__debug_info" { info = bytes }
            } catch {
                return .damaged(error.message)
            }
        }
        // Apple's platforms are all little-endian; a big-endian (PowerPC) slice says so in its header.
        let bigEndian = slice.architecture.name.hasPrefix("ppc")
        if let problem = unitHeadersProblem(info, bigEndian: bigEndian) { return .damaged("__DWARF,__debug_info: \(problem)") }
        return .complete
    }

    static func of(_ elf: ELFFile, fileSize: UInt64) -> Verdict {
        let dwarf = elf.sections.filter { $0.name.hasPrefix(".debug_") || $0.name.hasPrefix(".zdebug_") }
        guard let infoSection = dwarf.first(where: { $0.name == ".debug_info" || $0.name == ".zdebug_info" }) else { return .none }
        for section in dwarf where section.type != 8 {  // SHT_NOBITS has no bytes in the file
            guard section.fileOffset <= fileSize, section.size <= fileSize - section.fileOffset else {
                return .damaged(
                    "section \(section.name) (0x\(String(section.size, radix: 16)) bytes at 0x\(String(section.fileOffset, radix: 16))) extends past the end of the file (0x\(String(fileSize, radix: 16)) bytes)"
                )
            }
        }
        let info: UnsafeRawBufferPointer
        do throws(ELFError) { info = try elf.contents(of: infoSection) } catch { return .damaged(error.message) }
        if let problem = unitHeadersProblem(info, bigEndian: !elf.isLittleEndian) { return .damaged("\(infoSection.name): \(problem)") }
        return .complete
    }

    /// Whether an ELF file's section header table lies inside it (a file cut short loses it
    /// first: it is at the end), from the ELF header alone. nil when it does.
    static func elfSectionTableProblem(_ file: UnsafeRawBufferPointer) -> String? {
        guard file.count >= 0x34, file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46 else { return nil }
        let is64 = file[4] == 2
        let bigEndian = file[5] == 2
        func read(_ offset: Int, _ count: Int) -> UInt64 {
            guard offset + count <= file.count else { return 0 }
            var value: UInt64 = 0
            for i in 0..<count { value = value << 8 | UInt64(file[offset + (bigEndian ? i : count - 1 - i)]) }
            return value
        }
        guard !is64 || file.count >= 0x40 else { return "the ELF header is cut short" }
        let offset = is64 ? read(0x28, 8) : read(0x20, 4)
        let entrySize = is64 ? read(0x3A, 2) : read(0x2E, 2)
        let count = is64 ? read(0x3C, 2) : read(0x30, 2)
        guard offset != 0, count != 0 else { return nil }
        let (size, overflow) = entrySize.multipliedReportingOverflow(by: count)
        guard !overflow, offset <= UInt64(file.count), size <= UInt64(file.count) - offset else {
            return
                "the section header table (\(count) entries at 0x\(String(offset, radix: 16))) extends past the end of the file (0x\(String(file.count, radix: 16)) bytes)"
        }
        return nil
    }

    /// Walks the unit headers of a `.debug_info` section (DWARF 2 to 5, 32- and 64-bit): each
    /// unit's length must leave room for its version and end inside the section, and the last
    /// one must end where the section does. nil when they do.
    package static func unitHeadersProblem(_ info: UnsafeRawBufferPointer, bigEndian: Bool) -> String? {
        func read(_ offset: Int, _ count: Int) -> UInt64? {
            guard offset >= 0, count <= info.count, offset <= info.count - count else { return nil }
            var value: UInt64 = 0
            for i in 0..<count {
                let byte = UInt64(info[offset + (bigEndian ? i : count - 1 - i)])
                value = value << 8 | byte
            }
            return value
        }
        guard !info.isEmpty else { return "the section is empty" }
        var offset = 0
        var units = 0
        while offset < info.count {
            let at = "unit at 0x\(String(offset, radix: 16))"
            guard let short = read(offset, 4) else { return "\(at): the section ends inside the unit's length" }
            var length = short
            var header = 4
            if short == 0xFFFF_FFFF {
                guard let long = read(offset + 4, 8) else { return "\(at): the section ends inside the unit's length" }
                length = long
                header = 12
            } else if short >= 0xFFFF_FFF0 {
                return "\(at): reserved length 0x\(String(short, radix: 16))"
            }
            let room = UInt64(info.count - offset - header)
            guard length <= room else {
                return "\(at) claims 0x\(String(length, radix: 16)) bytes; the section has 0x\(String(room, radix: 16)) left"
            }
            guard length >= 2, let version = read(offset + header, 2), (2...5).contains(version) else {
                return "\(at): no DWARF version 2 to 5 (a unit of 0x\(String(length, radix: 16)) bytes)"
            }
            offset += header + Int(length)
            units += 1
        }
        return units == 0 ? "no unit" : nil
    }
}
