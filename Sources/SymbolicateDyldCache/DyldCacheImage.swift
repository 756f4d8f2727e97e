import SymbolicateCore
import SymbolicateMachO

/// One image (dylib) in a dyld shared cache, as the cache header lists it.
package struct DyldCacheImage: Sendable, Equatable {
    /// Position in the cache's image list.
    package var index: Int
    /// Install name (`/System/Library/Frameworks/UIKit.framework/UIKit`).
    package var installName: String
    /// Unslid address of the image's mach header, which is where its `__TEXT` starts: the
    /// report's load address minus this is the slide.
    package var address: UInt64
    /// Size of `__TEXT`; 0 when the cache did not say and the header could not be read.
    package var textSize: UInt64
    /// The image's LC_UUID (what a crash report names the image by).
    package var debugID: DebugID?

    /// The last path component of the install name (what reports print as the image name).
    package var name: String {
        installName.split(separator: "/").last.map(String.init) ?? installName
    }
}

/// What an image's load commands say, read from the cache when one of its frames is looked up.
struct ImageHeader {
    var debugID: DebugID?
    var textSize: UInt64
    var is64Bit: Bool
    var segments: [(name: String, vmAddress: UInt64, vmSize: UInt64, fileOffset: UInt64)]
    /// `n_sect` ordinals of `__TEXT` sections.
    var textSections: Set<UInt8>
    var symtab: (symoff: UInt64, nsyms: Int, stroff: UInt64, strsize: Int)?
    /// Export trie offset and size (LC_DYLD_INFO(_ONLY) or LC_DYLD_EXPORTS_TRIE).
    var exports: (offset: UInt64, size: Int)?
}

extension DyldCache {
    /// Reads an image's mach header and load commands from the cache (at its unslid address).
    static func parseHeader(of image: DyldCacheImage, mappings: [Mapping], files: [MappedFile]) throws(DyldCacheError) -> ImageHeader {
        guard let (file, offset) = location(of: image.address, mappings: mappings, files: files) else {
            throw DyldCacheError(
                path: files[0].path, offset: nil,
                message: "image \(image.installName) at 0x\(String(image.address, radix: 16)) lies outside every mapping of the cache")
        }
        let reader = ByteReader(file: file, start: offset, count: file.count - offset)
        let magic = try reader.u32(0, "mach_header magic")
        guard magic == 0xFEED_FACF || magic == 0xFEED_FACE else {
            throw MachOError(
                path: file.path, offset: offset,
                message: "no mach header for \(image.installName) (magic 0x\(String(magic, radix: 16)))")
        }
        let is64 = magic == 0xFEED_FACF
        let count = Int(try reader.u32(16, "ncmds"))
        let size = Int(try reader.u32(20, "sizeofcmds"))
        let commands = try reader.window(is64 ? 32 : 28, count: size, "load commands")
        var header = ImageHeader(debugID: nil, textSize: 0, is64Bit: is64, segments: [], textSections: [], symtab: nil, exports: nil)
        var at = 0
        var ordinal = 0
        for index in 0..<count {
            let command = try commands.u32(at, "load command \(index)")
            let commandSize = Int(try commands.u32(at + 4, "load command \(index) size"))
            guard commandSize >= 8 else {
                throw MachOError(
                    path: file.path, offset: commands.start + at, message: "load command \(index) has invalid size \(commandSize)")
            }
            let body = try commands.window(at, count: commandSize, "load command \(index)")
            switch command {
            case 0x1B:  // LC_UUID
                var bytes: [UInt8] = []
                for i in 0..<16 { bytes.append(try body.u8(8 + i, "LC_UUID")) }
                header.debugID = DebugID(uuidBytes: bytes)
            case 0x19, 0x1:  // LC_SEGMENT_64, LC_SEGMENT
                let wide = command == 0x19
                let name = try body.fixedString(8, length: 16, "segment name")
                let vmAddress = wide ? try body.u64(24, "vmaddr") : UInt64(try body.u32(24, "vmaddr"))
                let vmSize = wide ? try body.u64(32, "vmsize") : UInt64(try body.u32(28, "vmsize"))
                let fileOffset = wide ? try body.u64(40, "fileoff") : UInt64(try body.u32(32, "fileoff"))
                let sections = Int(try body.u32(wide ? 64 : 48, "nsects"))
                for _ in 0..<min(sections, 255) {
                    ordinal += 1
                    if name == "__TEXT" { header.textSections.insert(UInt8(truncatingIfNeeded: ordinal)) }
                }
                if name == "__TEXT" { header.textSize = vmSize }
                header.segments.append((name, vmAddress, vmSize, fileOffset))
            case 0x2:  // LC_SYMTAB
                header.symtab = (
                    UInt64(try body.u32(8, "symoff")), Int(try body.u32(12, "nsyms")),
                    UInt64(try body.u32(16, "stroff")), Int(try body.u32(20, "strsize"))
                )
            case 0x22, 0x8000_0022:  // LC_DYLD_INFO(_ONLY): export_off, export_size
                let exportOffset = try body.u32(40, "export_off")
                if exportOffset != 0 { header.exports = (UInt64(exportOffset), Int(try body.u32(44, "export_size"))) }
            case 0x8000_0033:  // LC_DYLD_EXPORTS_TRIE
                let dataOffset = try body.u32(8, "dataoff")
                if dataOffset != 0 { header.exports = (UInt64(dataOffset), Int(try body.u32(12, "datasize"))) }
            default:
                break
            }
            at += commandSize
        }
        commands.releaseResidentPages()
        return header
    }

