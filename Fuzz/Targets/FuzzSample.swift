import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: bytes as a `sample`/spindump call graph (detection included), then every
/// writer. Issue 26: readers the text and `.ips` targets did not reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSample(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let reports = try? CrashReport.parseAll(data: Data(bytes), path: "fuzz-sample") else { return 0 }
    for report in reports {
        _ = report.textOutput()
        _ = report.jsonDump()
        _ = try? report.ipsOutput()
    }
    return 0
}
