import Foundation
import SymbolicateCore
import Testing

@testable import SymbolicateMachO

@Suite struct MachOFileTests {
    /// Holds this test's files; removed with the suite instance after each test.
    let scratch = ScratchFolder()

    @Test func thinFileHeaderUUIDSegmentsAndSymbols() throws {
        let builder = MachOBuilder()
        let file = try MachOFile(path: try scratch.file(builder.thin()))
        #expect(!file.isUniversal)
        #expect(file.slices.count == 1)
        let slice = try #require(file.slices.first)
        #expect(slice.architecture.name == "arm64")
        #expect(slice.debugID?.description == "00010203-0405-0607-0809-0A0B0C0D0E0F")
        #expect(slice.textVMAddress == builder.textVMAddress)
        #expect(slice.section(segment: "__TEXT", name: "__text")?.address == builder.textVMAddress + 0x1000)
        let symbols = try slice.symbols()
        #expect(symbols.map(\.name) == ["_main", "_helper"])
        #expect(symbols.map(\.address) == [0x1_0000_1000, 0x1_0000_1100])
    }

    @Test(arguments: [false, true])
    func universalFileSlicesByArchAndUUID(is64: Bool) throws {
        var arm = MachOBuilder()
        arm.cpuSubtype = 2  // arm64e
        arm.uuid = Array(repeating: 0xAB, count: 16)
        var intel = MachOBuilder()
        intel.cpuType = 0x0100_0007
        intel.cpuSubtype = 8  // x86_64h
        intel.uuid = Array(repeating: 0xCD, count: 16)
        let path = try scratch.file(MachOBuilder.fat([arm, intel], is64: is64))
        let file = try MachOFile(path: path)
        #expect(file.isUniversal)
        #expect(file.slices.map(\.architecture.name) == ["arm64e", "x86_64h"])
        #expect(file.slice(architecture: Architecture("x86_64h"))?.debugID == DebugID(uuid: "CDCDCDCD-CDCD-CDCD-CDCD-CDCDCDCDCDCD"))
        // The lone x86_64 family member stands in for plain x86_64.
        #expect(file.slice(architecture: .x86_64)?.architecture.name == "x86_64h")
        #expect(file.slice(id: try #require(DebugID(uuid: "abababababababababababababababab")))?.architecture.name == "arm64e")
        #expect(file.slice(id: try #require(DebugID(uuid: "00000000-0000-0000-0000-000000000000"))) == nil)
        #expect(
            file.slices.map(\.debugID?.description) == ["ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB", "CDCDCDCD-CDCD-CDCD-CDCD-CDCDCDCDCDCD"])
    }

    @Test(arguments: [
        (Int32(0x0100_000C), Int32(0), "arm64"), (0x0100_000C, 1, "arm64"), (0x0100_000C, 2, "arm64e"),
        (0x0100_000C, Int32(bitPattern: 0x8000_0002), "arm64e"), (0x0200_000C, 1, "arm64_32"),
        (0x0100_0007, 3, "x86_64"), (0x0100_0007, 8, "x86_64h"), (7, 3, "i386"),
        (12, 9, "armv7"), (12, 11, "armv7s"), (12, 12, "armv7k"),
    ])
    func architectureNames(cpuType: Int32, cpuSubtype: Int32, name: String) {
        #expect(MachOCPU(cpuType: cpuType, cpuSubtype: cpuSubtype).architecture.name == name)
    }

    @Test func everyTruncationIsAnErrorNamingFileAndOffset() throws {
        let bytes = MachOBuilder().thin()
        for length in stride(from: 0, to: bytes.count, by: 7) {
            let path = try scratch.file(Array(bytes[..<length]))
            do {
                let file = try MachOFile(path: path)
                // Header and commands may survive; the symbol table then must not.
                _ = try file.slices.first?.symbols()
                Issue.record("truncated at \(length) of \(bytes.count) bytes parsed without error")
            } catch {
                #expect(error.path == path)
                #expect(error.offset != nil || length == 0, "\(error)")
                #expect(error.description.contains(path))
            }
        }
    }

    @Test func universalSliceBeyondEndOfFileIsAnError() throws {
        var bytes = MachOBuilder.fat([MachOBuilder()], is64: false)
        bytes.removeLast(bytes.count - 0x1100)
        let path = try scratch.file(bytes)
        #expect(throws: MachOError.self) { try MachOFile(path: path) }
    }

    @Test func notMachO() throws {
        let path = try scratch.file(Array("hello, world\n".utf8))
        let error = try #require(throws: MachOError.self) { try MachOFile(path: path) }
        #expect(error.message.contains("not a Mach-O"))
        let empty = try scratch.file([])
        #expect(throws: MachOError.self) { try MachOFile(path: empty) }
    }
}
