import SymbolicateCore
import SymbolicateMachO

// The ELF reader in pure Swift: what macOS builds (no elfutils there) and what any build uses
// with SYMBOLICATE_ELF_READER=swift. It reads the same mapped file through the same
// bounds-checked cursor as the Mach-O reader, in the file's byte order, 32- or 64-bit.
// `ELFReaderAgreementTests` holds it to libelf's answers on every ELF fixture, damaged
// copies of them, and 32-bit, big-endian and aarch64 libraries.

/// One open ELF file, read without libelf.
///
/// Section bytes handed out by `contents(of:)` stay valid while this object lives: they are
/// the mapping's own bytes, or decompressed copies it owns. One thread at a time, like
/// `LibElfFile` (`DebugSession` serialises with its lock).
package final class SwiftELFFile: ELFReading, @unchecked Sendable {
    package let path: String
    package let is64Bit: Bool
    package let isLittleEndian: Bool
    package let machine: UInt16
    package let fileType: UInt16
    package let sections: [ELFSection]
    package let programHeaders: [ELFProgramHeader]
    package let buildID: DebugID?

    private let file: MappedFile
    private let reader: ELFByteReader
    /// Section bytes already handed out, by section index (decompressed ones are in `owned`).
    private var loaded: [Int: UnsafeRawBufferPointer] = [:]
    private var owned: [UnsafeMutableRawBufferPointer] = []
    /// Where inflated sections are counted; `inflated` is this file's share, given back on close.
    private let budget: InflationBudget
    private var inflated: UInt64 = 0

    private static let compressedFlag: UInt64 = 0x800
    private static let noBits: UInt32 = 8
    private static let stringTable: UInt32 = 3
    private static let note: UInt32 = 7
    private static let symbolTable: UInt32 = 2
    private static let dynamicSymbols: UInt32 = 11
    private static let noteSegment: UInt32 = 4
    private static let extendedIndex = 0xFFFF

    /// Opens `path` and reads its headers. Throws for anything that is not a readable ELF file.
    package init(path: String, budget: InflationBudget = .process) throws(ELFError) {
        self.path = path
        self.budget = budget
        // Opening a FIFO would wait for a writer: special files are refused unopened.
        if let kind = RegularFile.specialKind(path: path) {
            throw ELFError(path: path, message: "is \(kind), not an ELF file")
        }
        let mapped: MappedFile
        do { mapped = try MappedFile(path: path) } catch { throw ELFError(path: path, message: error.message) }
        file = mapped
        let whole = ByteReader(file: mapped)
        guard mapped.count >= 16, let magic = mapped.bytes(at: 0, count: 4), Self.hasELFMagic(Array(magic)) else {
            throw ELFError(path: path, message: "not an ELF file")
        }
        let elfClass = (try? whole.u8(4, "EI_CLASS")) ?? 0
        let encoding = (try? whole.u8(5, "EI_DATA")) ?? 0
        let version = (try? whole.u8(6, "EI_VERSION")) ?? 0
        // ELFCLASS32 1, ELFCLASS64 2; ELFDATA2LSB 1, ELFDATA2MSB 2; EV_CURRENT 1.
        guard elfClass == 1 || elfClass == 2 else {
            throw ELFError(path: path, offset: 4, message: "not an ELF file: unknown ELF class \(elfClass)")
        }
        guard encoding == 1 || encoding == 2 else {
            throw ELFError(path: path, offset: 5, message: "not an ELF file: unknown byte order \(encoding)")
        }
        guard version == 1 else { throw ELFError(path: path, offset: 6, message: "not an ELF file: unknown ELF version \(version)") }
        is64Bit = elfClass == 2
        isLittleEndian = encoding == 1
        let reader = ELFByteReader(cursor: whole, bigEndian: encoding == 2, path: path)
        self.reader = reader
        let headerSize = is64Bit ? 64 : 52
        guard mapped.count >= headerSize else {
            throw ELFError(
                path: path, offset: 0,
                message: "unreadable ELF header: the file ends at \(mapped.count) bytes, the header needs \(headerSize)")
        }
        var readError: ELFError?
        var header = ELFHeader()
        do {
            header = try reader.header(is64Bit: is64Bit)
        } catch {
            readError = error
        }
        machine = header.machine
        fileType = header.type
        var sectionList: [ELFSection] = []
        var programList: [ELFProgramHeader] = []
        if readError == nil {
            do {
                let table = try Self.sectionHeaders(reader, header: header, is64Bit: is64Bit, fileSize: mapped.count)
                sectionList = table.sections
                programList = try Self.programHeaders(
                    reader, header: header, is64Bit: is64Bit, fileSize: mapped.count, sectionZero: table.zero)
            } catch {
                readError = error
            }
        }
        sections = sectionList
        programHeaders = programList
        buildID = Self.readBuildID(reader, sections: sectionList, segments: programList)
        if let readError { throw readError }
    }

    deinit {
        for buffer in owned { buffer.deallocate() }
        budget.release(inflated)
    }

    /// Section headers 1… (section 0 is the null section, whose fields extend the header's
    /// counts), named from the section-name string table.
    private static func sectionHeaders(_ reader: ELFByteReader, header: ELFHeader, is64Bit: Bool, fileSize: Int) throws(ELFError) -> (
        sections: [ELFSection], zero: ELFSection?
    ) {
        let entrySize = is64Bit ? 64 : 40
        guard header.sectionHeaderOffset != 0 else { return ([], nil) }
        // Section 0 holds the real count when e_shnum is 0, and the real name-table index
        // when e_shstrndx is SHN_XINDEX.
        let zero =
            header.sectionHeaderOffset < UInt64(fileSize)
            ? try? reader.sectionHeader(at: Int(header.sectionHeaderOffset), index: 0, is64Bit: is64Bit) : nil
        var count = Int(header.sectionCount)
        if count == 0 {
            // No section 0 to read: no sections (as libelf takes it).
            guard let zero else { return ([], nil) }
            guard zero.size <= UInt64(UInt32.max) else {
                throw ELFError(path: reader.path, offset: header.sectionHeaderOffset, message: "section 0 claims \(zero.size) sections")
            }
            count = Int(zero.size)
        }
        // A table that does not fit in the file counts as no table, as libelf reads it (the
        // program headers may still be there, and the build ID in their notes).
        guard count > 0, header.sectionHeaderOffset < UInt64(fileSize),
            count <= (fileSize - Int(header.sectionHeaderOffset)) / entrySize
        else { return ([], zero) }
        let tableStart = Int(header.sectionHeaderOffset)
        var nameIndex = Int(header.sectionNameIndex)
        if nameIndex == extendedIndex {
            guard let zero else {
                throw ELFError(path: reader.path, offset: header.sectionHeaderOffset, message: "unreadable section header 0")
            }
            nameIndex = Int(zero.link)
        }
        var list: [ELFSection] = []
        list.reserveCapacity(max(count - 1, 0))
        for index in 1..<max(count, 1) {
            list.append(try reader.sectionHeader(at: tableStart + index * entrySize, index: index, is64Bit: is64Bit))
        }
        // Names: only from a string table inside the file, each NUL-terminated inside it.
        let names: ELFSection? = nameIndex > 0 && nameIndex < count ? list[nameIndex - 1] : nil
        for position in list.indices {
            list[position].name = names.flatMap { reader.string(in: $0, at: UInt64(list[position].nameOffset)) } ?? ""
        }
        return (list, zero)
    }

    private static func programHeaders(
        _ reader: ELFByteReader, header: ELFHeader, is64Bit: Bool, fileSize: Int, sectionZero: ELFSection?
    ) throws(ELFError) -> [ELFProgramHeader] {
        var count = Int(header.programHeaderCount)
        // PN_XNUM: the real count is section 0's sh_info.
        if count == extendedIndex, let zero = sectionZero { count = Int(zero.info) }
        guard count > 0 else { return [] }
        guard header.programHeaderOffset != 0 else {
            throw ELFError(path: reader.path, offset: 0, message: "unreadable program header 0: e_phnum is \(count) but e_phoff is 0")
        }
        guard header.programHeaderOffset < UInt64(fileSize) else { return [] }
        let entrySize = is64Bit ? 56 : 32
        let start = Int(header.programHeaderOffset)
        // Entries that would pass the end of the file are not there (libelf counts only those
        // that fit).
        count = min(count, (fileSize - start) / entrySize)
        var list: [ELFProgramHeader] = []
        for number in 0..<count {
            list.append(try reader.programHeader(at: start + number * entrySize, is64Bit: is64Bit))
        }
        return list
    }

    package func contents(of section: ELFSection) throws(ELFError) -> UnsafeRawBufferPointer {
        if let cached = loaded[section.index] { return cached }
        guard section.type != Self.noBits else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard section.index > 0, section.index <= sections.count, sections[section.index - 1] == section else {
            throw ELFError(path: path, offset: section.fileOffset, message: "\(section.name): no section \(section.index)")
        }
        guard let raw = reader.bytes(section.fileOffset, section.size) else {
            throw ELFError(
                path: path, offset: section.fileOffset,
                message:
                    "\(section.name): section bytes unreadable: \(section.size) bytes at 0x\(String(section.fileOffset, radix: 16)) pass the end of the file"
            )
        }
        var bytes = raw
        if section.isCompressed {
            bytes = try decompressELF(section, raw)
        } else if section.name.hasPrefix(".zdebug") {
            bytes = try decompressGNU(section, raw)
        }
        loaded[section.index] = bytes
        return bytes
    }

    /// `SHF_COMPRESSED`: an `Elf32_Chdr`/`Elf64_Chdr` (type, size, alignment), then the stream.
    private func decompressELF(_ section: ELFSection, _ raw: UnsafeRawBufferPointer) throws(ELFError) -> UnsafeRawBufferPointer {
        let headerSize = is64Bit ? 24 : 12
        guard raw.count >= headerSize else {
            throw ELFError(
                path: path, offset: section.fileOffset,
                message: "\(section.name): unreadable compression header: \(raw.count) bytes, a header needs \(headerSize)")
        }
        let type = reader.u32(raw, 0)
        let size = is64Bit ? reader.u64(raw, 8) : UInt64(reader.u32(raw, 4))
        guard type == 1 else {  // ELFCOMPRESS_ZLIB
            let kind = type == 2 ? "zstd" : "type \(type)"
            throw ELFError(
                path: path, offset: section.fileOffset,
                message:
                    "\(section.name): compressed with \(kind), which symbolicate cannot decompress (zlib only); decompress the file first (objcopy --decompress-debug-sections)"
            )
        }
        return try inflate(section, UnsafeRawBufferPointer(rebasing: raw[headerSize...]), size: size, what: "zlib")
    }

    /// GNU `.zdebug_*`: "ZLIB", the size as 8 big-endian bytes, then the stream.
    private func decompressGNU(_ section: ELFSection, _ raw: UnsafeRawBufferPointer) throws(ELFError) -> UnsafeRawBufferPointer {
        guard raw.count >= 12, Array(raw[0..<4]) == Array("ZLIB".utf8) else {
            throw ELFError(
                path: path, offset: section.fileOffset, message: "\(section.name): GNU zlib decompression failed: no \"ZLIB\" header")
        }
        var size: UInt64 = 0
        for byte in raw[4..<12] { size = size << 8 | UInt64(byte) }
        return try inflate(section, UnsafeRawBufferPointer(rebasing: raw[12...]), size: size, what: "GNU zlib")
    }

    private func inflate(_ section: ELFSection, _ stream: UnsafeRawBufferPointer, size: UInt64, what: String) throws(ELFError)
        -> UnsafeRawBufferPointer
    {
        // zlib cannot expand more than about 1032:1; a header claiming more is damaged or
        // hostile, and is refused before anything that large is allocated.
        let (limit, overflow) = section.size.multipliedReportingOverflow(by: 1100)
        guard overflow || size <= limit &+ 4096, size <= UInt64(Int.max) else {
            throw ELFError(
                path: path, offset: section.fileOffset,
                message: "\(section.name): compression header claims \(size) bytes from \(section.size) compressed; impossible for zlib")
        }
        if let refusal = budget.reserve(size, held: inflated) {
            throw ELFError(path: path, offset: section.fileOffset, message: "\(section.name): \(refusal)")
        }
        switch Zlib.inflate(stream, size: Int(size)) {
        case .success(let buffer):
            owned.append(buffer)
            inflated += size
            return UnsafeRawBufferPointer(buffer)
        case .failure(let failure):
            budget.release(size)
            throw ELFError(
                path: path, offset: section.fileOffset, message: "\(section.name): \(what) decompression failed: \(failure.message)")
        }
    }

    package func functionSymbols() throws(ELFError) -> [ELFSymbol] {
        let tables = sections.filter { $0.type == Self.symbolTable }
        let loadedSections = Set(sections.filter { $0.flags & 0x2 != 0 }.map(\.index))  // SHF_ALLOC
        let entrySize = is64Bit ? 24 : 16
        var all: [ELFSymbol] = []
        for table in tables.isEmpty ? sections.filter({ $0.type == Self.dynamicSymbols }) : tables {
            guard let bytes = reader.bytes(table.fileOffset, table.size) else {
                throw ELFError(
                    path: path, offset: table.fileOffset, message: "\(table.name): unreadable symbol table: it passes the end of the file")
            }
            let names: ELFSection? =
                table.link > 0 && Int(table.link) <= sections.count ? sections[Int(table.link) - 1] : nil
            // Entry 0 is the null symbol.
            for number in 1..<max(bytes.count / entrySize, 1) {
                let entry = UnsafeRawBufferPointer(rebasing: bytes[(number * entrySize)..<((number + 1) * entrySize)])
                let nameOffset = reader.u32(entry, 0)
                let info = is64Bit ? entry[4] : entry[12]
                let sectionIndex = is64Bit ? reader.u16(entry, 6) : reader.u16(entry, 14)
                guard
                    let name = ELFSymbol.namesCode(
                        info: info, sectionIndex: sectionIndex,
                        name: { names.flatMap { reader.string(in: $0, at: UInt64(nameOffset)) } ?? "" }, loaded: loadedSections)
                else { continue }
                let address = is64Bit ? reader.u64(entry, 8) : UInt64(reader.u32(entry, 4))
                let size = is64Bit ? reader.u64(entry, 16) : UInt64(reader.u32(entry, 8))
                // STB_LOCAL 0.
                all.append(ELFSymbol(name: name, address: address, size: size, section: Int(sectionIndex), isGlobal: info >> 4 != 0))
            }
        }
        return ELFSymbol.onePerAddress(all)
    }

    /// `NT_GNU_BUILD_ID` from the note sections, else from `PT_NOTE` segments (a file whose
    /// section headers were stripped). Notes are padded to 4 bytes, or to 8 where the section
    /// or segment is aligned to 8 (GNU property notes).
    private static func readBuildID(_ reader: ELFByteReader, sections: [ELFSection], segments: [ELFProgramHeader]) -> DebugID? {
        for section in sections where section.type == note {
            guard let bytes = reader.bytes(section.fileOffset, section.size) else { continue }
            if let id = buildID(in: bytes, alignment: section.alignment == 8 ? 8 : 4, reader: reader) { return id }
        }
        for segment in segments where segment.type == noteSegment {
            guard let bytes = reader.bytes(segment.fileOffset, segment.fileSize) else { continue }
            if let id = buildID(in: bytes, alignment: segment.alignment == 8 ? 8 : 4, reader: reader) { return id }
        }
        return nil
    }

    private static func buildID(in data: UnsafeRawBufferPointer, alignment: Int, reader: ELFByteReader) -> DebugID? {
        var offset = 0
        while offset <= data.count, data.count - offset >= 12 {
            let nameSize = Int(reader.u32(data, offset))
            let descriptionSize = Int(reader.u32(data, offset + 4))
            let type = reader.u32(data, offset + 8)
            let nameOffset = offset + 12
            guard nameSize <= data.count, nameOffset <= data.count - nameSize else { return nil }
            let descriptionOffset = (nameOffset + nameSize + alignment - 1) / alignment * alignment
            let padded = (descriptionSize + alignment - 1) / alignment * alignment
            guard descriptionOffset <= data.count, data.count - descriptionOffset >= padded else { return nil }
            // NT_GNU_BUILD_ID 3, named "GNU\0".
            if type == 3, nameSize == 4, Array(data[nameOffset..<(nameOffset + 3)]) == Array("GNU".utf8) {
                return DebugID(buildIDBytes: Array(data[descriptionOffset..<(descriptionOffset + descriptionSize)]))
            }
            let next = descriptionOffset + padded
            // A note that ends where it began (all sizes 0 at the end of padding) ends the walk.
            guard next > offset else { return nil }
            offset = next
        }
        return nil
    }
}

