import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateELF
import SymbolicateTestSupport
import Testing

/// DWARF lookups on ELF debug files: the crash sites of the real backtraces against the
/// oracle answers recorded by Fixtures/linux/generate.sh (llvm-symbolizer-19 +
/// swift-demangle --simplified), in the plain and the zlib-compressed debug file.
@Suite struct ELFSessionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var debugFile: String
        var log: String
        var frame: LinuxFixtures.OracleFrame
        var testDescription: String { "\((debugFile as NSString).lastPathComponent) \(log) #\(frame.frame)" }
    }

    static let cases: [Case] = [LinuxFixtures.debugFile, LinuxFixtures.zlibDebugFile].flatMap { file in
        LinuxFixtures.oracle.sorted { $0.key < $1.key }.flatMap { log, frames in
            frames.map { Case(debugFile: file, log: log, frame: $0) }
        }
    }

    @Test func oracleIsPresent() {
        #expect(Self.cases.count >= 16)
    }

    @Test(arguments: cases)
    func crashSiteMatchesOracle(_ item: Case) throws {
        let session = try FixtureDebugFiles.open(item.debugFile)
        #expect(session.hasDWARF)
        #expect(session.linkedAddress == 0)
        let address = try #require(UInt64(item.frame.fileAddress.dropFirst(2), radix: 16))
        let result = try #require(session.lookup(fileAddress: address))
        #expect(result.source == .dwarf)
        let ours = result.frames.map { "\($0.function) | \($0.file ?? "??"):\($0.line ?? 0)" }
        #expect(ours == item.frame.frames.map(\.text))
        #expect(result.frames.dropLast().allSatisfy { $0.isInlined })
    }

    /// The padding after a sized function symbol (before the next function) belongs to no
    /// function: llvm-symbolizer says `??`, and so must we (not the preceding symbol's name).
    @Test func paddingAfterAFunctionIsUnnamed() throws {
        let file = try ELFFile(path: LinuxFixtures.debugFile)
        let symbols = try file.functionSymbols()
        var padding: [UInt64] = []
        for (symbol, next) in zip(symbols, symbols.dropFirst()) where symbol.size > 0 && symbol.address + symbol.size < next.address {
            padding.append(symbol.address + symbol.size)
        }
        try #require(!padding.isEmpty)
        let session = try FixtureDebugFiles.open(LinuxFixtures.debugFile)
        for address in padding {
            let frames = session.lookup(fileAddress: address)?.frames ?? []
            #expect(frames.allSatisfy { $0.function == "??" }, "0x\(String(address, radix: 16)): \(frames.map(\.function))")
        }
        guard let symbolizer = ExternalTool.find("llvm-symbolizer-19") else { return }
        let answer = try ExternalTool.run(symbolizer, ["--obj=\(LinuxFixtures.debugFile)"] + padding.map { "0x" + String($0, radix: 16) })
        let functions = answer.split(separator: "\n").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(functions.allSatisfy { $0 == "??" }, "llvm-symbolizer named padding: \(functions)")
    }

    @Test func buildIDMismatchNamesBoth() throws {
        let wrong = try #require(DebugID(buildID: "00112233445566778899aabbccddeeff00112233"))
        let error = try #require(throws: DebugInfoError.self) { try DebugFile.openELF(path: LinuxFixtures.debugFile, id: wrong) }
        #expect(error.message.contains("00112233445566778899aabbccddeeff00112233"))
        let real = try #require(try DebugFile.openELF(path: LinuxFixtures.debugFile).debugID)
        #expect(error.message.contains(real.hexString))
        #expect(error.path == LinuxFixtures.debugFile)
    }

    @Test func zstdDebugFileIsAClearError() throws {
        let error = try #require(throws: DebugInfoError.self) { try FixtureDebugFiles.open(LinuxFixtures.zstdDebugFile) }
        #expect(error.path == LinuxFixtures.zstdDebugFile)
        #expect(error.message.contains("zstd"))
    }

    /// The stripped binary has no DWARF and no .symtab: it answers from .dynsym or not at all,
    /// never with a wrong file:line.
    @Test func strippedBinaryAnswersWithoutDWARF() throws {
        let session = try FixtureDebugFiles.open(LinuxFixtures.binary)
        #expect(!session.hasDWARF)
        for frames in LinuxFixtures.oracle.values {
            for frame in frames {
                let address = try #require(UInt64(frame.fileAddress.dropFirst(2), radix: 16))
                if let result = session.lookup(fileAddress: address) {
                    #expect(result.source == .symbolTable)
                    #expect(result.frames.allSatisfy { $0.file == nil })
                }
            }
        }
    }
}
