import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDemangling
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

@testable import SymbolicateDWARF

@Suite struct SessionTests {
    /// `.debug_abbrev` bytes: one unit table with a declaration using DW_AT_GNU_dwo_id
    /// (0x2131 = ULEB b1 42, DW_FORM_data8) and DW_FORM_implicit_const (SLEB), then a
    /// second table.
    @Test func abbreviationPatchRewritesOnlyAttributeCodes() throws {
        let table: [UInt8] = [
            0x01, 0x11, 0x01,  // code 1, DW_TAG_compile_unit, children
            0x25, 0x25,  // DW_AT_producer, DW_FORM_strx1
            0xB1, 0x42, 0x07,  // DW_AT_GNU_dwo_id, DW_FORM_data8
            0x0B, 0x21, 0xB1, 0x42,  // DW_AT_byte_size, implicit_const with value bytes b1 42
            0x00, 0x00,
            0x00,  // end of table
            0x01, 0x2E, 0x00, 0xB1, 0x42, 0x07, 0x00, 0x00, 0x00,
        ]
        let patched = try table.withUnsafeBytes { bytes in
            try #require(try AbbreviationPatch.neutralizeDWOId(in: bytes, path: "<bytes>"))
        }
        var expected = table
        expected[5] = 0xF0
        expected[6] = 0x7F
        expected[18] = 0xF0
        expected[19] = 0x7F
        #expect(patched == expected)
        let untouched: [UInt8] = [0x01, 0x11, 0x00, 0x03, 0x08, 0x00, 0x00, 0x00]
        #expect(try untouched.withUnsafeBytes { try AbbreviationPatch.neutralizeDWOId(in: $0, path: "<bytes>") } == nil)
    }

    @Test func truncatedAbbreviationTableIsAnError() {
        let table: [UInt8] = [0x01, 0x11, 0x01, 0xB1]
        #expect(throws: DebugInfoError.self) {
            try table.withUnsafeBytes { try AbbreviationPatch.neutralizeDWOId(in: $0, path: "<bytes>") }
        }
    }

    @Test(arguments: [
        ("$s15iOSCrashingTest10CrashClassC06pleaseC0yyFZTf4d_n", "specialized static CrashClass.pleaseCrash()"),
        ("_ZN3foo3barEv", "foo::bar()"),
        ("_ZN8CrashKit5Codec8checksumEPKhl", "CrashKit::Codec::checksum(unsigned char const*, long)"),
    ])
    func demangling(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
    }

    @Test(arguments: ["main", "-[Foo bar:]", "_ZZZ garbage", "$sGARBAGE", "", "_Z"])
    func undemanglableNamesStayRaw(name: String) {
        #expect(Demangler.displayName(name) == name || Demangler.demangle(name) != nil)
        if !name.hasPrefix("$s") && !name.hasPrefix("_Z") { #expect(Demangler.demangle(name) == nil) }
    }

    /// With no DWARF at all (the fixture executables), answers come from LC_SYMTAB: the
    /// nearest preceding symbol, as `llvm-nm-19` lists them.
    @Test func symbolTableFallbackMatchesNM() throws {
        guard let nm = ExternalTool.find("llvm-nm-19") else {
            print("SessionTests: skipped symbol-table check: llvm-nm-19 not found")
            return
        }
        let binary = TestPaths.fixtures.appendingPathComponent("bin/CrashApp").path
        // The session over the binary's own symbol table (opening the binary as a debug file
        // would follow its debug map to objects that are not kept: DebugMapTests).
        let session = try DebugSession(slice: try #require(try MachOFile(path: binary).slices.first))
        #expect(!session.hasDWARF)
        var symbols: [(UInt64, String)] = []
        for line in try ExternalTool.run(nm, ["--defined-only", "-n", binary]).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, "tT".contains(parts[1]), let address = UInt64(parts[0], radix: 16) else { continue }
            symbols.append((address, String(parts[2])))
        }
        try #require(symbols.count >= 3)
        for (index, symbol) in symbols.enumerated() {
            let next = index + 1 < symbols.count ? symbols[index + 1].0 : symbol.0 + 4
            guard next > symbol.0 else { continue }
            for address in [symbol.0, (symbol.0 + next) / 2, next - 1] {
                let result = try #require(session.lookup(fileAddress: address))
                #expect(result.source == .symbolTable)
                let frame = try #require(result.frames.first)
                #expect(frame.functionStart == symbol.0, "0x\(String(address, radix: 16))")
                #expect(frame.file == nil)
                let stripped = Demangler.symbolName(fromSymbolTable: symbol.1)
                #expect(frame.function == Demangler.displayName(stripped))
            }
        }
        #expect(session.lookup(fileAddress: 0x10) == nil)
    }

    /// A symbol-table answer for an address past the end of the nearest symbol's section
    /// (CrashApp's `__stubs`, after the last `__text` symbol `_swift_slowDealloc`) is a guess;
    /// inside the section it is not.
    @Test func anOffsetPastTheSymbolsSectionIsAGuess() throws {
        let binary = TestPaths.fixtures.appendingPathComponent("bin/CrashApp").path
        let session = try FixtureDebugFiles.open(binary)
        let inside = try #require(session.lookup(fileAddress: 0x1_0000_4B68)?.frames.first)
        #expect(inside.function == "swift_slowDealloc" && !inside.isGuess)
        let past = try #require(session.lookup(fileAddress: 0x1_0000_4B70)?.frames.first)
        #expect(past.function == "swift_slowDealloc" && past.isGuess)
    }

    /// An unsized ELF symbol reaches the next symbol, but no function runs past the end of its
    /// own section: crashy's `_init` (size 0, in `.init` 0x1730–0x1746) names 0x1740 surely and
    /// 0x1760 (in `.plt`, which has no symbol; llvm-symbolizer says `_init` there too) only as a
    /// guess (issue 40).
    @Test func anUnsizedELFSymbolPastItsSectionIsAGuess() throws {
        let session = try FixtureDebugFiles.open(TestPaths.fixtures.appendingPathComponent("linux/bin/crashy.debug").path)
        let inside = try #require(session.lookup(fileAddress: 0x1740)?.frames.last)
        #expect(inside.function == "_init" && !inside.isGuess)
        let past = try #require(session.lookup(fileAddress: 0x1760)?.frames.last)
        #expect(past.function == "_init" && past.isGuess)
        // A sized symbol is never stretched: `main`'s own bytes are named surely.
        #expect(session.lookup(fileAddress: 0x34d0)?.frames.last?.isGuess == false)
    }

    /// Many threads hammering one session get the same answers as one thread.
    @Test func concurrentLookupsAgree() async throws {
        let dsym = try #require(TestPaths.dsymBundles.first { $0.contains("CrashApp.app") })
        let session = try FixtureDebugFiles.open(dsym)
        let addresses = Array(stride(from: session.linkedAddress + 0x4000, to: session.linkedAddress + 0x4B00, by: 4))
        let reference = try FixtureDebugFiles.open(dsym).lookup(fileAddresses: addresses)
        let seed = TestSeed.value()
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var bad = 0
                    var generator = SeededGenerator(seed: seed &+ UInt64(worker))
                    for (index, address) in addresses.enumerated().shuffled(using: &generator) where index % 8 == worker || index % 3 == 0 {
                        if session.lookup(fileAddress: address) != reference[index] { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0, "seed \(seed) (SYMBOLICATE_TEST_SEED reruns it)")
        #expect(reference.compactMap { $0 }.count > addresses.count / 2)
    }
}
