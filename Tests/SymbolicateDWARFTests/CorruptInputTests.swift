import Foundation
import SymbolicateDWARF
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

/// Damaged debug files must give errors that name the file, never crash or hang. The
/// damaged copies are made at test time from the fixture dSYMs.
@Suite struct CorruptInputTests {
    static var dwarfFiles: [String] {
        TestPaths.dsymBundles.compactMap { FixtureDebugFiles.files($0).first }
    }

    /// Opens and looks up every line-table-ish address region; any outcome but a crash is
    /// acceptable, and errors must carry the path.
    static func exercise(_ path: String, addresses: [UInt64]) {
        do {
            let macho = try MachOFile(path: path)
            for slice in macho.slices {
                let session = try DebugSession(slice: slice)
                for result in session.lookup(fileAddresses: addresses) {
                    if let error = result?.dwarfError { #expect(error.path == path) }
                }
            }
        } catch let error as MachOError {
            #expect(error.path == path)
        } catch let error as DebugInfoError {
            #expect(error.path == path, "\(error)")
        } catch {
            Issue.record("unexpected error type \(type(of: error)): \(error)")
        }
    }

    /// Addresses spread over each fixture's code.
    static func addresses(for path: String) -> [UInt64] {
        guard let slice = try? MachOFile(path: path).slices.first, let text = slice.segment(named: "__TEXT") else { return [] }
        return stride(from: text.vmAddress, to: text.vmAddress + min(text.vmSize, 0x2000), by: 0x10).map { $0 }
    }

    @Test(arguments: dwarfFiles)
    func truncatedAtManyPoints(_ original: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        let addresses = Self.addresses(for: original)
        let directory = try TestPaths.temporaryDirectory("dwarf")
        defer { try? FileManager.default.removeItem(at: directory) }
        var cuts: [Int] = [1, 3, 4, 16, 31, 32, 100, 0x1000]
        cuts += stride(from: 0, to: bytes.count, by: max(bytes.count / 23, 1)).map { $0 }
        cuts.append(bytes.count - 1)
        for cut in Set(cuts).sorted() where cut < bytes.count {
            let path = directory.appendingPathComponent("cut-\(cut)").path
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            Self.exercise(path, addresses: addresses)
        }
    }

    @Test(arguments: dwarfFiles)
    func flippedBytesInDebugInfo(_ original: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let macho = try MachOFile(path: original)
        let slice = try #require(macho.slices.first)
        let info = try #require(slice.section(segment: "__DWARF", name: "__debug_info"))
        let start = slice.fileOffset + Int(info.offset)
        let directory = try TestPaths.temporaryDirectory("dwarf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = TestSeed.value()
        // A crash here ends the process before any expectation can name the seed: print it first.
        print("seeded damage: seed \(seed) (SYMBOLICATE_TEST_SEED=\(seed) runs it again)")
        var generator = SeededGenerator(seed: seed)
        let addresses = Self.addresses(for: original)
        for round in 0..<12 {
            var copy = bytes
            for _ in 0..<(1 + round * 4) {
                let at = start + Int.random(in: 0..<Int(info.size), using: &generator)
                copy[at] ^= UInt8.random(in: 1...255, using: &generator)
            }
            let path = directory.appendingPathComponent("flip-\(round)").path
            try Data(copy).write(to: URL(fileURLWithPath: path))
            Self.exercise(path, addresses: addresses)
        }
        // The length field of the first unit pointing far past the section.
        bytes[start] = 0xF0
        bytes[start + 1] = 0xFF
        bytes[start + 2] = 0xFF
        bytes[start + 3] = 0x0F
        let path = directory.appendingPathComponent("bad-length").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        Self.exercise(path, addresses: addresses)
    }

    /// A call site's line in a form other than the producer's: signed (`DW_FORM_sdata`, which a
    /// line of 64 to 127 reads as negative) or 8 bytes wide. Found by CI's fuzz smoke: the value
    /// went through `Int(_:)` and trapped. LLVM reads a signed call line as 0 and keeps 32 bits of
    /// any other; the lookups must answer as it does, the other frames unchanged.
    @Test(arguments: dwarfFiles)
    func callSitesInOtherForms(_ original: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let slice = try #require(try MachOFile(path: original).slices.first)
        let abbrev = try #require(slice.section(segment: "__DWARF", name: "__debug_abbrev"))
        let code = try #require(slice.section(segment: "__TEXT", name: "__text"))
        let addresses = stride(from: code.address, to: code.address + code.size, by: 4).map { $0 }
        let before = try DebugSession(slice: slice).lookup(fileAddresses: addresses)
        // Every `DW_AT_call_line, DW_FORM_data1` pair of the abbreviation table, signed.
        var patched = bytes
        let start = slice.fileOffset + Int(abbrev.offset)
        var changed = 0
        for at in start..<(start + Int(abbrev.size) - 1) where patched[at] == 0x59 && patched[at + 1] == 0x0B {
            patched[at + 1] = 0x0D
            changed += 1
        }
        try #require(changed > 0, "no call line in data1 in \(original)")
        let directory = try TestPaths.temporaryDirectory("dwarf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("call-line-sdata").path
        try Data(patched).write(to: URL(fileURLWithPath: path))
        let after = try DebugSession(slice: try #require(try MachOFile(path: path).slices.first)).lookup(fileAddresses: addresses)
        var compared = 0
        for (old, new) in zip(before, after) {
            guard let old = old?.frames, let new = new?.frames else { continue }
            try #require(old.count == new.count)
            // Inlined frames' lines are their callers' call sites: the frame after an inlined one.
            for (index, (was, now)) in zip(old, new).enumerated() {
                let isCallSite = index > 0 && old[index - 1].isInlined
                #expect(now.line == (isCallSite ? 0 : was.line), "\(now.function) \(String(describing: now.line))")
                #expect(now.function == was.function)
                if isCallSite { compared += 1 }
            }
        }
        #expect(compared > 0, "no inlined call was looked up in \(original)")
    }
}
