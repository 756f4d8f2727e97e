import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// What the twenty-fourth gathering's texts showed after its one measure (issue 48): an uncaught
/// exception seen only on its way out (terminate handlers, AppKit's report of it), a runtime's last
/// words on the line the program's output left unfinished, lines behind a build tool's or a
/// runtime's log prefix (HotSpot's `#` banner, Mono's native frames), Python's faulthandler, the
/// instruction a debugger shows a thread stopped at, and dyld's reason for a library it found but
/// refused. Each test cites the public thread its lines come from.
@Suite struct WaysOutPrefixesAndInstructionsTests {
    /// libstdc++'s words right after the program's own `...` (https://github.com/yinlabniu/HGT-Finder/issues/7):
    /// the exception is read, and what the program was doing is where to start.
    @Test func lastWordsAfterUnfinishedOutput() throws {
        let diagnosis = try diagnoseText(
            """
            Reading in tax DB...terminate called after throwing an instance of 'std::bad_alloc'
              what():  std::bad_alloc
            """)
        #expect(diagnosis.headline.contains("std::bad_alloc"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("Reading in tax DB..."), "\(diagnosis.said)")
        // A mention inside a sentence is no crash line of its own.
        #expect(CrashMessageGrammar.match("the wiki says terminate called after throwing is common") == nil)
        #expect(CrashMessageGrammar.match("Applying standard filter. terminate called after throwing an instance of 'X'") != nil)
    }

    /// HotSpot's fatal-error banner through Maven's `[INFO] ` (https://github.com/dcevm/dcevm/issues/143):
    /// its `#` lines are read (the signal, the problematic frame); `[INFO] #` is no root prompt.
    @Test func hotSpotBannerBehindABuildToolsPrefix() throws {
        let report = try readPasted(
            """
            [INFO] # A fatal error has been detected by the Java Runtime Environment:
            [INFO] #
            [INFO] #  SIGSEGV (0xb) at pc=0x00000001066ea2b7, pid=9698, tid=0x000000000000a903
            [INFO] # Problematic frame:
            [INFO] # V  [libjvm.dylib+0x2ea2b7]  klassItable::initialize_itable_for_interface(int, KlassHandle, bool, Thread*)+0x41
            """)
        #expect(report.facts.exception?.signal == "SIGSEGV")
        #expect(report.crashedThread?.frames.first?.symbol?.hasPrefix("klassItable::initialize_itable_for_interface") == true)
        #expect(ShellPrompt.command(in: "[INFO] # V  [libjvm.dylib+0x2ea2b7]  klassItable") == nil)
        #expect(ShellPrompt.command(in: "[root@build-host ~]# ./configure") == "./configure")
        #expect(LogPrefix.strip("#  SIGSEGV (0xb) at pc=0x1") == "SIGSEGV (0xb) at pc=0x1")
        // gdb's frame number keeps its `#`.
        #expect(LogPrefix.strip("#3  0x00007f in main ()") == "#3  0x00007f in main ()")
    }

    /// Mono's native stack, each frame logged behind the date, the process and `critical:`, under
    /// PLCrashReporter's handler and a redacted `_sigtramp` (https://github.com/xamarin/Xamarin.Forms/issues/3986).
    @Test func appleFramesBehindAConsolePrefix() throws {
        let diagnosis = try diagnoseText(
            """
            2018-10-08 16:47:27.513 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: Stacktrace:
            Native stacktrace:
            2018-10-08 16:47:27.515 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: \t0   Paso.AstroTrend.UI.Mobile.iOS       0x00000001025910f8 _ZN7plcrash2MS5async24dwarf_cfa_state_iteratorIyxE4nextEPjPNS1_28plcrash_dwarf_cfa_reg_rule_tEPy + 28720844
            2018-10-08 16:47:27.515 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: \t1   libsystem_platform.dylib            0x00000001cdea1a20 <redacted> + 56
            2018-10-08 16:47:27.516 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: \t2   libsystem_pthread.dylib             0x00000001cdea70e0 <redacted> + 380
            2018-10-08 16:47:27.516 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: \t3   libsystem_c.dylib                   0x00000001cdd83d78 abort + 140
            2018-10-08 16:47:27.516 Paso.AstroTrend.UI.Mobile.iOS[356:19718] critical: \t4   Paso.AstroTrend.UI.Mobile.iOS       0x0000000102709b94 xamarin_find_protocol_wrapper_type + 780
            """)
        #expect(diagnosis.headline.contains("xamarin_find_protocol_wrapper_type"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("plcrash"), "\(diagnosis.headline)")
    }

