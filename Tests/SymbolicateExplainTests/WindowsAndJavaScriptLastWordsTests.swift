import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Windows' and JavaScript's words for a crash (issue 48): Windows Error Reporting's Application
/// Error event (the exception code as the signal it is on macOS, the faulting module as the
/// crashed frame's image, the event's fields not taken for the program's output), a bug check as
/// WinDbg heads it, and errors nothing caught in a browser, Node or a WebAssembly trap.
@Suite struct WindowsAndJavaScriptLastWordsTests {
    /// The Application Error event (https://github.com/mhammond/pywin32/issues/2155).
    static let applicationError = """
        Log Name:      Application
        Source:        Application Error
        Date:          2/10/2024 8:29:48 AM
        Event ID:      1000
        Task Category: (100)
        Level:         Error
        Description:
        Faulting application name: python.exe, version: 3.12.2150.1013, time stamp: 0x65c2a4c7
        Faulting module name: python312.dll, version: 3.12.2150.1013, time stamp: 0x65c2a47f
        Exception code: 0xc0000005
        Fault offset: 0x000000000000cc2f
        Faulting process id: 0x2abc
        Faulting application path: C:\\Prog\\Python312\\python.exe
        """

    @Test func theApplicationErrorEvent() throws {
        let report = try readPasted(Self.applicationError)
        #expect(report.facts.exception?.signal == "SIGSEGV")
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("0xc0000005"), "\(diagnosis.said)")
        #expect(diagnosis.said.contains("python312.dll"), "\(diagnosis.said)")
        // The event's own fields are not what the program printed last.
        #expect(report.facts.lastOutput.isEmpty, "\(report.facts.lastOutput)")
    }

    /// Exception codes as Windows' tools print them; a code that is no fault names no signal.
    @Test func exceptionCodes() {
        #expect(SignalLine.windowsException(in: "Exception code: 0xc000027b") == "SIGABRT")
        #expect(SignalLine.windowsException(in: "ExceptionCode: c00000fd (Stack overflow)") == "SIGSEGV")
        #expect(
            SignalLine.windowsException(
                in:
                    "Unhandled exception at 0x00007FF6A1B2C3D4 in app.exe: 0xC0000005: Access violation reading location 0x0000000000000000."
            )
                == "SIGSEGV")
        #expect(SignalLine.windowsException(in: "Exception code: 0x00000001") == nil)
        #expect(SignalLine.windowsException(in: "the exception code was never logged") == nil)
        #expect(FactReading.isFieldLine("Task Category: Application Crashing Events"))
        #expect(!FactReading.isFieldLine("Error: could not open config.json"))
    }

    /// WinDbg's heading of a bug check (https://github.com/RafWu/RansomWatch/issues/4).
    @Test func aBugCheck() throws {
        let diagnosis = try diagnoseText(
            """
            0: kd> !analyze -v
            *******************************************************************************
            *                                                                             *
            *                        Bugcheck Analysis                                    *
            *                                                                             *
            *******************************************************************************

            IRQL_NOT_LESS_OR_EQUAL (a)
            """)
        #expect(diagnosis.said.contains("Bugcheck Analysis"), "\(diagnosis.said)")
        #expect(
            CrashMessageGrammar.match("The computer has rebooted from a bugcheck.  The bugcheck was: 0x0000000a")?.family == .processExit)
        // Prose that names the heading is not it.
        #expect(CrashMessageGrammar.match("see the Bugcheck Analysis section of the dump for details") == nil)
    }

    /// Errors nothing caught: a WebAssembly trap in a browser (https://github.com/WebAssembly/spec/issues/1112),
    /// Node's unhandled rejection (https://github.com/facundoolano/aso/issues/44).
    @Test func javaScriptErrorsNothingCaught() throws {
        #expect(JavaScriptUncaught.isUncaught("wasm://wasm/wasm-0037530e:34 Uncaught (in promise) RuntimeError: unreachable"))
        #expect(JavaScriptUncaught.isUncaught("Uncaught TypeError: Cannot read properties of undefined (reading 'x')"))
        #expect(
            JavaScriptUncaught.isUncaught(
                "[UnhandledPromiseRejection: This error originated either by throwing inside of an async function"))
        #expect(!JavaScriptUncaught.isUncaught("Uncaught exceptions are logged to the console"))
        let diagnosis = try diagnoseText(
            """
            wasm://wasm/wasm-0037530e:34 Uncaught (in promise) RuntimeError: unreachable
                at wasm-function[33]:0x3369
                at wasm-function[35]:0x3b89
            """)
        #expect(diagnosis.said.contains("RuntimeError: unreachable"), "\(diagnosis.said)")
    }
}
