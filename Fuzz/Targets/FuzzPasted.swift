import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: any bytes through every reader (seeded with device log lines and crash
/// services' text, issue 40), then every writer of every report read. A text the readers take
/// must come out of every writer without a trap, and each device-log line is read again on its
/// own: a line's event must not depend on the lines around it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPasted(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let reports = try? CrashReport.parseAll(data: Data(bytes), path: "fuzz.txt") else { return 0 }
    for report in reports {
        _ = report.textOutput()
        _ = report.jsonDump()
        _ = try? report.ipsOutput()
        for event in report.logEvents {
            guard let text = report.sourceLine(event.line) else { fatalError("line \(event.line) is not in the text") }
            guard let again = DeviceLogLine.event(text, line: event.line) else {
                fatalError("line \(event.line) read as \(event.kind) in the text but not alone")
            }
            if again.kind != event.kind { fatalError("line \(event.line): \(event.kind) in the text, \(again.kind) alone") }
        }
    }
    return 0
}
