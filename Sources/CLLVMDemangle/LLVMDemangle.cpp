// LLVM's demangler (libLLVMDemangle.a of Debian's llvm-19-dev), linked into the binary so C++
// names are spelled as llvm-symbolizer and Apple's tools spell them (`allocator<char>>`,
// `'lambda'(int)`) on a machine with nothing else installed. Elsewhere (macOS: the system's
// __cxa_demangle already is LLVM's) the entry points report it absent.
#include "CLLVMDemangle.h"

#include <cstdlib>
#include <cstring>

#if defined(__linux__) && __has_include(<llvm/Demangle/Demangle.h>)
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
