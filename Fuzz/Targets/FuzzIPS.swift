import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: bytes as the JSON body of an `.ips` (a header line is put in front, so
/// mutations exercise the body parser rather than format detection), then every writer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array("{\"bug_type\":\"309\",\"os_version\":\"iPhone OS 17.0 (21A329)\"}\n".utf8)
    bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: size))
    guard let report = try? CrashReport.parse(data: Data(bytes), path: "fuzz.ips") else { return 0 }
    _ = report.textOutput()
    _ = report.jsonDump()
    _ = try? report.ipsOutput()
    return 0
}
