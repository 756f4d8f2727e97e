import Foundation
import SymbolicateCore
import Testing

@testable import SymbolicateCrashReport

/// What the exception and termination fields mean is decided once, in the model, by the fact
/// reading (`CrashReport.facts`); later stages read the facts instead of parsing the text again.
@Suite struct TypedFactsTests {
    @Test(
        arguments: [
            ("0x8badf00d", UInt64(0x8bad_f00d)), ("5", 5), ("8badf00d", 0x8bad_f00d), (" 0X10 ", 16), ("abc", nil), ("deadlock", nil),
        ] as [(String, UInt64?)])
    func numbersAsReportsPrintThem(_ text: String, _ value: UInt64?) {
        #expect(ReportNumber.parse(text) == value)
    }

    @Test func theTypeFieldMeansWhatItHolds() {
        let mach = ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV", codes: "0x0000000000000001, 0x0000000000000010")
        #expect(mach.machExceptionType == "EXC_BAD_ACCESS" && mach.signalName == "SIGSEGV")
        #expect(mach.codeValues == [1, 0x10])
        // Third-party reporters: a bare signal as the type.
        let bare = ExceptionInfo(type: "SIGABRT")
        #expect(bare.machExceptionType == nil && bare.signalName == "SIGABRT")
        // The Swift runtime's backtraces: a description beside the signal.
        let described = ExceptionInfo(type: "Illegal instruction", signal: "SIGILL")
        #expect(described.machExceptionType == nil && described.signalName == "SIGILL")
        #expect(ExceptionInfo(codes: "KERN_INVALID_ADDRESS at 0x10").codeValues.isEmpty)
        #expect(ExceptionInfo(note: "NON-FATAL CONDITION (this is NOT a crash)").isNonFatal)
        #expect(!mach.isNonFatal)
    }

    @Test func terminationCodesAreNumbers() {
        let watchdog = TerminationInfo(namespace: "FrontBoard", code: "0x8badf00d (watchdog)")
        #expect(watchdog.namespaceName == "FRONTBOARD" && watchdog.codeValue == 0x8bad_f00d)
        #expect(TerminationInfo(namespace: "SIGNAL", code: "5").codeValue == 5)
        #expect(TerminationInfo(code: "unknown").codeValue == nil)
    }

    @Test func theArchitectureIsTheOneImagesUse() throws {
        let text = """
            Incident Identifier: 1
            Process:             App [1]
            Code Type:           ARM-64 (Native)
            Exception Type:  EXC_CRASH (SIGABRT)

            Thread 0 Crashed:
            0   App   0x0000000100004000 0x100000000 + 16384

            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "t.crash")
        #expect(report.architecture == .arm64)
        let linux = try CrashReport.parse(
            data: Data(text.replacingOccurrences(of: "Code Type:           ARM-64 (Native)", with: "Architecture: aarch64").utf8),
            path: "t.crash")
        #expect(linux.architecture == .arm64)
    }
}