    /// faulthandler's dump (https://github.com/ziyanx02/Genesis-backflip/issues/2): the signal it
    /// names in words, and the current thread's frames, not the first thread listed.
    @Test func pythonFaulthandler() throws {
        let diagnosis = try diagnoseText(
            """
            Fatal Python error: Segmentation fault

            Thread 0x00007fa040e2b700 (most recent call first):
              File "/home/ubuntu/anaconda3/envs/genesis/lib/python3.10/threading.py", line 324 in wait
              File "/home/ubuntu/anaconda3/envs/genesis/lib/python3.10/queue.py", line 180 in get

            Current thread 0x00007fa2972464c0 (most recent call first):
              File "/home/ubuntu/Genesis/examples/locomotion/Genesis-backflip/reward_wrapper.py", line 88 in _reward_feet_air_time
              File "/home/ubuntu/Genesis/examples/locomotion/Genesis-backflip/env.py", line 498 in compute_reward
            """)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("_reward_feet_air_time"), "\(diagnosis.said)")
        #expect(!diagnosis.said.contains("threading.py"), "\(diagnosis.said)")
    }

    /// A block on the main queue that threw: the crashed thread holds only the way out, from
    /// `abort` to `std::terminate` called by `_dispatch_client_callout` (https://github.com/neilalexander/seaglass/issues/21).
    @Test func anExceptionThatEscapedADispatchBlock() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type:        EXC_CRASH (SIGABRT)
            Exception Codes:       0x0000000000000000, 0x0000000000000000

            Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
            0   libsystem_kernel.dylib        \t0x00007fff7bd0ab66 __pthread_kill + 10
            1   libsystem_pthread.dylib       \t0x00007fff7bed5080 pthread_kill + 333
            2   libsystem_c.dylib             \t0x00007fff7bc661ae abort + 127
            3   libc++abi.dylib               \t0x00007fff79b60f8f abort_message + 245
            4   libc++abi.dylib               \t0x00007fff79b6112b default_terminate_handler() + 265
            5   libobjc.A.dylib               \t0x00007fff7afa2ea3 _objc_terminate() + 97
            6   libc++abi.dylib               \t0x00007fff79b7c7c9 std::__terminate(void (*)()) + 8
            7   libc++abi.dylib               \t0x00007fff79b7c843 std::terminate() + 51
            8   libdispatch.dylib             \t0x00007fff7bb80dcc _dispatch_client_callout + 28
            9   libdispatch.dylib             \t0x00007fff7bb8c395 _dispatch_main_queue_callback_4CF + 1148
            """)
        #expect(diagnosis.category == .uncaughtObjCException, "\(diagnosis.headline)")
        let first = try #require(diagnosis.causes.first)
        #expect(first.text.contains("_dispatch_client_callout"), "\(first.text)")
        // Not "raised by abort_message": the terminate path is no API that raised anything.
        #expect(!diagnosis.said.contains("Raised by abort_message"), "\(diagnosis.said)")
    }

    /// AppKit's report of an exception nothing caught traps on purpose (`_crashOnException:`,
    /// https://github.com/xbmc/Official-Kodi-Remote-iOS/issues/758): an uncaught exception, not a
    /// Swift check.
    @Test func appKitCrashesOnAnUncaughtException() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type:        EXC_BREAKPOINT (SIGTRAP)
            Exception Codes:       0x0000000000000001, 0x00000001b7367d84

            Thread 0 Crashed:
            0   AppKit                        \t0x00000001b7367d84 -[NSApplication _crashOnException:] + 324 (NSApplication.m:6688)
            1   AppKit                        \t0x00000001b7367a9c -[NSApplication reportException:] + 580 (NSApplication.m:6793)
            2   AppKit                        \t0x00000001b7411fb4 uncaughtErrorProc + 156 (NSApplication.m:6410)
            3   CoreFoundation                \t0x00000001b4591110 __handleUncaughtException + 800 (NSException.m:271)
            4   libobjc.A.dylib               \t0x00000001b4258314 _objc_terminate() + 132 (objc-exception.mm:700)
            """)
        #expect(diagnosis.category == .uncaughtObjCException, "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("_crashOnException"), "\(diagnosis.said)")
        #expect(!diagnosis.said.contains("Swift runtime check"), "\(diagnosis.said)")
    }

    /// libc++abi's line for an Objective-C exception names its class only
    /// (https://github.com/dfreniche/NSPredicate-Swift/issues/1): stated and quoted, not "names neither".
    @Test func libcxxabiNamesTheClassOnly() throws {
        let diagnosis = try diagnoseText(
            """
            libc++abi.dylib: terminating with uncaught exception of type NSException
            Playground execution failed:
            """)
        #expect(diagnosis.headline.contains("terminating with uncaught exception of type NSException"), "\(diagnosis.headline)")
        #expect(diagnosis.certainty == .stated)
    }

    /// LLDB's disassembly shows the instruction a thread stopped at: `shlxl` on a Mac without BMI2
    /// (https://github.com/staticfloat/homebrew-julia/issues/187) is code built for a newer CPU, not a
    /// Swift check; a shell's `Illegal instruction: 4` names no processor
    /// (https://github.com/Homebrew/homebrew-science/issues/1801), so the verdict claims none.
    @Test func theInstructionAtTheStop() throws {
        let lldb = try diagnoseText(
            """
            Process 31939 launched: '/usr/local/bin/julia-debug' (x86_64)
            Process 31939 stopped
            * thread #1: tid = 0x33a186, 0x000000010090ad87 libjulia-debug.dylib`llvm::FoldingSetImpl::FoldingSetImpl(unsigned int) + 33, queue = 'com.apple.main-thread', stop reason = EXC_BAD_INSTRUCTION (code=EXC_I386_INVOP, subcode=0x0)
                frame #0: 0x000000010090ad87 libjulia-debug.dylib`llvm::FoldingSetImpl::FoldingSetImpl(unsigned int) + 33
            libjulia-debug.dylib`llvm::FoldingSetImpl::FoldingSetImpl:
            ->  0x10090ad87 <+33>: shlxl  %esi, %eax, %ebx
                0x10090ad8c <+38>: movl   %ebx, 0x10(%r14)
            """)
        #expect(lldb.headline.contains("shlxl %esi, %eax, %ebx"), "\(lldb.headline)")
        #expect(PastedFrameGrammar.stoppedInstruction("->  0x1a2b <+8>:  brk    #0x1") == "brk #0x1")
        #expect(PastedFrameGrammar.stoppedInstruction("-> 12   \tlet x = y") == nil)
        let shell = try diagnoseText(
            """
            $ samtools view -bS file.sam
            Illegal instruction: 4
            """)
        #expect(!shell.headline.contains("ARM"), "\(shell.headline)")
        #expect(shell.said.contains("newer processor"), "\(shell.said)")
    }

    /// A system process that ended the app leads its headline, with the signal
    /// (https://github.com/realm/realm-swift/issues/6861).
    @Test func theSystemProcessThatEndedTheApp() throws {
        let diagnosis = try diagnoseText(
            """
            Hardware Model:      Watch5,1
            Process:             WatchCompanion Extension [423]
            Exception Type:  EXC_CRASH (SIGKILL)
            Exception Codes: 0x0000000000000000, 0x0000000000000000
            Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc
            Triggered by Thread:  0

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0 Crashed:
            0   libsystem_kernel.dylib        	0x4fa5b3e0 mach_msg_trap + 20
            """)
        #expect(diagnosis.headline.hasPrefix("RUNNINGBOARD ended the process (SIGKILL): "), "\(diagnosis.headline)")
        #expect(diagnosis.category == .lockedFileAtSuspension)
    }

    /// dyld found the library but refused it (https://github.com/lionheart/openradar-mirror/issues/7739):
    /// the refusal after `Did find:` is stated, and its cause leads, not a missing embed.
    @Test func dyldRefusedTheLibraryItFound() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type:  EXC_CRASH (SIGABRT)
            Termination Reason: DYLD, [0x1] Library missing
            Dyld Error Message:
            Dyld Message: Library not loaded: @rpath/MoPub.framework/MoPub
              Referenced from: /var/mobile/Containers/Bundle/Application/5D64892C/theScore.app/theScore
              Reason: no suitable image found.  Did find:
                /private/var/mobile/Containers/Bundle/Application/5D64892C/theScore.app/Frameworks/MoPub.framework/MoPub: mremap_encrypted() => -1, errno=12 for /private/var/mobile/Containers/Bundle/Application/5D64892C/theScore.app/Frameworks/MoPub.framework/MoPub

            Thread 0 Crashed:
            0   dyld                          \t0x0000000102a6b2a0 __abort_with_payload + 8
            """)
        #expect(diagnosis.headline.contains("MoPub: mremap_encrypted() => -1, errno=12"), "\(diagnosis.headline)")
        let first = try #require(diagnosis.causes.first)
        #expect(first.likelihood == .likely && first.text.contains("encrypted"), "\(first.text)")
        #expect(FactReading.didFindRefusal("/a/b/X.framework/X: mach-o, but wrong architecture") == "X: mach-o, but wrong architecture")
    }
}