/// The ELF header's fields this reader uses.
struct ELFHeader {
    var type: UInt16 = 0
    var machine: UInt16 = 0
    var programHeaderOffset: UInt64 = 0
    var sectionHeaderOffset: UInt64 = 0
    var programHeaderCount: UInt16 = 0
    var sectionCount: UInt16 = 0
    var sectionNameIndex: UInt16 = 0
}

/// `ByteReader` in the file's byte order, with errors as `ELFError`.
struct ELFByteReader {
    let cursor: ByteReader
    let bigEndian: Bool
    let path: String

    private func read<T>(_ body: () throws(MachOError) -> T) throws(ELFError) -> T {
        do { return try body() } catch {
            throw ELFError(path: path, offset: error.offset.map { UInt64(clamping: $0) }, message: error.message)
        }
    }

    func header(is64Bit: Bool) throws(ELFError) -> ELFHeader {
        try read { () throws(MachOError) -> ELFHeader in
            var header = ELFHeader()
            header.type = try cursor.u16(16, "e_type", bigEndian: bigEndian)
            header.machine = try cursor.u16(18, "e_machine", bigEndian: bigEndian)
            if is64Bit {
                header.programHeaderOffset = try cursor.u64(32, "e_phoff", bigEndian: bigEndian)
                header.sectionHeaderOffset = try cursor.u64(40, "e_shoff", bigEndian: bigEndian)
                header.programHeaderCount = try cursor.u16(56, "e_phnum", bigEndian: bigEndian)
                header.sectionCount = try cursor.u16(60, "e_shnum", bigEndian: bigEndian)
                header.sectionNameIndex = try cursor.u16(62, "e_shstrndx", bigEndian: bigEndian)
            } else {
                header.programHeaderOffset = UInt64(try cursor.u32(28, "e_phoff", bigEndian: bigEndian))
                header.sectionHeaderOffset = UInt64(try cursor.u32(32, "e_shoff", bigEndian: bigEndian))
                header.programHeaderCount = try cursor.u16(44, "e_phnum", bigEndian: bigEndian)
                header.sectionCount = try cursor.u16(48, "e_shnum", bigEndian: bigEndian)
                header.sectionNameIndex = try cursor.u16(50, "e_shstrndx", bigEndian: bigEndian)
            }
            return header
        }
    }