    /// The bytes at `linkeditOffset` (a file offset as the image's load commands give it),
    /// found through `__LINKEDIT`'s address: in a split cache the image's link-edit data may
    /// live in another file than its header.
    func linkedit(_ header: ImageHeader, offset: UInt64, count: Int, _ what: String) throws(DyldCacheError) -> ByteReader {
        guard let linkedit = header.segments.first(where: { $0.name == "__LINKEDIT" }) else {
            throw DyldCacheError(path: path, offset: nil, message: "\(what): the image has no __LINKEDIT segment")
        }
        let (delta, under) = offset.subtractingReportingOverflow(linkedit.fileOffset)
        let (address, over) = linkedit.vmAddress.addingReportingOverflow(delta)
        guard !under, !over, let (file, at) = location(of: address), count >= 0, count <= file.count - at else {
            throw DyldCacheError(
                path: path, offset: nil,
                message: "\(what) (\(count) bytes at link-edit offset 0x\(String(offset, radix: 16))) lies outside the cache's mappings")
        }
        return ByteReader(file: file, start: at, count: count)
    }

    /// Every name the cache has for an image's code: its own symbol table (exported and other
    /// global symbols), the cache's local symbols for it, and its export trie. Read on first
    /// use of the image; only that image's tables are touched.
    package func symbols(of image: DyldCacheImage) throws(DyldCacheError) -> DyldCacheSymbols {
        let header = try Self.parseHeader(of: image, mappings: mappings, files: files)
        let textEnd = image.address &+ header.textSize
        let textRange = image.address..<max(textEnd, image.address)
        var entries: [DyldCacheSymbols.Entry] = []
        var tables: [ByteReader] = []

        func addNlists(_ table: ByteReader, range: Range<Int>, strings: Int, external: Bool?) throws(DyldCacheError) {
            let size = header.is64Bit ? 16 : 12
            for index in range {
                let at = index * size
                let type = try table.u8(at + 4, "nlist n_type")
                guard type & 0xE0 == 0, type & 0x0E == 0x0E else { continue }  // no stabs; N_SECT only
                let section = try table.u8(at + 5, "nlist n_sect")
                let value = header.is64Bit ? try table.u64(at + 8, "nlist n_value") : UInt64(try table.u32(at + 8, "nlist n_value"))
                guard textRange.contains(value), header.textSections.isEmpty || header.textSections.contains(section) else { continue }
                let name = try table.u32(at, "nlist n_strx")
                entries.append(
                    DyldCacheSymbols.Entry(
                        address: value, table: UInt16(strings), nameOffset: name,
                        rank: external ?? (type & 0x01 != 0) ? 0 : 1))
            }
        }

        if let symtab = header.symtab, symtab.nsyms > 0 {
            let size = header.is64Bit ? 16 : 12
            guard symtab.nsyms <= Int(UInt32.max) / size else {
                throw DyldCacheError(path: path, offset: nil, message: "\(image.installName): LC_SYMTAB claims \(symtab.nsyms) symbols")
            }
            let table = try linkedit(header, offset: symtab.symoff, count: symtab.nsyms * size, "\(image.installName) symbol table")
            tables.append(try linkedit(header, offset: symtab.stroff, count: symtab.strsize, "\(image.installName) string table"))
            try addNlists(table, range: 0..<symtab.nsyms, strings: 0, external: nil)
            table.releaseResidentPages()
        }
        if let local = localSymbols {
            let key: UInt64?
            if local.entries.isEmpty {
                key = nil
            } else if usesVMOffsetKeys {
                key = image.address &- baseAddress
            } else {
                key = location(of: image.address).flatMap { $0.file === files[0] ? UInt64($0.offset) : nil }
            }
            if let key, let range = local.entries[key] {
                tables.append(local.strings)
                try addNlists(local.nlists, range: range, strings: tables.count - 1, external: false)
                if let window = try? local.nlists.window(range.lowerBound * 16, count: range.count * 16, "local nlists") {
                    window.releaseResidentPages()
                }
            }
        }
        var exportNames: [String] = []
        if let exports = header.exports, exports.size > 0 {
            let trie = try linkedit(header, offset: exports.offset, count: exports.size, "\(image.installName) export trie")
            defer { trie.releaseResidentPages() }
            for (name, offset) in try ExportTrie.entries(trie) {
                let address = image.address &+ offset
                guard textRange.contains(address) else { continue }
                exportNames.append(name)
                entries.append(
                    DyldCacheSymbols.Entry(address: address, table: UInt16.max, nameOffset: UInt32(exportNames.count - 1), rank: 2))
            }
        }
        // At one address: a global symbol-table name, then a local one, then the export's.
        entries.sort { $0.address != $1.address ? $0.address < $1.address : $0.rank < $1.rank }
        var kept = 0
        for index in entries.indices where kept == 0 || entries[index].address != entries[kept - 1].address {
            entries[kept] = entries[index]
            kept += 1
        }
        entries.removeLast(entries.count - kept)
        return DyldCacheSymbols(image: image, entries: entries, tables: tables, exportNames: exportNames, textRange: textRange)
    }
}

