import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// How Linux and its programs say a process died (issue 48): the kernel's fault line and OOM
/// killer, a service manager's and a server master's words for a child a signal ended, glibc's
/// own assertion, `backtrace_symbols` frames under a fatal-signal handler, and runtimes' last
/// words for memory they could not get. Each family was measured on holdout22 before any rule
/// here was written.
@Suite struct LinuxProcessDeathWordsTests {
    /// The kernel's fault line (https://github.com/open-ch/log-user-session/issues/15): SIGSEGV,
    /// with the fault address the kernel prints without `0x`.
    @Test func theKernelsSegfaultLine() throws {
        let line =
            "Apr  4 05:00:12 test-f kernel: log-user-sessio[66297]: segfault at 0 ip 0000000000402669 sp 00007ffe203fb570 error 4 in log-user-session[400000+5000]"
        let report = try readPasted(line + "\n")
        #expect(report.facts.exception?.signal == "SIGSEGV")
        #expect(SignalLine.siginfoAddress(in: "segfault at 7f3a10 ip 00007f sp 00007ffe error 6 in libc.so.6[7f+1000]") == "0x7f3a10")
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        // `traps:` lines name their fault before the fields.
        #expect(SignalLine.kernelFault(in: "general protection fault ip:7f12 sp:7ffd error:0 in libfoo.so[7f00+2000]") == "SIGSEGV")
        #expect(SignalLine.kernelFault(in: "trap invalid opcode ip:55d2 sp:7ffc error:0 in app[55d0+1000]") == "SIGILL")
        #expect(SignalLine.kernelFault(in: "trap divide error ip:55d2 sp:7ffc error:0 in app[55d0+1000]") == "SIGFPE")
        // A sentence about a segfault is not the kernel's line.
        #expect(SignalLine.kernelFault(in: "segfault at startup when the config is missing") == nil)
    }