    func sectionHeader(at offset: Int, index: Int, is64Bit: Bool) throws(ELFError) -> ELFSection {
        try read { () throws(MachOError) -> ELFSection in
            let what = "section header \(index)"
            let entry = try cursor.window(offset, count: is64Bit ? 64 : 40, what)
            let e = bigEndian
            if is64Bit {
                return ELFSection(
                    index: index, name: "", type: try entry.u32(4, what, bigEndian: e), flags: try entry.u64(8, what, bigEndian: e),
                    address: try entry.u64(16, what, bigEndian: e), size: try entry.u64(32, what, bigEndian: e),
                    fileOffset: try entry.u64(24, what, bigEndian: e), link: try entry.u32(40, what, bigEndian: e),
                    nameOffset: try entry.u32(0, what, bigEndian: e), info: try entry.u32(44, what, bigEndian: e),
                    alignment: try entry.u64(48, what, bigEndian: e))
            }
            return ELFSection(
                index: index, name: "", type: try entry.u32(4, what, bigEndian: e), flags: UInt64(try entry.u32(8, what, bigEndian: e)),
                address: UInt64(try entry.u32(12, what, bigEndian: e)), size: UInt64(try entry.u32(20, what, bigEndian: e)),
                fileOffset: UInt64(try entry.u32(16, what, bigEndian: e)), link: try entry.u32(24, what, bigEndian: e),
                nameOffset: try entry.u32(0, what, bigEndian: e), info: try entry.u32(28, what, bigEndian: e),
                alignment: UInt64(try entry.u32(32, what, bigEndian: e)))
        }
    }

