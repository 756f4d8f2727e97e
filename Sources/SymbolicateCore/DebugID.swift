/// The identity of one build of one image: a Mach-O `LC_UUID` or an ELF GNU build ID.
///
/// Reports and debug files spell identities many ways (`<82d13d98219e…>`, dashed, either
/// case); matching compares the bytes, so every spelling is parsed once, here, and never
/// compared as text. Equality and hashing use the bytes only: a 16-byte build ID and a UUID
/// with the same bytes name the same build.
public struct DebugID: Hashable, Sendable, CustomStringConvertible, Codable {
    public enum Kind: Sendable {
        /// 16 bytes, printed uppercase and dashed 8-4-4-4-12 (how Apple's tools print it).
        case uuid
        /// Any length (20 bytes for SHA-1, 16 for MD5/UUID-style), printed as lowercase hex
        /// (how `file`, `readelf -n` and the Swift runtime's backtracer print it).
        case buildID
    }

    public let bytes: [UInt8]
    public let kind: Kind

    /// A UUID from its 16 bytes (`LC_UUID`).
    public init?(uuidBytes bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
        kind = .uuid
    }

    /// A GNU build ID from the bytes of its note (`NT_GNU_BUILD_ID`). Empty is not an ID.
    public init?(buildIDBytes bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        self.bytes = bytes
        kind = .buildID
    }

    /// A UUID written any way Apple's tools write one: 32 hex digits, dashed or not, either
    /// case, optionally in `<…>`. `nil` for anything else.
    public init?(uuid text: String) {
        guard let bytes = Self.hexBytes(text), bytes.count == 16 else { return nil }
        self.bytes = bytes
        kind = .uuid
    }

    /// A build ID written as hex (any case; dashes, spaces and `<…>` ignored).
    public init?(buildID text: String) {
        guard let bytes = Self.hexBytes(text), !bytes.isEmpty else { return nil }
        self.bytes = bytes
        kind = .buildID
    }

    /// Any spelling, when the caller does not know which kind it holds (a `--uuid`
    /// argument, an index lookup): 16 bytes read as a UUID, other lengths as a build ID.
    public init?(parsing text: String) {
        guard let bytes = Self.hexBytes(text), !bytes.isEmpty else { return nil }
        self.bytes = bytes
        kind = bytes.count == 16 ? .uuid : .buildID
    }

    /// Uppercase dashed for a UUID (`82D13D98-219E-3040-B62A-07A297007A7C`), lowercase hex
    /// for a build ID.
    public var description: String {
        switch kind {
        case .uuid:
            var out = ""
            out.reserveCapacity(36)
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append("-") }
                out += Self.hex(byte, uppercase: true)
            }
            return out
        case .buildID:
            return hexString
        }
    }

    /// Lowercase hex without separators: how `.ips` text bodies and `<uuid>` in Apple's
    /// text reports print it.
    public var hexString: String {
        bytes.map { Self.hex($0, uppercase: false) }.joined()
    }

    public static func == (lhs: DebugID, rhs: DebugID) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    // Encoded as its description, so JSON output keeps the string it always had.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = DebugID(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a UUID or build ID: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func hex(_ byte: UInt8, uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// The bytes of a hex spelling, ignoring `-`, spaces and one pair of `<…>`; `nil` when
    /// anything else appears or the digit count is odd.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        var digits: [UInt8] = []
        digits.reserveCapacity(40)
        var scalars = Substring(text)
        if scalars.first == "<" && scalars.last == ">" { scalars = scalars.dropFirst().dropLast() }
        for scalar in scalars.unicodeScalars {
            switch scalar {
            case "0"..."9": digits.append(UInt8(scalar.value - 48))
            case "a"..."f": digits.append(UInt8(scalar.value - 87))
            case "A"..."F": digits.append(UInt8(scalar.value - 55))
            case "-", " ": continue
            default: return nil
            }
        }
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
