// Mach exception types, EXC_BAD_ACCESS codes and related fault patterns.
// Facts: project reference explain.md §2.1–2.4 and §3.

extension KnowledgeBase {
    static let exceptionTypes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "EXC_BAD_ACCESS", kind: .exceptionType, title: "Bad memory access",
            meaning:
                "The thread touched memory it may not touch: an unmapped address (SIGSEGV) or a mapped one whose protection forbids the access, a misaligned access or a pointer-authentication failure (SIGBUS).",
            causes: [
                "Dereferencing nil or a near-nil pointer (the address is a small field offset)",
                "Use-after-free or a dangling pointer, including over-released Objective-C objects (zombies)",
                "Out-of-bounds access in unsafe Swift, C or C++ code",
                "Writing read-only memory or executing non-executable memory",
                "Jumping through a corrupted function pointer, vtable or isa",
                "Stack overflow from unbounded recursion",
            ],
            checkNext: [
                "Read the fault address in Exception Subtype/Codes: 0 or small means a nil dereference; high bits set suggest pointer-authentication failure or corruption",
                "Compare pc with the fault address: equal means a bad instruction fetch (use lr for the caller), different means a bad data access",
                "Look at VM Region Info to see where the address falls",
                "Top frame objc_msgSend/objc_retain/objc_release: suspect a zombie and reproduce with Zombies enabled",
                "Reproduce with Address Sanitizer, Thread Sanitizer, Undefined Behavior Sanitizer or Guard Malloc",
            ],
            sources: [.aBadAccess, .aSegv, .aBus, .aMemory, .xnuExceptionTypes],
            provenance: .documented, aliases: ["BAD_ACCESS"], values: [1]),
        KnowledgeEntry(
            term: "EXC_BAD_INSTRUCTION", kind: .exceptionType, title: "Illegal instruction / x86 trap",
            meaning:
                "The CPU refused to execute an instruction. On x86_64 (Intel Macs, Catalyst on Intel, simulators on Intel hosts) this is how Swift runtime traps and fatalError appear (ud2), so read it exactly like EXC_BREAKPOINT. On ARM it means a truly undefined instruction.",
            causes: [
                "x86_64: a Swift runtime check failed (force-unwrapped nil, index out of range, overflow, failed as!, fatalError)",
                "ARM: jumping into data through a corrupted function pointer or a corrupted code page",
                "An instruction the CPU lacks (e.g. AVX under Rosetta or on older CPUs)",
            ],
            checkNext: [
                "x86_64: treat it as a Swift trap: look for a Swift runtime message in Application Specific Information and symbolicate frame 0",
                "ARM: check pc, the instruction bytes at pc and whether pc lies inside a valid __TEXT section",
            ],
            sources: [.aTrap, .aSwift, .xnuExceptionTypes, .tn2151],
            provenance: .documented, aliases: [], values: [2]),
        KnowledgeEntry(
            term: "EXC_ARITHMETIC", kind: .exceptionType, title: "Arithmetic fault",
            meaning: "Division by zero or another arithmetic or floating-point fault raised by the CPU (SIGFPE).",
            causes: [
                "Integer division or modulo by zero in C, C++ or Objective-C on Intel",
                "INT_MIN / -1 on Intel",
                "Unmasked floating-point exceptions",
            ],
            checkNext: [
                "Find the division in the crashing frame; Swift's own integer types trap with SIGTRAP/SIGILL instead",
                "On Apple silicon integer division by zero does not fault, so this is rare there",
            ],
            sources: [.aArith, .xnuExceptionTypes],
            provenance: .documented, aliases: [], values: [3]),
        KnowledgeEntry(
            term: "EXC_EMULATION", kind: .exceptionType, title: "Emulation instruction",
            meaning: "An emulation-support instruction was executed (maps to SIGEMT). Not expected on current Apple platforms.",
            checkNext: ["Treat as an illegal instruction: check pc and the instruction bytes"],
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [4]),
        KnowledgeEntry(
            term: "EXC_SOFTWARE", kind: .exceptionType, title: "Software-generated exception",
            meaning:
                "A software exception; codes 0x10000–0x1FFFF carry Unix signals: 0x10000 bad system call (SIGSYS), 0x10001 broken pipe (SIGPIPE), 0x10002 abort (SIGABRT), 0x10003 soft signal (SIGKILL).",
            checkNext: ["Read the code to find the signal, then read the entry for that signal"],
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [5]),
        KnowledgeEntry(
            term: "EXC_BREAKPOINT", kind: .exceptionType, title: "Trace trap (deliberate crash)",
            meaning:
                "A breakpoint/trace trap (SIGTRAP). On ARM this is how deliberate traps surface: the Swift runtime stops the program this way on an unrecoverable error, libraries such as Dispatch trap on fatal misuse, and fatalError/__builtin_trap produce it.",
            causes: [
                "Force-unwrapping nil or using a nil implicitly unwrapped optional",
                "A failed as! cast",
                "Array or collection index out of range",
                "Integer overflow, division by zero, invalid numeric conversion",
                "try! on a call that threw, precondition or fatalError",
                "unowned reference to a deallocated object, exclusivity violation, duplicate Dictionary keys",
                "Dispatch API misuse (BUG IN CLIENT OF LIBDISPATCH)",
            ],
            checkNext: [
                "Read the Swift runtime message in Application Specific Information (libswiftCore) if present",
                "Symbolicate frame 0: optimized builds often show an inlined frame named 'Swift runtime failure: <reason>' only with the dSYM",
                "Frames 0/1 give the file and line of the failed check",
            ],
            sources: [.aTrap, .aSwift, .aCommon, .swiftAssert, .swiftIRGen, .xnuExceptionTypes],
            provenance: .documented, aliases: ["EXC_ARM_BREAKPOINT"], values: [6]),
        KnowledgeEntry(
            term: "EXC_SYSCALL", kind: .exceptionType, title: "System call exception",
            meaning: "A Unix system call raised a Mach exception. Not seen in normal app crashes.",
            sources: [.xnuExceptionTypes], provenance: .openSource, values: [7]),
        KnowledgeEntry(
            term: "EXC_MACH_SYSCALL", kind: .exceptionType, title: "Mach system call exception",
            meaning: "A Mach system call raised an exception. Not seen in normal app crashes.",
            sources: [.xnuExceptionTypes], provenance: .openSource, values: [8]),
        KnowledgeEntry(
            term: "EXC_RPC_ALERT", kind: .exceptionType, title: "RPC alert",
            meaning: "An RPC alert exception. Not seen in normal app crashes.",
            sources: [.xnuExceptionTypes], provenance: .openSource, values: [9]),
        KnowledgeEntry(
            term: "EXC_CRASH", kind: .exceptionType, title: "Abnormal exit",
            meaning:
                "The process exited abnormally; the signal in parentheses tells how: SIGABRT (abort, usually an uncaught exception), SIGKILL (killed by the system; read Termination Reason), SIGQUIT, SIGTERM or SIGSYS.",
            causes: [
                "abort() after an uncaught Objective-C or C++ exception",
                "An explicit abort(), assert() failure, or a library detecting corruption",
                "The system killed the process (watchdog, background policy, code signing, missing library)",
            ],
            checkNext: [
                "Read the signal and the Termination Reason first",
                "Read Application Specific Information and the Last Exception Backtrace when present",
            ],
            sources: [.aCrash, .aAbort, .aKill, .xnuExceptionTypes],
            provenance: .documented, aliases: [], values: [10]),
        KnowledgeEntry(
            term: "EXC_RESOURCE", kind: .exceptionType, title: "Resource limit exceeded",
            meaning:
                "The process crossed a resource limit: CPU, wakeups, memory, disk writes (IO), threads or Mach ports. Most flavors are warnings (NON-FATAL CONDITION); CPU_FATAL and some memory limits kill. The subtype names the resource and the message gives limit and observed value.",
            causes: [
                "Busy loops, polling timers or heavy background work (CPU)",
                "Threads waking each other far too often (WAKEUPS)",
                "Memory growth past the per-process limit, especially in app extensions (MEMORY)",
                "Excessive disk writes (IO), thread explosions (THREADS), Mach port leaks (PORTS)",
            ],
            checkNext: [
                "Read Exception Subtype and Exception Message for the resource, the limit and the observed value",
                "Use the heaviest stack in the report; profile with Instruments or MetricKit diagnostics",
            ],
            sources: [.aResource, .xnuResource], provenance: .documented, values: [11]),
        KnowledgeEntry(
            term: "EXC_GUARD", kind: .exceptionType, title: "Guarded resource misused",
            meaning:
                "A guarded system resource was misused. The subtype names the guard type: usually a file descriptor (GUARD_TYPE_FD) owned by a system library, or a Mach port right (GUARD_TYPE_MACH_PORT). Exception Message says which operation on which descriptor/port.",
            causes: [
                "Closing, dup'ing or writing to a file descriptor owned by SQLite/Core Data, libdispatch or XPC",
                "Code that closes every descriptor (e.g. after fork), or a double close in a wrapper",
                "Mach port right mismanagement: over-release, dangling names, destroying a guarded receive right",
            ],
            checkNext: [
                "Read Exception Message: operation, descriptor or port number, guard value",
                "Find the close/dup/write/mach_port call in the crashed thread's backtrace and its caller",
            ],
            sources: [.aGuard, .xnuGuard, .xnuGuardedFD, .xnuPortGuards], provenance: .documented, values: [12]),
        KnowledgeEntry(
            term: "EXC_CORPSE_NOTIFY", kind: .exceptionType, title: "Corpse notification",
            meaning:
                "The process exited to a corpse so a report could be written. As an Exception Note it means the crash did not come from a hardware trap: the OS explicitly terminated the process or it called abort().",
            checkNext: ["Read the Exception Type, signal and Termination Reason for the actual cause"],
            sources: [.xnuExceptionTypes, .aFields, .aJSON], provenance: .documented, aliases: ["isCorpse"], values: [13]),
    ]

    /// EXC_SOFTWARE codes that carry Unix signals.
    static let softwareCodes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "EXC_UNIX_BAD_SYSCALL", kind: .exceptionCode, title: "Bad system call (EXC_SOFTWARE)",
            meaning: "EXC_SOFTWARE code 0x10000: a nonexistent system call; delivered as SIGSYS.",
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [0x10000]),
        KnowledgeEntry(
            term: "EXC_UNIX_BAD_PIPE", kind: .exceptionCode, title: "Broken pipe (EXC_SOFTWARE)",
            meaning: "EXC_SOFTWARE code 0x10001: write to a pipe or socket with no reader; delivered as SIGPIPE.",
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [0x10001]),
        KnowledgeEntry(
            term: "EXC_UNIX_ABORT", kind: .exceptionCode, title: "Abort (EXC_SOFTWARE)",
            meaning: "EXC_SOFTWARE code 0x10002: abort(); delivered as SIGABRT.",
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [0x10002]),
        KnowledgeEntry(
            term: "EXC_SOFT_SIGNAL", kind: .exceptionCode, title: "Soft signal (EXC_SOFTWARE)",
            meaning: "EXC_SOFTWARE code 0x10003: a soft signal, mapped to SIGKILL.",
            sources: [.xnuExceptionTypes, .xnuUnixException], provenance: .openSource, values: [0x10003]),
    ]

    /// EXC_BAD_ACCESS codes (kern_return_t and ARM-specific) and other per-type codes.
    static let exceptionCodes: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "KERN_INVALID_ADDRESS", kind: .exceptionCode, title: "Unmapped address",
            meaning:
                "EXC_BAD_ACCESS code 1: the address is not mapped at all, from a data access or an instruction fetch. The number after 'at' is the bad address.",
            causes: [
                "Address 0 or a few KB: dereferencing nil, the small number being the offset of a field",
                "Other addresses: use-after-free, dangling or garbage pointer, bad function pointer",
            ],
            checkNext: [
                "Is pc equal to the address? Then it was an instruction fetch through a bad function pointer or corrupted vtable/isa; otherwise a bad data pointer",
                "VM Region Info says 'is not in any region' for nil-ish addresses",
            ],
            sources: [.aMemory, .xnuKernReturn], provenance: .documented, aliases: ["SEGV_MAPERR"], values: [1]),
        KnowledgeEntry(
            term: "KERN_PROTECTION_FAILURE", kind: .exceptionCode, title: "Protected memory",
            meaning:
                "EXC_BAD_ACCESS code 2: the address is mapped but its protection forbids the access — writing read-only memory, executing non-executable memory, or touching a guard region. A protection fault inside the stack guard is a stack overflow.",
            causes: [
                "Writing to a constant or read-only mapping",
                "Executing data (corrupted function pointer)",
                "Running off the end of a thread's stack (STACK GUARD region)",
            ],
            checkNext: [
                "VM Region Info marks the region with --->; its PRT column tells which permission was missing",
                "A STACK GUARD region means a stack overflow: look for repeated frames",
            ],
            sources: [.aMemory, .xnuKernReturn, .xnuUnixException], provenance: .documented, aliases: ["SEGV_ACCERR"], values: [2]),
        KnowledgeEntry(
            term: "KERN_NO_ACCESS", kind: .exceptionCode, title: "No access",
            meaning: "EXC_BAD_ACCESS code 8: the memory may not be accessed at all.",
            checkNext: ["Read the fault address and VM Region Info as for KERN_PROTECTION_FAILURE"],
            sources: [.xnuKernReturn], provenance: .openSource, values: [8]),
        KnowledgeEntry(
            term: "KERN_MEMORY_FAILURE", kind: .exceptionCode, title: "Memory failure",
            meaning: "EXC_BAD_ACCESS code 9: the memory object failed to supply the page.",
            checkNext: ["Check memory-mapped files and Kernel Triage lines"],
            sources: [.xnuKernReturn], provenance: .openSource, values: [9]),
        KnowledgeEntry(
            term: "KERN_MEMORY_ERROR", kind: .exceptionCode, title: "Memory could not be paged in",
            meaning:
                "EXC_BAD_ACCESS code 10: the memory could not supply data at that moment, for example a memory-mapped file that became unavailable. Current reports may add 'FS pagein error'.",
            causes: [
                "A memory-mapped file was truncated or deleted while mapped",
                "The file is on a removable or network volume that went away",
                "Data Protection made the file unreadable while the device is locked",
            ],
            checkNext: [
                "Look for mmap / Data(contentsOf:options: .alwaysMapped) users in the backtrace",
                "Read Kernel Triage lines (e.g. 'cluster_pagein past EOF')",
            ],
            sources: [.aMemory, .xnuKernReturn], provenance: .documented, values: [10]),
        KnowledgeEntry(
            term: "KERN_CODESIGN_ERROR", kind: .exceptionCode, title: "Code signature rejected a page",
            meaning:
                "EXC_BAD_ACCESS code 0x32 (50): the kernel rejected a page because its code signature did not validate (the report often reads 'Code Signature Invalid').",
            causes: [
                "The binary was modified after signing (strip, install_name_tool, overwritten while running)",
                "Writing to executable memory without a JIT entitlement",
                "Plug-ins failing library validation under the Hardened Runtime",
            ],
            checkNext: ["codesign --verify --deep --strict on the app", "Check whether a build replaced the binary while it ran"],
            sources: [.xnuKernReturn], provenance: .openSource, aliases: ["Code Signature Invalid", "UNKNOWN_0x32"], values: [50]),
        KnowledgeEntry(
            term: "EXC_ARM_DA_ALIGN", kind: .exceptionCode, title: "Misaligned data access",
            meaning:
                "ARM EXC_BAD_ACCESS code 0x101: an alignment fault. Rare on 64-bit ARM, which tolerates misaligned ordinary loads; it shows up when the address is both misaligned and unmapped, so it is usually the same memory bug seen from another angle.",
            causes: [
                "Packed structs", "UnsafeRawPointer.load(as:) at odd offsets", "Atomic or exclusive loads on unaligned addresses",
                "A garbage pointer",
            ],
            checkNext: ["Check the fault address alignment and where the pointer came from"],
            sources: [.aMemory, .xnuARM], provenance: .documented, aliases: ["BUS_ADRALN"], values: [0x101]),
        KnowledgeEntry(
            term: "EXC_ARM_DA_DEBUG", kind: .exceptionCode, title: "Watchpoint fault",
            meaning: "ARM EXC_BAD_ACCESS code 0x102: a debug watchpoint fired.",
            sources: [.xnuARM], provenance: .openSource, values: [0x102]),
        KnowledgeEntry(
            term: "EXC_ARM_SP_ALIGN", kind: .exceptionCode, title: "Stack pointer misaligned",
            meaning: "ARM EXC_BAD_ACCESS code 0x103: the stack pointer was misaligned — usually stack corruption or hand-written assembly.",
            sources: [.xnuARM], provenance: .openSource, values: [0x103]),
        KnowledgeEntry(
            term: "EXC_ARM_SWP", kind: .exceptionCode, title: "SWP instruction",
            meaning: "ARM EXC_BAD_ACCESS code 0x104: the obsolete SWP instruction faulted.",
            sources: [.xnuARM], provenance: .openSource, values: [0x104]),
        KnowledgeEntry(
            term: "EXC_ARM_PAC_FAIL", kind: .exceptionCode, title: "Pointer authentication failure (FPAC)",
            meaning:
                "ARM EXC_BAD_ACCESS code 0x105: the CPU itself reported that a signed pointer failed authentication (arm64e, FPAC hardware).",
            causes: ["Use-after-free or buffer overflow that overwrote a signed pointer", "Mismatched pointer signing between binaries"],
            checkNext: ["Treat like a memory corruption: Address Sanitizer, check the pointer's origin"],
            sources: [.xnuARM, .aMemory], provenance: .openSource, values: [0x105]),
        KnowledgeEntry(
            term: "EXC_ARM_UNDEFINED", kind: .exceptionCode, title: "Undefined instruction (ARM)",
            meaning: "EXC_BAD_INSTRUCTION code 1 on ARM: the CPU met an undefined instruction.",
            checkNext: ["Check pc, the instruction bytes and whether pc is inside valid code"],
            sources: [.xnuARM], provenance: .openSource),
        KnowledgeEntry(
            term: "EXC_I386_GPFLT", kind: .exceptionCode, title: "General protection fault (x86)",
            meaning:
                "x86 general protection fault, reported as EXC_BAD_ACCESS: often a non-canonical (garbage) pointer on Intel, where the fault address is not reported.",
            causes: ["Garbage or corrupted pointer (non-canonical address)", "Use-after-free"],
            checkNext: ["Inspect registers for the pointer being dereferenced; reproduce with Address Sanitizer"],
            sources: [.xnuI386], provenance: .openSource),
        KnowledgeEntry(
            term: "EXC_I386_DIV", kind: .exceptionCode, title: "Integer divide error (x86)",
            meaning: "EXC_ARITHMETIC code on Intel: an integer division by zero (or INT_MIN / -1) in C-family code.",
            checkNext: ["Find the / or % in the crashing frame and guard the divisor"],
            sources: [.aArith, .xnuI386], provenance: .openSource),
        KnowledgeEntry(
            term: "EXC_I386_INTO", kind: .exceptionCode, title: "Overflow trap (x86)",
            meaning: "EXC_ARITHMETIC code on Intel: the INTO overflow trap fired.",
            sources: [.xnuI386], provenance: .openSource),
        KnowledgeEntry(
            term: "EXC_I386_SSEEXTERR", kind: .exceptionCode, title: "SSE floating-point exception (x86)",
            meaning: "EXC_ARITHMETIC code on Intel: an unmasked SSE floating-point exception.",
            checkNext: ["Check floating-point exception masks set by the code or a library"],
            sources: [.xnuI386], provenance: .openSource),
        KnowledgeEntry(
            term: "EXC_ARM_FP", kind: .exceptionCode, title: "Floating-point exception (ARM)",
            meaning:
                "EXC_ARITHMETIC codes EXC_ARM_FP_* (0–6) on ARM: a trapped floating-point exception (undefined, invalid operation, divide by zero, overflow, underflow, inexact, input denormal).",
            sources: [.xnuARM], provenance: .openSource,
            aliases: [
                "EXC_ARM_FP_UNDEFINED", "EXC_ARM_FP_IO", "EXC_ARM_FP_DZ", "EXC_ARM_FP_OF", "EXC_ARM_FP_UF", "EXC_ARM_FP_IX",
                "EXC_ARM_FP_ID",
            ]),
        KnowledgeEntry(
            term: "EXC_ARM_MTE_TAGCHECK_FAIL", kind: .exceptionCode, title: "Memory tag check failed",
            meaning:
                "Memory Tagging Extension: a pointer's tag did not match the memory's tag — a use-after-free or out-of-bounds access caught by hardware. Numeric value not verified.",
            checkNext: ["Treat as use-after-free / buffer overflow; reproduce with Address Sanitizer"],
            sources: [.aMemory], provenance: .observed),
        KnowledgeEntry(
            term: "EXC_ARM_MTE_CANONICAL_FAIL", kind: .exceptionCode, title: "Memory tag canonical check failed",
            meaning: "Memory Tagging Extension: a pointer with a non-canonical tag was used. Numeric value not verified.",
            sources: [.aMemory], provenance: .observed),
        KnowledgeEntry(
            term: "SEGV_MAPERR", kind: .signalCode, title: "Address not mapped (signal code)",
            meaning:
                "SIGSEGV si_code: the address is not mapped; the signal-only equivalent of KERN_INVALID_ADDRESS (macOS and third-party reporters).",
            checkNext: ["Read the address after 'at' exactly as for KERN_INVALID_ADDRESS"],
            sources: [.aMemory, .xnuSignal], provenance: .documented),
        KnowledgeEntry(
            term: "SEGV_ACCERR", kind: .signalCode, title: "Invalid permissions (signal code)",
            meaning: "SIGSEGV si_code: the address is mapped but the access is not permitted; like KERN_PROTECTION_FAILURE.",
            sources: [.aMemory, .xnuSignal], provenance: .documented),
        KnowledgeEntry(
            term: "ILL_NOOP", kind: .signalCode, title: "No detail (SIGILL signal code 0)",
            meaning:
                "SIGILL si_code 0, a Darwin-only value that names no particular cause; reporters that print signal codes show it beside the address of the instruction. The signal itself (SIGILL, EXC_BAD_INSTRUCTION) says what happened.",
            checkNext: ["Read the exception type and the crashed thread's top frame: a trap on x86_64 is a failed runtime check"],
            sources: [.xnuSignal], provenance: .openSource),
        KnowledgeEntry(
            term: "BUS_ADRALN", kind: .signalCode, title: "Misaligned address (signal code)",
            meaning: "SIGBUS si_code: misaligned memory access.",
            causes: ["Packed or misaligned structures read with wide loads", "A garbage pointer"],
            sources: [.xnuSignal], provenance: .openSource),
        KnowledgeEntry(
            term: "BUS_ADRERR", kind: .signalCode, title: "Nonexistent physical address (signal code)",
            meaning: "SIGBUS si_code: the address does not exist physically, e.g. a truncated memory-mapped file.",
            sources: [.xnuSignal], provenance: .openSource),
        KnowledgeEntry(
            term: "BUS_OBJERR", kind: .signalCode, title: "Object-specific hardware error (signal code)",
            meaning: "SIGBUS si_code: an object-specific hardware error.",
            sources: [.xnuSignal], provenance: .openSource),
    ]

    /// Patterns recognised in addresses and messages rather than by name.
    static let faultPatterns: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "NULL_POINTER_DEREFERENCE", kind: .faultPattern, title: "nil / NULL dereference",
            meaning:
                "The fault address is 0 or within the first pages of memory, which are never mapped. Address 0 means a nil pointer itself was used; a small non-zero address is usually the offset of a field or method table entry read through a nil object.",
            causes: [
                "Reading a member of a nil object or struct pointer", "Calling through a nil function pointer or block",
                "An unsafe pointer that was never initialised",
            ],
            checkNext: ["Find which pointer in the crashing frame can be nil", "The offset (the address) hints which member was read"],
            sources: [.aMemory, .aSegv], provenance: .documented, aliases: ["NULL", "nil dereference", "null pointer"]),
        KnowledgeEntry(
            term: "POINTER_AUTHENTICATION_FAILURE", kind: .faultPattern, title: "Pointer authentication failure (arm64e)",
            meaning:
                "The subtype reads 'KERN_INVALID_ADDRESS at 0xA -> 0xB (possible pointer authentication failure)': the first address carries PAC bits, the second is the stripped address. A signed pointer (return address, function pointer, vtable or isa) failed authentication — or memory corruption left junk in the high bits; Apple warns the two look alike.",
            causes: [
                "Use-after-free or buffer overflow that overwrote a pointer", "Mismatched pointer signing between binaries (arm64e slices)",
            ],
            checkNext: [
                "Check the stripped address (after ->) like any bad address",
                "Reproduce with Address Sanitizer; see Apple's 'Preparing your app to work with pointer authentication'",
            ],
            sources: [.aMemory], provenance: .documented,
            aliases: ["PAC", "PAC_FAILURE", "PAC failure", "pointer authentication"],
            patterns: ["possible pointer authentication failure"]),
        KnowledgeEntry(
            term: "STACK_OVERFLOW", kind: .faultPattern, title: "Stack overflow",
            meaning:
                "A thread ran off the end of its stack into the guard region; the kernel turns that protection fault into SIGSEGV. Current reports say 'Thread stack size exceeded due to excessive recursion' and VM Region Info shows a STACK GUARD region.",
            causes: [
                "Unbounded recursion (the same frames repeated)",
                "Very large stack allocations (big structs or arrays, deep SwiftUI view builders)",
                "Secondary threads created with small stacks",
            ],
            checkNext: [
                "Look for a repeating cycle of frames in the crashed thread",
                "Move large values to the heap; turn recursion into iteration",
            ],
            sources: [.aMemory, .xnuUnixException], provenance: .documented,
            aliases: ["STACK GUARD", "stack guard"],
            patterns: ["Thread stack size exceeded", "stack guard region", "STACK GUARD", "stack overflow"]),
        KnowledgeEntry(
            term: "0xbad0", kind: .faultPattern, title: "Objective-C concurrent property access",
            meaning:
                "EXC_BAD_ACCESS at an address ending in bad0 (0x…000bad0, often with 'possible pointer authentication failure'): the Objective-C runtime deliberately crashes when one thread writes a strong property while another thread reads or writes it.",
            causes: ["Unsynchronized access to a nonatomic strong property from several threads"],
            checkNext: ["Serialize access to the property or make it atomic", "Confirm with Thread Sanitizer"],
            sources: [.aCommon], provenance: .documented, aliases: ["0x000000000000bad0", "0x400000000000bad0", "bad0"]),
    ]
}
