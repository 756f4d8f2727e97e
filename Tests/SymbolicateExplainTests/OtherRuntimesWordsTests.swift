import Foundation
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Crash texts of runtimes and tools that word their stop their own way (issue 48): a runtime's
/// dump of the `siginfo_t` it caught and the shell's report of the abort after it, a command at a
/// decorated shell prompt, Mono's and JUCE's assertions, a method's own reason above a throw's
/// frames, frames one blank apart or with the image's load address, a library's logged fault
/// just above the crash, a .NET exception carrying `dlopen`'s words. Real public texts of
/// holdout16 (measured once, then tuned on) and of the tune part; their sources are in
/// `manifest.json`.
@Suite struct OtherRuntimesWordsTests {
    // MARK: - Signals a runtime dumps, then the shell's

    /// The Dart VM's `===== CRASH =====` block: `si_signo=Segmentation fault: 11(11), …,
    /// si_addr=0x0` is the signal and the fault address.
    /// https://github.com/flutter/flutter/issues/18498
    @Test func aSiginfoDumpIsTheSignalAndItsAddress() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout16/1717-dart-vm-crash.txt")
        #expect(report.exception?.type == "SIGSEGV")
        #expect(report.exception?.codes == "0x0")
        #expect(diagnosis.category == .nilDereference)
        #expect(diagnosis.causes.contains { $0.text.contains("si_signo=Segmentation fault") }, "\(diagnosis.causes)")
        // The crash block's `version=…` line is the runtime's, not what the program printed last.
        #expect(report.facts.lastOutput.isEmpty, "\(report.facts.lastOutput)")
    }

    /// The VM caught SIGSEGV, then aborted; bash reports `line 11: 57064 Abort trap: 6`. The
    /// caught signal is the crash, the abort its handler's way out; the prompt line is no frame.
    /// https://github.com/dart-lang/sdk/issues/49630
    @Test func theShellsAbortAfterACaughtSignalIsTheWayOut() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout16/1716-dart-vm-crash.txt")
        #expect(report.exception?.type == "SIGSEGV")
        #expect(report.exception?.signal == nil)
        #expect(report.allBacktraces.allSatisfy { $0.frames.isEmpty }, "\(report.allBacktraces.flatMap(\.frames).map(\.symbol))")
        #expect(diagnosis.category == .nilDereference)
        #expect(diagnosis.causes.first?.text.contains("si_signo=Segmentation fault") == true)
        #expect(diagnosis.causes.contains { $0.text.contains("Abort trap: 6") }, "\(diagnosis.causes)")
    }

    @Test func signalWordsOfSiginfoAndJobReports() {
        #expect(SignalLine.siginfoSignal(in: "si_signo=11, si_code=1, si_addr=0x10") == "SIGSEGV")
        #expect(SignalLine.siginfoSignal(in: "si_signo=Bus error: 10(10), si_code=1") == "SIGBUS")
        #expect(SignalLine.siginfoSignal(in: "si_signo=SIGILL, si_code=1") == "SIGILL")
        #expect(SignalLine.siginfoSignal(in: "si_signo=30, si_code=0") == nil)
        #expect(SignalLine.siginfoAddress(in: "si_signo=11, si_code=2, si_addr=0x0") == "0x0")
        #expect(SignalLine.signal(in: "./run.sh: line 11: 57064 Abort trap: 6           dart test.dart") == "SIGABRT")
        #expect(SignalLine.signal(in: "[1]+  Segmentation fault: 11  ./a.out") == "SIGSEGV")
        #expect(SignalLine.signal(in: "The job status line 3: all good") == nil)
    }

    @Test func decoratedShellPromptsAreCommands() {
        #expect(ShellPrompt.command(in: "me@host:~/Source/sdk (main)$ d-rts") == "d-rts")
        #expect(ShellPrompt.command(in: "root@box:/srv# ./server --port 80") == "./server --port 80")
        #expect(ShellPrompt.command(in: "Mac-Pro:~ john$ ./a.out") == "./a.out")
        #expect(ShellPrompt.command(in: "[me@fedora src]$ make test") == "make test")
        #expect(ShellPrompt.command(in: "me@mbp project % swift run") == "swift run")
        #expect(ShellPrompt.command(in: "The price is 5$ and more") == nil)
        #expect(ShellPrompt.command(in: "0 libc++ 0x1000 std::map<int, int> >::~map() + 4") == nil)
        #expect(ShellPrompt.command(in: "2020-01-01 12:00:00 foo[123]: x > y") == nil)
        #expect(FactReading.promptCommand("me@host:~/dir$ python3 crash.py") == "python3 crash.py")
        #expect(FactReading.isFieldLine("version=2.18.0 (be) on \"macos_arm64\""))
        #expect(!FactReading.isFieldLine("x == y failed"))
    }

    // MARK: - Assertions in other runtimes' words

    /// Mono's `* Assertion at FILE:LINE, condition `x' not met`, in a device log line whose
    /// process name has a blank in it (`dont link(Mono)[2718] <Notice>:`) behind a time of day.
    /// https://github.com/mono/mono/issues/18612
    @Test func monosAssertionBehindADeviceLogPrefix() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1725-mono-runtime-assertion.txt")
        #expect(diagnosis.category == .assertionFailure)
        #expect(diagnosis.headline.contains("condition `plt_entry' not met"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("aot-runtime.c:5237"))
    }

    /// The same assertion with a backquote GNU-style closed by an apostrophe: the message ends
    /// on its line; the IDE's `The app has been terminated.` after it is not part of it.
    /// https://github.com/dotnet/macios/issues/8731
    @Test func aGNUQuoteClosesOnItsLine() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1724-mono-runtime-assertion.txt")
        #expect(diagnosis.category == .assertionFailure)
        #expect(diagnosis.headline.contains("native_offset % 4 == 0"))
        #expect(!diagnosis.headline.contains("The app has been terminated"), "\(diagnosis.headline)")
        #expect(!ConsoleLine.opensBackquote("condition `x' not met"))
        #expect(ConsoleLine.opensBackquote("failed assertion `Texture doesn't fit"))
    }

    /// JUCE's `JUCE Assertion failure in File.h:83` in a bug report's numbered list, over the
    /// debugger's EXC_BREAKPOINT: the assertion is why the trap fired.
    /// https://github.com/juce-framework/JUCE/issues/981
    @Test func aFrameworksNamedAssertionInANumberedList() throws {
        let (_, diagnosis) = try diagnoseCrashText("tune/1819-juce-assertion.txt")
        #expect(diagnosis.headline.contains("JUCE Assertion failure in ArpeggiatorPluginDemo.h:83"), "\(diagnosis.headline)")
        #expect(LocatedAssertion.opensWithAssertion("Qt Assertion failed at main.cpp:12"))
        #expect(!LocatedAssertion.opensWithAssertion("Project Assertion library, see docs"))
    }

    // MARK: - Reasons and places in a method's words

    /// `-[NSURL initFileURLWithPath:]: nil string parameter` above frames through the throw.
    /// https://github.com/griddynamics-archive/MMWormhole/issues/82
    @Test func aMethodsReasonAboveAThrowsFrames() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1732-nsurl-nil-string-parameter.txt")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.headline.contains("nil string parameter"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.flatMap { $0.frames ?? [] }.contains { $0.contains("MMWormholeCoordinatedFileTransiting") })
    }

    /// A crash service's title `#26389201 NSInvalidArgumentException`, the reason under it, and
    /// frames one blank apart (`5 alphaVideoPlayTool -[SLMaskVideoPlayerLayer resum] + 116`)
    /// or with the image's load address and the offset (`4 AVFCore 0x00000001a868b000 + 382612`).
    /// https://github.com/pianxian/alphaVideoPlayTool/issues/2
    @Test func framesOneBlankApartAndAtALoadAddress() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout16/1709-avplayer-seek-invalid-time.txt")
        let frames = report.allBacktraces.flatMap(\.frames)
        let vendored = try #require(frames.first { $0.imageName == "alphaVideoPlayTool" })
        #expect(vendored.symbol == "-[SLMaskVideoPlayerLayer resum]")
        #expect(vendored.symbolOffset == 116)
        let loaded = try #require(frames.first { $0.imageName == "AVFCore" })
        #expect(loaded.imageOffset == 382_612)
        #expect(loaded.address == 0x1_a868_b000 + 382_612)
        #expect(diagnosis.headline.contains("Seeking is not possible"), "\(diagnosis.headline)")
        #expect(
            diagnosis.causes.flatMap { $0.frames ?? [] }.contains { $0.contains("SLMaskVideoPlayerLayer resum") }, "\(diagnosis.causes)")
        #expect(PastedFrameGrammar.parse("1 Open the app and tap + 2", reportLine: 1) == nil)
        #expect(PastedFrameGrammar.parse("22 MyApp main (main.m:18)", reportLine: 1)?.imageName == "MyApp")
    }

    /// libobjc's `Method cache corrupted.` goes on over lines of its own tag (`objc[791]:
    /// selector 'pcscfPort'`, `isa 'NgnSipPreferences'`): the message's details.
    /// https://github.com/DoubangoTelecom/idoubs/issues/220
    @Test func aRuntimesMessageGoesOnUnderItsTag() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1733-objc-method-cache-corrupted.txt")
        let said = ([diagnosis.headline] + diagnosis.causes.map(\.text)).joined(separator: "\n")
        #expect(said.contains("Method cache corrupted"))
        #expect(said.contains("pcscfPort") && said.contains("NgnSipPreferences"), "\(said)")
    }

    /// The bare method on the line above `*** Terminating app … reason: 'This task has already
    /// been stopped'` is where the exception was raised.
    /// https://github.com/apache/cordova-ios/issues/1638
    @Test func aBareMethodAboveTheExceptionIsItsPlace() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1755-webkit-scheme-task-stopped.txt")
        #expect(diagnosis.headline.contains("This task has already been stopped"))
        let said = (diagnosis.causes.map(\.text) + diagnosis.causes.flatMap { $0.frames ?? [] }).joined(separator: "\n")
        #expect(said.contains("CDVURLSchemeHandler"), "\(said)")
    }

    // MARK: - A fault logged before the crash

    /// SQLite logs `BUG IN CLIENT OF libsqlite3.dylib: … vnode unlinked while in use` and goes
    /// on; its C++ wrapper's exception then ends the process. Alone, the log line is no crash.
    /// https://github.com/iBurnApp/iBurn-iOS/issues/191
    /// https://github.com/Leanplum/Leanplum-iOS-SDK/issues/288
    @Test func aLibrarysLoggedFaultJustBeforeTheCrash() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout16/1740-sqlite-vnode-unlinked.txt")
        #expect(diagnosis.category == .uncaughtCppException)
        #expect(diagnosis.causes.contains { $0.text.contains("vnode unlinked while in use") }, "\(diagnosis.causes)")
        #expect(throws: CrashReportError.self) { try diagnoseCrashText("holdout16/1726-near-miss.txt") }
    }

    /// .NET's `System.DllNotFoundException: Unable to load shared library 'portaudio' … dlopen(…):
    /// tried: …`: `dlopen`'s words in a thrown exception's message are the exception's.
    /// https://github.com/csukuangfj/PortAudioSharp2/issues/9
    @Test func dlopensWordsInAThrownExceptionAreItsMessage() throws {
        let (_, diagnosis) = try diagnoseCrashText("tune/1809-dotnet-dll-not-found.txt")
        #expect(diagnosis.headline.contains("DllNotFoundException"), "\(diagnosis.headline)")
        #expect(NonFatalReport.isReport("dlopen(/x/libfoo.dylib, 2): image not found"))
        #expect(!NonFatalReport.isReport("System.DllNotFoundException: Unable to load 'x': dlopen(libx, 0x0001): tried: 'libx'"))
    }
}
