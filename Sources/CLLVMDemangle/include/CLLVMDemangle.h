#ifndef SYMBOLICATE_CLLVMDEMANGLE_H
#define SYMBOLICATE_CLLVMDEMANGLE_H

#ifdef __cplusplus
extern "C" {
#endif

/// Whether LLVM's demangler is linked into this build (Linux builds with llvm-19-dev).
int symbolicate_llvm_demangler_linked(void);

/// The name as llvm-symbolizer demangles it (`llvm::nonMicrosoftDemangle`: Itanium C++,
/// Rust v0, D), in a malloc'd buffer the caller frees; NULL when LLVM's demangler does not
/// accept it or is not linked.
char *symbolicate_llvm_demangle(const char *name);

#ifdef __cplusplus
}
#endif

#endif
