#if !SYMBOLICATE_NO_LIBELF
    import CLibElf
    import SymbolicateCore

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    // The only file that touches libelf's C pointers. It reads an ELF file's headers, notes,
    // symbol tables and section bytes into plain Swift values; the rest of the package never
    // sees an Elf* type.

    /// One open ELF file (an executable, a shared object or a separate `.debug` file).
    ///
    /// Section bytes handed out by `contents(of:)` stay valid while this object lives: libelf
    /// keeps the file mapped and owns decompressed copies until `elf_end`.
    /// libelf handles are not shared between threads: one `ELFFile` is used by one thread at a
    /// time (`DebugSession` serialises with its lock).
    package final class LibElfFile: ELFReading, @unchecked Sendable {
        package let path: String
        package let is64Bit: Bool
        package let isLittleEndian: Bool
        /// `e_machine` (EM_X86_64 = 62, EM_AARCH64 = 183 …).
        package let machine: UInt16
        /// `e_type` (ET_EXEC = 2, ET_DYN = 3 …).
        package let fileType: UInt16
        package let sections: [ELFSection]
        package let programHeaders: [ELFProgramHeader]
        /// The `NT_GNU_BUILD_ID` note's bytes, when the file has one.
        package let buildID: DebugID?

        private let descriptor: Int32
        private let elf: OpaquePointer
        private var loaded: [Int: UnsafeRawBufferPointer] = [:]
        /// Where inflated sections are counted; `inflated` is this file's share, given back on close.
        private let budget: InflationBudget
        private var inflated: UInt64 = 0

        /// Opens `path` and reads its headers. Throws for anything that is not a readable ELF file.
        package init(path: String, budget: InflationBudget = .process) throws(ELFError) {
            self.path = path
            self.budget = budget
            guard elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE) else {
                throw ELFError(path: path, message: "libelf is out of date: \(Self.lastError())")
            }
            // Opening a FIFO would wait for a writer: special files are refused unopened.
            if let kind = RegularFile.specialKind(path: path) {
                throw ELFError(path: path, message: "is \(kind), not an ELF file")
            }
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw ELFError(path: path, message: String(cString: strerror(errno)))
            }
            guard let handle = elf_begin(fd, ELF_C_READ_MMAP, nil) else {
                close(fd)
                throw ELFError(path: path, message: "not readable by libelf: \(Self.lastError())")
            }
            guard elf_kind(handle) == ELF_K_ELF else {
                elf_end(handle)
                close(fd)
                throw ELFError(path: path, message: "not an ELF file")
            }
            descriptor = fd
            elf = handle
            // From here every stored property gets a value before anything throws, so deinit
            // releases the handle and the descriptor on every error path.
            var header = GElf_Ehdr()
            let identity = elf_getident(handle, nil)
            let elfClass = identity.map { Int32($0[Int(EI_CLASS)]) } ?? ELFCLASSNONE
            let encoding = identity.map { Int32($0[Int(EI_DATA)]) } ?? ELFDATANONE
            is64Bit = elfClass == ELFCLASS64
            isLittleEndian = encoding == ELFDATA2LSB
            let haveHeader = gelf_getehdr(handle, &header) != nil
            machine = haveHeader ? header.e_machine : 0
            fileType = haveHeader ? header.e_type : 0
            var sectionList: [ELFSection] = []
            var programList: [ELFProgramHeader] = []
            var sectionNameIndex = 0
            var readError: ELFError?
            if !haveHeader {
                readError = ELFError(path: path, offset: 0, message: "unreadable ELF header: \(Self.lastError())")
            } else if elfClass != ELFCLASS32 && elfClass != ELFCLASS64 {
                readError = ELFError(path: path, offset: 4, message: "unknown ELF class \(elfClass)")
            } else if elf_getshdrstrndx(handle, &sectionNameIndex) != 0 {
                readError = ELFError(
                    path: path, offset: UInt64(header.e_shoff), message: "unreadable section header string table index: \(Self.lastError())"
                )
            } else {
                var scn = elf_nextscn(handle, nil)
                while let section = scn {
                    var sh = GElf_Shdr()
                    guard gelf_getshdr(section, &sh) != nil else {
                        readError = ELFError(
                            path: path, offset: UInt64(header.e_shoff),
                            message: "unreadable section header \(elf_ndxscn(section)): \(Self.lastError())")
                        break
                    }
                    let name = elf_strptr(handle, sectionNameIndex, Int(sh.sh_name)).map { String(cString: $0) } ?? ""
                    sectionList.append(
                        ELFSection(
                            index: Int(elf_ndxscn(section)), name: name, type: sh.sh_type, flags: sh.sh_flags,
                            address: sh.sh_addr, size: sh.sh_size, fileOffset: sh.sh_offset, link: sh.sh_link,
                            nameOffset: sh.sh_name, info: sh.sh_info, alignment: sh.sh_addralign
                        ))
                    scn = elf_nextscn(handle, section)
                }
                var count = 0
                if readError == nil, elf_getphdrnum(handle, &count) == 0 {
                    for number in 0..<max(count, 0) {
                        var ph = GElf_Phdr()
                        guard gelf_getphdr(handle, Int32(clamping: number), &ph) != nil else {
                            readError = ELFError(
                                path: path, offset: UInt64(header.e_phoff),
                                message: "unreadable program header \(number): \(Self.lastError())")
                            break
                        }
                        programList.append(
                            ELFProgramHeader(
                                type: ph.p_type, flags: ph.p_flags, virtualAddress: ph.p_vaddr, memorySize: ph.p_memsz,
                                fileOffset: ph.p_offset, fileSize: ph.p_filesz, alignment: ph.p_align
                            ))
                    }
                }
            }
            sections = sectionList
            programHeaders = programList
            buildID = Self.readBuildID(handle, sections: sectionList)
            if let readError { throw readError }
        }

        deinit {
            elf_end(elf)
            close(descriptor)
            budget.release(inflated)
        }

        /// Counts `size` inflated bytes of `section` against the budget, or throws naming it.
        private func reserve(_ size: UInt64, for section: ELFSection) throws(ELFError) {
            if let refusal = budget.reserve(size, held: inflated) {
                throw ELFError(path: path, offset: section.fileOffset, message: "\(section.name): \(refusal)")
            }
            inflated += size
        }

        /// The size a GNU `.zdebug_*` section declares ("ZLIB", then 8 big-endian bytes), read
        /// from the file; nil when the header is not there (libelf then says why).
        private func gnuDeclaredSize(_ section: ELFSection) -> UInt64? {
            var header = [UInt8](repeating: 0, count: 12)
            guard section.size >= 12, pread(descriptor, &header, 12, off_t(truncatingIfNeeded: section.fileOffset)) == 12,
                header[0..<4].elementsEqual("ZLIB".utf8)
            else { return nil }
            return header[4..<12].reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// The bytes of a section, decompressed when it is `SHF_COMPRESSED` (zlib) or a GNU
        /// `.zdebug_*` section; empty for `SHT_NOBITS`. Valid while this object lives.
        package func contents(of section: ELFSection) throws(ELFError) -> UnsafeRawBufferPointer {
            if let cached = loaded[section.index] { return cached }
            guard section.type != UInt32(SHT_NOBITS) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            guard let scn = elf_getscn(elf, section.index) else {
                throw ELFError(
                    path: path, offset: section.fileOffset, message: "\(section.name): no section \(section.index): \(Self.lastError())")
            }
            if section.isCompressed {
                var header = GElf_Chdr()
                guard gelf_getchdr(scn, &header) != nil else {
                    throw ELFError(
                        path: path, offset: section.fileOffset,
                        message: "\(section.name): unreadable compression header: \(Self.lastError())")
                }
                guard header.ch_type == UInt32(ELFCOMPRESS_ZLIB) else {
                    let kind = header.ch_type == 2 ? "zstd" : "type \(header.ch_type)"
                    throw ELFError(
                        path: path, offset: section.fileOffset,
                        message:
                            "\(section.name): compressed with \(kind), which this libelf cannot decompress (zlib only); decompress the file first (objcopy --decompress-debug-sections)"
                    )
                }
                // zlib cannot expand more than about 1032:1; a header claiming more is damaged or
                // hostile, and libelf would try to allocate that much before inflating.
                let (limit, overflow) = section.size.multipliedReportingOverflow(by: 1100)
                guard overflow || header.ch_size <= limit &+ 4096 else {
                    throw ELFError(
                        path: path, offset: section.fileOffset,
                        message:
                            "\(section.name): compression header claims \(header.ch_size) bytes from \(section.size) compressed; impossible for zlib"
                    )
                }
                try reserve(header.ch_size, for: section)
                guard elf_compress(scn, 0, 0) >= 0 else {
                    throw ELFError(
                        path: path, offset: section.fileOffset, message: "\(section.name): zlib decompression failed: \(Self.lastError())")
                }
            } else if section.name.hasPrefix(".zdebug") {
                if let size = gnuDeclaredSize(section) { try reserve(size, for: section) }
                guard elf_compress_gnu(scn, 0, 0) >= 0 else {
                    throw ELFError(
                        path: path, offset: section.fileOffset,
                        message: "\(section.name): GNU zlib decompression failed: \(Self.lastError())")
                }
            }
            guard let data = elf_getdata(scn, nil) else {
                // A section without data (size 0) is empty; anything else is an error (e.g. its
                // bytes lie outside the file).
                if section.size == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
                throw ELFError(
                    path: path, offset: section.fileOffset, message: "\(section.name): section bytes unreadable: \(Self.lastError())")
            }
            let bytes = UnsafeRawBufferPointer(start: data.pointee.d_buf, count: data.pointee.d_buf == nil ? 0 : data.pointee.d_size)
            loaded[section.index] = bytes
            return bytes
        }

        /// The symbols llvm-symbolizer names code with, one per address, sorted by address:
        /// `.symtab` (`.dynsym` only when there is no `.symtab`), filtered by
        /// `ELFSymbol.namesCode` and kept by `ELFSymbol.onePerAddress`.
        package func functionSymbols() throws(ELFError) -> [ELFSymbol] {
            let tables = sections.filter { $0.type == UInt32(SHT_SYMTAB) }
            let loaded = Set(sections.filter { $0.flags & UInt64(SHF_ALLOC) != 0 }.map(\.index))
            var all: [ELFSymbol] = []
            for table in tables.isEmpty ? sections.filter({ $0.type == UInt32(SHT_DYNSYM) }) : tables {
                guard let scn = elf_getscn(elf, table.index) else { continue }
                guard let data = elf_getdata(scn, nil) else {
                    throw ELFError(
                        path: path, offset: table.fileOffset, message: "\(table.name): unreadable symbol table: \(Self.lastError())")
                }
                let entrySize = is64Bit ? 24 : 16
                let count = data.pointee.d_size / entrySize
                // Entry 0 is the null symbol.
                for number in 1..<max(count, 1) {
                    var symbol = GElf_Sym()
                    guard gelf_getsym(data, Int32(clamping: number), &symbol) != nil else { break }
                    let nameOffset = Int(symbol.st_name)
                    guard
                        let name = ELFSymbol.namesCode(
                            info: symbol.st_info, sectionIndex: symbol.st_shndx,
                            name: { elf_strptr(elf, Int(table.link), nameOffset).map { String(cString: $0) } ?? "" }, loaded: loaded)
                    else { continue }
                    let isGlobal = Int32(symbol.st_info >> 4) != STB_LOCAL
                    all.append(
                        ELFSymbol(
                            name: name, address: symbol.st_value, size: symbol.st_size, section: Int(symbol.st_shndx), isGlobal: isGlobal))
                }
            }
            return ELFSymbol.onePerAddress(all)
        }

        /// `NT_GNU_BUILD_ID` from the note sections, else from `PT_NOTE` segments (a file whose
        /// section headers were stripped).
        private static func readBuildID(_ elf: OpaquePointer, sections: [ELFSection]) -> DebugID? {
            for section in sections where section.type == UInt32(SHT_NOTE) {
                guard let scn = elf_getscn(elf, section.index), let data = elf_getdata(scn, nil) else { continue }
                if let id = buildID(in: data) { return id }
            }
            var count = 0
            guard elf_getphdrnum(elf, &count) == 0 else { return nil }
            for number in 0..<max(count, 0) {
                var ph = GElf_Phdr()
                // A segment aligned to 8 holds notes padded to 8 (GNU property notes), as
                // elfutils' own readers take them.
                guard gelf_getphdr(elf, Int32(clamping: number), &ph) != nil, ph.p_type == UInt32(PT_NOTE),
                    let data = elf_getdata_rawchunk(
                        elf, Int64(clamping: ph.p_offset), Int(clamping: ph.p_filesz), ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR)
                else { continue }
                if let id = buildID(in: data) { return id }
            }
            return nil
        }

        private static func buildID(in data: UnsafeMutablePointer<Elf_Data>) -> DebugID? {
            var offset = 0
            while true {
                var note = GElf_Nhdr()
                var nameOffset = 0
                var descriptionOffset = 0
                let next = gelf_getnote(data, offset, &note, &nameOffset, &descriptionOffset)
                guard next > offset, let base = data.pointee.d_buf else { return nil }
                if note.n_type == UInt32(NT_GNU_BUILD_ID), note.n_namesz == 4,
                    data.pointee.d_size >= 4, nameOffset <= data.pointee.d_size - 4,
                    descriptionOffset <= data.pointee.d_size, Int(note.n_descsz) <= data.pointee.d_size - descriptionOffset
                {
                    let name = UnsafeRawBufferPointer(start: base + nameOffset, count: 3)
                    if Array(name) == Array("GNU".utf8) {
                        let bytes = UnsafeRawBufferPointer(start: base + descriptionOffset, count: Int(note.n_descsz))
                        return DebugID(buildIDBytes: Array(bytes))
                    }
                }
                offset = next
            }
        }

        private static func lastError() -> String {
            elf_errmsg(-1).map { String(cString: $0) } ?? "unknown libelf error"
        }
    }
#endif
