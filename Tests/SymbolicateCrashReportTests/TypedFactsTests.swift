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

    /// `Exception Type`'s value as text layouts print it: the signal is what the closing
    /// parentheses hold, nested ones included (the `.crash` form of a code-signing kill).
    @Test(
        arguments: [
            ("EXC_BAD_ACCESS (SIGSEGV)", "EXC_BAD_ACCESS", "SIGSEGV"),
            ("EXC_BAD_ACCESS (SIGKILL (Code Signature Invalid))", "EXC_BAD_ACCESS", "SIGKILL (Code Signature Invalid)"),
            ("EXC_CRASH (SIGKILL - CODESIGNING)", "EXC_CRASH", "SIGKILL - CODESIGNING"),
            ("SIGSEGV", "SIGSEGV", nil), ("EXC_BAD_ACCESS(SIGSEGV)", "EXC_BAD_ACCESS(SIGSEGV)", nil),
            ("(SIGSEGV)", "(SIGSEGV)", nil), ("EXC_CRASH (a) b)", "EXC_CRASH (a) b)", nil),
        ] as [(String, String, String?)])
    func theTypeFieldsSignalIsItsClosingParentheses(_ value: String, _ type: String, _ signal: String?) {
        let field = ExceptionInfo(typeField: value)
        #expect(field.type == type)
        #expect(field.signal == signal)
    }

    @Test func aNestedCodeSigningSignalIsReadAsTheSignalAndTheKill() {
        let facts = ExceptionInfo(typeField: "EXC_BAD_ACCESS (SIGKILL (Code Signature Invalid))").facts
        #expect(facts.machType == "EXC_BAD_ACCESS")
        #expect(facts.signalName == "SIGKILL" && facts.signalNumber == 9)
        #expect(facts.isCodeSignatureInvalid)
        #expect(ExceptionInfo(type: "EXC_CRASH", signal: "Code Signature Invalid").facts.signalName == nil)
    }

    /// Intel's exception names in the codes or the subtype say the process ran x86 code.
    @Test func intelExceptionNamesAreAFact() {
        #expect(ExceptionInfo(type: "EXC_BAD_INSTRUCTION", signal: "SIGILL", codes: "EXC_I386_INVOP").facts.namesIntelException)
        #expect(ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "EXC_I386_GPFLT").facts.namesIntelException)
        #expect(!ExceptionInfo(type: "EXC_BAD_INSTRUCTION", signal: "SIGILL", codes: "0x0000000000000001, 0x0").facts.namesIntelException)
    }

    @Test func dyldsMissingSymbolCallIsAFact() throws {
        let text = """
            Exception Type:  EXC_CRASH (SIGABRT)
            Termination Reason: DYLD 4 Symbol missing
            missing symbol called

            Thread 0 Crashed:
            0   dyld                          \t       0x10979cb3e __abort_with_payload + 10
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "dyld.crash")
        #expect(report.facts.termination?.isMissingSymbolCalled == true)
        let other = try CrashReport.parse(
            data: Data(text.replacingOccurrences(of: "missing symbol called", with: "").utf8), path: "d.crash")
        #expect(other.facts.termination?.isMissingSymbolCalled == false)
    }

    /// Typed readings of a message the reader classified: Foundation's assertion names its method,
    /// libc++abi's line for an Objective-C exception names only its type.
    @Test func statedMessagesSayWhatTheyName() {
        let starred = StatedMessage(
            family: .assertion, text: "*** Assertion failure in -[UITableView _configureCellForDisplay:forIndexPath:], UITableView.m:9655",
            quote: "", source: .console)
        #expect(starred.assertedMethod == "-[UITableView _configureCellForDisplay:forIndexPath:], UITableView.m:9655")
        let bare = StatedMessage(family: .assertion, text: "Assertion failure in -[A b]", quote: "", source: .console)
        #expect(bare.assertedMethod == "-[A b]")
        #expect(
            StatedMessage(family: .assertion, text: "Assertion failed: (x), function f", quote: "", source: .console).assertedMethod == nil)
        let typeOnly = StatedMessage(
            family: .objcException, text: "libc++abi: terminating due to uncaught exception of type NSException", quote: "",
            source: .console)
        #expect(typeOnly.namesOnlyAnObjectiveCExceptionType)
        let withWhat = StatedMessage(
            family: .cxxException, text: "libc++abi: terminating due to uncaught exception of type std::out_of_range: vector", quote: "",
            source: .console)
        #expect(!withWhat.namesOnlyAnObjectiveCExceptionType)
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
