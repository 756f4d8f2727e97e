import SymbolicateCore

/// What `symbolicate audit` reads of a build's binaries and their debug files besides the
/// identity: the install name, the code signature's team, how many symbols a stripping left,
/// whether the names are bitcode-hidden, how many DWARF compile units there are. Headers,
/// the symbol table and unit headers only: never a DIE.
extension MachOSlice {
    static let lcIDDylib: UInt32 = 0xD
    static let lcCodeSignature: UInt32 = 0x1D

    /// Each load command's type and bytes, in order.
    private func loadCommands() throws(MachOError) -> [(command: UInt32, body: ByteReader)] {
        let reader = ByteReader(file: mapping, start: fileOffset, count: size)
        let count = Int(try reader.u32(16, "mach_header ncmds"))
        let commandsSize = Int(try reader.u32(20, "mach_header sizeofcmds"))
        let commands = try reader.window(is64Bit ? 32 : 28, count: commandsSize, "load commands")
        var found: [(UInt32, ByteReader)] = []
        var at = 0
        for index in 0..<count {
            let command = try commands.u32(at, "load command \(index)")
            let commandSize = Int(try commands.u32(at + 4, "load command \(index) size"))
            guard commandSize >= 8 else {
                throw MachOError(path: path, offset: commands.start + at, message: "load command \(index) has invalid size \(commandSize)")
            }
            found.append((command, try commands.window(at, count: commandSize, "load command \(index)")))
            at += commandSize
        }
        return found
    }

    /// LC_ID_DYLIB's name: the install name a dylib is loaded by (`@rpath/X.framework/X`);
    /// nil for executables and bundles.
    package func installName() throws(MachOError) -> String? {
        guard let body = try loadCommands().first(where: { $0.command == Self.lcIDDylib })?.body else { return nil }
        let nameOffset = Int(try body.u32(8, "LC_ID_DYLIB name offset"))
        return try body.cString(nameOffset, "LC_ID_DYLIB name")
    }

    /// The code signature, as far as audit needs it: absent, signed without a team (ad hoc,
    /// or Apple's own platform signing), or signed by a team (its identifier).
    package enum CodeSignatureKind: Sendable, Equatable {
        case unsigned
        case noTeam
        case team(String)
    }

    /// Reads the CodeDirectory of LC_CODE_SIGNATURE's SuperBlob (big-endian, as codesign
    /// writes it) for its team identifier (CodeDirectory version 0x20200 and later).
    package func codeSignature() throws(MachOError) -> CodeSignatureKind {
        guard let body = try loadCommands().first(where: { $0.command == Self.lcCodeSignature })?.body else { return .unsigned }
        let dataOffset = Int(try body.u32(8, "LC_CODE_SIGNATURE dataoff"))
        let dataSize = Int(try body.u32(12, "LC_CODE_SIGNATURE datasize"))
        let slice = ByteReader(file: mapping, start: fileOffset, count: size)
        let blob = try slice.window(dataOffset, count: dataSize, "code signature")
        guard try blob.u32(0, "SuperBlob magic", bigEndian: true) == 0xFADE_0CC0 else { return .noTeam }
        let count = min(Int(try blob.u32(8, "SuperBlob count", bigEndian: true)), 64)
        for index in 0..<count {
            let type = try blob.u32(12 + index * 8, "SuperBlob index type", bigEndian: true)
            let offset = Int(try blob.u32(16 + index * 8, "SuperBlob index offset", bigEndian: true))
            // The primary CodeDirectory (type 0); alternates (0x1000…) carry the same team.
            guard type == 0 || (0x1000..<0x1005).contains(type) else { continue }
            guard try blob.u32(offset, "CodeDirectory magic", bigEndian: true) == 0xFADE_0C02 else { continue }
            let version = try blob.u32(offset + 8, "CodeDirectory version", bigEndian: true)
            guard version >= 0x20200 else { return .noTeam }
            let teamOffset = Int(try blob.u32(offset + 48, "CodeDirectory teamOffset", bigEndian: true))
            guard teamOffset != 0 else { return .noTeam }
            let team = try blob.cString(offset + teamOffset, "CodeDirectory team identifier")
            return team.isEmpty ? .noTeam : .team(team)
        }
        return .noTeam
    }

    /// Whether the string table holds `needle` anywhere (`__hidden#`: names a bitcode build
    /// hid until its BCSymbolMaps are applied). One scan of the string table's bytes.
    package func stringTableContains(_ needle: String) throws(MachOError) -> Bool {
        guard let symtab else { return false }
        let reader = ByteReader(file: mapping, start: fileOffset, count: size)
        let strings = try reader.window(symtab.stroff, count: symtab.strsize, "string table")
        guard let base = strings.file.base, strings.count > 0 else { return false }
        let haystack = UnsafeRawBufferPointer(start: base + strings.start, count: strings.count)
        var needle = needle
        return needle.withUTF8 { ByteSearch.contains(haystack, UnsafeRawBufferPointer($0)) }
    }

    /// The compile units in `__DWARF,__debug_info`, counted from unit headers (each unit's
    /// length leads to the next); 0 when there is no DWARF.
    package func compileUnitCount() throws(MachOError) -> Int {
        guard let section = section(segment: "__DWARF", name: "__debug_info") else { return 0 }
        let bytes = try contents(of: section)
        var count = 0
        var at = 0
        func u32(_ offset: Int) -> UInt32? {
            guard offset >= 0, offset <= bytes.count - 4 else { return nil }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        while at < bytes.count {
            guard let length = u32(at) else { break }
            let next: Int
            if length == 0xFFFF_FFFF {
                guard let low = u32(at + 4), let high = u32(at + 8) else { break }
                let length64 = UInt64(high) << 32 | UInt64(low)
                guard length64 <= UInt64(bytes.count - at - 12) else { break }
                next = at + 12 + Int(length64)
            } else {
                guard length < 0xFFFF_FFF0, Int(length) <= bytes.count - at - 4 else { break }
                next = at + 4 + Int(length)
            }
            count += 1
            at = next
        }
        return count
    }
}

extension MachOSlice {
    /// The debug dylib a Debug build's stub executable opens (Xcode 16+, `ENABLE_DEBUG_DYLIB`):
    /// the name Xcode writes into the stub's `__TEXT,__debug_dylib` section
    /// (`MyApp.debug.dylib`). The stub holds none of the app's code — Apple's blank executor
    /// only — so a crash's app frames are in that dylib, matched by its own UUID. Nil for any
    /// other binary, or when the section's bytes are not a file name.
    package func debugDylibStubTarget() -> String? {
        guard fileType == Self.executableFileType, let section = section(segment: "__TEXT", name: "__debug_dylib"),
            section.size > 0, section.size <= 4096, let bytes = try? contents(of: section)
        else { return nil }
        let name = bytes.prefix { $0 != 0 }
        // A file name: printable, no control characters (a damaged section is not shown).
        guard !name.isEmpty, name.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        let text = String(decoding: name, as: UTF8.self)
        return text.contains("\u{FFFD}") ? nil : text
    }

    /// `MH_EXECUTE`.
    static let executableFileType: UInt32 = 0x2
}
