#if !SYMBOLICATE_NO_LIBELF
    import Foundation
    import SymbolicateCore
    import SymbolicateELF
    import SymbolicateTestSupport
    import Testing

    /// The pure-Swift ELF reader (what macOS builds) against libelf (Linux's default): the same
    /// answer for every field on every ELF fixture, on damaged copies of them, and on 32-bit,
    /// big-endian and aarch64 libraries from Debian's cross packages (scripts/setup.sh installs
    /// them), compressed both ways. Compiled where libelf is (the default Linux build).
    @Suite struct ELFReaderAgreementTests {
        static let fixtureFiles: [String] = {
            let folders = ["linux/bin", "linux-named/bin", "elf-lto/bin"].map { TestPaths.fixtures.appendingPathComponent($0) }
            return folders.flatMap { folder -> [String] in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                return names.sorted().map { folder.appendingPathComponent($0).path }.filter { path in
                    RegularFile.prefix(path: path, count: 4).map { ELFFile.hasELFMagic([UInt8]($0)) } == true
                }
            }
        }()

        /// Debian's cross libcs: (package, library, bfd target for objcopy).
        static let crossLibraries: [(package: String, path: String, bfd: String)] = [
            ("libc6-i386-cross", "/usr/i686-linux-gnu/lib/libc.so.6", "elf32-i386"),
            ("libc6-armhf-cross", "/usr/arm-linux-gnueabihf/lib/libc.so.6", "elf32-little"),
            ("libc6-arm64-cross", "/usr/aarch64-linux-gnu/lib/libc.so.6", "elf64-little"),
            ("libc6-s390x-cross", "/usr/s390x-linux-gnu/lib/libc.so.6", "elf64-big"),
            ("libc6-powerpc-cross", "/usr/powerpc-linux-gnu/lib/libc.so.6", "elf32-big"),
        ]

        /// Everything both readers say about one file. Sections' bytes are compared where they
        /// are bytes in both: libelf converts typed sections (symbols, notes, hashes) of a file
        /// in the other byte order to the host's, the Swift reader hands out the file's bytes.
        struct Answers: Equatable, CustomStringConvertible {
            var opened: Bool
            var is64Bit = false
            var isLittleEndian = false
            var machine: UInt16 = 0
            var fileType: UInt16 = 0
            var sections: [ELFSection] = []
            var programHeaders: [ELFProgramHeader] = []
            var buildID: DebugID?
            var symbols: [ELFSymbol]?
            var debugLinkName: String?
            var debugLinkCRC: UInt32?
            var debugLinkReadable = true
            var contents: [Int: [UInt8]?] = [:]

            var description: String {
                "opened \(opened), 64-bit \(is64Bit), LE \(isLittleEndian), machine \(machine), type \(fileType), \(sections.count) sections, "
                    + "\(programHeaders.count) segments, build ID \(buildID?.description ?? "none"), \(symbols?.count ?? -1) symbols, "
                    + "debuglink \(debugLinkName ?? "none")"
            }

            init(_ open: () throws -> any ELFReading) {
                guard let file = try? open() else {
                    opened = false
                    return
                }
                opened = true
                is64Bit = file.is64Bit
                isLittleEndian = file.isLittleEndian
                machine = file.machine
                fileType = file.fileType
                sections = file.sections
                programHeaders = file.programHeaders
                buildID = file.buildID
                symbols = try? file.functionSymbols()
                do {
                    let link = try file.debugLink()
                    debugLinkName = link?.name
                    debugLinkCRC = link?.crc
                } catch {
                    debugLinkReadable = false
                }
                let hostIsLittle = 1.littleEndian == 1
                for section in file.sections {
                    // SHT_PROGBITS 1, SHT_STRTAB 3, SHT_NOBITS 8: bytes in both readers.
                    guard file.isLittleEndian == hostIsLittle || [1, 3, 8].contains(section.type) || section.isCompressed else { continue }
                    // updateValue: an error is kept as nil, not dropped from the dictionary.
                    contents.updateValue((try? file.contents(of: section)).map { Array($0) }, forKey: section.index)
                }
            }
        }

        static func compare(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Answers {
            let libelf = Answers { try LibElfFile(path: path) }
            let swift = Answers { try SwiftELFFile(path: path) }
            #expect(libelf.opened == swift.opened, "\(path): libelf \(libelf), swift \(swift)", sourceLocation: sourceLocation)
            #expect(libelf.sections == swift.sections, "\(path): sections differ", sourceLocation: sourceLocation)
            #expect(libelf.programHeaders == swift.programHeaders, "\(path): program headers differ", sourceLocation: sourceLocation)
            #expect(libelf.symbols == swift.symbols, "\(path): symbols differ", sourceLocation: sourceLocation)
            for (index, bytes) in libelf.contents where swift.contents[index] != bytes {
                let name = libelf.sections.first { $0.index == index }?.name ?? "?"
                Issue.record(
                    "\(path): section \(index) \(name): libelf \(bytes.map { "\($0.count) bytes" } ?? "error"), swift \(swift.contents[index].map { $0.map { "\($0.count) bytes" } ?? "error" } ?? "not read")",
                    sourceLocation: sourceLocation)
            }
            #expect(libelf == swift, "\(path): libelf \(libelf) / swift \(swift)", sourceLocation: sourceLocation)
            return libelf
        }

        @Test func everyELFFixture() throws {
            #expect(Self.fixtureFiles.count >= 9)
            for path in Self.fixtureFiles {
                let answers = Self.compare(path)
                #expect(answers.opened, "\(path) should open")
            }
            // The fixtures exercise what matters: DWARF, zlib (SHF_COMPRESSED), zstd (the error).
            let zlib = Self.compare(LinuxFixtures.zlibDebugFile)
            #expect(zlib.sections.contains { $0.isCompressed })
            #expect(
                zlib.contents.contains { index, bytes in zlib.sections.first { $0.index == index }?.isCompressed == true && bytes != nil })
            let zstd = Self.compare(LinuxFixtures.zstdDebugFile)
            #expect(
                zstd.contents.contains { index, bytes in zstd.sections.first { $0.index == index }?.isCompressed == true && bytes == nil })
        }

        /// 32-bit, big-endian and aarch64 shared libraries as Debian ships them, and each with a
        /// `.debug_info` added and compressed with `SHF_COMPRESSED` (an `Elf32_Chdr` or
        /// `Elf64_Chdr` in the file's byte order) and as a GNU `.zdebug_info`.
        @Test func crossArchitectureLibraries() throws {
            let objcopy = try #require(ExternalTool.find("objcopy"), "objcopy (binutils) builds the compressed variants")
            let folder = try TestPaths.temporaryDirectory("elf-cross")
            defer { try? FileManager.default.removeItem(at: folder) }
            let filler = folder.appendingPathComponent("filler")
            try Data(String(repeating: "symbolicate debug info, compressible\n", count: 600).utf8).write(to: filler)
            var seen: Set<String> = []
            for library in Self.crossLibraries {
                try #require(
                    FileManager.default.fileExists(atPath: library.path),
                    "\(library.path) is missing: install \(library.package) (make setup-test)")
                let answers = Self.compare(library.path)
                #expect(answers.opened && answers.buildID != nil && answers.symbols?.isEmpty == false, "\(library.path)")
                seen.insert("\(answers.is64Bit ? 64 : 32)-\(answers.isLittleEndian ? "LE" : "BE")-\(answers.machine)")
                let stem = folder.appendingPathComponent(library.package).path
                _ = try ExternalTool.run(
                    objcopy,
                    ["-I", library.bfd, "-O", library.bfd, "--add-section", ".debug_info=\(filler.path)", library.path, stem + "-plain"])
                for (style, name) in [("zlib", ".debug_info"), ("zlib-gnu", ".zdebug_info")] {
                    let output = "\(stem)-\(style)"
                    _ = try ExternalTool.run(
                        objcopy, ["-I", library.bfd, "-O", library.bfd, "--compress-debug-sections=\(style)", stem + "-plain", output])
                    let compressed = Self.compare(output)
                    let section = try #require(compressed.sections.first { $0.name == name }, "\(output) has no \(name)")
                    #expect(style == "zlib-gnu" || section.isCompressed)
                    #expect(compressed.contents[section.index] == .some(.some(Array(try Data(contentsOf: filler)))), "\(output): \(name)")
                }
            }
            // 32- and 64-bit, both byte orders, aarch64 (EM_AARCH64 183) among them.
            #expect(seen.contains { $0.hasPrefix("32-BE") } && seen.contains { $0.hasPrefix("64-BE") })
            #expect(seen.contains { $0.hasPrefix("32-LE") } && seen.contains("64-LE-183"))
        }

        /// Extended numbering (e_shnum 0 with the count in section 0's sh_size, e_shstrndx
        /// SHN_XINDEX with the index in its sh_link), and a file without section headers, whose
        /// build ID then comes from its PT_NOTE segment: both readers give the original answers.
        @Test(arguments: [LinuxFixtures.binary, "/usr/i686-linux-gnu/lib/libc.so.6", "/usr/s390x-linux-gnu/lib/libc.so.6"])
        func extendedNumberingAndSegmentNotes(_ path: String) throws {
            try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing (make setup-test)")
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let plain = Self.compare(path)
            let is64 = original[4] == 2
            let big = original[5] == 2
            func field(_ bytes: inout [UInt8], _ at: Int, _ size: Int, _ value: UInt64) {
                for index in 0..<size {
                    let shift = big ? UInt64(8 * (size - 1 - index)) : UInt64(8 * index)
                    bytes[at + index] = UInt8(truncatingIfNeeded: value >> shift)
                }
            }
            func read(_ at: Int, _ size: Int) -> UInt64 {
                (0..<size).reduce(UInt64(0)) { value, index in
                    big ? value << 8 | UInt64(original[at + index]) : value | UInt64(original[at + index]) << UInt64(8 * index)
                }
            }
            let shoff = Int(is64 ? read(40, 8) : read(32, 4))
            let shnumAt = is64 ? 60 : 48
            let shnum = read(shnumAt, 2)
            let shstrndx = read(shnumAt + 2, 2)
            var extended = original
            field(&extended, shnumAt, 2, 0)
            field(&extended, shnumAt + 2, 2, 0xFFFF)
            field(&extended, shoff + (is64 ? 32 : 20), is64 ? 8 : 4, shnum)  // section 0's sh_size
            field(&extended, shoff + (is64 ? 40 : 24), 4, shstrndx)  // section 0's sh_link
            var headerless = original
            field(&headerless, is64 ? 40 : 32, is64 ? 8 : 4, 0)
            field(&headerless, shnumAt, 2, 0)
            field(&headerless, shnumAt + 2, 2, 0)
            let folder = try TestPaths.temporaryDirectory("elf-extended")
            defer { try? FileManager.default.removeItem(at: folder) }
            let extendedPath = folder.appendingPathComponent("extended").path
            let headerlessPath = folder.appendingPathComponent("headerless").path
            try Data(extended).write(to: URL(fileURLWithPath: extendedPath))
            try Data(headerless).write(to: URL(fileURLWithPath: headerlessPath))
            let answers = Self.compare(extendedPath)
            #expect(answers.sections == plain.sections && answers.symbols == plain.symbols && answers.buildID == plain.buildID)
            #expect(answers.sections.contains { $0.name == ".text" })
            let stripped = Self.compare(headerlessPath)
            #expect(stripped.sections.isEmpty)
            #expect(stripped.buildID == plain.buildID && plain.buildID != nil)
        }

        /// The damaged copies `ELFFileTests.damagedFilesNeverCrash` makes, from a seeded
        /// generator here: both readers open the same ones and agree on what they read.
        @Test func damagedCopies() throws {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.zlibDebugFile)))
            let folder = try TestPaths.temporaryDirectory("elf-damage-agree")
            defer { try? FileManager.default.removeItem(at: folder) }
            var variants: [[UInt8]] = [
                Array(original.prefix(16)), Array(original.prefix(64)), Array(original.prefix(original.count / 2)),
                Array(original.dropLast(100)),
            ]
            var generator = SeededGenerator(seed: 0x5EED_E1F)
            for _ in 0..<40 {
                var copy = original
                for _ in 0..<8 {
                    let at = Int.random(in: 0..<copy.count, using: &generator)
                    copy[at] = UInt8.random(in: 0...255, using: &generator)
                }
                variants.append(copy)
            }
            var far = original
            for index in 0x28..<0x30 { far[index] = 0xFF }
            variants.append(far)
            var opened = 0
            for (number, bytes) in variants.enumerated() {
                let path = folder.appendingPathComponent("damaged-\(number).debug").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                if Self.compare(path).opened { opened += 1 }
            }
            #expect(opened > 0)
        }
    }
#endif
