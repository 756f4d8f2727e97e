import Foundation

/// Builds small Mach-O images byte by byte, so parser tests state exactly what the file holds.
struct MachOBuilder {
    var cpuType: UInt32 = 0x0100_000C  // arm64
    var cpuSubtype: UInt32 = 0
    var uuid: [UInt8] = Array(0..<16)
    var textVMAddress: UInt64 = 0x1_0000_0000
    var textSize: UInt64 = 0x4000
    /// (name, address) pairs for the symbol table; all in __TEXT,__text (section 1).
    var symbols: [(String, UInt64)] = [("_main", 0x1_0000_1000), ("_helper", 0x1_0000_1100)]

    static func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    static func le64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func be64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func name16(_ text: String) -> [UInt8] { Array(text.utf8) + Array(repeating: 0, count: 16 - text.utf8.count) }

    /// A 64-bit MH_EXECUTE with LC_SEGMENT_64 __TEXT (one __text section), LC_UUID, LC_SYMTAB.
    func thin() -> [UInt8] {
        typealias B = MachOBuilder
        var segment: [UInt8] = B.le32(0x19) + B.le32(72 + 80) + B.name16("__TEXT")
        segment += B.le64(textVMAddress) + B.le64(textSize) + B.le64(0) + B.le64(textSize)
        segment += B.le32(5) + B.le32(5) + B.le32(1) + B.le32(0)
        segment += B.name16("__text") + B.name16("__TEXT")
        segment += B.le64(textVMAddress + 0x1000) + B.le64(0x200) + B.le32(0x1000) + B.le32(2)
        segment += B.le32(0) + B.le32(0) + B.le32(0x8000_0400) + B.le32(0) + B.le32(0) + B.le32(0)
        let uuidCommand: [UInt8] = B.le32(0x1B) + B.le32(24) + uuid
        let commandsSize = segment.count + uuidCommand.count + 24
        let symbolOffset = 32 + commandsSize
        var strings: [UInt8] = [0x20, 0]  // index 0: " " as ld64 writes it
        var table: [UInt8] = []
        for (name, address) in symbols {
            table += B.le32(UInt32(strings.count)) + [0x0F, 1] + [0, 0] + B.le64(address)
            strings += Array(name.utf8) + [0]
        }
        let stringOffset = symbolOffset + table.count
        let symtab: [UInt8] =
            B.le32(0x2) + B.le32(24) + B.le32(UInt32(symbolOffset)) + B.le32(UInt32(symbols.count))
            + B.le32(UInt32(stringOffset)) + B.le32(UInt32(strings.count))
        var header: [UInt8] = B.le32(0xFEED_FACF) + B.le32(cpuType) + B.le32(cpuSubtype) + B.le32(2)
        header += B.le32(3) + B.le32(UInt32(commandsSize)) + B.le32(0) + B.le32(0)
        return header + segment + uuidCommand + symtab + table + strings
    }

    /// A universal file holding `slices` (each aligned to 0x1000), 32- or 64-bit fat header.
    static func fat(_ slices: [MachOBuilder], is64: Bool) -> [UInt8] {
        let images = slices.map { $0.thin() }
        var header: [UInt8] = be32(is64 ? 0xCAFE_BABF : 0xCAFE_BABE) + be32(UInt32(slices.count))
        var body: [UInt8] = []
        var offset = 0x1000
        for (slice, image) in zip(slices, images) {
            header += be32(slice.cpuType) + be32(slice.cpuSubtype)
            if is64 {
                header += be64(UInt64(offset)) + be64(UInt64(image.count)) + be32(12) + be32(0)
            } else {
                header += be32(UInt32(offset)) + be32(UInt32(image.count)) + be32(12)
            }
            body += image + Array(repeating: 0, count: 0x1000 - image.count % 0x1000)
            offset += image.count + (0x1000 - image.count % 0x1000)
        }
        return header + Array(repeating: 0, count: 0x1000 - header.count) + body
    }
}

/// A private temporary folder that is removed when the last reference goes away: a test
/// suite holds one, so every file a test writes is cleaned up after it.
final class ScratchFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-macho-\(UUID().uuidString)")

    /// Writes bytes to a new file in the folder and returns its path.
    func file(_ bytes: [UInt8], name: String = "macho") throws -> String {
        let directory = url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
