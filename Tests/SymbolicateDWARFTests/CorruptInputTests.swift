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
}
