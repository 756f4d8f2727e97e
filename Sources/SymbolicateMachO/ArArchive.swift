/// A static library (`ar` archive, BSD or GNU layout) read for one member: the debug map
/// names code from `libx.a(util.o)`, whose DWARF stays inside the archive.
package enum ArArchive {
    static let magic = Array("!<arch>\n".utf8)
    static let headerSize = 60

    /// A member's place in the archive file and the modification time its header records.
    package struct Member: Sendable, Equatable {
        package var name: String
        /// Offset of the member's bytes in the archive file.
        package var offset: Int
        package var size: Int
        package var modificationTime: UInt64
    }

    /// Whether the file starts as an archive does.
    package static func isArchive(_ mapping: MappedFile) -> Bool {
        guard mapping.count >= magic.count, let bytes = mapping.bytes(at: 0, count: magic.count) else { return false }
        return Array(bytes) == magic
    }

    /// Every member in order (symbol tables and the GNU name table left out). Throws naming
    /// the archive and the header's offset when a header is damaged.
    package static func members(of mapping: MappedFile) throws(MachOError) -> [Member] {
        guard isArchive(mapping) else {
            throw MachOError(path: mapping.path, offset: 0, message: "not an ar archive (no !<arch> magic)")
        }
        let file = ByteReader(file: mapping)
        var members: [Member] = []
        var gnuNames: ByteReader?
        var at = magic.count
        while at < mapping.count {
            // A lone padding byte at the very end is allowed.
            if mapping.count - at < headerSize {
                guard mapping.count - at == 1 else {
                    throw MachOError(path: mapping.path, offset: at, message: "truncated ar member header")
                }
                break
            }
            let header = try file.window(at, count: headerSize, "ar member header")
            guard try header.u8(58, "ar header") == 0x60, try header.u8(59, "ar header") == 0x0A else {
                throw MachOError(path: mapping.path, offset: at, message: "ar member header without its `\\n terminator")
            }
            let rawName = try header.fixedString(0, length: 16, "ar member name").trimmingSuffix(" ")
            guard let size = Int(try header.fixedString(48, length: 10, "ar member size").trimmingSuffix(" ")),
                size >= 0, size <= mapping.count - at - headerSize
            else {
                throw MachOError(path: mapping.path, offset: at + 48, message: "ar member size is not a number that fits in the file")
            }
            let time = UInt64(try header.fixedString(16, length: 12, "ar member date").trimmingSuffix(" ")) ?? 0
            var dataStart = at + headerSize
            var dataSize = size
            var name: String
            if rawName.hasPrefix("#1/"), let length = Int(rawName.dropFirst(3)), length >= 0, length <= size {
                // BSD: the name follows the header, counted in the size, NUL-padded.
                name = try file.fixedString(dataStart, length: length, "ar member name").trimmingSuffix("\0")
                dataStart += length
                dataSize -= length
            } else if rawName == "//" {
                gnuNames = try file.window(dataStart, count: size, "GNU ar name table")
                name = ""
            } else if rawName.hasPrefix("/"), rawName.count > 1, let offset = Int(rawName.dropFirst()) {
                // GNU: "/123" is an offset into the "//" name table; names end with "/\n".
                guard let table = gnuNames, offset >= 0, offset < table.count else {
                    throw MachOError(path: mapping.path, offset: at, message: "ar member name \(rawName) points outside the name table")
                }
                name = try table.fixedString(offset, length: table.count - offset, "GNU ar long name")
                if let end = name.firstIndex(of: "\n") { name = String(name[..<end]) }
                if name.hasSuffix("/") { name.removeLast() }
            } else {
                name = rawName
                if name.hasSuffix("/"), name != "/" { name.removeLast() }
            }
            let isIndex = name.isEmpty || name == "/" || name == "/SYM64/" || name.hasPrefix("__.SYMDEF")
            if !isIndex {
                members.append(Member(name: name, offset: dataStart, size: dataSize, modificationTime: time))
            }
            at += headerSize + size + (size & 1)
        }
        return members
    }
}

extension MachOSlice {
    /// The Mach-O object stored as an archive member (`ArArchive.members`): read like a
    /// thin file that starts at the member's offset.
    package static func archiveMember(_ member: ArArchive.Member, of mapping: MappedFile) throws(MachOError) -> MachOSlice {
        try MachOSlice(file: ByteReader(file: mapping), offset: member.offset, size: member.size, fatCPU: nil)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = Substring(self)
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
