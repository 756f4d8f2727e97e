import SymbolicateCore

/// A Mach-O file on disk: thin, or universal (fat, 32- or 64-bit fat header) with slices.
///
/// Parsing reads only headers and load commands; symbol tables are read on demand by
/// `MachOSlice.symbols()`. All bytes come from one read-only mapping shared by the slices.
package final class MachOFile: Sendable {
    package let path: String
    package let mapping: MappedFile
    package let slices: [MachOSlice]
    /// Whether the file had a universal (fat) header.
    package let isUniversal: Bool

    static let fatMagic: UInt32 = 0xCAFE_BABE
    static let fatMagic64: UInt32 = 0xCAFE_BABF
    static let magic32: UInt32 = 0xFEED_FACE
    static let magic64: UInt32 = 0xFEED_FACF

    package convenience init(path: String) throws(MachOError) {
        try self.init(mapping: MappedFile(path: path))
    }

    package init(mapping: MappedFile) throws(MachOError) {
        self.path = mapping.path
        self.mapping = mapping
        let reader = ByteReader(file: mapping)
        guard mapping.count >= 4 else {
            throw MachOError(path: path, offset: 0, message: "not a Mach-O file: \(mapping.count) bytes long")
        }
        let magicBE = try reader.u32(0, "magic", bigEndian: true)
        if magicBE == Self.fatMagic || magicBE == Self.fatMagic64 {
            isUniversal = true
            slices = try Self.parseFat(reader, is64: magicBE == Self.fatMagic64)
        } else {
            isUniversal = false
            slices = [try MachOSlice(file: reader, offset: 0, size: mapping.count, fatCPU: nil)]
        }
    }

    private static func parseFat(_ reader: ByteReader, is64: Bool) throws(MachOError) -> [MachOSlice] {
        let count = Int(try reader.u32(4, "fat header", bigEndian: true))
        // 0xCAFEBABE is also a Java class file; a real universal file has a handful of slices.
        guard count > 0, count < 64 else {
            throw MachOError(path: reader.file.path, offset: 4, message: "not a Mach-O universal file: \(count) architectures")
        }
        let entrySize = is64 ? 32 : 20
        var slices: [MachOSlice] = []
        for index in 0..<count {
            let at = 8 + index * entrySize
            let cpuType = Int32(bitPattern: try reader.u32(at, "fat_arch", bigEndian: true))
            let cpuSubtype = Int32(bitPattern: try reader.u32(at + 4, "fat_arch", bigEndian: true))
            let offset: UInt64
            let size: UInt64
            if is64 {
                offset = try reader.u64(at + 8, "fat_arch_64 offset", bigEndian: true)
                size = try reader.u64(at + 16, "fat_arch_64 size", bigEndian: true)
            } else {
                offset = UInt64(try reader.u32(at + 8, "fat_arch offset", bigEndian: true))
                size = UInt64(try reader.u32(at + 12, "fat_arch size", bigEndian: true))
            }
            guard offset <= UInt64(reader.count), size <= UInt64(reader.count) - offset else {
                throw MachOError(
                    path: reader.file.path, offset: at,
                    message:
                        "slice \(index) (\(MachOCPU(cpuType: cpuType, cpuSubtype: cpuSubtype))) at 0x\(String(offset, radix: 16)) size 0x\(String(size, radix: 16)) extends past the end of the file (0x\(String(reader.count, radix: 16)) bytes)"
                )
            }
            slices.append(
                try MachOSlice(
                    file: reader, offset: Int(offset), size: Int(size),
                    fatCPU: MachOCPU(cpuType: cpuType, cpuSubtype: cpuSubtype)
                ))
        }
        return slices
    }

    /// The slice whose LC_UUID is `id`.
    package func slice(id: DebugID) -> MachOSlice? {
        slices.first { $0.debugID == id }
    }

    /// The slice for an architecture (`arm64`, `arm64e`, `x86_64h`, …), by
    /// `Architecture.match(among:)`.
    package func slice(architecture wanted: Architecture) -> MachOSlice? {
        wanted.match(among: slices.map(\.architecture)).map { slices[$0] }
    }
}
