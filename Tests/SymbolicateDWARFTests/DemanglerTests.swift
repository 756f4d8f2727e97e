import Foundation
import SymbolicateDWARF
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

/// C++ names spelled by LLVM's Itanium demangler, as Apple's tools and llvm-symbolizer spell
/// them: every C++ symbol-table name and DWARF linkage name of every fixture dSYM against
/// `llvm-cxxfilt-19`.
@Suite struct DemanglerTests {
    @Test(arguments: [
        ("_ZN6shapes3__16vectorIiNS0_9allocatorIiEEE4pushEi", "shapes::__1::vector<int, shapes::__1::allocator<int>>::push(int)"),
        (
            "_ZN6shapes7measureIsEENS_9enable_ifIXaasr8is_smallIT_EE5valuentsr10is_pointerIS2_EE5valueEiE4typeES2_",
            "shapes::enable_if<is_small<short>::value && !is_pointer<short>::value, int>::type shapes::measure<short>(short)"
        ),
        ("___ZN6shapes8scheduleEi_block_invoke", "invocation function for block in shapes::schedule(int)"),
        ("_ZZN6shapes7Counter3runEiENKUliE_clEi", "shapes::Counter::run(int)::'lambda'(int)::operator()(int) const"),
    ])
    func llvmSpelling(mangled: String, expected: String) {
        #expect(Demangler.usesLLVMItaniumDemangler, "LLVM's demangler is not linked (llvm-19-dev, installed by scripts/setup.sh)")
        #expect(Demangler.demangle(mangled) == expected)
    }

    /// Plain names and bare type manglings (`i` would be `int`) are never demangled.
    @Test(arguments: ["i", "Z", "catch_exception_raise", "_____Z3foov", "-[SHUploader uploadItems:]"])
    func notItanium(name: String) {
        #expect(Demangler.demangle(name) == nil)
    }

    /// Every C++ name (symbol table and DW_AT_linkage_name) of every fixture slice.
    static func cxxNames() throws -> [String] {
        var names = Set<String>()
        for dsym in TestPaths.dsymBundles {
            for file in FixtureDebugFiles.files(dsym) {
                for slice in try MachOFile(path: file).slices {
                    for symbol in try slice.symbols() {
                        names.insert(Demangler.symbolName(fromSymbolTable: symbol.name))
                    }
                }
                if let dwarfdump = ExternalTool.find("llvm-dwarfdump-19") {
                    let text = try ExternalTool.run(dwarfdump, ["--debug-info", file])
                    for line in text.split(separator: "\n") where line.contains("DW_AT_linkage_name") {
                        guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { continue }
                        names.insert(String(line[line.index(after: open)..<close]))
                    }
                }
            }
        }
        return names.filter { $0.hasPrefix("_Z") || $0.hasPrefix("___Z") }.sorted()
    }

    @Test func everyFixtureCxxNameMatchesLLVMCxxfilt() throws {
        guard let cxxfilt = ExternalTool.find("llvm-cxxfilt-19") else {
            print("DemanglerTests: skipped: llvm-cxxfilt-19 not found")
            return
        }
        let names = try Self.cxxNames()
        #expect(names.count >= 10)
        let theirs = try ExternalTool.run(cxxfilt, [], stdin: names.joined(separator: "\n") + "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(theirs.count >= names.count)
        var differences: [String] = []
        for (index, name) in names.enumerated() where Demangler.displayName(name) != theirs[index] {
            differences.append("\(name)\n  ours   \(Demangler.displayName(name))\n  theirs \(theirs[index])")
        }
        #expect(
            differences.isEmpty, "\(differences.count) of \(names.count) names differ:\n\(differences.prefix(10).joined(separator: "\n"))")
        print("DemanglerTests: \(names.count) C++ names, \(differences.count) differences")
    }
}
