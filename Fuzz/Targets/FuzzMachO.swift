import Foundation
import SymbolicateCore
import SymbolicateMachO

/// libFuzzer entry: bytes as a Mach-O file (thin or fat): headers, load commands, every
/// section's contents and the symbol table, as discovery and the DWARF reader use them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let mapping = MappedFile(path: "fuzz.macho", copying: UnsafeRawBufferPointer(start: data, count: size))
    guard let file = try? MachOFile(mapping: mapping) else { return 0 }
    for slice in file.slices {
        _ = slice.debugID
        _ = slice.textVMAddress
        for segment in slice.segments {
            for section in segment.sections { _ = try? slice.contents(of: section) }
        }
        _ = try? slice.symbols()
    }
    if let first = file.slices.first {
        _ = file.slice(architecture: first.architecture)
        _ = first.debugID.map { file.slice(id: $0) }
    }
    return 0
}
