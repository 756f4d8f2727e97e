import Foundation

/// The central directory of a zip, read with bounds-checked arithmetic.
///
/// Why our own reader: ZIPFoundation's entry iterator ends silently at the first encrypted
/// entry (so every entry after a password-protected one vanished without a word) and does
/// not expose encryption flags or compression methods. Here every record is listed with
/// what is needed to refuse it by name; inflating is still ZIPFoundation's.
struct ZipDirectory {
    struct Record {
        var name: String
        var flags: UInt16
        var method: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        var isDirectory: Bool
        var isSymlink: Bool
        var isEncrypted: Bool { flags & 1 != 0 || flags & (1 << 6) != 0 || method == 99 }
    }

    enum Failure: Error, CustomStringConvertible {
        case notAZip(String)
        case damaged(String)
        var description: String {
            switch self {
            case .notAZip(let why), .damaged(let why): return why
            }
        }
    }

    let file: FileHandle
    let fileSize: UInt64
    private(set) var records: [Record] = []
    /// Set when the directory ends early: the records before the damage are still listed.
    private(set) var damage: String?
    /// The central directory's bytes (every entry's name, sizes, offsets and CRC-32): what the
    /// unzip cache hashes to tell two archives apart.
    private(set) var centralDirectory: [UInt8] = []

    init(file: FileHandle) throws {
        self.file = file
        fileSize = try file.seekToEnd()
        let tailSize = min(fileSize, 22 + 65_535)
        let tail = [UInt8](try read(at: fileSize - tailSize, count: Int(tailSize)))
        guard let end = Self.lastSignature(0x0605_4B50, in: tail, minimumRemaining: 22) else {
            throw Failure.notAZip("no end-of-central-directory record (not a zip, or truncated)")
        }
        var count = UInt64(Self.u16(tail, end + 10))
        var size = UInt64(Self.u32(tail, end + 12))
        var offset = UInt64(Self.u32(tail, end + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // ZIP64: the locator sits right before the classic record.
            guard end >= 20, Self.u32(tail, end - 20) == 0x0706_4B50 else {
                throw Failure.damaged("ZIP64 sizes without a ZIP64 locator")
            }
            let record = [UInt8](try read(at: Self.u64(tail, end - 20 + 8), count: 56))
            guard record.count == 56, Self.u32(record, 0) == 0x0606_4B50 else {
                throw Failure.damaged("ZIP64 end-of-central-directory record missing")
            }
            count = Self.u64(record, 32)
            size = Self.u64(record, 40)
            offset = Self.u64(record, 48)
        }
        let (directoryEnd, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, directoryEnd <= fileSize, size <= Int.max else {
            throw Failure.damaged("central directory (offset \(offset), \(size) bytes) lies outside the \(fileSize)-byte file")
        }
        let directory = [UInt8](try read(at: offset, count: Int(size)))
        centralDirectory = directory
        var at = 0
        while records.count < count {
            guard at + 46 <= directory.count, Self.u32(directory, at) == 0x0201_4B50 else {
                damage = "central directory damaged after \(records.count) of \(count) entries"
                break
            }
            let nameLength = Int(Self.u16(directory, at + 28))
            let extraLength = Int(Self.u16(directory, at + 30))
            let commentLength = Int(Self.u16(directory, at + 32))
            let next = at + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                damage = "central directory damaged after \(records.count) of \(count) entries"
                break
            }
            let nameBytes = Array(directory[(at + 46)..<(at + 46 + nameLength)])
            let extra = Array(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)])
            let flags = Self.u16(directory, at + 8)
            var compressed = UInt64(Self.u32(directory, at + 20))
            var uncompressed = UInt64(Self.u32(directory, at + 24))
            var local = UInt64(Self.u32(directory, at + 42))
            Self.applyZIP64(extra, uncompressed: &uncompressed, compressed: &compressed, offset: &local)
            let madeBy = Self.u16(directory, at + 4) >> 8
            let attributes = Self.u32(directory, at + 38)
            // UTF-8 when flagged (bit 11) or valid; otherwise Latin-1 keeps every byte visible.
            let name = String(validating: nameBytes, as: UTF8.self) ?? String(decoding: nameBytes.map { UInt16($0) }, as: UTF16.self)
            let unixMode = madeBy == 3 || madeBy == 19 ? attributes >> 16 : 0
            records.append(
                Record(
                    name: name, flags: flags, method: Self.u16(directory, at + 10), crc32: Self.u32(directory, at + 16),
                    compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local,
                    isDirectory: name.hasSuffix("/") || name.hasSuffix("\\") || unixMode & 0o170000 == 0o040000
                        || (madeBy == 0 && attributes & 0x10 != 0),
                    isSymlink: unixMode & 0o170000 == 0o120000))
            at = next
        }
    }

    /// Where the entry's data starts (after its local header), checked against the file.
    func dataOffset(of record: Record) throws -> UInt64 {
        let header = [UInt8](try read(at: record.localHeaderOffset, count: 30))
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
            throw Failure.damaged("local header missing at offset \(record.localHeaderOffset)")
        }
        let (start, overflow) = record.localHeaderOffset.addingReportingOverflow(
            30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28)))
        let (end, overflowEnd) = start.addingReportingOverflow(record.compressedSize)
        guard !overflow, !overflowEnd, end <= fileSize else {
            throw Failure.damaged("data (\(record.compressedSize) bytes at offset \(start)) runs past the end of the file")
        }
        return start
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: UInt64, count: Int) throws -> Data {
        guard offset <= fileSize else { return Data() }
        try file.seek(toOffset: offset)
        return try file.read(upToCount: count) ?? Data()
    }

    /// ZIP64 extended information (header 0x0001): the 8-byte values present are those
    /// whose classic field is 0xFFFFFFFF, in this order.
    static func applyZIP64(_ extra: [UInt8], uncompressed: inout UInt64, compressed: inout UInt64, offset: inout UInt64) {
        var at = 0
        while at + 4 <= extra.count {
            let id = u16(extra, at), length = Int(u16(extra, at + 2))
            let body = at + 4
            guard body + length <= extra.count else { return }
            if id == 0x0001 {
                var field = body
                if uncompressed == 0xFFFF_FFFF, field + 8 <= body + length {
                    uncompressed = u64(extra, field)
                    field += 8
                }
                if compressed == 0xFFFF_FFFF, field + 8 <= body + length {
                    compressed = u64(extra, field)
                    field += 8
                }
                if offset == 0xFFFF_FFFF, field + 8 <= body + length { offset = u64(extra, field) }
                return
            }
            at = body + length
        }
    }

    static func lastSignature(_ signature: UInt32, in bytes: [UInt8], minimumRemaining: Int) -> Int? {
        guard bytes.count >= minimumRemaining else { return nil }
        return stride(from: bytes.count - minimumRemaining, through: 0, by: -1).first { u32(bytes, $0) == signature }
    }

    // Little-endian reads; callers check the bounds first.
    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }
    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32 }
}