/// The names of one cached image's code, by address: 16 bytes a symbol, each name read from
/// its string table when asked for.
package struct DyldCacheSymbols: Sendable {
    struct Entry {
        var address: UInt64
        /// Index in `tables`, or `UInt16.max` for an export-trie name.
        var table: UInt16
        var nameOffset: UInt32
        /// 0 symbol-table global, 1 local, 2 export trie only.
        var rank: UInt8
    }

    package let image: DyldCacheImage
    let entries: [Entry]
    let tables: [ByteReader]
    let exportNames: [String]
    /// The image's `__TEXT` (unslid): no symbol names an address outside it.
    package let textRange: Range<UInt64>

    package var count: Int { entries.count }

    /// The symbol at or before `address` inside the image's `__TEXT`: its address and its
    /// name as stored (`_CFRunLoopRunSpecific`, `-[UIView layoutSubviews]`).
    package func nearest(atOrBefore address: UInt64) -> (address: UInt64, name: String)? {
        guard textRange.contains(address) else { return nil }
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].address > address { high = mid } else { low = mid + 1 }
        }
        guard low > 0 else { return nil }
        return (entries[low - 1].address, name(entries[low - 1]))
    }

    /// Every (address, stored name), by address; for checks against other readers.
    package var all: [(address: UInt64, name: String)] {
        entries.map { ($0.address, name($0)) }
    }

    private func name(_ entry: Entry) -> String {
        if entry.table == UInt16.max {
            return exportNames.indices.contains(Int(entry.nameOffset)) ? exportNames[Int(entry.nameOffset)] : ""
        }
        guard tables.indices.contains(Int(entry.table)) else { return "" }
        let table = tables[Int(entry.table)]
        let name = (try? table.cString(Int(entry.nameOffset), "symbol name")) ?? ""
        // One name of a large string table: its pages need not stay resident.
        (try? table.window(Int(entry.nameOffset), count: min(name.utf8.count + 1, table.count - Int(entry.nameOffset)), "name"))?
            .releaseResidentPages()
        return name
    }
}

/// The export trie (`ld64`'s compact export table): a prefix tree of names, each terminal
/// node holding flags and the symbol's offset from the mach header.
enum ExportTrie {
    /// (name, offset from the mach header) of every regular export with an address
    /// (re-exports, which name another image's symbol, have none).
    static func entries(_ trie: ByteReader) throws(DyldCacheError) -> [(String, UInt64)] {
        var out: [(String, UInt64)] = []
        var pending: [(offset: Int, prefix: [UInt8])] = [(0, [])]
        var visited = 0
        while let (offset, prefix) = pending.popLast() {
            visited += 1
            // Each node is visited once in a well-formed trie; a loop in a damaged one stops here.
            guard visited <= trie.count else {
                throw MachOError(path: trie.file.path, offset: trie.start + offset, message: "export trie loops")
            }
            var at = offset
            let terminalSize = try uleb(trie, &at)
            if terminalSize > 0 {
                var cursor = at
                let flags = try uleb(trie, &cursor)
                if flags & 0x08 == 0 {  // not EXPORT_SYMBOL_FLAGS_REEXPORT
                    let address = try uleb(trie, &cursor)
                    out.append((String(decoding: prefix, as: UTF8.self), address))
                }
            }
            guard terminalSize <= UInt64(trie.count) else {
                throw MachOError(path: trie.file.path, offset: trie.start + at, message: "export trie node is larger than the trie")
            }
            at += Int(terminalSize)
            let children = try trie.u8(at, "export trie child count")
            at += 1
            for _ in 0..<children {
                var label: [UInt8] = []
                while true {
                    let byte = try trie.u8(at, "export trie edge label")
                    at += 1
                    if byte == 0 { break }
                    label.append(byte)
                }
                let child = try uleb(trie, &at)
                guard child < UInt64(trie.count) else {
                    throw MachOError(path: trie.file.path, offset: trie.start + at, message: "export trie child lies outside the trie")
                }
                pending.append((Int(child), prefix + label))
            }
        }
        return out
    }

    static func uleb(_ reader: ByteReader, _ at: inout Int) throws(MachOError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try reader.u8(at, "ULEB128")
            at += 1
            if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { return result }
            shift += 7
            guard shift < 70 else { throw MachOError(path: reader.file.path, offset: reader.start + at, message: "ULEB128 too long") }
        }
    }
}
