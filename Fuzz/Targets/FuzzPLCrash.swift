import Foundation
import SymbolicateCrashReport

/// libFuzzer entry for PLCrashReporter's `.plcrash` reports (target `plcrash`): any bytes behind
/// the file's header (magic and version 1, so mutations reach the protobuf message), through
/// swift-protobuf's decoding, the walk that locates damage, the translation into the model, and
/// then every writer (they redo arithmetic on the addresses read).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPLCrash(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    // Seeds are whole files; a mutated header is tried as it is, too.
    let bytes = input.starts(with: Array("plcrash".utf8)) ? input : Array("plcrash".utf8) + [1] + input
    guard let reports = try? CrashReport.parseAll(data: Data(bytes), path: "fuzz.plcrash") else { return 0 }
    for var report in reports {
        report.updateFrames { (frame: inout Frame) in
            frame.symbolication = [
                SymbolicatedFrame(function: "inner", offsetInFunction: 0, file: "/src/a.c", line: 3, column: 7, isInlined: true),
                SymbolicatedFrame(function: "outer", offsetInFunction: frame.address % 4096, file: "/src/a.c", line: 9, isInlined: false),
            ]
        }
        _ = report.textOutput()
        _ = report.jsonDump()
        _ = try? report.ipsOutput()
    }
    return 0
}
