import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Kernels' own fault reports, as issue threads paste them (issue 48, after holdout25's measure):
/// Linux's oops with its `RIP:` line and call trace in every syntax the kernel prints (x86's
/// `f+0x4d/0x170 [module]`, ARM's `PC is at` and `[<…>] (f) from [<…>] (g+0x…)`), FreeBSD's
/// `Fatal trap N:` with DDB's `#N 0x… at f+0x…` frames, xnu's panic with a long assertion path,
/// and the kernel's `WARN()`, which it survives. The place is the frame under the kernel's own
/// panic and trap path. Each test cites the public thread its lines come from.
@Suite struct KernelFaultReadingTests {
    /// An x86 oops inside a module (https://github.com/openzfs/zfs/issues/13687): the `RIP:` line
    /// is the faulting function, in the module named in brackets.
    @Test func linuxOopsInAModule() throws {
        let text = """
            BUG: kernel NULL pointer dereference, address: 0000000000000020
            #PF: supervisor read access in kernel mode
            #PF: error_code(0x0000) - not-present page
            PGD 0 P4D 0
            Oops: 0000 [#1] PREEMPT SMP PTI
            CPU: 5 PID: 2962 Comm: z_wr_iss Tainted: P           O      5.17.0-1013-oem #14-Ubuntu
            RIP: 0010:zap_leaf_lookup+0x4d/0x170 [zfs]
            RSP: 0018:ffffb7196e14b9e8 EFLAGS: 00010216
            RAX: 000000000000000c RBX: 0000000000000000 RCX: 0000000000000007
            Call Trace:
             <TASK>
             fzap_length+0x85/0xf0 [zfs]
             ? __schedule+0x2eb/0x8d0
             zap_length_uint64+0xe2/0x1c0 [zfs]
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.symbol) == ["zap_leaf_lookup", "fzap_length", "__schedule", "zap_length_uint64"])
        #expect(frames.first?.imageName == "zfs")
        #expect(frames.first?.symbolOffset == 0x4d)
        #expect(frames[2].imageName == "kernel")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("NULL pointer dereference"), "\(diagnosis.said)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("zap_leaf_lookup") == true, "\(diagnosis.causes)")
    }

    /// An ARM oops (https://github.com/derf/feh/issues/574): `PC is at`/`LR is at` after the
    /// kernel log's times.
    @Test func armOopsProgramCounterLines() throws {
        let text = """
            [135992.726639] Unable to handle kernel NULL pointer dereference at virtual address 0000000c
            [135992.726715] Internal error: Oops: 17 [#2] ARM
            [135992.726854] CPU: 0 PID: 7690 Comm: htop Tainted: G      D  C        5.4.79+ #1373
            [135992.726890] PC is at seq_vprintf+0x18/0x64
            [135992.726903] LR is at seq_printf+0x3c/0x5c
            [135992.726912] pc : [<c01f3218>]    lr : [<c01f32a0>]    psr: 60000013
            """
        let report = try readPasted(text)
        #expect(report.crashedThread?.frames.map(\.symbol) == ["seq_vprintf", "seq_printf"])
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("Unable to handle kernel NULL pointer dereference"), "\(diagnosis.said)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("seq_vprintf") == true, "\(diagnosis.causes)")
    }

    /// ARM's unwinder lines (https://github.com/raspberrypi/linux/issues/4879): the frame's function
    /// is the first in parentheses, with or without its offset; the register lines between them and
    /// above them are the crash's state, not a message.
    @Test func armUnwinderFromLines() throws {
        let text = """
            [  819.332721]  r4:85c53340
            [  819.334672] [<80311ae4>] (__vunmap) from [<80311dbc>] (__vfree+0x50/0x90)
            [  819.339051]  r10:b774ef05 r9:00000000 r8:b774ef00 r7:000000c0 r6:b774bb40 r5:85ccc5b8
            [  819.344377] [<80311d6c>] (__vfree) from [<80311e60>] (vfree+0x64/0x7c)
            [  819.397989] [<80144e6c>] (kthread) from [<801000d4>] (ret_from_fork+0x14/0x20)
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.symbol) == ["__vunmap", "__vfree", "kthread"])
        let diagnosis = try diagnoseText(text)
        #expect(!diagnosis.headline.contains("r4:85c53340"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("__vunmap"), "\(diagnosis.headline)")
    }

    /// FreeBSD's trap report (https://github.com/nmap/nmap/issues/2958): the trap's number is no
    /// signal (trap 12 is a page fault, not SIGTRAP), and the place is the driver's function under
    /// DDB's own panic and trap frames.
    @Test func freeBSDFatalTrapAndDDBFrames() throws {
        let text = """
            Fatal trap 12: page fault while in kernel mode
            cpuid = 6; apic id = 06
            fault virtual address	= 0x10007
            fault code		= supervisor read data, page not present
            trap number		= 12
            panic: page fault
            cpuid = 6
            KDB: stack backtrace:
            #0 0xffffffff80b7fefd at kdb_backtrace+0x5d
            #1 0xffffffff80b32bd1 at vpanic+0x131
            #2 0xffffffff80b32a93 at panic+0x43
            #3 0xffffffff8100091b at trap_fatal+0x40b
            #4 0xffffffff81000966 at trap_pfault+0x46
            #5 0xffffffff80fd6d48 at calltrap+0x8
            #6 0xffffffff821683d4 at re_rxeof+0x344
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.last?.symbol == "re_rxeof")
        #expect(frames.last?.symbolOffset == 0x344)
        #expect(report.facts.exception?.signal == "SIGSEGV")
        let diagnosis = try diagnoseText(text)
        #expect(!diagnosis.headline.contains("SIGTRAP"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("Fatal trap 12: page fault while in kernel mode"), "\(diagnosis.said)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("re_rxeof") == true, "\(diagnosis.causes)")
        // DDB's own trace syntax names the same frames.
        let ddb = try readPasted(
            """
            Fatal trap 9: general protection fault while in kernel mode
            panic: general protection fault
            KDB: stack backtrace:
            db_trace_self_wrapper() at db_trace_self_wrapper+0x2b/frame 0xfffffe00e3f29a00
            vpanic() at vpanic+0x182/frame 0xfffffe00e3f29a50
            trap_fatal() at trap_fatal+0x40b/frame 0xfffffe00e3f29ab0
            calltrap() at calltrap+0x8/frame 0xfffffe00e3f29ab0
            --- trap 0x9, rip = 0xffffffff80c58f80, rsp = 0xfffffe00e3f29b80 ---
            m_copydata() at m_copydata+0x61/frame 0xfffffe00e3f29bc0
            """)
        #expect(ddb.crashedThread?.frames.map(\.symbol).last == "m_copydata")
        #expect(ddb.facts.exception?.signal == "SIGSEGV")
    }

    /// x86 Linux's oops headings name the trap with the error code and the count.
    @Test func linuxOopsHeadings() {
        for line in [
            "general protection fault, probably for non-canonical address 0x25b5f6bb1a24827e: 0000 [#1] SMP NOPTI",
            "general protection fault: 0000 [#1] SMP", "invalid opcode: 0000 [#1] PREEMPT SMP PTI", "Oops: 0002 [#1] SMP",
        ] {
            #expect(LinuxOops.isOopsHeading(Substring(line)), "\(line)")
        }
        for line in ["Oops: something went wrong [#1]", "divide error in my report [#2]", "Oops [#1]x"] {
            #expect(!LinuxOops.isOopsHeading(Substring(line)), "\(line)")
        }
    }

    /// The kernel's `WARN()` (https://github.com/openzfs/zfs/issues/9417): registers and a call
    /// trace, then the kernel goes on; a text with nothing else states no crash.
    @Test func linuxWarningIsRefused() throws {
        let text = """
            ------------[ cut here ]------------
            General protection fault in user access. Non-canonical address?
            WARNING: CPU: 0 PID: 424 at arch/x86/mm/extable.c:126 ex_handler_uaccess+0x4d/0x60
            CPU: 0 PID: 424 Comm: kworker/u8:6 Tainted: P           OE     5.3.4-arch1-1-ARCH #1
            RIP: 0010:ex_handler_uaccess+0x4d/0x60
            Call Trace:
             fixup_exception+0x46/0x60
             do_general_protection+0x4e/0x150
             zpl_xattr_get+0x20/0x40 [zfs]
            ---[ end trace 2bc31ccc2e2e8a5b ]---
            """
        #expect(throws: CrashReportError.self) { try readPasted(text) }
    }

    /// xnu's panic with an assertion (https://github.com/SongXiaoXi/AppleIGC/issues/26): the
    /// headline names the check and its file, not the build machine's folders, and says "Kernel
    /// panic" once.
    @Test func xnuAssertionPanicHeadline() throws {
        let text = """
            panic(cpu 19 caller 0xffffff8000b9393c): assertion failed: m->m_flags & M_PKTHDR, file: /AppleInternal/Library/BuildRoots/4~B7kvugD-3BmZw5Uo5hCwoMCv25L4e5YZ3jnjSj0/Library/Caches/com.apple.xbs/Sources/xnu/bsd/kern/uipc_mbuf.c, line: 4839 @uipc_socket.c:8229
            Panicked task 0xffffff90461b2d38: 342 threads: pid 0: kernel_task
            Backtrace (CPU 19), panicked thread: 0xffffff90459c1598, Frame : Return Address
            0xfffffff05e9f3ab0 : 0xffffff80003574e1 mach_kernel : _handle_debugger_trap + 0x431
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("m->m_flags & M_PKTHDR, file: uipc_mbuf.c, line: 4839"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.components(separatedBy: "Kernel panic").count == 2, "\(diagnosis.headline)")
    }

    /// The hung-task watchdog's report (https://github.com/MIPS/CI20_linux/issues/8): a call trace,
    /// and the kernel goes on.
    @Test func hungTaskIsRefused() throws {
        let text = """
            [  240.] INFO: task kinteractiveup:64 blocked for more than 120 seconds.
            [  240.] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
            [  240.] Call Trace:
            [  240.] [<8066c218>] __schedule+0x2b8/0x7fc
            [  240.] [<800735f0>] kthread+0x6c/0x90
            """
        #expect(throws: CrashReportError.self) { try readPasted(text) }
    }

    /// An oops typed from a screen recording (https://github.com/bsauce/kernel-exploit-factory/issues/2):
    /// the colon after `BUG` lost, `Oops [#1]` with no code, `kernel panic` in lower case.
    @Test func typedOopsStillRead() throws {
        let text = """
            [17.799154] BUG unable to handle page fault for address ffffffff822c26c0
            [17.800875] #PF: supervisor read access in kernel mode
            [17.805108] Oops [#1] SMP PTI
            Call Trace:
            bpf_obj_get_info_by_fd+0x19d/0x2b0
            __do_sys_bpf+0x3fb/0x18b0
            kernel panic - not syncing : Fault exception
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("unable to handle page fault"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("bpf_obj_get_info_by_fd") == true, "\(diagnosis.causes)")
    }
}
