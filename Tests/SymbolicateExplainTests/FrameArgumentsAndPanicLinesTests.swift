import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Shapes holdout27's measure showed unread (issue 48): Rust's panic line with the thread's id,
/// the Dart VM's native frames, logcat's padded tag before debuggerd's frames, and a C library
/// message that survives only as a gdb frame's argument. Each test cites the public thread its
/// lines come from.
@Suite struct FrameArgumentsAndPanicLinesTests {
    /// Rust 1.89 names the thread's id in its panic line (https://github.com/denoland/deno/issues/36512):
    /// the message is still the line under it.
    @Test func rustPanicLineWithThreadID() throws {
        let text = """
            thread 'main' (14653) panicked at cli/lib.rs:698:5:
            Fatal error in :0: Check failed: std::numeric_limits<int>::max() >= length_.
            note: run with RUST_BACKTRACE=1 environment variable to display a backtrace
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Check failed"), "\(diagnosis.headline)")
        let panic = try #require(RustPanicMessage.panickedMarker(in: "thread 'tokio-runtime-worker' (7) panicked at src/a.rs:1:2:"))
        #expect(panic.thread == "tokio-runtime-worker")
        // A parenthesis that is no thread id, and a sentence that only says the word.
        #expect(RustPanicMessage.panickedMarker(in: "thread 'main' (main) panicked at src/a.rs:1:2:") == nil)
        #expect(RustPanicMessage.panickedMarker(in: "the worker panicked at startup") == nil)
    }

    /// The Dart VM's `===== CRASH =====` dump (https://github.com/dart-lang/sdk/issues/37279): a
    /// symbol, or an image and offset, after `pc` and `fp`.
    @Test func dartVMNativeFrames() throws {
        let symbol = try #require(PastedFrameGrammar.dartVMFrame("pc 0x01967460 fp 0x6e63e798 unw_get_proc_info", 4))
        #expect(symbol.symbol == "unw_get_proc_info")
        #expect(symbol.address == 0x0196_7460)
        let image = try #require(
            PastedFrameGrammar.dartVMFrame("pc 0x7666ce40 fp 0x6e63ed98 /lib/arm-linux-gnueabihf/libgcc_s.so.1+0x19e40", 6))
        #expect(image.imageName == "libgcc_s.so.1")
        #expect(image.imageOffset == 0x19e40)
        #expect(image.symbol == nil)
        let offset = try #require(
            PastedFrameGrammar.dartVMFrame("pc 0x0000000108e8a170 fp 0x000000016ce3d3d0 dart::Thread::Exit()+0x2c", 1))
        #expect(offset.symbol == "dart::Thread::Exit()")
        #expect(offset.symbolOffset == 0x2c)
        #expect(PastedFrameGrammar.dartVMFrame("pc 0x01967460 is where it stopped", 1) == nil)
        let text = """
            ===== CRASH =====
            si_signo=Segmentation fault(11), si_code=1, si_addr=0x24
            thread=612, isolate=(null)((nil))
              pc 0x01967460 fp 0x6e63e798 unw_get_proc_info
              pc 0x01966174 fp 0x6e63e7e0 __aeabi_unwind_cpp_pr0
            -- End of DumpStackTrace
            """
        let report = try readPasted(text)
        #expect(report.allBacktraces.flatMap(\.frames).first?.symbol == "unw_get_proc_info")
    }

    /// `logcat -v brief` pads the tag to its column (https://github.com/frida/frida/issues/155): the
    /// prefix is no frame, and debuggerd's frames behind it are read.
    @Test func logcatPaddedTagBeforeTombstoneFrames() throws {
        let text = """
            F/libc    ( 5061): Fatal signal 11 (SIGSEGV), code 1, fault addr 0x30 in tid 5637 (Thread-329)
            I/DEBUG   (  119): backtrace:
            I/DEBUG   (  119):     #00 pc 000e1818  /system/lib/libart.so
            I/DEBUG   (  119):     #01 pc 00280a27  /system/lib/libart.so (artQuickGenericJniTrampoline+34)
            """
        let report = try readPasted(text)
        let frames = report.allBacktraces.flatMap(\.frames)
        #expect(frames.first?.imageName == "libart.so", "\(frames.map { $0.imageName ?? $0.symbol ?? "" })")
        #expect(frames.contains { $0.symbol == "artQuickGenericJniTrampoline" })
        #expect(PastedFrameGrammar.pathAndSymbol("I/DEBUG   (  119): backtrace:", 2) == nil)
    }

    /// glibc's malloc check seen only in gdb's `bt` (https://github.com/systemd/systemd/issues/29752):
    /// the string `malloc_printerr` was given is the message, and the frame's name keeps no
    /// argument list even when the string holds parentheses.
    @Test func libcMessageOnlyAsFrameArgument() throws {
        let text = """
            (gdb)bt
            #0  0x00007fa98df4a2eb in kill () at ../sysdeps/unix/syscall-template.S:120
            #1  0x000055a80669341d in crash (sig=6, siginfo=0x7fff96238b70, context=<optimized out>) at ../src/core/main.c:264
            #2  <signal handler called>
            #6  0x00007fa98df354f7 in __GI_abort () at abort.c:79
            #8  0x00007fa98df9ff6c in malloc_printerr (str=str@entry=0x7fa98e0c21d4 "malloc(): corrupted top size") at malloc.c:5671
            #9  0x00007fa98df9ffd3 in _int_malloc (av=av@entry=0x7fa98e0fdc80 <main_arena>, bytes=bytes@entry=72) at malloc.c:4447
            """
        let report = try readPasted(text)
        #expect(report.allBacktraces.flatMap(\.frames).contains { $0.symbol == "malloc_printerr" })
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("malloc(): corrupted top size"), "\(diagnosis.headline)")
        #expect(FactReading.quotedArgument("str", in: #"f (str=0x1 "a \"b\" (c)") at x.c:1"#) == #"a \"b\" (c)"#)
        #expect(PastedFrameGrammar.gdbArgumentList(#"f (s=0x1 "x (y")"#)?.unquoted == "s=0x1 ")
    }

    /// Crystal's `CallStack` with decimal addresses (https://github.com/crystal-lang/crystal_lib/issues/45):
    /// its fault handler, the trampoline it names `???`, then the frame that faulted.
    @Test func crystalDecimalFramesPastItsHandler() throws {
        let text = """
            Invalid memory access (signal 11) at address 0x0
            [94640267773469] __crystal_sigfault_handler +61
            [140254629044352] ???
            [140254606926918] strlen +38
            [94640283501998] ???
            """
        let report = try readPasted(text)
        let thread = try #require(report.allBacktraces.first)
        #expect(thread.frames.map { $0.symbol ?? "" }.prefix(3) == ["__crystal_sigfault_handler", "???", "strlen"])
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("strlen"), "\(diagnosis.said)")
        // A log's counter in brackets is no frame.
        #expect(PastedFrameGrammar.bracketedAddress("[123456] connected to server", 1) == nil)
        #expect(PastedFrameGrammar.bracketedAddress("[94640267773469] f +61 (2 times)", 1)?.symbol == "f")
    }

    /// A program's own handler printing its stack through glibc's `backtrace_symbols`
    /// (https://github.com/snapcrafters/gimp/issues/381): the frame under the C library's
    /// trampoline is where it faulted, whatever the handler's words are joined with.
    @Test func handlerWithUnderscoredNameAndTrampoline() throws {
        let text = """
            > fatal error: Segmentation fault
            Stack trace:
            /snap/gimp/502/usr/lib/x86_64-linux-gnu/libgimpbase-3.0.so.0(gimp_stack_trace_print+0x438)[0x79098984e288]
            /snap/gimp/502/usr/bin/gimp(+0x2de4b1)[0x5c64b2b784b1]
            /lib/x86_64-linux-gnu/libc.so.6(+0x45320)[0x790987b57320]
            /snap/gimp/502/usr/bin/gimp(gimp_editor_set_name+0x52)[0x5c64b2c8dde2]
            /snap/gimp/502/usr/bin/gimp(+0x46c8e4)[0x5c64b2d068e4]
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("gimp_editor_set_name"), "\(diagnosis.said)")
    }

    /// Android's CheckJNI (https://github.com/dart-native/dart_native/issues/81): ART's logger puts
    /// its source place before the words, and the `from` line names the Java method.
    @Test func checkJNIErrorAndItsMethod() throws {
        let text = """
            F/_native_exampl(32439): java_vm_ext.cc:577] JNI DETECTED ERROR IN APPLICATION: use of deleted local reference 0xc9
            F/_native_exampl(32439): java_vm_ext.cc:577]     from java.lang.Object com.example.Handler.hookCallback(long, java.lang.String)
            F/_native_exampl(32439): runtime.cc:655] Runtime aborting...
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("JNI DETECTED ERROR IN APPLICATION"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("java_vm_ext.cc"), "\(diagnosis.headline)")
        let report = try readPasted(text)
        #expect(report.allBacktraces.flatMap(\.frames).first?.symbol?.hasPrefix("com.example.Handler.hookCallback(") == true)
        #expect(PastedFrameGrammar.checkJNIFrom("from here on it failed (twice)", 1) == nil)
    }

    /// The kernel's OOM report cut before its `Killed process` line, in `dmesg -T`'s time
    /// (https://github.com/kubernetes/kubernetes/issues/56891): the invocation is what it states,
    /// and its stack words are nobody's last output.
    @Test func oomKillerInvocationWithHumanTime() throws {
        let text = """
            [Wed Dec  6 23:54:11 2017] java invoked oom-killer: gfp_mask=0xd0, order=0, oom_score_adj=-998
            [Wed Dec  6 23:54:11 2017]  ffff8806db522280 00000000cdb595c3 ffff88066838fca8 ffffffff8163515c
            [Wed Dec  6 23:54:11 2017] Call Trace:
            [Wed Dec  6 23:54:11 2017]  [<ffffffff8163515c>] dump_stack+0x19/0x1b
            [Wed Dec  6 23:54:11 2017]  [<ffffffff8116cdde>] oom_kill_process+0x24e/0x3b0
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("invoked oom-killer"), "\(diagnosis.headline)")
        #expect(FactReading.isRegisterDump("[Wed Dec  6 23:54:11 2017]  ffff8806db522280 00000000cdb595c3"))
        #expect(!FactReading.isRegisterDump("deadbeef failed"))
    }

    /// gdb's stop line under `Program received signal` (https://github.com/centaurean/sharc/issues/21),
    /// alone or before the `bt` that repeats it as frame 0 (one thread, not two).
    @Test func gdbStopLine() throws {
        let alone = """
            Program received signal SIGBUS, Bus error.
            0x0000000100052236 in density_lion_encode_continue ()
            """
        #expect(try readPasted(alone).allBacktraces.flatMap(\.frames).first?.symbol == "density_lion_encode_continue")
        let repeated = """
            Program received signal SIGABRT, Aborted.
            0x00007fff8a66ad46 in __kill ()
            (gdb) backtrace
            #0  0x00007fff8a66ad46 in __kill ()
            #1  0x00007fff8fd5fdf0 in abort ()
            #2  0x0000000100003763 in TVec<TInt, int>::~TVec (this=0x101dbffe8) at ds.h:438
            """
        let report = try readPasted(repeated)
        let threads = report.allBacktraces.filter { !$0.frames.isEmpty }
        #expect(threads.count == 1)
        #expect(threads.first?.frames.count == 3)
    }

    /// Lines the measure of holdout27 showed unread: libSystem's word for a forked child
    /// (https://github.com/NixOS/nix/issues/8247), a panic's message wrapped by a paste
    /// (https://github.com/apple/container/issues/881), zsh's job status with its blanks collapsed
    /// under a label (https://github.com/isair/jarvis/issues/405), and OpenResty's request error
    /// that nginx survives (https://github.com/appwilldev/moochine-demo/issues/1).
    @Test func forkChildWrappedPanicShellStatusAndSurvivedLua() throws {
        #expect(CrashMessageGrammar.match("crashed on child side of fork pre-exec")?.family == .libraryMisuse)
        let panic = try #require(
            KernelPanicFacts(
                panicText: """
                    panic(cpu 8 caller 0xfffffe00538ac33c): watchdog timeout: no checkins from
                    watchdogd in 93 seconds (23277 total checkins since monitoring last enabled)
                    Debugger message: panic
                    """))
        #expect(panic.message.hasPrefix("watchdog timeout: no checkins from watchdogd in 93 seconds"), "\(panic.message)")
        let shell = try diagnoseText("Error in terminal: zsh: trace trap /Applications/Jarvis.app/Contents/MacOS/Jarvis\n")
        #expect(shell.headline.contains("Trace trap"), "\(shell.headline)")
        let lua = """
            2014/07/20 22:26:27 [error] 1932#0: *4 lua entry thread aborted: runtime error: /opt/app/content.lua:130: attempt to index a nil value
            stack traceback:
            coroutine 0:
                    /opt/app/content.lua: in function 'content'
            """
        #expect(throws: CrashReportError.self) { try diagnoseText(lua) }
    }

    /// Windows Error Reporting's `Report.wer` with its field names in German
    /// (https://github.com/fork-dev/TrackerWin/issues/1656): the code among the values, and the
    /// fault module WER could only name by its stack hash.
    @Test func werReportFileInAnyLanguage() throws {
        let text = """
            Version=1
            EventType=APPCRASH
            Sig[3].Name=Fehlermodulname
            Sig[3].Value=StackHash_8f57
            Sig[6].Name=Ausnahmecode
            Sig[6].Value=c0000005
            Sig[7].Name=Ausnahmeoffset
            Sig[7].Value=PCH_03_FROM_ntdll+0x0007821C
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("SIGSEGV"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("StackHash_8f57"), "\(diagnosis.said)")
        // A value that is no exception code (the module's time stamp) states nothing.
        #expect(SignalLine.windowsException(in: "Sig[2].Value=6319c15f") == nil)
        #expect(PastedFrameGrammar.windowsFaultingModule("Sig[3].Value=1.77.0.0", 1) == nil)
    }

    /// VirtualBox stopping a VM on its own error (https://github.com/kernelwernel/VMAware/issues/677),
    /// not ESP-IDF's `Guru Meditation Error:` (a firmware fault, read as its exception).
    @Test func virtualBoxGuruMeditation() throws {
        let diagnosis = try diagnoseText("VCPU1: Guru Meditation -5394 (VERR_IEM_IPE_4)\nNEM: Destroying partition...\n")
        #expect(diagnosis.headline.contains("Guru Meditation -5394 (VERR_IEM_IPE_4)"), "\(diagnosis.headline)")
        #expect(CrashMessageGrammar.match("Guru Meditation Error: Core  0 panic'ed (LoadProhibited)")?.family != .assertion)
    }

    /// Node's print of an error nothing handled (https://github.com/saschagehlich/hotnode/issues/12):
    /// the source line it quotes over a caret is no message, the `Error: …` line over V8's frames is,
    /// whatever the error's class, and the frames are read with their aliases.
    @Test func nodeErrorUnderItsSourceExcerpt() throws {
        let text = """
            events.js:167
                  throw er; // Unhandled 'error' event
                  ^

            Error: listen EADDRINUSE :::8081
                at Server.setupListenHandle [as _listen2] (net.js:1286:14)
                at listenInCluster (net.js:1334:12)
                at Object.<anonymous> (E:\\testCode\\ssr\\src\\serve\\index.js:31:8)
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("EADDRINUSE"), "\(diagnosis.headline)")
        let frames = try readPasted(text).allBacktraces.flatMap(\.frames)
        #expect(frames.first?.symbol == "Server.setupListenHandle")
        #expect(frames.first?.sourceFile == "net.js")
        #expect(frames.first?.sourceLine == 1286)
        #expect(PastedFrameGrammar.v8Frame("at /app/index.js:31:8", 1)?.sourceLine == 31)
        // Java's and .NET's frames are not V8's.
        #expect(PastedFrameGrammar.v8Frame("at com.example.Main.run(Main.java:12)", 1) == nil)
        #expect(PastedFrameGrammar.v8Frame("at App.Program.Main () in /src/Program.cs:line 5", 1) == nil)
    }

    /// A macOS report that prints its codes by name and again by number
    /// (https://github.com/sindresorhus/Pasteboard-Viewer/issues/16): the named line is kept.
    @Test func exceptionCodesByNameAndNumber() throws {
        let text = """
            Exception Type:        EXC_BAD_ACCESS (SIGBUS)
            Exception Codes:       KERN_PROTECTION_FAILURE at 0x00007ff84b1e9360
            Exception Codes:       0x0000000000000002, 0x00007ff84b1e9360

            Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
            0   libobjc.A.dylib               \t    0x7ff8111d4b43 objc_release + 19
            """
        let report = try readPasted(text)
        #expect(report.exception?.codes == "KERN_PROTECTION_FAILURE at 0x00007ff84b1e9360")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("KERN_PROTECTION_FAILURE"), "\(diagnosis.headline)")
    }

    /// Free Pascal's runtime error (https://github.com/samiam95124/Pascal-P6/issues/123) and tcsh's
    /// job status for an aborted program (https://github.com/paulfloyd/freebsd_valgrind/issues/27).
    @Test func pascalRuntimeErrorAndCshAbort() throws {
        let pascal = try diagnoseText("Running program\n\nRuntime error 216 at $000000000041AC13\n")
        #expect(pascal.headline.contains("Runtime error 216"), "\(pascal.headline)")
        #expect(CrashMessageGrammar.match("Runtime error budget exceeded for this request") == nil)
        #expect(SignalLine.signal(in: "Abort(coredump)") == "SIGABRT")
        #expect(SignalLine.signal(in: "Floating exception (core dumped)") == "SIGFPE")
        #expect(SignalLine.signal(in: "Abortion rights") == nil)
    }
}
