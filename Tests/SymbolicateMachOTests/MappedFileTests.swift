import Foundation
import Testing

@testable import SymbolicateMachO

/// Handing pages back must never change what a mapping reads.
@Suite struct MappedFileTests {
    /// A copy in memory (how the fuzz targets feed inputs) is anonymous memory: dropping its
    /// pages would zero them, so every later read of the input saw zeros.
    @Test func releasingACopyKeepsItsBytes() {
        let page = 4096
        let bytes = (0..<(4 * page)).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        let mapping = bytes.withUnsafeBytes { MappedFile(path: "copy", copying: $0) }
        mapping.releaseAllPages()
        let read = mapping.bytes(at: 0, count: bytes.count).map { Array($0) } ?? []
        #expect(read.count == bytes.count)
        #expect(zip(read, bytes).filter { $0 != $1 }.count == 0, "bytes changed by releasing the pages")
    }

    /// A file mapping reads the same bytes again after its pages are dropped.
    @Test func releasingAFileMappingRereadsTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        try Data(bytes).write(to: url)
        let mapping = try MappedFile(path: url.path)
        #expect(mapping.bytes(at: 0, count: bytes.count).map { Array($0) } == bytes, "mapped bytes differ from the file")
        mapping.releaseAllPages()
        #expect(mapping.bytes(at: 0, count: bytes.count).map { Array($0) } == bytes, "bytes differ after releasing the pages")
    }
}
