import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

/// Our lookups against llvm-symbolizer-19 (piped through `swift-demangle --simplified`) at
/// the start address of every line-table row of every fixture dSYM slice: the whole inline
/// chain (function, file, line) must agree.
@Suite struct DifferentialTests {
    struct Slice: Sendable, CustomTestStringConvertible {
        var dwarfFile: String
        var arch: String
        var testDescription: String { "\((dwarfFile as NSString).lastPathComponent) \(arch)" }
    }

    static let slices: [Slice] =
        TestPaths.dsymBundles.flatMap { dsym -> [Slice] in
            guard let slices = try? FixtureDebugFiles.builds(dsym) else { return [] }
            return slices.map { Slice(dwarfFile: $0.path, arch: $0.architecture.name) }
        }
        + ([LinuxFixtures.debugFile, LinuxFixtures.zlibDebugFile, LinuxNamedFixture.debugFile] + ELFNamingFixtures.debugFiles).map {
            Slice(dwarfFile: $0, arch: "x86_64")
        }

    static let symbolizer = ExternalTool.find("llvm-symbolizer-19")
    static let dwarfdump = ExternalTool.find("llvm-dwarfdump-19")
    static let swiftDemangle = ExternalTool.find("swift-demangle")

    @Test func fixturesHaveSlices() {
        #expect(Self.slices.count >= 5)
    }

    /// Start addresses of every row that is not an end-of-sequence marker.
    static func rowAddresses(_ slice: Slice, dwarfdump: String) throws -> [UInt64] {
        // --arch selects Mach-O slices only; it would filter an ELF file's rows away.
        let arch = DebugFileFormats.format(ofFileAt: slice.dwarfFile) is ELFDebugFormat.Type ? [] : ["--arch=\(slice.arch)"]
        return try ExternalTool.lineRowAddresses(slice.dwarfFile, options: arch, dwarfdump: dwarfdump)
    }

    /// llvm-symbolizer's chains for `addresses`, one symbolizer run for the whole slice.
    static func oracle(_ slice: Slice, _ addresses: [UInt64], symbolizer: String, demangler: String) throws -> [[String]] {
        let input = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let raw = try ExternalTool.run(
            symbolizer, ["--obj=\(slice.dwarfFile)", "--inlining", "--default-arch=\(slice.arch)"], stdin: input)
        let text = try ExternalTool.run(demangler, ["--simplified"], stdin: raw)
        let blocks = text.components(separatedBy: "\n\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        return blocks.map { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var frames: [String] = []
            var index = 0
            while index + 1 < lines.count {
                // "file:line:column": split from the right; paths may contain ':'.
                let location = lines[index + 1].split(separator: ":", omittingEmptySubsequences: false)
                let file = location.dropLast(2).joined(separator: ":")
                let line = location.count >= 3 ? String(location[location.count - 2]) : "?"
                frames.append("\(lines[index]) | \(file):\(line)")
                index += 2
            }
            return frames
        }
    }

    @Test(arguments: slices)
    func agreesWithLLVMSymbolizer(_ slice: Slice) throws {
        guard let symbolizer = Self.symbolizer, let dwarfdump = Self.dwarfdump, let demangler = Self.swiftDemangle else {
            print("DifferentialTests: skipped: llvm-symbolizer-19, llvm-dwarfdump-19 or swift-demangle not found")
            return
        }
        let addresses = try Self.rowAddresses(slice, dwarfdump: dwarfdump)
        #expect(!addresses.isEmpty)
        let expected = try Self.oracle(slice, addresses, symbolizer: symbolizer, demangler: demangler)
        try #require(expected.count == addresses.count, "llvm-symbolizer answered \(expected.count) of \(addresses.count) addresses")
        let session = try FixtureDebugFiles.open(slice.dwarfFile, architecture: Architecture(slice.arch))
        let results = session.lookup(fileAddresses: addresses)
        var disagreements: [String] = []
        for (index, address) in addresses.enumerated() {
            let ours = (results[index]?.frames ?? []).map { "\($0.function) | \($0.file ?? "??"):\($0.line ?? 0)" }
            let theirs = expected[index]
            if ours != theirs && !(ours.isEmpty && theirs == ["?? | ??:0"]) {
                disagreements.append("0x\(String(address, radix: 16)):\n  ours   \(ours)\n  theirs \(theirs)")
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(addresses.count) addresses disagree:\n\(disagreements.prefix(10).joined(separator: "\n"))")
        print("DifferentialTests: \(slice.testDescription): \(addresses.count) addresses, \(disagreements.count) disagreements")
    }
}
