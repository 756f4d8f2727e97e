// Darwin signals, exception notes, EXC_GUARD and EXC_RESOURCE types.
// Facts: project reference explain.md §2.3, §2.5, §2.6, §3.14–3.27.

extension KnowledgeBase {
    static let signals: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "SIGHUP", kind: .signal, title: "Hangup",
            meaning: "Signal 1: the controlling terminal went away or a daemon was asked to reload. Not a crash by itself.",
            sources: [.xnuSignal], provenance: .openSource, aliases: ["Hangup: 1"], values: [1]),
        KnowledgeEntry(
            term: "SIGINT", kind: .signal, title: "Interrupt",
            meaning: "Signal 2: interrupt from the keyboard (Control-C). Not a crash.",
            sources: [.xnuSignal], provenance: .openSource, aliases: ["Interrupt: 2"], values: [2]),
        KnowledgeEntry(
            term: "SIGQUIT", kind: .signal, title: "Quit by another process",
            meaning:
                "Signal 3: another process with authority over this one terminated it. Not necessarily a crash, but a sign of detectable misbehaviour; command-line tools also get it from Control-\\.",
            causes: ["On iOS: the host app quit a keyboard extension that took too long to load"],
            checkNext: ["Investigate like a watchdog termination: the backtrace shows whatever ran after the slow code"],
            sources: [.aQuit, .tn2151], provenance: .documented, aliases: ["Quit: 3"], values: [3]),
        KnowledgeEntry(
            term: "SIGILL", kind: .signal, title: "Illegal instruction",
            meaning:
                "Signal 4: an illegal instruction. On x86_64 this is the Swift runtime trap (ud2); on ARM a truly invalid instruction. Comes with EXC_BAD_INSTRUCTION.",
            causes: [
                "x86_64: a failed Swift runtime check or fatalError", "ARM: jump through a corrupted function pointer, missing CPU feature",
            ],
            checkNext: ["See EXC_BAD_INSTRUCTION"],
            sources: [.aTrap, .xnuUnixException], provenance: .documented, aliases: ["Illegal instruction: 4"], values: [4]),
        KnowledgeEntry(
            term: "SIGTRAP", kind: .signal, title: "Trace trap",
            meaning:
                "Signal 5: a trace/breakpoint trap. On ARM this is how Swift runtime errors, fatalError and Dispatch misuse stop the program. Comes with EXC_BREAKPOINT.",
            causes: [
                "A failed Swift runtime check (nil unwrap, index out of range, overflow, failed cast)", "fatalError / precondition",
                "BUG IN CLIENT OF LIBDISPATCH",
            ],
            checkNext: ["See EXC_BREAKPOINT: read the Swift message or the 'Swift runtime failure' frame"],
            sources: [.aTrap, .aSwift], provenance: .documented, aliases: ["Trace/BPT trap: 5", "Trace/BPT trap"], values: [5]),
        KnowledgeEntry(
            term: "SIGABRT", kind: .signal, title: "Abort",
            meaning:
                "Signal 6: the process aborted, usually because it called abort() itself — most often from the default handler of an uncaught Objective-C or C++ exception; also assert(), stack-canary and malloc checks. Another privileged process can also send it.",
            causes: [
                "An uncaught Objective-C exception (Last Exception Backtrace present)",
                "An uncaught C++ exception (libc++abi message)",
                "assert() failure, __stack_chk_fail, malloc corruption checks, os_crash",
                "A structured abort from a system component (non-SIGNAL Termination Reason: TCC, DYLD, LIBSYSTEM…)",
            ],
            checkNext: [
                "Read Application Specific Information for the exception name and reason",
                "Read the Last Exception Backtrace from the top to the first frame of your code",
                "Without an exception backtrace, read the crashed thread for who called abort",
            ],
            sources: [.aAbort, .aLanguage], provenance: .documented,
            aliases: ["Abort trap: 6", "Abort trap", "SIGIOT"], values: [6]),
        KnowledgeEntry(
            term: "SIGEMT", kind: .signal, title: "Emulator trap",
            meaning: "Signal 7: emulator trap (EXC_EMULATION). Not expected on current Apple platforms.",
            sources: [.xnuSignal, .xnuUnixException], provenance: .openSource, aliases: ["EMT trap: 7"], values: [7]),
        KnowledgeEntry(
            term: "SIGFPE", kind: .signal, title: "Arithmetic fault",
            meaning: "Signal 8: floating-point or integer arithmetic fault such as division by zero (EXC_ARITHMETIC).",
            causes: ["Integer division by zero in C-family code on Intel"],
            checkNext: ["See EXC_ARITHMETIC"],
            sources: [.aArith, .xnuUnixException], provenance: .documented, aliases: ["Floating point exception: 8"], values: [8]),
        KnowledgeEntry(
            term: "SIGKILL", kind: .signal, title: "Killed by the system",
            meaning:
                "Signal 9: the operating system killed the process — usually a background or lifecycle rule was broken (watchdog, locked files, background tasks), device resources were short, code signing failed, or the user force-quit. The Termination Reason code is the explanation; backtraces often just show an idle run loop.",
            causes: [
                "Watchdog timeout (0x8badf00d)", "Holding a file lock while suspended (0xdead10cc)", "Thermal or resource pressure",
                "Code-signing enforcement",
            ],
            checkNext: [
                "Read the Termination Reason namespace and code and look it up", "Do not trust the crashed thread's backtrace as the cause",
            ],
            sources: [.aKill], provenance: .documented, aliases: ["Killed: 9"], values: [9]),
        KnowledgeEntry(
            term: "SIGBUS", kind: .signal, title: "Bus error",
            meaning:
                "Signal 10: a bus error — misaligned or invalid access, access to protected memory, a memory-mapped file that failed, or a pointer-authentication failure. The kernel uses SIGBUS for every EXC_BAD_ACCESS code other than KERN_INVALID_ADDRESS.",
            causes: [
                "Same families as SIGSEGV: bad or dangling pointers, protection faults", "Memory-mapped file errors (KERN_MEMORY_ERROR)",
                "Alignment faults",
            ],
            checkNext: ["Decode the subtype (KERN_PROTECTION_FAILURE, KERN_MEMORY_ERROR, EXC_ARM_DA_ALIGN)"],
            sources: [.aBus, .xnuUnixException], provenance: .documented, aliases: ["Bus error: 10", "Bus error"], values: [10]),
        KnowledgeEntry(
            term: "SIGSEGV", kind: .signal, title: "Segmentation fault",
            meaning:
                "Signal 11: a segmentation fault — the thread touched an address that is invalid or out of bounds (EXC_BAD_ACCESS with KERN_INVALID_ADDRESS, or a stack overflow).",
            causes: [
                "nil or near-nil pointer dereference", "Use-after-free / dangling pointer, zombie objects",
                "Out-of-bounds access in unsafe code", "Stack overflow", "Heap corruption far from the crash site",
            ],
            checkNext: ["Read the fault address", "See EXC_BAD_ACCESS"],
            sources: [.aSegv, .aMemory, .xnuUnixException], provenance: .documented,
            aliases: ["Segmentation fault: 11", "Segmentation fault"], values: [11]),
        KnowledgeEntry(
            term: "SIGSYS", kind: .signal, title: "Bad system call",
            meaning:
                "Signal 12: the process made a system call that does not exist (bad syscall number). Forbidden (rather than unknown) system calls appear as EXC_GUARD GUARD_TYPE_REJECTED_SC instead.",
            causes: ["Raw syscall() with a wrong number", "A binary built for a newer OS"],
            checkNext: ["Find the syscall() caller in the backtrace"],
            sources: [.aSys, .xnuUnixException], provenance: .documented,
            aliases: ["Bad system call: 12"], values: [12]),
        KnowledgeEntry(
            term: "SIGPIPE", kind: .signal, title: "Broken pipe",
            meaning:
                "Signal 13: the process wrote to a pipe or socket whose reader is gone; the default action terminates it. Apple's ReportCrash is not expected to write a report for it (it is not a core-generating signal); third-party reporters do report it.",
            causes: ["Writing to a closed socket or pipe without ignoring SIGPIPE"],
            checkNext: ["signal(SIGPIPE, SIG_IGN) or SO_NOSIGPIPE on sockets; handle EPIPE"],
            sources: [.xnuUnixException, .xnuSignal], provenance: .openSource, aliases: ["Broken pipe: 13"], values: [13]),
        KnowledgeEntry(
            term: "SIGALRM", kind: .signal, title: "Alarm clock",
            meaning: "Signal 14: a timer set with alarm() expired and nothing handled it.",
            sources: [.xnuSignal], provenance: .openSource, aliases: ["Alarm clock: 14"], values: [14]),
        KnowledgeEntry(
            term: "SIGTERM", kind: .signal, title: "Termination request",
            meaning:
                "Signal 15: a polite termination request, often sent shortly before SIGKILL so the process can exit cleanly; also the default kill from Terminal. JSON reports may spell it SIGTRM.",
            causes: ["launchd stopping a daemon or agent", "System shutdown or logout", "MDM- or update-driven termination"],
            checkNext: ["Check the process lifecycle: who stops it and whether it exits promptly"],
            sources: [.aTerm], provenance: .documented,
            aliases: ["Terminated: 15", "SIGTRM"], values: [15]),
        KnowledgeEntry(
            term: "SIGUSR1", kind: .signal, title: "User-defined signal 1",
            meaning: "Signal 30: application-defined; terminates the process if nothing handles it.",
            sources: [.xnuSignal], provenance: .openSource, aliases: ["User defined signal 1: 30"], values: [30]),
        KnowledgeEntry(
            term: "SIGUSR2", kind: .signal, title: "User-defined signal 2",
            meaning: "Signal 31: application-defined; terminates the process if nothing handles it.",
            sources: [.xnuSignal], provenance: .openSource, aliases: ["User defined signal 2: 31"], values: [31]),
    ]

    static let exceptionNotes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "SIMULATED (this is NOT a crash)", kind: .exceptionNote, title: "Simulated crash report",
            meaning:
                "The process did not crash: the report was generated on purpose (os_fault, simulated crash). The OS may have asked the process to quit afterwards.",
            sources: [.aFields], provenance: .documented, aliases: ["SIMULATED", "isSimulated"]),
        KnowledgeEntry(
            term: "NON-FATAL CONDITION (this is NOT a crash)", kind: .exceptionNote, title: "Non-fatal condition",
            meaning: "A report was generated but the process kept running (EXC_RESOURCE warnings, GUARD_TYPE_USER faults).",
            sources: [.aFields], provenance: .documented, aliases: ["NON-FATAL CONDITION", "isNonFatal"]),
    ]

    static let guardTypes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "GUARD_TYPE_MACH_PORT", kind: .guardType, title: "Mach port guard",
            meaning:
                "EXC_GUARD type 1: a Mach port right was misused (the flavor names the violation, e.g. INVALID_NAME, MOD_REFS/OVER_DEALLOC, DESTROY).",
            causes: [
                "Over-releasing a port right (mach_port_deallocate / mod_refs)", "Using a dangling port name",
                "Destroying someone else's guarded receive right", "Thread-safety bugs around ports",
            ],
            checkNext: ["Read Exception Message for the flavor and port number", "Find mach_port_* calls in the crashed thread"],
            sources: [.xnuGuard, .xnuPortGuards], provenance: .openSource, values: [1]),
        KnowledgeEntry(
            term: "GUARD_TYPE_FD", kind: .guardType, title: "File-descriptor guard",
            meaning:
                "EXC_GUARD type 2: a guarded file descriptor, owned by a system library (SQLite/Core Data, libdispatch, XPC), was closed, dup'ed, had close-on-exec cleared, was sent over a socket, turned into a fileport or written to.",
            causes: [
                "Closing every descriptor (e.g. after fork or in a 'close all fds' helper)",
                "Double close in a wrapper: the number was reused by a guarded descriptor", "Writing to a descriptor you do not own",
            ],
            checkNext: [
                "Read Exception Message: operation (CLOSE, DUP, WRITE…) and descriptor number",
                "Find the close/dup/write caller in the crashed thread's backtrace",
            ],
            sources: [.aGuard, .xnuGuardedFD], provenance: .documented, values: [2]),
        KnowledgeEntry(
            term: "GUARD_TYPE_USER", kind: .guardType, title: "User fault guard",
            meaning:
                "EXC_GUARD type 3: a user-space component reported a fault (namespace and reason code in the message). Non-fatal: reported as ExcUserFault_<process>.",
            sources: [.xnuGuard], provenance: .openSource, values: [3]),
        KnowledgeEntry(
            term: "GUARD_TYPE_VN", kind: .guardType, title: "Vnode guard",
            meaning:
                "EXC_GUARD type 4: a guarded file (vnode) was renamed, unlinked, written, truncated, linked, exchanged or had its permissions changed.",
            sources: [.xnuGuard, .xnuGuardedFD], provenance: .openSource, values: [4]),
        KnowledgeEntry(
            term: "GUARD_TYPE_VIRT_MEMORY", kind: .guardType, title: "Virtual memory guard",
            meaning:
                "EXC_GUARD type 5: a virtual-memory guard fired (deallocating a gap, reclaim failures, security or memory-tagging faults).",
            sources: [.xnuGuard], provenance: .openSource, values: [5]),
        KnowledgeEntry(
            term: "GUARD_TYPE_REJECTED_SC", kind: .guardType, title: "Rejected system call",
            meaning:
                "EXC_GUARD type 6: the process made a system call or Mach trap that is forbidden for it (the message names the trap or syscall number).",
            sources: [.xnuGuard], provenance: .openSource, values: [6]),
    ]

    static let resourceTypes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "RESOURCE_TYPE_CPU", kind: .resourceType, title: "Too much CPU",
            meaning:
                "EXC_RESOURCE CPU: a thread used more CPU than allowed over a short window. Subtype CPU is a warning; CPU_FATAL kills. The message reads '(Limit N%) Observed M% over S secs'.",
            causes: ["Busy loops or polling timers", "Heavy background work that should be deferred or throttled"],
            checkNext: [
                "Read the heaviest thread's stack in the (sampled) report",
                "Profile with Time Profiler; MetricKit MXCPUExceptionDiagnostic gives the same data",
            ],
            sources: [.aResource, .xnuResource], provenance: .documented, aliases: ["CPU", "CPU_FATAL"], values: [1]),
        KnowledgeEntry(
            term: "RESOURCE_TYPE_WAKEUPS", kind: .resourceType, title: "Too many wakeups",
            meaning:
                "EXC_RESOURCE WAKEUPS: threads woke too often, costing battery. The message reads '(Limit N/sec) Observed M/sec over S secs'.",
            causes: [
                "Thread-to-thread messaging far more frequent than intended (DispatchQueue.async, perform(_:on:with:waitUntilDone:))",
                "High-frequency timers, busy polling of sockets",
            ],
            checkNext: ["Several background threads with near-identical backtraces usually point at the source"],
            sources: [.aResource, .tn2151], provenance: .documented, aliases: ["WAKEUPS"], values: [2]),
        KnowledgeEntry(
            term: "RESOURCE_TYPE_MEMORY", kind: .resourceType, title: "Memory limit crossed",
            meaning:
                "EXC_RESOURCE MEMORY: the process crossed a memory limit ('(Limit N MB) Crossed High Water Mark'). It may precede termination; the kill itself is a jetsam event. A 'Crossed Threshold For Diagnostic Log Generation' message is only a diagnostic, not a limit violation.",
            causes: [
                "Decoding images at full resolution", "Caches without limits, leaks",
                "App extensions have much lower limits than apps (Apple does not publish them)",
            ],
            checkNext: [
                "Memory graph debugger and Allocations in Instruments", "Respond to memory warnings; downscale buffers in extensions",
            ],
            sources: [.aResource, .aJetsam, .xnuResource], provenance: .documented, aliases: ["MEMORY"], values: [3]),
        KnowledgeEntry(
            term: "RESOURCE_TYPE_IO", kind: .resourceType, title: "Too many disk writes",
            meaning: "EXC_RESOURCE IO: excessive disk writes in a short period ('(Limit N MB) Observed M MB over S secs').",
            causes: [
                "Logging to disk", "Database write amplification (no transactions, frequent checkpoints)",
                "Rewriting whole files or caches on every change",
            ],
            checkNext: ["Batch writes; profile with the File Activity instrument"],
            sources: [.aResource, .xnuResource], provenance: .documented, aliases: ["IO", "DISK_WRITES"], values: [4]),
        KnowledgeEntry(
            term: "RESOURCE_TYPE_THREADS", kind: .resourceType, title: "Too many threads",
            meaning: "EXC_RESOURCE THREADS: the process crossed its thread limit ('(Limit N threads) Crossed Thread Limit').",
            causes: ["GCD thread explosion from blocking work on many queues", "Unbounded Thread creation"],
            checkNext: ["Limit concurrency (OperationQueue.maxConcurrentOperationCount, structured concurrency)"],
            sources: [.xnuResource], provenance: .openSource, aliases: ["THREADS"], values: [5]),
        KnowledgeEntry(
            term: "RESOURCE_TYPE_PORTS", kind: .resourceType, title: "Too many Mach ports",
            meaning: "EXC_RESOURCE PORTS: the process crossed the per-process Mach port limit — a port leak.",
            causes: ["XPC connections not invalidated", "IOKit service handles not released", "Leaked run-loop sources"],
            checkNext: ["Check that every XPC/IOKit object is released"],
            sources: [.xnuResource], provenance: .openSource, aliases: ["PORTS"], values: [6]),
    ]
}
