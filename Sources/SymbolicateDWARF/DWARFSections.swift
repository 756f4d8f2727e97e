import SymbolicateMachO

/// Maps a Mach-O slice's `__DWARF` sections to the ELF-style names libdwarf looks for and
/// works around what libdwarf 20210528 gets wrong on Apple's DWARF: it opens no fat Mach-O,
/// misses the truncated DWARF 5 section names, and rejects units carrying
/// `DW_AT_GNU_dwo_id` (ARCHITECTURE.md, "libdwarf and Apple's DWARF").
enum DWARFSections {
    /// Mach-O section names are cut at 16 characters; libdwarf knows only some of the
    /// Mach-O spellings, so every section is renamed to its ELF name. Only sections the
    /// lookup needs are served: fewer sections, fewer ways for damaged ones to fail.
    static let served: [String: String] = [
        "__debug_info": ".debug_info",
        "__debug_abbrev": ".debug_abbrev",
        "__debug_line": ".debug_line",
        "__debug_line_str": ".debug_line_str",
        "__debug_str": ".debug_str",
        "__debug_str_offs": ".debug_str_offsets",
        "__debug_addr": ".debug_addr",
        "__debug_ranges": ".debug_ranges",
        "__debug_rnglists": ".debug_rnglists",
    ]

    /// The Mach-O spelling of an ELF section name (`.debug_info` → `__debug_info`).
    static func machOName(of elfName: String) -> String? {
        if elfName == ".debug_aranges" { return "__debug_aranges" }
        return served.first { $0.value == elfName }?.key
    }

    /// The sections to serve for `slice`, with `.debug_abbrev` patched when needed.
    ///
    /// `patchedAbbrev` receives the owned copy of the patched table (if one was made); it must
    /// outlive the libdwarf session that reads it.
    static func sections(of slice: MachOSlice, patchedAbbrev: inout OwnedBytes?) throws(DebugInfoError) -> [ServedSection] {
        let dwarfSections = slice.sections(ofSegment: "__DWARF")
        guard !dwarfSections.isEmpty else {
            throw DebugInfoError(
                path: slice.path, message: "no __DWARF segment (\(slice.architecture.name) slice has no debug information)")
        }
        var found: [(name: String, bytes: UnsafeRawBufferPointer, fileOffset: UInt64)] = []
        for section in dwarfSections {
            guard let name = served[section.name] else { continue }
            do {
                found.append((name, try slice.contents(of: section), UInt64(slice.fileOffset) &+ UInt64(section.offset)))
            } catch {
                throw DebugInfoError(error)
            }
        }
        guard found.contains(where: { $0.name == ".debug_info" && $0.bytes.count > 0 }) else {
            throw DebugInfoError(path: slice.path, message: "no __debug_info section (\(slice.architecture.name) slice has no DWARF)")
        }
        return try serve(found, path: slice.path, patchedAbbrev: &patchedAbbrev)
    }

    /// Checks and patches sections found by their ELF names (any container format), in the
    /// form libdwarf is served. `fileOffset` is where the section starts in the file, for errors.
    static func serve(
        _ found: [(name: String, bytes: UnsafeRawBufferPointer, fileOffset: UInt64)], path: String, patchedAbbrev: inout OwnedBytes?
    ) throws(DebugInfoError) -> [ServedSection] {
        var out: [ServedSection] = []
        for (name, bytes, fileOffset) in found {
            guard bytes.count > 0 else { continue }
            if name == ".debug_rnglists" || name == ".debug_loclists" {
                try HeaderCheck.validateListSection(bytes, name: name, path: path, sectionOffset: Int(clamping: fileOffset))
            }
            if name == ".debug_abbrev" {
                if let patched = try AbbreviationPatch.neutralizeDWOId(in: bytes, path: path) {
                    let owned = OwnedBytes(patched)
                    patchedAbbrev = owned
                    out.append(ServedSection(name: name, bytes: UnsafeRawPointer(owned.pointer), size: owned.count))
                    continue
                }
            }
            out.append(ServedSection(name: name, bytes: bytes.baseAddress, size: bytes.count))
        }
        guard out.contains(where: { $0.name == ".debug_info" }) else {
            throw DebugInfoError(path: path, message: "no .debug_info section (no DWARF)")
        }
        return out
    }
}

/// Rewrites `DW_AT_GNU_dwo_id` in abbreviation declarations.
///
/// Swift and `-gmodules` DWARF 5 skeleton units carry DW_AT_GNU_dwo_id (0x2131, data8),
/// which libdwarf 20210528 rejects for the whole `.debug_info`. The attribute means
/// nothing for symbolication, so its code is replaced by an unused vendor code of the
/// same ULEB128 length; offsets and forms stay intact. The table is parsed declaration
/// by declaration, so only attribute-code fields are touched.
enum AbbreviationPatch {
    static let dwoIdAttribute: UInt64 = 0x2131
    /// Vendor range, unused by any producer we know; ULEB `f0 7f`, 2 bytes like `b1 42`.
    static let replacementAttribute: UInt64 = 0x3FF0
    static let implicitConstForm: UInt64 = 0x21

