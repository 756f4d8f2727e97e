import SymbolicateCore
import Testing

@Suite struct DebugIDTests {
    @Test(
        "every UUID spelling is the same identity, printed uppercase dashed",
        arguments: [
            "82d13d98219e3040b62a07a297007a7c", "<82d13d98219e3040b62a07a297007a7c>",
            "82D13D98-219E-3040-B62A-07A297007A7C", "82d13d98-219e-3040-b62a-07a297007a7c",
        ])
    func uuidSpellings(_ spelling: String) throws {
        let id = try #require(DebugID(uuid: spelling))
        #expect(id.description == "82D13D98-219E-3040-B62A-07A297007A7C")
        #expect(id.hexString == "82d13d98219e3040b62a07a297007a7c")
        #expect(id == DebugID(parsing: spelling))
    }

    @Test(
        "malformed UUIDs are refused",
        arguments: ["82d13d98", "zzd13d98219e3040b62a07a297007a7c", "", "<>", "82d13d98219e3040b62a07a297007a7c0"])
    func badUUID(_ spelling: String) {
        #expect(DebugID(uuid: spelling) == nil)
    }

    @Test func buildIDsKeepTheirLengthAndPrintLowercase() throws {
        let id = try #require(DebugID(buildID: "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678"))
        #expect(id.bytes.count == 20)
        #expect(id.kind == .buildID)
        #expect(id.description == "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678")
        #expect(DebugID(parsing: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678") == id)
        #expect(DebugID(buildIDBytes: id.bytes) == id)
        #expect(DebugID(buildID: "abc") == nil)  // odd digit count
        #expect(DebugID(buildIDBytes: []) == nil)
    }

    @Test func identityIsTheBytesNotTheKind() throws {
        let uuid = try #require(DebugID(uuid: "00010203-0405-0607-0809-0a0b0c0d0e0f"))
        let buildID = try #require(DebugID(buildIDBytes: Array(0..<16)))
        #expect(uuid == buildID)
        #expect(Set([uuid, buildID]).count == 1)
        #expect(DebugID(uuidBytes: Array(0..<15)) == nil)
    }
}

@Suite struct ArchitectureTests {
    @Test(
        "spellings of one architecture are equal",
        arguments: [
            ("arm64", "ARM64"), ("arm64", "arm64-unknown"), ("arm64", "aarch64"), ("x86_64", "amd64"),
            ("x86_64", "X86_64"), ("i386", "i686"),
        ])
    func aliases(_ canonical: String, _ spelling: String) {
        #expect(Architecture(spelling) == Architecture(canonical))
        #expect(Architecture(spelling).name == canonical)
    }

    @Test func variantsBelongToTheirFamily() {
        #expect(Architecture.arm64e.family == .arm64)
        #expect(Architecture.x86_64h.family == .x86_64)
        #expect(Architecture.arm64_32.family == .arm64_32)
        #expect(Architecture.arm64e != .arm64)
        #expect(!Architecture.arm64_32.is64Bit && Architecture.arm64e.is64Bit)
    }

    @Test(
        "Code Type lines",
        arguments: [
            ("ARM-64 (Native)", "arm64"), ("ARM64E", "arm64e"), ("ARM-64_32", "arm64_32"),
            ("X86-64 (Native)", "x86_64"), ("X86 (Native)", "i386"), ("ARM (Native)", "armv7"),
        ])
    func codeType(_ line: String, _ name: String) {
        #expect(Architecture(codeType: line)?.name == name)
    }

    @Test func elfMachines() {
        #expect(Architecture(elfMachine: 62) == .x86_64)
        #expect(Architecture(elfMachine: 183) == .arm64)
        #expect(Architecture(elfMachine: 0xFFFF) == nil)
    }
}

@Suite struct ImageSlideTests {
    @Test func slideLookupAndFileAddress() {
        let slide = ImageSlide(loadAddress: 0x1_0223_0000, linkedAddress: 0x1_0000_0000)
        #expect(slide.value == 0x223_0000)
        #expect(slide.fileAddress(0x1_0223_64BC) == 0x1_0000_64BC)
        #expect(ImageSlide.lookupAddress(0x1000, isTopFrame: true) == 0x1000)
        #expect(ImageSlide.lookupAddress(0x1000, isTopFrame: false) == 0xFFF)
        // Loaded below the link address: the slide wraps and the arithmetic still holds.
        let negative = ImageSlide(loadAddress: 0x1000, linkedAddress: 0x4000)
        #expect(negative.fileAddress(0x1010) == 0x4010)
    }
}