    /// A master for its worker (nginx, https://github.com/danyangz/Slim/issues/6), systemd for a
    /// service's main process (https://github.com/systemd/systemd/issues/13574), and the kernel
    /// sending the signal (https://github.com/Martins3/loongson-dune/issues/50).
    @Test func aParentsAndTheKernelsWordsForTheSignal() throws {
        #expect(
            SignalLine.signal(in: "2020/12/06 13:17:09 [alert] 1705#1705: worker process 1710 exited on signal 11 (core dumped)")
                == "SIGSEGV")
        #expect(SignalLine.signal(in: "iot.service: main process exited, code=dumped, status=11/SEGV") == "SIGSEGV")
        #expect(SignalLine.signal(in: "foo.service: Main process exited, code=killed, status=6/ABRT") == "SIGABRT")
        // An exit is no signal.
        #expect(SignalLine.signal(in: "foo.service: Main process exited, code=exited, status=1/FAILURE") == nil)
        #expect(
            SignalLine.signal(in: "do_page_fault(): sending SIGSEGV to pthread for invalid read access from 000000fff6828000")
                == "SIGSEGV")
        let diagnosis = try diagnoseText(
            """
            # journalctl -feu iot.service
            Feb 24 14:28:21 huawei systemd[1]: iot.service: main process exited, code=dumped, status=11/SEGV
            Feb 24 14:28:21 huawei systemd[1]: Unit iot.service entered failed state.
            """)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
    }

    /// The OOM killer's line names the process it killed (https://github.com/equinor/ert/issues/7797);
    /// Kubernetes' `OOMKilled` status (https://github.com/hmcts/cnp-flux-config/pull/28772), not
    /// Docker's `"OOMKilled": false`.
    @Test func theOOMKillersLine() throws {
        let diagnosis = try diagnoseText(
            """
            2024-04-29T14:55:41,678628+02:00 pool invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0
            2024-04-29T14:55:41,679700+02:00 Out of memory: Killed process 1440763 (perl) total-vm:87033376kB, anon-rss:60356340kB, file-rss:0kB
            """)
        #expect(diagnosis.category == .resourceLimit, "\(diagnosis.category)")
        #expect(diagnosis.said.contains("Killed process 1440763 (perl)"), "\(diagnosis.said)")
        #expect(CrashMessageGrammar.match("my-pod   0/1   OOMKilled   4 (57s ago)   2m40s")?.family == .resource)
        #expect(CrashMessageGrammar.match(#""OOMKilled": false,"#) == nil)
    }

    /// glibc's own assertion since 2.37 (https://github.com/grame-cncm/faustlive/pull/59).
    @Test func glibcsOwnAssertion() throws {
        let line =
            "Fatal glibc error: tpp.c:83 (__pthread_tpp_change_priority): assertion failed: new_prio == -1 || (new_prio >= fifo_min_prio && new_prio <= fifo_max_prio)"
        #expect(CrashMessageGrammar.match(line)?.family == .assertion)
        let diagnosis = try diagnoseText(line + "\n[1]    1350248 IOT instruction (core dumped)  ./result/bin/FaustLive\n")
        #expect(diagnosis.category == .assertionFailure, "\(diagnosis.category)")
        #expect(diagnosis.said.contains("__pthread_tpp_change_priority"), "\(diagnosis.said)")
    }

    /// `backtrace_symbols` frames under mysqld's fatal-signal handler
    /// (https://github.com/mariadb-corporation/mysql-wsrep/issues/352): read as frames, and the
    /// handler's frames above the C library's unnamed trampoline frame are not where it crashed.
    @Test func backtraceSymbolsUnderAHandler() throws {
        let frame = try #require(PastedFrameGrammar.parse("/usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e]", reportLine: 3))
        #expect(frame.imageName == "mysqld")
        #expect(frame.symbol == "handle_connection")
        #expect(frame.symbolOffset == 0x17e)
        #expect(frame.address == 0x55f4_8c7e_8f5e)
        let inImage = try #require(
            PastedFrameGrammar.parse("/lib/x86_64-linux-gnu/libpthread.so.0(+0x110e0)[0x7fe1f80f50e0]", reportLine: 4))
        #expect(inImage.symbol == nil)
        #expect(inImage.imageOffset == 0x110e0)
        #expect(PastedFrameGrammar.parse("./a.out() [0x400aa2]", reportLine: 1)?.imageName == "a.out")
        // Prose with brackets is no frame.
        #expect(PastedFrameGrammar.parse("see the log (attached) [0x1]", reportLine: 1) == nil)
        let diagnosis = try diagnoseText(
            """
            11:40:21 UTC - mysqld got signal 11 ;
            stack_bottom = 0 thread_stack 0x80000
            /usr/sbin/mysqld(my_print_stacktrace+0x2c)[0x55f48c960d9c]
            /usr/sbin/mysqld(handle_fatal_signal+0x479)[0x55f48c268309]
            /lib/x86_64-linux-gnu/libpthread.so.0(+0x110e0)[0x7fe1f80f50e0]
            /usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e]
            /usr/sbin/mysqld(pfs_spawn_thread+0x1b4)[0x55f48cccfb64]
            """)
        #expect(diagnosis.said.contains("handle_connection"), "\(diagnosis.said)")
    }

    /// Runtimes' words for memory they could not get: PHP's limit
    /// (https://github.com/nobelharvards/PA1815/issues/10), the Erlang VM's crash dump slogan
    /// (https://github.com/emqx/emqx/issues/2494); LLVM's fatal error
    /// (https://github.com/coderrect-inc/OpenRace/issues/77); Ruby's uncaught exception
    /// (https://github.com/Techofficer/prelauncher/issues/12); a kernel oops
    /// (https://github.com/openbmc/linux/issues/119).
    @Test func runtimesLastWords() throws {
        #expect(
            CrashMessageGrammar.match(
                " PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 40000 bytes) in index.php on line 60"
            )?
            .family == .resource)
        #expect(
            CrashMessageGrammar.match(#"Slogan: eheap_alloc: Cannot allocate 8162366936 bytes of memory (of type "heap")."#)?.family
                == .resource)
        #expect(CrashMessageGrammar.match("LLVM ERROR: out of memory")?.family == .processExit)
        #expect(
            CrashMessageGrammar.match(
                "/gems/activesupport-4.2.1/lib/active_support/core_ext/numeric/conversions.rb:131:in `block (2 levels) in <class:Numeric>': stack level too deep (SystemStackError)"
            )?.family == .managedException)
        #expect(RubyUncaught.isUncaught("app.rb:12:in 'run': boom (RuntimeError)"))
        #expect(!RubyUncaught.isUncaught("app.rb:12:in `run': see the note (below)"))
        #expect(
            CrashMessageGrammar.match("[    3.290000] Unable to handle kernel paging request at virtual address 12005456")?.family
                == .processExit)
        // Android's ANR (https://github.com/sym900728/LockPattern/issues/5).
        #expect(
            CrashMessageGrammar.match(
                "09-27 10:40:01.358 1450-1492/? E/ActivityManager: ANR in com.star.loackpattern (com.star.loackpattern/com.star.demo.activity.CreateGestureActivity)"
            )?.family == .resource)
    }

    /// glibc's allocator's last words, old and new (https://github.com/pscedu/slash2/issues/184):
    /// heap corruption, in the words of the heap-corruption entry.
    @Test func glibcsAllocatorStops() throws {
        #expect(GlibcMallocError.isError("free(): invalid pointer"))
        #expect(GlibcMallocError.isError("double free or corruption (out)"))
        #expect(GlibcMallocError.isError("*** Error in `./a.out': double free or corruption (fasttop): 0x0000000001d7e010 ***"))
        #expect(!GlibcMallocError.isError("free(): called from cleanup()"))
        let diagnosis = try diagnoseText(
            """
            *** glibc detected *** /local/psc/sbin/slashd: free(): invalid next size (fast): 0x00007ffe880025b0 ***
            ======= Backtrace: =========
            /lib64/libc.so.6[0x3dd2a75146]
            /local/psc/sbin/slashd[0x4093c4]
            """)
        #expect(diagnosis.said.contains("free(): invalid next size"), "\(diagnosis.said)")
        #expect(diagnosis.headline.lowercased().contains("heap corruption"), "\(diagnosis.headline)")
    }

    /// systemd's watchdog and `systemctl status`'s signal (https://github.com/canonical/snapd/pull/12776).
    @Test func systemdsWatchdog() {
        #expect(SignalLine.supervisorStatus(in: "   Main PID: 6221 (code=killed, signal=ABRT)") == "SIGABRT")
        #expect(
            CrashMessageGrammar.match("Active: failed (Result: watchdog) since Tue 2023-04-25 17:23:14 UTC; 2min 14s ago")?.family
                == .resource)
    }
}
