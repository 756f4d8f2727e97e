/// Bounds-checked reader over one mapped DWARF section, shared by the Swift decoders (line
/// programs, unit DIE scans). Every read checks `end`, and a failure names the file, the
/// section and the byte offset, so damaged dSYMs give an error, never a crash.
struct DWARFCursor {
    let bytes: UnsafeRawBufferPointer
    var at: Int
    let end: Int
    let path: String
    /// `.debug_line`, `.debug_info`, … — used in error messages.
    let section: String

    func fail(_ message: String) -> DebugInfoError {
        DebugInfoError(path: path, offset: UInt64(at), message: "\(section): \(message)")
    }

    /// Reads the initial length (32- or 64-bit DWARF) that starts every unit, line program
    /// and aranges set, and returns a cursor bounded to what it introduces, with the offset
    /// size it implies. `what` names the thing in the error ("unit", "set").
    mutating func lengthPrefixed(_ what: String) throws(DebugInfoError) -> (body: DWARFCursor, offsetSize: Int) {
        var length = try fixed(4)
        var offsetSize = 4
        if length == 0xFFFF_FFFF {
            length = try fixed(8)
            offsetSize = 8
        }
        guard length <= UInt64(end - at) else { throw fail("\(what) length past the end of the section") }
        return (DWARFCursor(bytes: bytes, at: at, end: at + Int(length), path: path, section: section), offsetSize)
    }

    mutating func u8() throws(DebugInfoError) -> UInt8 {
        guard at < end else { throw fail("unexpected end of data") }
        defer { at += 1 }
        return bytes[at]
    }

    /// Little-endian unsigned integer of `size` bytes (1–8).
    mutating func fixed(_ size: Int) throws(DebugInfoError) -> UInt64 {
        guard size <= 8, at <= end - size else { throw fail("unexpected end of data") }
        defer { at += size }
        switch size {
        case 2: return UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        case 8: return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        default: break
        }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
        return value
    }

    mutating func uleb() throws(DebugInfoError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 { return value }
        }
    }

    mutating func sleb() throws(DebugInfoError) -> Int64 {
        var value: Int64 = 0
        var shift: Int64 = 0
        var byte: UInt8 = 0
        repeat {
            byte = try u8()
            if shift < 64 { value |= Int64(byte & 0x7F) << shift }
            shift += 7
        } while byte & 0x80 != 0
        if shift < 64, byte & 0x40 != 0 { value |= -(Int64(1) << shift) }
        return value
    }

    mutating func cString() throws(DebugInfoError) -> String {
        let start = at
        while true {
            if try u8() == 0 { break }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(at - 1)]), as: UTF8.self)
    }

    mutating func skipCString() throws(DebugInfoError) {
        while try u8() != 0 {}
    }

    mutating func skip(_ count: UInt64) throws(DebugInfoError) {
        guard count <= UInt64(end - at) else { throw fail("unexpected end of data") }
        at += Int(count)
    }
}
