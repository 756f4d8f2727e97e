import SymbolicateCore
import Testing

/// FIPS 180-4's own examples (and the empty message), across the block boundary the padding crosses.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownDigests(_ message: String, _ digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
        #expect(Array(message.utf8).withUnsafeBytes { SHA256.hex(of: $0) } == digest)
    }

    @Test func aMillionAs() {
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
