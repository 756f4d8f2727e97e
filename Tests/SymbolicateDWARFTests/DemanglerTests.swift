import Foundation
import SymbolicateDWARF
import SymbolicateDemangling
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

/// C++ names of the fixture dSYMs spelled by LLVM's Itanium demangler, as Apple's tools and
/// llvm-symbolizer spell them: every C++ symbol-table name and DWARF linkage name against
/// `llvm-cxxfilt-19` (the demangler's own tests are in SymbolicateDemanglingTests).
@Suite struct DemanglerTests {
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
