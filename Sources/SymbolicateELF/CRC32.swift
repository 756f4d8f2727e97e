import Foundation
import SymbolicateCore

/// CRC-32 (IEEE, as zlib computes it): what `.gnu_debuglink` stores for the debug file, so a
/// file found by name can be checked to be the one the binary was linked with.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    package static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC of a file's contents, or nil when it is not a readable regular file.
    /// (`RegularFile`, not `FileManager.contents(atPath:)`: that leaks 4 KiB per empty file
    /// in Swift 6.3.1's Foundation, found by the zip fuzzer, and would block on a FIFO.)
    package static func checksum(ofFile path: String) -> UInt32? {
        guard case .success(let data) = RegularFile.read(path: path, limit: Int.max) else { return nil }
        return checksum(data)
    }
}
