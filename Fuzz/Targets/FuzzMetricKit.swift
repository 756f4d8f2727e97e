import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: bytes as a MetricKit payload or single diagnostic (JSON, detection included):
/// every diagnostic is a report, each then through every writer. Issue 26: readers the text and
/// `.ips` targets did not reach. Issue 40: single diagnostics, frames without `address`, and `.ips`
/// bodies cut anywhere (seeded with cut fixture reports; they reach the cut-JSON closing). A report
/// read from a cut `.ips` must say it is partial.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetricKit(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let reports = try? CrashReport.parseAll(data: Data(bytes), path: "fuzz-metrickit") else { return 0 }
    for report in reports {
        if report.format == .ips, report.warnings.contains(where: { $0.kind == .partialReport }), report.completeness.isComplete {
            fatalError("a cut .ips warned as partial but is marked complete")
        }
        _ = report.textOutput()
        _ = report.jsonDump()
        _ = try? report.ipsOutput()
    }
    return 0
}
