import Foundation

/// The functions a kernel runs between the fault and its printed backtrace: the unwinder, the
/// panic and oops path, the trap and page-fault handlers. They are on top of every kernel
/// backtrace (FreeBSD's `kdb_backtrace`, `vpanic`, `trap_fatal`, `calltrap`; Linux's
/// `dump_stack_lvl`, `panic`, `oops_end`, `page_fault_oops`, `exc_page_fault`), and say how the
/// kernel reported the fault, not where it happened: the frame under them is the place.
package enum KernelTrapPath {
    /// The image the kernel frame readers give a frame of the kernel's own code (a module's frame
    /// is named by its module, `zfs`), so that ownership can tell its trap path from the rest.
    package static let image = "kernel"

    package static func isMachinery(_ function: String) -> Bool {
        if names.contains(function) { return true }
        // Linux's entry stubs for every exception (`asm_exc_page_fault`, `asm_exc_invalid_op`,
        // `asm_sysvec_apic_timer_interrupt`) and their C handlers (`exc_general_protection`).
        return function.hasBytePrefix("asm_exc_") || function.hasBytePrefix("asm_sysvec_") || function.hasBytePrefix("exc_")
    }

    static let names: Set<String> = [
        // FreeBSD: kern_shutdown.c, subr_kdb.c, amd64/trap.c, exception.S, ddb.
        "kdb_backtrace", "kdb_enter", "kdb_trap", "vpanic", "panic", "kassert_panic", "trap_fatal", "trap_pfault", "trap",
        "calltrap", "db_trace_self_wrapper", "db_trace_self", "dblfault_handler", "doreti", "fork_trampoline", "panic_bt",
        // Linux: lib/dump_stack.c, kernel/panic.c, arch/x86/kernel/dumpstack.c and traps.c, arch/x86/mm/fault.c, arm64's
        // mm/fault.c and entry-common.c, kernel/panic.c's warning path, lib/bug.c.
        "dump_stack", "dump_stack_lvl", "__dump_stack", "show_stack", "show_regs", "__show_regs", "dump_backtrace", "die", "__die",
        "__die_body", "die_addr", "die_kernel_fault", "oops_end", "page_fault_oops", "kernelmode_fixup_or_oops", "no_context",
        "__bad_area_nosemaphore", "bad_area_nosemaphore", "bad_area", "do_user_addr_fault", "do_kern_addr_fault", "do_page_fault",
        "__do_page_fault", "page_fault", "do_trap", "do_error_trap", "do_invalid_op", "invalid_op", "handle_invalid_op", "handle_bug",
        "report_bug", "__warn", "warn_slowpath_fmt", "warn_slowpath_common", "warn_slowpath_null", "do_general_protection",
        "general_protection", "__do_kernel_fault", "do_translation_fault", "do_mem_abort", "do_DataAbort", "__dabt_svc", "el1_abort",
        "el1_da", "el1_sync", "el1_sync_handler", "el1h_64_sync_handler", "el1h_64_sync", "bug_handler", "brk_handler",
        "do_debug_exception", "do_undefinstr", "arm64_notify_die", "notify_die", "bug", "BUG",
    ]
}
