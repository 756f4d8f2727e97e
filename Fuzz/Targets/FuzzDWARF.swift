import Foundation
import SymbolicateDWARF
import SymbolicateMachO

/// libFuzzer entry: bytes as a dSYM's DWARF file (seeded with the fixture dSYMs), opened
/// like the annotator opens it, then address → inline chain for addresses spread over its
/// `__TEXT` segment and a few taken from the input, so mutated DWARF is actually walked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDWARF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let mapping = MappedFile(path: "fuzz.dSYM/Contents/Resources/DWARF/App", copying: buffer)
    guard let file = try? MachOFile(mapping: mapping) else { return 0 }
    for slice in file.slices {
        guard let session = try? DebugSession(slice: slice) else { continue }
        var addresses: [UInt64] = []
        if let text = slice.segment(named: "__TEXT") {
            let span = min(text.vmSize, 0x4000)
            var offset: UInt64 = 0
            while offset < span {
                addresses.append(text.vmAddress &+ offset)
                offset += 0x40
            }
        }
        // The code itself: the segment's first pages hold the headers, not `__text`.
        if let code = slice.section(segment: "__TEXT", name: "__text") {
            let span = min(code.size, 0x2000)
            var offset: UInt64 = 0
            while offset < span {
                addresses.append(code.address &+ offset)
                offset += 0x20
            }
        }
        // The last bytes of the input, read as addresses, reach places the stride misses.
        var at = size
        let strided = addresses.count
        while at >= 8, addresses.count < strided + 8 {
            at -= 8
            addresses.append(buffer.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            if size - at >= 64 { break }
        }
        _ = session.lookup(fileAddresses: addresses)
        if let first = addresses.first { _ = session.lookup(fileAddress: first) }
    }
    return 0
}
