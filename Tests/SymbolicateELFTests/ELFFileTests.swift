import Foundation
import SymbolicateCore
import SymbolicateELF
import SymbolicateTestSupport
import Testing

/// The libelf reader on the Linux fixtures: a stripped PIE, its separate debug file, and the
/// same debug file with zlib- and zstd-compressed sections.
@Suite struct ELFFileTests {
    /// The build ID the runtime's backtracer printed for the program (independent of our reader).
    static func loggedBuildID() throws -> DebugID {
        let log = try String(contentsOfFile: LinuxFixtures.log("index.txt"), encoding: .utf8)
        let line = try #require(log.split(separator: "\n").first { $0.hasSuffix("/crashy") && $0.hasPrefix("0x") })
        return try #require(DebugID(buildID: String(line.split(separator: " ")[1])))
    }

    @Test(arguments: [LinuxFixtures.binary, LinuxFixtures.debugFile, LinuxFixtures.zlibDebugFile, LinuxFixtures.zstdDebugFile])
    func headersAndBuildID(_ path: String) throws {
        let file = try ELFFile(path: path)
        #expect(file.is64Bit && file.isLittleEndian)
        #expect(file.architecture == .x86_64)
        #expect(file.fileType == 3)  // ET_DYN: a position-independent executable
        #expect(file.buildID == (try Self.loggedBuildID()))
        #expect(file.buildID?.kind == .buildID)
        // PIE: the lowest PT_LOAD starts at 0, in the binary and in its debug file alike.
        #expect(file.programHeaders.contains { $0.type == ELFProgramHeader.load })
        #expect(file.loadBase == 0)
        #expect(file.codeRange != nil)
    }

    /// The reader the build chose: the Swift one on macOS and in CI's Mac-shaped lane
    /// (SYMBOLICATE_EXPECT_ELF_READER=swift there), libelf in `make test`'s.
    @Test func theReaderTheBuildChose() throws {
        #if os(macOS)
            let expected: String? = "swift"
        #else
            let expected = ProcessInfo.processInfo.environment["SYMBOLICATE_EXPECT_ELF_READER"]
        #endif
        if let expected {
            #expect(elfReaderName == expected)
        } else {
            print("ELFFileTests: ELF reader \(elfReaderName) (set SYMBOLICATE_EXPECT_ELF_READER to check it)")
        }
    }

