import Foundation
import SymbolicateCrashReport

/// libFuzzer entry for crash reporters' own JSON (targets `kscrash` and `sentry`, which differ
/// in their seeds): any bytes through format detection, so KSCrash's damaged-document repair
/// and Sentry's envelope reading are reached; then every frame is given a two-level inline
/// chain, as the annotator would, so the writers that put symbols back into the original
/// layout (`--format ips`) edit every frame object.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForeignJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let reports = try? CrashReport.parseAll(data: Data(bytes), path: "fuzz.json") else { return 0 }
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
