import Foundation

/// Writes a zip of stored (uncompressed) entries byte by byte, so tests can build archives a
/// zip tool would refuse to make: escaping paths, duplicate names, encrypted or bzip2 flags.
public struct StoredZip {
    public struct Entry {
        public var name: String
        public var data: Data
        /// General-purpose flags (bit 0: encrypted).
        public var flags: UInt16
        /// Compression method written in the headers (the data stays stored).
        public var method: UInt16

        public init(_ name: String, _ data: Data, flags: UInt16 = 0, method: UInt16 = 0) {
            self.name = name
            self.data = data
            self.flags = flags
            self.method = method
        }
    }

    public var entries: [Entry]
    public init(_ entries: [Entry]) { self.entries = entries }

    public func bytes() -> Data {
        var out = Data(), directory = Data()
        for entry in entries {
            let name = Data(entry.name.utf8)
            let crc = Self.crc32(entry.data)
            let offset = UInt32(out.count)
            func common(into data: inout Data) {
                Self.put(&data, entry.flags)
                Self.put(&data, entry.method)
                Self.put(&data, UInt32(0))  // time, date
                Self.put(&data, crc)
                Self.put(&data, UInt32(entry.data.count))
                Self.put(&data, UInt32(entry.data.count))
                Self.put(&data, UInt16(name.count))
                Self.put(&data, UInt16(0))  // extra length
            }
            Self.put(&out, UInt32(0x0403_4B50))
            Self.put(&out, UInt16(20))
            common(into: &out)
            out.append(name)
            out.append(entry.data)

            Self.put(&directory, UInt32(0x0201_4B50))
            Self.put(&directory, UInt16(0x0314))  // made by: Unix
            Self.put(&directory, UInt16(20))
            common(into: &directory)
            Self.put(&directory, UInt16(0))  // comment length
            Self.put(&directory, UInt16(0))  // disk
            Self.put(&directory, UInt16(0))  // internal attributes
            Self.put(&directory, UInt32(0o100644) << 16)
            Self.put(&directory, offset)
            directory.append(name)
        }
        let directoryOffset = UInt32(out.count)
        out.append(directory)
        Self.put(&out, UInt32(0x0605_4B50))
        Self.put(&out, UInt32(0))  // disk numbers
        Self.put(&out, UInt16(entries.count))
        Self.put(&out, UInt16(entries.count))
        Self.put(&out, UInt32(directory.count))
        Self.put(&out, directoryOffset)
        Self.put(&out, UInt16(0))
        return out
    }

    public func write(to url: URL) throws { try bytes().write(to: url) }

    public static func put<T: FixedWidthInteger>(_ data: inout Data, _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    static let crcTable: [UInt32] = (0..<256).map { (n: UInt32) in
        var crc = n
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    public static func crc32(_ data: Data) -> UInt32 {
        let table = crcTable
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