    @Test func strippedBinaryPointsAtItsDebugFile() throws {
        let binary = try ELFFile(path: LinuxFixtures.binary)
        #expect(!binary.hasDWARF)
        #expect(binary.section(named: ".symtab") == nil)
        let link = try #require(try binary.debugLink())
        #expect(link.name == "crashy.debug")
        // objcopy computed the CRC over the debug file's bytes; ours must agree.
        let data = try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.debugFile))
        #expect(CRC32.checksum(data) == link.crc)
        #expect(try ELFFile(path: LinuxFixtures.debugFile).debugLink() == nil)
    }

    @Test func debugFileHasDWARFAndSymbols() throws {
        let file = try ELFFile(path: LinuxFixtures.debugFile)
        #expect(file.hasDWARF)
        let text = try #require(file.section(named: ".text"))
        #expect(text.type == 8)  // SHT_NOBITS in a --only-keep-debug file
        #expect(try file.contents(of: text).isEmpty)
        let symbols = try file.functionSymbols()
        let handle = try #require(symbols.first { $0.name == "$s6crashy6handle_5indexSiAA6RouterV_SitF" })
        #expect(handle.size > 0)
        #expect(text.addressRange?.contains(handle.address) == true)
        #expect(symbols == symbols.sorted { $0.address < $1.address })
    }

    @Test func zlibSectionsDecompressToTheSameBytes() throws {
        let plain = try ELFFile(path: LinuxFixtures.debugFile)
        let zlib = try ELFFile(path: LinuxFixtures.zlibDebugFile)
        for name in [".debug_info", ".debug_line", ".debug_abbrev", ".debug_str"] {
            let compressed = try #require(zlib.section(named: name))
            #expect(compressed.isCompressed, "\(name) should be SHF_COMPRESSED in the zlib fixture")
            let a = Array(try plain.contents(of: try #require(plain.section(named: name))))
            let b = Array(try zlib.contents(of: compressed))
            #expect(!a.isEmpty)
            #expect(a == b, "\(name) differs after decompression")
        }
    }

    @Test func zstdSectionsAreAClearError() throws {
        let file = try ELFFile(path: LinuxFixtures.zstdDebugFile)
        let info = try #require(file.section(named: ".debug_info"))
        #expect(info.isCompressed)
        let error = try #require(throws: ELFError.self) { try file.contents(of: info) }
        #expect(error.path == LinuxFixtures.zstdDebugFile)
        #expect(error.offset == info.fileOffset)
        #expect(error.description.contains("zstd"))
        #expect(error.description.contains(".debug_info"))
    }

    /// A compression header claiming more than zlib can produce is refused before libelf
    /// would allocate it.
    @Test func impossibleUncompressedSizeIsRefused() throws {
        let info = try #require(try ELFFile(path: LinuxFixtures.zlibDebugFile).section(named: ".debug_info"))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.zlibDebugFile)))
        let at = Int(info.fileOffset) + 8  // Elf64_Chdr.ch_size
        for (index, byte) in [0, 0, 0, 0, 0, 0x10, 0, 0].enumerated() { bytes[at + index] = UInt8(byte) }
        let folder = try TestPaths.temporaryDirectory("elf-ch-size")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.debug").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try ELFFile(path: path)
        let section = try #require(file.section(named: ".debug_info"))
        let error = try #require(throws: ELFError.self) { try file.contents(of: section) }
        #expect(error.message.contains("claims"))
        #expect(error.offset == section.fileOffset)
    }

    @Test func notELFIsAnError() throws {
        let folder = try TestPaths.temporaryDirectory("elf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("hello, not an ELF file\n".utf8).write(to: text)
        let error = try #require(throws: ELFError.self) { try ELFFile(path: text.path) }
        #expect(error.description.contains("notes.txt"))
        #expect(throws: ELFError.self) { try ELFFile(path: folder.appendingPathComponent("missing").path) }
        // A FIFO is refused without being opened (opening it would wait for a writer).
        let fifo = folder.appendingPathComponent("pipe.debug").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let fifoError = try #require(throws: ELFError.self) { try ELFFile(path: fifo) }
        #expect(fifoError.message.contains("FIFO"))
    }

    /// Truncations and byte flips of the debug file: every one opens or throws, and every
    /// section of what opens reads or throws (never a crash).
    @Test func damagedFilesNeverCrash() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.zlibDebugFile)))
        let folder = try TestPaths.temporaryDirectory("elf-damage")
        defer { try? FileManager.default.removeItem(at: folder) }
        var variants: [[UInt8]] = [
            Array(original.prefix(16)), Array(original.prefix(64)), Array(original.prefix(original.count / 2)),
            Array(original.dropLast(100)),
        ]
        let seed = TestSeed.value()
        // A crash here ends the process before any expectation can name the seed: print it first.
        print("seeded damage: seed \(seed) (SYMBOLICATE_TEST_SEED=\(seed) runs it again)")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<40 {
            var copy = original
            for _ in 0..<8 {
                let at = Int.random(in: 0..<copy.count, using: &generator)
                copy[at] = UInt8.random(in: 0...255, using: &generator)
            }
            variants.append(copy)
        }
        // Section header table offset pointing past the end.
        var far = original
        for index in 0x28..<0x30 { far[index] = 0xFF }
        variants.append(far)
        var opened = 0
        for (number, bytes) in variants.enumerated() {
            let path = folder.appendingPathComponent("damaged-\(number).debug").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard let file = try? ELFFile(path: path) else { continue }
            opened += 1
            _ = file.buildID
            _ = try? file.functionSymbols()
            _ = try? file.debugLink()
            for section in file.sections { _ = try? file.contents(of: section) }
        }
        #expect(opened > 0)
    }
}
