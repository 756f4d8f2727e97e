import Foundation
import Testing

@testable import SymbolicateMachO

/// What `symbolicate audit` reads besides the identity (`MachOSlice+Audit.swift`), on images
/// built byte by byte: the install name and the code signature's team. (Compile units,
/// symbol counts and hidden names are read from the real fixture archive in
/// SymbolicateAuditTests.)
@Suite struct AuditReadingTests {
    let scratch = ScratchFolder()
    typealias B = MachOBuilder

    /// A 64-bit MH_DYLIB with only `commands` (each a whole load command) and `tail` after them.
    func image(_ commands: [[UInt8]], tail: [UInt8] = []) -> [UInt8] {
        let size = commands.reduce(0) { $0 + $1.count }
        var header: [UInt8] = B.le32(0xFEED_FACF) + B.le32(0x0100_000C) + B.le32(0) + B.le32(6)
        header += B.le32(UInt32(commands.count)) + B.le32(UInt32(size)) + B.le32(0) + B.le32(0)
        return header + commands.flatMap { $0 } + tail
    }

    func idDylib(_ name: String) -> [UInt8] {
        var text = Array(name.utf8) + [0]
        while (24 + text.count) % 8 != 0 { text.append(0) }
        return B.le32(0xD) + B.le32(UInt32(24 + text.count)) + B.le32(24) + B.le32(2) + B.le32(0x10000) + B.le32(0x10000) + text
    }

    /// LC_CODE_SIGNATURE pointing right after the load commands at a SuperBlob holding one
    /// CodeDirectory of `version`, with `team` at its teamOffset (0 when nil).
    func signed(team: String?, version: UInt32) -> [UInt8] {
        let teamBytes: [UInt8] = team.map { Array($0.utf8) + [0] } ?? []
        var directory: [UInt8] = B.be32(0xFADE_0C02) + B.be32(UInt32(52 + teamBytes.count)) + B.be32(version)
        directory += Array(repeating: 0, count: 36)  // flags … scatterOffset
        directory += B.be32(team == nil ? 0 : 52) + teamBytes
        let superBlob: [UInt8] = B.be32(0xFADE_0CC0) + B.be32(UInt32(20 + directory.count)) + B.be32(1) + B.be32(0) + B.be32(20)
        let blob = superBlob + directory
        let command: [UInt8] = B.le32(0x1D) + B.le32(16) + B.le32(32 + 16) + B.le32(UInt32(blob.count))
        return image([command], tail: blob)
    }

    func slice(_ bytes: [UInt8]) throws -> MachOSlice {
        try #require(try MachOFile(path: try scratch.file(bytes)).slices.first)
    }

    @Test func theInstallNameOfADylib() throws {
        #expect(try slice(image([idDylib("@rpath/Ads.framework/Ads")])).installName() == "@rpath/Ads.framework/Ads")
        #expect(try slice(MachOBuilder().thin()).installName() == nil)
    }

    @Test func theTeamOfACodeSignature() throws {
        #expect(try slice(signed(team: "ABCDE12345", version: 0x20400)).codeSignature() == .team("ABCDE12345"))
        #expect(try slice(signed(team: nil, version: 0x20400)).codeSignature() == .noTeam)
        // Before version 0x20200 a CodeDirectory has no teamOffset field at all.
        #expect(try slice(signed(team: "ABCDE12345", version: 0x20100)).codeSignature() == .noTeam)
        #expect(try slice(MachOBuilder().thin()).codeSignature() == .unsigned)
    }

    @Test func aSignaturePastTheEndIsATypedError() throws {
        let command: [UInt8] = B.le32(0x1D) + B.le32(16) + B.le32(0x10_0000) + B.le32(64)
        #expect(throws: MachOError.self) { try slice(image([command])).codeSignature() }
    }

    @Test func compileUnitsAndSymbolsOfAFileWithoutDWARF() throws {
        #expect(try slice(MachOBuilder().thin()).compileUnitCount() == 0)
        #expect(try slice(MachOBuilder().thin()).definedSymbolCounts() == (local: 0, external: 2))
    }
}
