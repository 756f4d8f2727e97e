import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Xcode's console and LLDB's output read into the model: the exception's name and reason, a
/// Swift runtime error's message, file and line, LLDB's stop reasons, frames and `image list`.
@Suite struct DebuggerOutputReaderTests {
    static func read(_ text: String) throws -> CrashReport {
        let reports = try CrashReport.parseAll(data: Data(text.utf8), path: "paste.txt")
        return try #require(reports.first)
    }

    static func reader(_ text: String) -> String? {
        let document = TextDocument(text: text, hasBOM: false)
        return ReportReaders.all.first { reader in detects(reader, document) }.map { String(describing: $0) }
    }

    private static func detects<Reader: ReportReader>(_ reader: Reader.Type, _ document: TextDocument) -> Bool {
        reader.detect(document) != nil
    }

    @Test func consoleAndLLDBGoToTheirReadersAndReportsStayReports() throws {
        #expect(Self.reader("*** Terminating app due to uncaught exception 'X', reason: 'y'\n") == "XcodeConsoleReportReader")
        #expect(Self.reader("Thread 1: signal SIGABRT\n") == "XcodeConsoleReportReader")
        #expect(Self.reader("MyApp/X.swift:42: Fatal error: boom\n") == "XcodeConsoleReportReader")
        #expect(
            Self.reader("* thread #1, stop reason = signal SIGABRT\n  * frame #0: 0x0000000100003f3c a.out`main + 4\n")
                == "LLDBReportReader")
        // Console output with LLDB's backtrace after it is LLDB output.
        #expect(
            Self.reader("*** Terminating app due to uncaught exception 'X', reason: 'y'\n(lldb) bt\n  * frame #0: 0x1 a`b\n")
                == "LLDBReportReader")
        // An Apple report quoting the console's message in its Application Specific Information.
        let apple = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/objc-exception.crash"), encoding: .utf8)
        let quoting = apple.replacingOccurrences(
            of: "abort() called", with: "*** Terminating app due to uncaught exception 'X', reason: 'y'\nThread 1: signal SIGABRT")
        #expect(Self.reader(quoting) == "AppleTextReportReader")
        // A cut report: its thread headers say what it is.
        let cut =
            "*** Terminating app due to uncaught exception 'X', reason: 'y'\n\n"
            + "Thread 0 Crashed:\n0   libsystem_kernel.dylib  0x1 f + 8\n"
        #expect(Self.reader(cut) == "AppleTextReportReader")
        // Words that only look alike.
        #expect(Self.reader("the thread #1 frame is fine\nFatal errors are rare\n") == "AppleTextReportReader")
        // C `assert()`'s message alone states a crash (issue 48): the tolerant console reader takes it.
        #expect(Self.reader("Assertion failed: (x > 0), function f, file f.c, line 3.\n") == "XcodeConsoleReportReader")
    }

    /// Console noise without any crash fact is not a report, and the refusal says what was looked for.
    @Test func consoleNoiseIsRefused() {
        let noise = Data("2024-05-01 10:00:00.1 MyApp[12:34] Loaded 3 items\nwarning: something\n".utf8)
        #expect {
            try CrashReport.parseAll(data: noise, path: "noise.txt")
        } throws: { error in
            guard let error = error as? CrashReportError else { return false }
            return error.kind == .notACrashReport && error.message.contains("no frame line and no crash fact")
        }
    }

    @Test func uncaughtObjectiveCExceptionWithItsStack() throws {
        let report = try Self.read(
            """
            2021-03-01 10:00:00.123456+0100 MyApp[1234:56789] *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[__NSCFNumber length]: unrecognized selector sent to instance 0x8000000000000000'
            *** First throw call stack:
            (
            \t0   CoreFoundation                      0x00000001804f1d34 __exceptionPreprocess + 164
            \t1   libobjc.A.dylib                     0x000000018009c3a4 objc_exception_throw + 56
            \t2   MyApp                               0x0000000102a4e5f8 MyApp + 17912
            \t3   MyApp                               0x0000000102a4e6a0 _mh_execute_header + 18080
            )
            libc++abi: terminating due to uncaught exception of type NSException

            """)
        #expect(
            report.exception?.uncaught
                == UncaughtException(
                    language: .objectiveC, name: "NSInvalidArgumentException",
                    reason: "-[__NSCFNumber length]: unrecognized selector sent to instance 0x8000000000000000"))
        #expect(report.processName == "MyApp" && report.processID == 1234)
        let frames = try #require(report.lastExceptionBacktrace?.frames)
        #expect(frames.map(\.index) == [0, 1, 2, 3])
        #expect(frames[0].symbol == "__exceptionPreprocess" && frames[0].symbolOffset == 164)
        // `MyApp + 17912` and `_mh_execute_header + 18080` are offsets into the image: its load address.
        let app = try #require(report.binaryImages.first { $0.name == "MyApp" })
        #expect(app.loadAddress == 0x1_02a4_e5f8 - 17912 && app.isInferredFromFrames && app.isAppOwned)
        #expect(frames[3].imageOffset == 18080 && frames[3].symbol == nil)
        // A frame that names its function does not say where its image was loaded.
        #expect(report.binaryImages.map(\.name) == ["MyApp"])
        #expect(report.completeness.missing.contains(.noThreads))
    }

    @Test func addressListAndAReasonOverSeveralLines() throws {
        let report = try Self.read(
            """
            *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'first line
            second line'
            *** First throw call stack:
            (0x18e2e9f28 0x18e0ce264
            0x18e1f6c4c)

            """)
        #expect(report.exception?.uncaught?.reason == "first line\nsecond line")
        #expect(report.lastExceptionBacktrace?.frames.map(\.address) == [0x18e2e9f28, 0x18e0ce264, 0x18e1f6c4c])
    }

    @Test func libcxxAloneIsACppException() throws {
        let report = try Self.read("libc++abi: terminating due to uncaught exception of type std::runtime_error: disk full\n")
        #expect(report.exception?.uncaught == UncaughtException(language: .cxx, name: "std::runtime_error", reason: "disk full"))
        let older = try Self.read("libc++abi.dylib: terminating with uncaught exception of type NSException\n")
        #expect(older.exception?.uncaught == UncaughtException(language: .objectiveC))
    }

    @Test(arguments: [
        (
            "Fatal error: Unexpectedly found nil while unwrapping an Optional value: file BSText/BSTextView.swift, line 1147",
            SwiftRuntimeError(
                kind: "Fatal error", message: "Unexpectedly found nil while unwrapping an Optional value", file: "BSText/BSTextView.swift",
                line: 1147)
        ),
        (
            "MyApp/ViewController.swift:42: Fatal error: Index out of range",
            SwiftRuntimeError(kind: "Fatal error", message: "Index out of range", file: "MyApp/ViewController.swift", line: 42)
        ),
        ("Thread 1: Fatal error: boom", SwiftRuntimeError(kind: "Fatal error", message: "boom")),
        (
            "fatal error: unexpectedly found nil while unwrapping an Optional value",
            SwiftRuntimeError(kind: "fatal error", message: "unexpectedly found nil while unwrapping an Optional value")
        ),
        ("Fatal error: file MyApp/A.swift, line 3", SwiftRuntimeError(kind: "Fatal error", message: "", file: "MyApp/A.swift", line: 3)),
        (
            "MyApp/A.swift:9: Precondition failed: negative",
            SwiftRuntimeError(kind: "Precondition failed", message: "negative", file: "MyApp/A.swift", line: 9)
        ),
        ("MyApp/A.swift:9: Fatal error", SwiftRuntimeError(kind: "Fatal error", message: "", file: "MyApp/A.swift", line: 9)),
    ])
    func swiftRuntimeErrors(_ line: String, _ expected: SwiftRuntimeError) throws {
        #expect(ConsoleLine.swiftRuntimeError(line) == expected)
        let report = try Self.read(line + "\n")
        #expect(report.exception?.runtimeError == expected)
        #expect(report.exception?.message == (expected.message.isEmpty ? expected.kind : "\(expected.kind): \(expected.message)"))
        // Crash facts but no frames: read, marked partial.
        #expect(report.completeness.missing.contains(.noThreads))
        #expect(report.warnings.contains { $0.kind == .partialReport })
    }

    @Test func stopReasons() {
        let bad = StopReason("EXC_BAD_ACCESS (code=1, address=0x0)")
        #expect(bad.exceptionType == "EXC_BAD_ACCESS" && bad.codes == "0x0000000000000001, 0x0000000000000000")
        let gp = StopReason("EXC_BAD_ACCESS (code=EXC_I386_GPFLT)")
        #expect(gp.exceptionType == "EXC_BAD_ACCESS" && gp.codes == "EXC_I386_GPFLT")
        let trap = StopReason("EXC_BREAKPOINT (code=1, subcode=0x1a2b)")
        #expect(trap.codes == "0x0000000000000001, 0x0000000000001a2b")
        #expect(StopReason("signal SIGABRT").signal == "SIGABRT")
        #expect(
            StopReason("\"-[X y]: unrecognized selector sent to instance 0x1\"").quotedReason
                == "-[X y]: unrecognized selector sent to instance 0x1")
        #expect(!StopReason("breakpoint 1.1").isCrash)
    }

    @Test func lldbFrames() throws {
        let swift = try #require(
            LLDBLine.frame(
                "  * frame #0: 0x0000000100f2c8e4 MyApp`ViewController.viewDidLoad() + 224 at ViewController.swift:20:9", reportLine: 3))
        #expect(swift.index == 0 && swift.address == 0x1_00f2_c8e4 && swift.imageName == "MyApp")
        #expect(swift.symbol == "ViewController.viewDidLoad()" && swift.symbolOffset == 224)
        #expect(swift.sourceFile == "ViewController.swift" && swift.sourceLine == 20 && swift.reportLine == 3)
        let unnamed = try #require(
            LLDBLine.frame("    frame #3: 0x00007fbccf329729 libc.so.6`___lldb_unnamed_symbol8$$libc.so.6 + 15", reportLine: 1))
        #expect(unnamed.symbol == nil && unnamed.imageName == "libc.so.6" && unnamed.symbolOffset == 15)
        let withArguments = try #require(
            LLDBLine.frame(
                "    frame #1: 0x0000000100003f60 a.out`main(argc=1, argv=0x000000016fdff3a8) at main.c:8:3 [opt]", reportLine: 1))
        #expect(withArguments.symbol == "main" && withArguments.sourceFile == "main.c" && withArguments.sourceLine == 8)
        let inlined = try #require(
            LLDBLine.frame("    frame #0: 0x0000000100003f6c a.out`main [inlined] foo(x=0) at t.c:3:10", reportLine: 1))
        #expect(inlined.isInlined && inlined.symbol == "foo")
        let bare = try #require(LLDBLine.frame("  * frame #0: 0x0000002000000020", reportLine: 1))
        #expect(bare.imageName == nil && bare.symbol == nil && bare.address == 0x20_0000_0020)
        // GitHub's rendering puts a zero-width space after `#` in pasted text.
        #expect(LLDBLine.frame("    frame #\u{200B}1: 0x0000000000000010 a`b", reportLine: 1)?.index == 1)
        #expect(LLDBLine.frame("frame #1: 0xZZ a`b", reportLine: 1) == nil)
    }

    @Test func lldbThreadsStopReasonsAndImages() throws {
        let report = try Self.read(
            """
            Process 7499 stopped
            * thread #1: tid = 0x44b9e9, 0x0000002000000020, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x2000000020)
                frame #0: 0x0000002000000020
            (lldb) thread backtrace all
            * thread #1: tid = 0x44b9e9, 0x0000002000000020, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x2000000020)
              * frame #0: 0x0000002000000020
                frame #1: 0x000000010003e239 solvespace`SolveSpace::TextWindow::Paint() + 57
              thread #2: tid = 0x44ba01, 0x00007fff8b2f6f72 libsystem_kernel.dylib`mach_msg_trap + 10, name = 'com.apple.audio.IOThread.client'
                frame #0: 0x00007fff8b2f6f72 libsystem_kernel.dylib`mach_msg_trap + 10
            (lldb) image list
            [  0] 0D8B2D21-8E2B-3C4A-9F5B-0C6D7E8F9A0B 0x0000000100000000 /Users/me/solvespace/build/bin/solvespace.app/Contents/MacOS/solvespace
                  /Users/me/solvespace/build/bin/solvespace.app.dSYM/Contents/Resources/DWARF/solvespace
            [  1] 1A2B3C4D-5E6F-3A4B-8C9D-0E1F2A3B4C5D 0x00007fff8b2e0000 /usr/lib/system/libsystem_kernel.dylib

            """)
        #expect(report.threads.map(\.index) == [1, 2])
        #expect(report.crashedThread?.index == 1 && report.crashedThread?.frames.count == 2)
        #expect(report.threads[1].name == "com.apple.audio.IOThread.client")
        #expect(report.exception?.type == "EXC_BAD_ACCESS" && report.exception?.codes == "0x0000000000000001, 0x0000002000000020")
        #expect(report.binaryImages.count == 2)
        let app = report.binaryImages[0]
        #expect(app.isAppOwned && app.debugID?.description == "0D8B2D21-8E2B-3C4A-9F5B-0C6D7E8F9A0B")
        #expect(report.processName == "solvespace")
        let frame = report.threads[0].frames[1]
        #expect(frame.imageIndex == 0 && frame.imageOffset == 0x3e239)
        #expect(report.threads[1].frames[0].imageIndex == 1)
        #expect(report.completeness.isComplete)
    }

    @Test func deviceSupportPathsAreTheOSs() {
        #expect(
            DebuggerOutputParser.devicePath("/Users/a/Library/Developer/Xcode/iOS DeviceSupport/17.0 (21A329)/Symbols/usr/lib/dyld")
                == "/usr/lib/dyld")
        #expect(DebuggerOutputParser.devicePath("/usr/lib/dyld") == "/usr/lib/dyld")
    }

    @Test func imageListLines() {
        let line = ImageListLine.parse("[  0] 5F2A1B3C-1234-5678-9ABC-DEF012345678 0x0000000100f24000 /path/My App.app/My App ")
        #expect(line?.loadAddress == 0x1_00f2_4000 && line?.path == "/path/My App.app/My App")
        #expect(ImageListLine.parse("[ 12] 0x0000000000004000 /usr/lib/dyld")?.debugID == nil)
        #expect(ImageListLine.parse("[x] 0x1 /a") == nil)
        #expect(ImageListLine.parse("[  0] not-a-uuid 0x1 /a") == nil)
    }
}
