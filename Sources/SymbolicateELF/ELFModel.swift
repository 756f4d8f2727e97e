import SymbolicateCore

/// An ELF file could not be read: which file, where (the byte offset of the header or
/// section, when known), and what was wrong. Carried into `DebugInfoError` by the DWARF side.
package struct ELFError: Error, Equatable, Sendable, CustomStringConvertible {
    package var path: String
    package var offset: UInt64? = nil
    package var message: String

    package var description: String {
        "\(path): " + (offset.map { "at offset 0x\(String($0, radix: 16)): " } ?? "") + message
    }
}

/// A section header.
package struct ELFSection: Sendable, Equatable {
    /// Index in the section header table (what symbols' `st_shndx` refer to).
    package var index: Int
    package var name: String
    package var type: UInt32
    package var flags: UInt64
    package var address: UInt64
    package var size: UInt64
    package var fileOffset: UInt64
    package var link: UInt32
    /// `sh_name`: where the name starts in the section-name string table.
    package var nameOffset: UInt32 = 0
    /// `sh_info`.
    package var info: UInt32 = 0
    /// `sh_addralign` (a note section aligned to 8 pads its notes to 8).
    package var alignment: UInt64 = 0

    /// `SHF_COMPRESSED`: the bytes start with a compression header.
    package var isCompressed: Bool { flags & 0x800 != 0 }
    /// `SHF_EXECINSTR`.
    package var isExecutable: Bool { flags & 0x4 != 0 }

    /// The address range the section occupies, or nil when it has none (or would pass 2^64).
    package var addressRange: Range<UInt64>? {
        let (end, overflow) = address.addingReportingOverflow(size)
        return overflow || size == 0 ? nil : address..<end
    }
}

/// A program header (segment).
package struct ELFProgramHeader: Sendable, Equatable {
    package static let load: UInt32 = 1
    package var type: UInt32
    package var flags: UInt32
    package var virtualAddress: UInt64
    package var memorySize: UInt64
    package var fileOffset: UInt64
    package var fileSize: UInt64
    /// `p_align` (a `PT_NOTE` segment aligned to 8 pads its notes to 8).
    package var alignment: UInt64 = 0
}

/// A defined function symbol.
package struct ELFSymbol: Sendable, Equatable {
    package var name: String
    package var address: UInt64
    /// `st_size`; 0 when the producer did not say (then it reaches the next symbol).
    package var size: UInt64
    /// Section index (`st_shndx`).
    package var section: Int
    package var isGlobal: Bool
}

/// What both ELF readers give: libelf's (`LibElfFile`, the default on Linux) and the pure-Swift
/// one (`SwiftELFFile`, what macOS builds and any build with `SYMBOLICATE_ELF_READER=swift`).
/// The rest of the package names `ELFFile`, which is one of the two (ELFFile.swift).
package protocol ELFReading: AnyObject {
    var path: String { get }
    var is64Bit: Bool { get }
    var isLittleEndian: Bool { get }
    /// `e_machine` (EM_X86_64 = 62, EM_AARCH64 = 183 …).
    var machine: UInt16 { get }
    /// `e_type` (ET_EXEC = 2, ET_DYN = 3 …).
    var fileType: UInt16 { get }
    /// Every section but the null section 0, in table order.
    var sections: [ELFSection] { get }
    var programHeaders: [ELFProgramHeader] { get }
    /// The `NT_GNU_BUILD_ID` note's bytes, when the file has one.
    var buildID: DebugID? { get }
    /// The bytes of a section, decompressed when it is `SHF_COMPRESSED` (zlib) or a GNU
    /// `.zdebug_*` section; empty for `SHT_NOBITS`. Valid while the reader lives.
    func contents(of section: ELFSection) throws(ELFError) -> UnsafeRawBufferPointer
    /// The symbols llvm-symbolizer names code with, one per address, sorted by address.
    func functionSymbols() throws(ELFError) -> [ELFSymbol]
}

