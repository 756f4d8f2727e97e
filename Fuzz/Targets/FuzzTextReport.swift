import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: any bytes as a text crash report (format detection included), then
/// every writer, since writers redo arithmetic on parsed addresses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let report = try? CrashReport.parse(data: Data(bytes), path: "fuzz.crash") else { return 0 }
    _ = report.textOutput()
    _ = report.jsonDump()
    _ = try? report.ipsOutput()
    return 0
}
