#ifndef SYMBOLICATE_CLLVMDEMANGLE_H
#define SYMBOLICATE_CLLVMDEMANGLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `symbolicate_llvm_demangle` made of a name.
typedef enum {
    /// Demangled: `*result` holds the text (malloc'd, the caller frees it).
    SYMBOLICATE_DEMANGLE_OK = 0,
    /// Not a name LLVM's demangler accepts (or no demangler is linked).
    SYMBOLICATE_DEMANGLE_INVALID = 1,
    /// Longer than `symbolicate_llvm_demangle_max_length()` bytes: not handed to the demangler.
    SYMBOLICATE_DEMANGLE_TOO_LONG = 2,
    /// Its demangled text would be longer than the `max_output` asked for (substitutions that
    /// repeat earlier parts, each doubling the text): measured on the parsed name, not printed.
    SYMBOLICATE_DEMANGLE_TOO_LARGE = 3,
    /// No thread with a stack large enough could be started, or memory ran out.
    SYMBOLICATE_DEMANGLE_NO_RESOURCES = 4,
} symbolicate_demangle_status;

/// Whether an LLVM Itanium demangler is there: linked in on Linux (llvm-19-dev), the
/// system's __cxa_demangle (libc++abi) on macOS.
int symbolicate_llvm_demangler_linked(void);

/// The longest name (in bytes) handed to the demangler: its recursion runs on a stack sized
/// for this length, so no name admitted can exhaust it.
size_t symbolicate_llvm_demangle_max_length(void);

/// The C++ name as llvm-symbolizer demangles it (Linux: LLVM's Itanium parser and printer,
/// as `llvm::itaniumDemangle`; macOS: `abi::__cxa_demangle`). On `SYMBOLICATE_DEMANGLE_OK`,
/// `*result` is a malloc'd buffer the caller frees; otherwise it is NULL. The demangler runs
/// on the caller's stack for short names and on a thread with a large stack for long ones.
/// Linux measures the demangled length before printing and refuses a name whose text would
/// pass `max_output` bytes.
symbolicate_demangle_status symbolicate_llvm_demangle(const char *name, size_t max_output, char **result);

/// Runs `body(context)` on a new thread whose stack is `stack_bytes` long and waits for it to
/// end: the Swift runtime's demangler recurses per level of nesting too, and a caller's thread
/// may have 512 KiB. Returns 0, or nonzero when no such thread could be started (then `body`
/// did not run).
int symbolicate_run_with_stack(size_t stack_bytes, void (*body)(void *context), void *context);

/// The Swift runtime's demangler (`_swift_backtrace_demangle`) run in a child process, for
/// names it may not survive: its printer stops the process with a fatal error on some malformed
/// names (a generic parameter marker outside its signature's head). The child's fatal error,
/// crash or hang (it is stopped after `timeout_seconds`) costs only the child. Returns
/// `SYMBOLICATE_DEMANGLE_OK` with `*result` (malloc'd; empty when the demangler declined the
/// name), `SYMBOLICATE_DEMANGLE_INVALID` when the child did not finish, or
/// `SYMBOLICATE_DEMANGLE_NO_RESOURCES` when no child could be started. POSIX only; elsewhere
/// every call reports `NO_RESOURCES`.
symbolicate_demangle_status symbolicate_swift_demangle_in_child(const char *name, size_t length, unsigned timeout_seconds, char **result);

#ifdef __cplusplus
}
#endif

#endif