    func programHeader(at offset: Int, is64Bit: Bool) throws(ELFError) -> ELFProgramHeader {
        try read { () throws(MachOError) -> ELFProgramHeader in
            let what = "program header"
            let e = bigEndian
            let entry = try cursor.window(offset, count: is64Bit ? 56 : 32, what)
            if is64Bit {
                return ELFProgramHeader(
                    type: try entry.u32(0, what, bigEndian: e), flags: try entry.u32(4, what, bigEndian: e),
                    virtualAddress: try entry.u64(16, what, bigEndian: e), memorySize: try entry.u64(40, what, bigEndian: e),
                    fileOffset: try entry.u64(8, what, bigEndian: e), fileSize: try entry.u64(32, what, bigEndian: e),
                    alignment: try entry.u64(48, what, bigEndian: e))
            }
            return ELFProgramHeader(
                type: try entry.u32(0, what, bigEndian: e), flags: try entry.u32(24, what, bigEndian: e),
                virtualAddress: UInt64(try entry.u32(8, what, bigEndian: e)), memorySize: UInt64(try entry.u32(20, what, bigEndian: e)),
                fileOffset: UInt64(try entry.u32(4, what, bigEndian: e)), fileSize: UInt64(try entry.u32(16, what, bigEndian: e)),
                alignment: UInt64(try entry.u32(28, what, bigEndian: e)))
        }
    }

    /// `count` bytes at `offset`, or nil when they are not all inside the file.
    func bytes(_ offset: UInt64, _ count: UInt64) -> UnsafeRawBufferPointer? {
        guard offset <= UInt64(Int.max), count <= UInt64(Int.max) else { return nil }
        return cursor.file.bytes(at: Int(offset), count: Int(count))
    }

    /// The NUL-terminated string at `offset` of a string table, or nil when the table is not
    /// a string table inside the file or the string is not terminated inside it.
    func string(in table: ELFSection, at offset: UInt64) -> String? {
        guard table.type == 3, offset < table.size, let data = bytes(table.fileOffset, table.size) else { return nil }
        let tail = UnsafeRawBufferPointer(rebasing: data[Int(offset)...])
        guard let end = tail.firstIndex(of: 0) else { return nil }
        return String(decoding: tail[..<end], as: UTF8.self)
    }

    /// Fields of bytes already bounds-checked by the caller, in the file's byte order.
    func u16(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        let raw = data.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
    }

    func u32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        let raw = data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    func u64(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        let raw = data.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }
}
