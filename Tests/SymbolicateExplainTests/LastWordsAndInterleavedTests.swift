import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// What a program printed around its crash, read for what it says (issue 48): a runtime's line
/// written into another program's unfinished line, the lines printed just before an abort, a
/// second crash message beside the verdict's, LLDB's sentence for an interrupted expression, and
/// Zig's panic with its frames. Real public texts of the measuring corpus's tune part
/// (`Fixtures/crashtexts`, their sources in `manifest.json`), and of holdout14, measured once.
@Suite struct LastWordsAndInterleavedTests {
    /// libobjc's fatal line after a test runner's `testX (Suite) ... `: read from its process tag
    /// inside the line, and said with the signal LLDB's stop line names.
    /// https://github.com/ronaldoussoren/pyobjc/issues/389
    @Test func aRuntimesLineInsideAnotherProgramsLineIsRead() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/1625-objc-unknown-class.txt")
        let message = try #require(report.facts.statedMessages.first { $0.family == .libraryMisuse })
        #expect(message.text == "Attempt to use unknown class 0x600000c185a0.", "\(message.text)")
        #expect(message.quote.hasSuffix("... objc[71133]: Attempt to use unknown class 0x600000c185a0."), "\(message.quote)")
        #expect(diagnosis.headline.hasPrefix("SIGABRT — "), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Attempt to use unknown class"))
        // A line without a process tag inside is not cut.
        #expect(CrashMessageGrammar.match("testA (Suite) ... ok") == nil)
        #expect(LogPrefix.interleavedStarts(in: "ok objc[1]: x").count == 1)
        #expect(LogPrefix.interleavedStarts(in: "objc[1]: x").isEmpty)
        #expect(LogPrefix.interleavedStarts(in: "see array[3] here").isEmpty)
    }

    /// LLDB's sentence for an expression or a playground that a signal stopped.
    /// https://github.com/gadirom/SwiftUI-Game/issues/1
    @Test func anInterruptedExpressionStatesItsSignal() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/1626-playground-execution-interrupted.txt")
        #expect(report.facts.exception?.signalName == "SIGABRT")
        #expect(diagnosis.said.contains("Playground execution aborted"), "\(diagnosis.said)")
    }

    /// Zig's panic, `thread N panic: …`, and its frames `file:line:column: 0x… in function (module)`.
    /// https://github.com/ziglang/zig/issues/21718
    @Test func zigsPanicAndFramesAreRead() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/1656-zig-panic.txt")
        #expect(report.facts.statedMessages.first?.family == .managedException)
        let frame = try #require(report.crashedThread?.frames.first)
        #expect(frame.symbol == "readUleb128__anon_449153" && frame.imageName == "zig")
        #expect(frame.sourceFile == "/Users/kubkon/dev/zig/src/link/MachO/dwarf.zig" && frame.sourceLine == 227)
        #expect(frame.address == 0x10c1_c586f)
        #expect(diagnosis.headline.contains("start index 2049 is larger than end index 126"), "\(diagnosis.headline)")
        // Not a frame: a place and words without an address.
        #expect(PastedFrameGrammar.parse("main.swift:12:5: error: cannot find 'x' in scope", reportLine: 1) == nil)
    }

    /// dyld's refusal in a line of its own grammar leads; Rust's panic after it, which no rule
    /// read, is said too (explain never says less than the text).
    /// https://github.com/denoland/deno/issues/23555
    @Test func aSecondCrashMessageIsSaid() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/1610-deno-panic.txt")
        #expect(report.facts.statements.dyldMessage == "dyld: cannot load 'deno' (load command 0x80000034 is unknown)")
        #expect(diagnosis.headline.contains("load command 0x80000034 is unknown"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.contains { $0.text.contains("panicked at cli/tools/upgrade.rs:660:3") }, "\(diagnosis.said)")
    }

    /// Qt's fatal log before the shell's `Abort trap: 6`, and before Swift's backtracer's banner:
    /// the program's last words are the abort's likely reason, and the frames past `abort` where.
    /// https://github.com/z52c/MusicDownloader/issues/15, https://github.com/supercollider/supercollider/issues/7515
    @Test func theLastOutputBeforeAnAbortIsItsLikelyReason() throws {
        let (shell, alone) = try diagnoseCrashText("holdout14/1542-qt-platform-plugin.txt")
        #expect(shell.facts.lastOutput.map(\.line) == [1, 2])
        #expect(alone.headline.contains("Could not find the Qt platform plugin"), "\(alone.headline)")
        #expect(alone.certainty == .likely)

        let (backtraced, diagnosis) = try diagnoseCrashText("holdout14/1541-qt-platform-plugin.txt")
        #expect(backtraced.facts.lastOutput.map(\.line) == [2, 3])
        #expect(diagnosis.headline.contains("Qt platform plugin"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("QMessageLogger::fatal"), "\(diagnosis.said)")
        // An Apple report's lines above its first frame are its own fields, not a program's output.
        let (apple, _) = try diagnoseFile(TestPaths.fixtures.appendingPathComponent("reports/null-deref.crash"))
        #expect(apple.facts.lastOutput.isEmpty)
    }

    /// The selector libobjc was sending when `objc_msgSend` faulted, in either printed form:
    /// HockeyApp's reason alone, and a crash service's `Selector name found in current argument
    /// registers:` under its title line.
    /// https://github.com/artsy/energy-legacy/issues/311, https://github.com/KrassOrg/bsTestRepo/issues/2570
    @Test func theSelectorBeingSentIsRead() throws {
        let (alone, aloneDiagnosis) = try diagnoseCrashText("holdout14/1538-objc-msgsend-selector.txt")
        #expect(alone.facts.statements.selectorLine == "objc_msgSend() selector name: isNSSet__")
        #expect(aloneDiagnosis.headline.contains("isNSSet__"), "\(aloneDiagnosis.headline)")
        let (titled, titledDiagnosis) = try diagnoseCrashText("holdout14/1539-objc-msgsend-selector.txt")
        #expect(titled.facts.statements.selectorLine == "Selector name found in current argument registers: respondsToSelector:")
        #expect(titledDiagnosis.said.contains("respondsToSelector:"), "\(titledDiagnosis.said)")
    }

    /// An uncaught exception whose frames name none of the app's code (a first-throw stack of bare
    /// addresses, LLDB stopped in `__pthread_kill`): the logger's tagged line printed just before it
    /// says what the app was doing. Holdout20, measured once before this rule.
    /// https://github.com/ConnectyCube/connectycube-flutter-call-kit/issues/36
    @Test func theLastLogLineBeforeAnExceptionWithoutAppFramesIsSaid() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout20/2103-callkit-provider-configuration-nil-name.txt")
        #expect(report.facts.lastOutput.last?.text == "[FlutterCallKitPlugin][getProviderConfiguration]", "\(report.facts.lastOutput)")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.said.contains("[FlutterCallKitPlugin][getProviderConfiguration]"), "\(diagnosis.said)")
        // With the app's own frame in the throw's stack, the frame says where and the log line is not a cause.
        let framed = try diagnoseText(
            """
            [Sync] starting
            *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil'
            *** First throw call stack:
            (
            	0   CoreFoundation                      0x00000001804d9c5c __exceptionPreprocess + 172
            	1   libobjc.A.dylib                     0x0000000180088a10 objc_exception_throw + 56
            	2   MyApp                               0x0000000102a4c1f0 -[SyncController start] + 120
            )
            """)
        #expect(!framed.said.contains("[Sync] starting"), "\(framed.said)")
    }
}
