import Foundation
import SymbolicateCore
import SymbolicateELF
import SymbolicateTestSupport
import Testing

/// Issue 54, finding 13: compressed debug sections were inflated whole in memory whatever
/// they declared (four truthful 1 GiB sections held 4.1 GB). Past a per-file or per-process
/// budget a section is now refused with an error naming it, before anything is allocated; a
/// closed file gives its share back. A real ELF debug file (the Linux fixture) with an 8 MiB
/// section added and compressed by llvm-objcopy-19: 8 KiB on disk, 8 MiB declared.
@Suite struct InflationBudgetTests {
    static let declared: UInt64 = 8 << 20

    /// Readers to hold to the budget: the build's (`ELFFile`) and the pure-Swift one.
    static let readers: [(String, @Sendable (String, InflationBudget) throws -> any ELFReading)] = [
        ("ELFFile", { try ELFFile(path: $0, budget: $1) }),
        ("SwiftELFFile", { try SwiftELFFile(path: $0, budget: $1) }),
    ]

    static func bigCompressedFile(in folder: URL) throws -> String? {
        guard let objcopy = ExternalTool.find("llvm-objcopy-19") else {
            print("InflationBudgetTests: skipped, llvm-objcopy-19 is missing")
            return nil
        }
        let zeros = folder.appendingPathComponent("zeros.bin").path
        try Data(count: Int(declared)).write(to: URL(fileURLWithPath: zeros))
        let added = folder.appendingPathComponent("added.debug").path
        let compressed = folder.appendingPathComponent("big.debug").path
        let add = try ExternalTool.result(objcopy, ["--add-section", ".debug_big=\(zeros)", LinuxFixtures.debugFile, added])
        #expect(add.status == 0, "\(add.stderr)")
        let compress = try ExternalTool.result(objcopy, ["--compress-debug-sections=zlib", added, compressed])
        #expect(compress.status == 0, "\(compress.stderr)")
        return compressed
    }

    @Test(arguments: 0..<2)
    func aSectionPastTheFilesBudgetIsRefusedByName(_ reader: Int) throws {
        let folder = try TestPaths.temporaryDirectory("elf-inflation")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let path = try Self.bigCompressedFile(in: folder) else { return }
        let budget = InflationBudget(perFile: 4 << 20, total: 64 << 20)
        let file = try Self.readers[reader].1(path, budget)
        let big = try #require(file.section(named: ".debug_big"))
        #expect(big.isCompressed && big.size < 64 << 10)
        let error = try #require(throws: ELFError.self) { try file.contents(of: big) }
        #expect(error.path == path)
        #expect(
            error.message.hasPrefix(".debug_big: inflating it (8388608 bytes) would pass the 4194304-byte budget of one file"),
            "\(error.message)")
        #expect(budget.held == 0, "nothing was counted for the refused section")
        // What a lookup needs still inflates, within the budget.
        let info = try #require(file.section(named: ".debug_info"))
        #expect(try !file.contents(of: info).isEmpty)
        #expect(budget.held > 0 && budget.held < 1 << 20)
    }

    @Test(arguments: 0..<2)
    func openFilesShareTheProcessBudgetAndGiveItBackWhenClosed(_ reader: Int) throws {
        let folder = try TestPaths.temporaryDirectory("elf-inflation")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let path = try Self.bigCompressedFile(in: folder) else { return }
        let budget = InflationBudget(perFile: 16 << 20, total: 12 << 20)
        let open = Self.readers[reader].1
        do {
            let first = try open(path, budget)
            let bytes = try first.contents(of: try #require(first.section(named: ".debug_big")))
            #expect(bytes.count == Int(Self.declared) && bytes.allSatisfy { $0 == 0 })
            #expect(budget.held == Self.declared)
            let second = try open(path, budget)
            let error = try #require(throws: ELFError.self) { try second.contents(of: try #require(second.section(named: ".debug_big"))) }
            #expect(error.message.contains("budget of the process"), "\(error.message)")
        }
        #expect(budget.held == 0, "closed files give their share back")
        let third = try open(path, budget)
        #expect(try third.contents(of: try #require(third.section(named: ".debug_big"))).count == Int(Self.declared))
    }
}
