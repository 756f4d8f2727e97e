import Foundation
import SymbolicateCrashReport
import SymbolicateExplain

/// libFuzzer entry: any bytes as a report (every reader), then each report's decision, worded in
/// every language with its three renderings, as the pipeline does (the rules decide once, the
/// wording happens per language) — so every rule reads whatever a reader let through
/// (issue 38: backtracking patterns made one hostile report hang a batch; `-timeout` catches a
/// rule that is no longer linear). Then the text scanners the rules use are compared with the
/// regular expressions they replaced, on short inputs (the expressions are cubic at worst): a
/// disagreement is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExplain(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let reports = try? CrashReport.parseAll(data: bytes, path: "fuzz.crash") {
        for report in reports {
            let decision = decide(report)
            for language in Language.allCases {
                let diagnosis = decision.worded(in: language)
                _ = diagnosis.renderText(color: true)
                _ = diagnosis.renderMarkdown()
                _ = diagnosis.renderJSON()
            }
        }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if text.unicodeScalars.count <= 160 { compareScanners(text) }
    return 0
}

/// Groups of the first match, nil when none; the expressions read scalars, as the scanners do.
private func firstMatch(_ pattern: String, in text: String) -> [String?]? {
    guard let regex = try? Regex(pattern).anchorsMatchLineEndings().matchingSemantics(.unicodeScalar),
        let match = try? regex.firstMatch(in: text)
    else { return nil }
    let output = match.output
    return (1..<max(output.count, 1)).map { group in output[group].substring.map(String.init) }
}

private func expectSame(_ scanned: [String?]?, _ pattern: String, _ text: String) {
    let expected = firstMatch(pattern, in: text)
    if scanned != expected {
        fatalError(
            "MessageScan disagrees with \(pattern) on \(String(reflecting: text)): \(String(describing: scanned)) against \(String(describing: expected))"
        )
    }
}

private func compareScanners(_ text: String) {
    expectSame(
        MessageScan(text).faultAddress().map { [$0.name, $0.address, $0.stripped] },
        #"([A-Za-z_0-9]+) at (0x[0-9a-fA-F]+)(?: -> (0x[0-9a-fA-F]+))?"#, text)
    expectSame(
        MessageScan(text).uncaughtObjCException().map { [$0.name, $0.reason] }, #"uncaught exception '([^']+)', reason: '(.*)'"#, text)
    expectSame(
        MessageScan(text).isCAssertion() ? [] : nil, #"Assertion failed: .*, function .*, file .*, line [0-9]+"#, text)
    expectSame(
        MessageScan(text).uncaughtCppException().map { [$0.type, $0.what] },
        #"terminat\w+ (?:due to|with) uncaught exception of type (.+?)(?:: (.*))?$"#, text)
    expectSame(MessageScan(text).libcxxAssertion().map { [$0.file, $0.what] }, #"assertion (.+) failed: (.+)$"#, text)
    expectSame(MessageScan(text).usageDescriptionKey().map { [$0] }, #"(NS[A-Za-z]+UsageDescription)"#, text)
    expectSame(
        MessageScan(text).watchdogEvent().map { [$0] },
        #"(scene-create|scene-update|process-exit|process-launch|[a-z-]+) watchdog transgression"#, text)
    expectSame(MessageScan(text).allowanceSeconds().map { [$0] }, #"allowance of ([0-9.]+) seconds"#, text)
    expectSame(MessageScan(text).elapsedCPUSeconds().map { [$0] }, #"Elapsed application CPU time \(seconds\): ([0-9.]+)"#, text)
}
