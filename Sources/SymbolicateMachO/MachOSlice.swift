import SymbolicateCore

/// One architecture's Mach-O image inside a (thin or universal) file.
package struct MachOSlice: Sendable {
    /// The file this slice came from.
    package let mapping: MappedFile
    package let cpu: MachOCPU
    package var architecture: Architecture { cpu.architecture }
    /// Offset of the slice's mach_header in the file.
    package let fileOffset: Int
    /// Size of the slice in bytes.
    package let size: Int
    package let is64Bit: Bool
    /// `MH_EXECUTE`, `MH_DYLIB`, `MH_DSYM` (10), … from the header.
    package let fileType: UInt32
    /// LC_UUID; `nil` when absent.
    package let debugID: DebugID?
    package let segments: [Segment]
    /// Where LC_SYMTAB says the symbol and string tables are (slice-relative offsets).
    let symtab: (symoff: Int, nsyms: Int, stroff: Int, strsize: Int)?

    package var path: String { mapping.path }

    package struct Segment: Sendable {
        package var name: String
        package var vmAddress: UInt64
        package var vmSize: UInt64
        package var fileOffset: UInt64
        package var fileSize: UInt64
        package var sections: [Section]
    }

    package struct Section: Sendable {
        package var segmentName: String
        /// The name as stored: at most 16 characters (`__debug_str_offs` is truncated).
        package var name: String
        package var address: UInt64
        package var size: UInt64
        /// Slice-relative offset of the contents; 0 for sections without file data.
        package var offset: UInt32
        package var flags: UInt32
        /// Index in load-command order, starting at 1 as `n_sect` counts.
        package var ordinal: Int
    }

    static let lcSegment: UInt32 = 0x1
    static let lcSymtab: UInt32 = 0x2
    static let lcSegment64: UInt32 = 0x19
    static let lcUUID: UInt32 = 0x1B

    init(file: ByteReader, offset: Int, size: Int, fatCPU: MachOCPU?) throws(MachOError) {
        mapping = file.file
        fileOffset = offset
        self.size = size
        let reader = try file.window(offset, count: size, "Mach-O slice")
        let magic = try reader.u32(0, "mach_header magic")
        switch magic {
        case MachOFile.magic64: is64Bit = true
        case MachOFile.magic32: is64Bit = false
        case 0xCFFA_EDFE, 0xCEFA_EDFE:
            throw MachOError(path: file.file.path, offset: offset, message: "big-endian Mach-O is not supported")
        default:
            throw MachOError(
                path: file.file.path, offset: offset,
                message: "not a Mach-O file (magic 0x\(String(magic, radix: 16)))"
            )
        }
        let cpuType = Int32(bitPattern: try reader.u32(4, "mach_header cputype"))
        let cpuSubtype = Int32(bitPattern: try reader.u32(8, "mach_header cpusubtype"))
        cpu = MachOCPU(cpuType: cpuType, cpuSubtype: cpuSubtype)
        if let fatCPU, fatCPU.cpuType != cpuType {
            throw MachOError(
                path: file.file.path, offset: offset,
                message: "universal header says \(fatCPU) but the slice is \(cpu)"
            )
        }
        fileType = try reader.u32(12, "mach_header filetype")
        let commandCount = Int(try reader.u32(16, "mach_header ncmds"))
        let commandsSize = Int(try reader.u32(20, "mach_header sizeofcmds"))
        let headerSize = is64Bit ? 32 : 28
        let commands = try reader.window(headerSize, count: commandsSize, "load commands")

        var debugID: DebugID?
        var segments: [Segment] = []
        var symtab: (Int, Int, Int, Int)?
        var sectionOrdinal = 0
        var at = 0
        for index in 0..<commandCount {
            let command = try commands.u32(at, "load command \(index)")
            let commandSize = Int(try commands.u32(at + 4, "load command \(index) size"))
            guard commandSize >= 8, commandSize % 4 == 0 else {
                throw MachOError(
                    path: file.file.path, offset: commands.start + at,
                    message: "load command \(index) has invalid size \(commandSize)"
                )
            }
            let body = try commands.window(at, count: commandSize, "load command \(index)")
            switch command {
            case Self.lcUUID:
                var bytes: [UInt8] = []
                for byte in 0..<16 { bytes.append(try body.u8(8 + byte, "LC_UUID")) }
                debugID = DebugID(uuidBytes: bytes)
            case Self.lcSegment, Self.lcSegment64:
                segments.append(try Self.parseSegment(body, is64: command == Self.lcSegment64, ordinal: &sectionOrdinal))
            case Self.lcSymtab:
                symtab = (
                    Int(try body.u32(8, "LC_SYMTAB symoff")), Int(try body.u32(12, "LC_SYMTAB nsyms")),
                    Int(try body.u32(16, "LC_SYMTAB stroff")), Int(try body.u32(20, "LC_SYMTAB strsize"))
                )
            default:
                break
            }
            at += commandSize
        }
        self.debugID = debugID
        self.segments = segments
        self.symtab = symtab
    }

    private static func parseSegment(_ body: ByteReader, is64: Bool, ordinal: inout Int) throws(MachOError) -> Segment {
        let name = try body.fixedString(8, length: 16, "segment name")
        let vmAddress, vmSize, fileOffset, fileSize: UInt64
        let sectionCount: Int
        let headerSize: Int
        if is64 {
            vmAddress = try body.u64(24, "segment vmaddr")
            vmSize = try body.u64(32, "segment vmsize")
            fileOffset = try body.u64(40, "segment fileoff")
            fileSize = try body.u64(48, "segment filesize")
            sectionCount = Int(try body.u32(64, "segment nsects"))
            headerSize = 72
        } else {
            vmAddress = UInt64(try body.u32(24, "segment vmaddr"))
            vmSize = UInt64(try body.u32(28, "segment vmsize"))
            fileOffset = UInt64(try body.u32(32, "segment fileoff"))
            fileSize = UInt64(try body.u32(36, "segment filesize"))
            sectionCount = Int(try body.u32(48, "segment nsects"))
            headerSize = 56
        }
        let sectionSize = is64 ? 80 : 68
        var sections: [Section] = []
        sections.reserveCapacity(min(sectionCount, 256))
        for index in 0..<sectionCount {
            let at = headerSize + index * sectionSize
            let section = try body.window(at, count: sectionSize, "section \(index) of \(name)")
            ordinal += 1
            if is64 {
                sections.append(
                    Section(
                        segmentName: try section.fixedString(16, length: 16, "section segname"),
                        name: try section.fixedString(0, length: 16, "section name"),
                        address: try section.u64(32, "section addr"), size: try section.u64(40, "section size"),
                        offset: try section.u32(48, "section offset"), flags: try section.u32(64, "section flags"),
                        ordinal: ordinal
                    ))
            } else {
                sections.append(
                    Section(
                        segmentName: try section.fixedString(16, length: 16, "section segname"),
                        name: try section.fixedString(0, length: 16, "section name"),
                        address: UInt64(try section.u32(32, "section addr")), size: UInt64(try section.u32(36, "section size")),
                        offset: try section.u32(40, "section offset"), flags: try section.u32(56, "section flags"),
                        ordinal: ordinal
                    ))
            }
        }
        return Segment(
            name: name, vmAddress: vmAddress, vmSize: vmSize,
            fileOffset: fileOffset, fileSize: fileSize, sections: sections
        )
    }

    /// The `__TEXT` segment's vmaddr: slide = load address − this.
    package var textVMAddress: UInt64? {
        segments.first { $0.name == "__TEXT" }?.vmAddress
    }

    package func segment(named name: String) -> Segment? {
        segments.first { $0.name == name }
    }

    package func section(segment: String, name: String) -> Section? {
        self.segment(named: segment)?.sections.first { $0.name == name }
    }

    /// The contents of a section, bounds-checked against the slice; empty for sections
    /// without file data (zerofill, or `__TEXT` in a dSYM).
    package func contents(of section: Section) throws(MachOError) -> UnsafeRawBufferPointer {
        let zerofill = section.flags & 0xFF == 0x1 || section.flags & 0xFF == 0xC
        if section.offset == 0 || zerofill || section.size == 0 {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        guard section.size <= UInt64(size), UInt64(section.offset) <= UInt64(size) - section.size,
            let bytes = mapping.bytes(at: fileOffset + Int(section.offset), count: Int(section.size))
        else {
            throw MachOError(
                path: path, offset: fileOffset + Int(section.offset),
                message:
                    "section \(section.segmentName),\(section.name) (0x\(String(section.size, radix: 16)) bytes) extends past the end of the file"
            )
        }
        return bytes
    }
}