    /// A patched copy, or `nil` when the table has no DW_AT_GNU_dwo_id (serve the original).
    static func neutralizeDWOId(in bytes: UnsafeRawBufferPointer, path: String) throws(DebugInfoError) -> [UInt8]? {
        var patchAt: [Int] = []
        var cursor = 0
        func uleb() throws(DebugInfoError) -> (value: UInt64, length: Int) {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            let start = cursor
            while true {
                guard cursor < bytes.count else {
                    throw DebugInfoError(path: path, offset: UInt64(start), message: ".debug_abbrev: truncated ULEB128 value")
                }
                let byte = bytes[cursor]
                cursor += 1
                if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
                shift += 7
                if byte & 0x80 == 0 { return (value, cursor - start) }
            }
        }
        while cursor < bytes.count {
            let code = try uleb().value
            if code == 0 { continue }  // end of one unit's table; another may follow
            _ = try uleb()  // tag
            guard cursor < bytes.count else {
                throw DebugInfoError(path: path, offset: UInt64(cursor), message: ".debug_abbrev: truncated declaration \(code)")
            }
            cursor += 1  // DW_CHILDREN_*
            while true {
                let attributeStart = cursor
                let attribute = try uleb()
                let form = try uleb().value
                if attribute.value == 0 && form == 0 { break }
                if form == implicitConstForm { _ = try uleb() }  // SLEB128 constant: same byte shape
                if attribute.value == dwoIdAttribute && attribute.length == 2 {
                    patchAt.append(attributeStart)
                }
            }
        }
        guard !patchAt.isEmpty else { return nil }
        var copy = Array(bytes)
        for at in patchAt {
            copy[at] = UInt8(replacementAttribute & 0x7F) | 0x80
            copy[at + 1] = UInt8(replacementAttribute >> 7)
        }
        return copy
    }
}

/// Heap bytes with a stable address for the life of the object (a patched section copy).
final class OwnedBytes {
    let pointer: UnsafeMutableRawPointer
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        pointer = .allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: $0.count) }
    }

    deinit { pointer.deallocate() }
}

/// Structural checks libdwarf 20210528 needs done before it sees a section: on a
/// `.debug_rnglists` with an inconsistent unit header it frees memory twice and aborts
/// the process (found by flipping bytes in fixture dSYMs), so such a file is rejected
/// here with an error naming the offset.
enum HeaderCheck {
    /// Every unit header of a DWARF 5 list section (`.debug_rnglists`/`.debug_loclists`):
    /// lengths that tile the section, version 5, address size 4 or 8, no segment selector,
    /// an offset table that fits in the unit.
    static func validateListSection(_ bytes: UnsafeRawBufferPointer, name: String, path: String, sectionOffset: Int) throws(DebugInfoError)
    {
        var at = 0
        func fail(_ message: String) -> DebugInfoError {
            DebugInfoError(path: path, offset: UInt64(sectionOffset + at), message: "\(name): \(message)")
        }
        func read(_ offset: Int, _ size: Int) -> UInt64? {
            guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            return value
        }
        while at < bytes.count {
            guard var length = read(at, 4) else { throw fail("truncated unit header") }
            var headerStart = at + 4
            if length == 0xFFFF_FFFF {
                guard let long = read(at + 4, 8) else { throw fail("truncated 64-bit unit header") }
                length = long
                headerStart = at + 12
            } else if length >= 0xFFFF_FFF0 {
                throw fail("reserved unit length 0x\(String(length, radix: 16))")
            }
            guard length >= 8, length <= UInt64(bytes.count - headerStart) else {
                throw fail("unit length 0x\(String(length, radix: 16)) does not fit in the section")
            }
            guard let version = read(headerStart, 2), version == 5 else {
                throw fail("unit version \(read(headerStart, 2) ?? 0), expected 5")
            }
            guard let addressSize = read(headerStart + 2, 1), addressSize == 4 || addressSize == 8 else {
                throw fail("address size \(read(headerStart + 2, 1) ?? 0)")
            }
            guard read(headerStart + 3, 1) == 0 else { throw fail("segment selectors are not supported") }
            let offsetSize: UInt64 = headerStart - at == 12 ? 8 : 4
            guard let entries = read(headerStart + 4, 4), entries <= (length - 8) / offsetSize else {
                throw fail("offset table larger than its unit")
            }
            at = headerStart + Int(length)
        }
    }
}
