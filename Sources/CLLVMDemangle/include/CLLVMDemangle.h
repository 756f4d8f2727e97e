#ifndef SYMBOLICATE_CLLVMDEMANGLE_H
#define SYMBOLICATE_CLLVMDEMANGLE_H

#ifdef __cplusplus
extern "C" {
#endif

/// Whether an LLVM Itanium demangler is there: linked in on Linux (llvm-19-dev), the
/// system's __cxa_demangle (libc++abi) on macOS.
int symbolicate_llvm_demangler_linked(void);

/// The C++ name as llvm-symbolizer demangles it (Linux: `llvm::nonMicrosoftDemangle`;
/// macOS: `abi::__cxa_demangle`),
/// in a malloc'd buffer the caller frees; NULL when LLVM's demangler does not
/// accept it or is not linked.
char *symbolicate_llvm_demangle(const char *name);

#ifdef __cplusplus
}
#endif

#endif
