import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateTestSupport
import Testing

/// Finding ELF debug files the ways Linux keeps them: by build ID in folders, in
/// `.build-id/xx/rest.debug` trees and debuginfod caches, and through a stripped binary's
/// `.gnu_debuglink` (beside it or in its `.debug/` folder).
@Suite struct ELFDiscoveryTests {
    static func buildID() throws -> DebugID {
        try #require(try DebugFile.openELF(path: LinuxFixtures.debugFile).debugID)
    }

    static func copy(_ source: String, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: source), to: destination)
    }

    /// The entries for the fixture's build ID, best first: the one with DWARF must be there.
    static func dwarfEntry(_ index: DebugFileIndex) throws -> DebugFileEntry? {
        let id = try buildID()
        return try index.entries(id: id).first { try $0.openSession().hasDWARF }
    }

    @Test func buildIDTree() throws {
        let root = try TestPaths.temporaryDirectory("elf-build-id")
        defer { try? FileManager.default.removeItem(at: root) }
        let hex = try Self.buildID().hexString
        let file = root.appendingPathComponent("usr/lib/debug/.build-id/\(hex.prefix(2))/\(hex.dropFirst(2)).debug")
        try Self.copy(LinuxFixtures.debugFile, to: file)
        let index = try DebugFileIndex(inputs: [root.appendingPathComponent("usr/lib/debug").path])
        let entry = try #require(try Self.dwarfEntry(index))
        #expect(entry.path.hasSuffix("\(hex.dropFirst(2)).debug"))
    }

    @Test func debuginfodCache() throws {
        let root = try TestPaths.temporaryDirectory("elf-debuginfod")
        defer { try? FileManager.default.removeItem(at: root) }
        let hex = try Self.buildID().hexString
        try Self.copy(LinuxFixtures.debugFile, to: root.appendingPathComponent("debuginfod_client/\(hex)/debuginfo"))
        try Self.copy(LinuxFixtures.binary, to: root.appendingPathComponent("debuginfod_client/\(hex)/executable"))
        let index = try DebugFileIndex(inputs: [root.appendingPathComponent("debuginfod_client").path])
        #expect(try Self.dwarfEntry(index)?.path.hasSuffix("/debuginfo") == true)
    }

    @Test(arguments: ["beside", ".debug"])
    func debugLinkFromTheStrippedBinary(_ place: String) throws {
        let root = try TestPaths.temporaryDirectory("elf-debuglink")
        defer { try? FileManager.default.removeItem(at: root) }
        let binary = root.appendingPathComponent("srv/crashy")
        try Self.copy(LinuxFixtures.binary, to: binary)
        let folder = place == "beside" ? "srv" : "srv/.debug"
        try Self.copy(LinuxFixtures.debugFile, to: root.appendingPathComponent("\(folder)/crashy.debug"))
        // Only the binary is named: its .gnu_debuglink leads to the debug file.
        let index = try DebugFileIndex(inputs: [binary.path])
        let entry = try #require(try Self.dwarfEntry(index))
        #expect(entry.path.hasSuffix("\(folder)/crashy.debug"))
        // The binary itself is indexed too, ranked after (no DWARF).
        #expect(index.entries(id: try Self.buildID()).count == 2)
    }

    /// A debug file named like the binary (`crashy.debug`) is found under the image name, so a
    /// build-ID mismatch can be said.
    @Test func debugFileIsFoundByImageName() throws {
        let index = try DebugFileIndex(inputs: [LinuxFixtures.debugFile])
        #expect(index.entries(imageName: "crashy").count == 1)
    }
}
