import Testing

@testable import SymbolicateCore

/// The counters the DWARF session uses to decide when to hand a debug file's pages back.
@Suite struct ResidentMemoryTests {
    #if os(Linux)
        @Test func readsTheProcessCounters() throws {
            let before = try #require(ResidentMemory.current())
            // A test process maps its binary and libraries and has a heap.
            #expect(before.fileBacked > 1 << 20)
            #expect(before.anonymous > 1 << 20)
            // 64 MiB touched on the heap shows up as anonymous memory.
            // The counters are the whole process's, and the suites run in parallel: other tests
            // free memory meanwhile (runs saw 58.6 MiB and 16 MiB of the 64), so half is what is
            // asserted, in one of three tries.
            let size = 64 << 20
            var grew: [Int] = []
            for _ in 0..<3 {
                let start = try #require(ResidentMemory.current())
                let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
                defer { block.deallocate() }
                for offset in stride(from: 0, to: size, by: 4096) { block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
                let after = try #require(ResidentMemory.current())
                grew.append(Int(after.anonymous) - Int(start.anonymous))
                if grew.last! >= 32 << 20 { break }
            }
            #expect(grew.contains { $0 >= 32 << 20 }, "\(grew)")
        }
    #endif
}
