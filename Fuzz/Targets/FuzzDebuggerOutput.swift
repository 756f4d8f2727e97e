import Foundation
import SymbolicateCrashReport

/// libFuzzer entry: bytes as Xcode console or LLDB output (issue 40). The two readers are asked
/// directly, whatever reader of the registry would win, then the registry reads the bytes as the
/// tool does; every report is written in each layout (the `explain` target, given the same seeds,
/// diagnoses them: here it cut executions from 180 to 29 a second). What the readers promise is
/// checked, a broken promise being a crash: a frame's image is one of the report's images, the
/// crashed thread is one of its threads, and a report nothing symbolicated writes back its input's
/// lines unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDebuggerOutput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    let direct = DebuggerOutputReaders.readEither(text: text, path: "fuzz-debugger")
    var reports = direct.reports
    for report in reports {
        check(report, lines: direct.lines)
    }
    if let read = try? CrashReport.parseAll(data: bytes, path: "fuzz-debugger") { reports += read }
    for report in reports {
        _ = report.textOutput()
        _ = report.jsonDump()
        _ = try? report.ipsOutput()
    }
    return 0
}

private func check(_ report: CrashReport, lines documentLines: [String]) {
    for (_, frames) in report.allBacktraces {
        for frame in frames {
            if let index = frame.imageIndex, !report.binaryImages.indices.contains(index) {
                fatalError("frame \(frame.index) points at image \(index) of \(report.binaryImages.count)")
            }
        }
    }
    if let crashed = report.crashedThreadIndex, !report.threads.contains(where: { $0.index == crashed }) {
        fatalError("crashed thread \(crashed) is not among the threads")
    }
    if report.renderedLines().map(\.text) != documentLines {
        fatalError("an unsymbolicated report does not write back its input")
    }
}