extension ELFSymbol {
    /// Which symbol-table entries name code for llvm-symbolizer (LLVM's
    /// `SymbolizableObjectFile`): of type `STT_FUNC`, `STT_GNU_IFUNC`, `STT_OBJECT` or
    /// `STT_NOTYPE` (not `$x`/`$d`-style mapping symbols), in a section of this file (not
    /// undefined, absolute, common or extended) that is loaded (`SHF_ALLOC`).
    package static func namesCode(info: UInt8, sectionIndex: UInt16, name: () -> String, loaded: Set<Int>) -> String? {
        let type = info & 0xF
        // STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2, STT_GNU_IFUNC 10.
        guard type == 0 || type == 1 || type == 2 || type == 10 else { return nil }
        // SHN_UNDEF 0; SHN_LORESERVE 0xff00 and above are special indexes.
        guard sectionIndex != 0, sectionIndex < 0xFF00, loaded.contains(Int(sectionIndex)) else { return nil }
        let text = name()
        if type == 0, text.hasPrefix("$") { return nil }
        return text
    }

    /// One symbol per address, sorted by address: where several share an address the largest
    /// size wins, and among equal sizes the last in table order (with GCC's folded and
    /// LTO-renamed locals, `f.lto_priv.0` beside `g` at one address, that is the name
    /// llvm-symbolizer prints).
    package static func onePerAddress(_ all: [ELFSymbol]) -> [ELFSymbol] {
        // Stable by (address, size): the last of each address is the one kept.
        let order = all.indices.sorted { a, b in
            if all[a].address != all[b].address { return all[a].address < all[b].address }
            if all[a].size != all[b].size { return all[a].size < all[b].size }
            return a < b
        }
        var kept: [ELFSymbol] = []
        kept.reserveCapacity(order.count)
        for position in order {
            if let last = kept.last, last.address == all[position].address {
                kept[kept.count - 1] = all[position]
            } else {
                kept.append(all[position])
            }
        }
        return kept
    }
}

extension ELFReading {
    package var architecture: Architecture {
        Architecture(elfMachine: machine) ?? Architecture("elf-machine-\(machine)")
    }

    /// The first section with this name.
    package func section(named name: String) -> ELFSection? {
        sections.first { $0.name == name }
    }

    /// Where the image's addresses start: the lowest `PT_LOAD` virtual address. The Swift
    /// runtime's backtracer prints each image's load range from its lowest mapping, so
    /// `slide = report base − loadBase` (0 for a position-independent executable or a shared
    /// object, 0x400000 or so for a fixed-address executable). A separate debug file keeps
    /// its binary's program headers, so both give the same base. Files without `PT_LOAD`
    /// (relocatable objects) use 0.
    package var loadBase: UInt64 {
        programHeaders.filter { $0.type == ELFProgramHeader.load }.map(\.virtualAddress).min() ?? 0
    }

    /// The address range of executable sections, lowest start to highest end (nil if none).
    package var codeRange: Range<UInt64>? {
        let ranges = sections.filter(\.isExecutable).compactMap(\.addressRange)
        guard let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max() else { return nil }
        return low..<high
    }

    /// Whether the file carries DWARF (a `.debug_info` with bytes, compressed or not).
    package var hasDWARF: Bool {
        sections.contains { ($0.name == ".debug_info" || $0.name == ".zdebug_info") && $0.size > 0 && $0.type != 8 }
    }

    /// The `.gnu_debuglink` section: the debug file's name and the CRC-32 of its contents.
    package func debugLink() throws(ELFError) -> (name: String, crc: UInt32)? {
        guard let section = section(named: ".gnu_debuglink") else { return nil }
        let bytes = try contents(of: section)
        guard let end = bytes.firstIndex(of: 0), end > 0 else {
            throw ELFError(path: path, offset: section.fileOffset, message: ".gnu_debuglink: no NUL-terminated file name")
        }
        let name = String(decoding: bytes[0..<end], as: UTF8.self)
        let crcAt = (end + 4) & ~3
        guard crcAt <= bytes.count - 4 else {
            throw ELFError(path: path, offset: section.fileOffset, message: ".gnu_debuglink: no CRC after the file name")
        }
        var crc: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[crcAt + index])
            crc |= isLittleEndian ? byte << (8 * UInt32(index)) : byte << (8 * UInt32(3 - index))
        }
        return (name, crc)
    }

    /// Quick check without opening: does the file start with the ELF magic?
    package static func hasELFMagic(_ header: [UInt8]) -> Bool {
        header.count >= 4 && header[0] == 0x7F && header[1] == 0x45 && header[2] == 0x4C && header[3] == 0x46
    }
}
