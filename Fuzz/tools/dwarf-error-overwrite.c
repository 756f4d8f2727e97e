/*
 * LD_PRELOAD helper for chasing libdwarf leaks (Fuzz/README.md, "Findings"): reports every
 * time libdwarf stores a new Dwarf_Error where the caller's Dwarf_Error is already set, i.e.
 * an error nobody can free any more. libdwarf calls _dwarf_error through its PLT, so this
 * wrapper sees its internal calls too.
 *
 *   cc -shared -fPIC -o /tmp/dwarf-error-overwrite.so Fuzz/tools/dwarf-error-overwrite.c -ldl -ldwarf
 *   LD_PRELOAD=/tmp/dwarf-error-overwrite.so .build-fuzz/fuzz-dwarf INPUT
 *
 * Our own calls always start from a nil Dwarf_Error, so any report is libdwarf overwriting
 * its own error.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#if __has_include(<libdwarf/libdwarf.h>)
#  include <libdwarf/libdwarf.h>
#else
#  include <libdwarf.h>
#endif

void _dwarf_error(Dwarf_Debug dbg, Dwarf_Error *error, Dwarf_Signed errval) {
    static void (*real)(Dwarf_Debug, Dwarf_Error *, Dwarf_Signed);
    if (!real) real = (void (*)(Dwarf_Debug, Dwarf_Error *, Dwarf_Signed))dlsym(RTLD_NEXT, "_dwarf_error");
    if (error && *error) {
        fprintf(stderr, "dwarf-error-overwrite: Dwarf_Error %p (errno %lld) overwritten by errno %lld\n",
                (void *)*error, (long long)dwarf_errno(*error), (long long)errval);
        void *frames[12];
        backtrace_symbols_fd(frames, backtrace(frames, 12), 2);
    }
    real(dbg, error, errval);
}
