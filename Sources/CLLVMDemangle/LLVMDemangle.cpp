// The Itanium C++ demangler, so C++ names are spelled as llvm-symbolizer and Apple's tools
// spell them (`allocator<char>>`, `'lambda'(int)`, `invocation function for block in f()`) on
// a machine with nothing else installed. This is the one place the platforms differ:
// - macOS: the system's __cxa_demangle (libc++abi), which is LLVM's demangler, for every
//   Itanium name — `_Z…` and the `___Z…_block_invoke` names the Swift runtime does not forward;
// - Linux: LLVM's own (libLLVMDemangle.a of Debian's llvm-19-dev), linked into the binary;
// - elsewhere the entry points report it absent.
#include "CLLVMDemangle.h"

#include <cstdlib>
#include <cstring>

#if defined(__APPLE__)
#include <cxxabi.h>

int symbolicate_llvm_demangler_linked(void) { return 1; }

char *symbolicate_llvm_demangle(const char *name) {
    if (name == nullptr) return nullptr;
    int status = 0;
    char *result = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0) {
        std::free(result);
        return nullptr;
    }
    return result;
}
#elif defined(__linux__) && __has_include(<llvm/Demangle/Demangle.h>)
#include <llvm/Demangle/Demangle.h>

#include <new>
#include <string>

int symbolicate_llvm_demangler_linked(void) { return 1; }

char *symbolicate_llvm_demangle(const char *name) {
    if (name == nullptr) return nullptr;
    try {
        std::string result;
        // What llvm-symbolizer's LLVMSymbolizer::DemangleName asks first.
        if (!llvm::nonMicrosoftDemangle(name, result)) return nullptr;
        char *out = static_cast<char *>(std::malloc(result.size() + 1));
        if (out == nullptr) return nullptr;
        std::memcpy(out, result.c_str(), result.size() + 1);
        return out;
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}
#else
int symbolicate_llvm_demangler_linked(void) { return 0; }

char *symbolicate_llvm_demangle(const char *name) {
    (void)name;
    return nullptr;
}
#endif
