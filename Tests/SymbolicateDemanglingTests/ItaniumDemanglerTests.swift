import Foundation
import SymbolicateDemangling
import SymbolicateTestSupport
import Testing

/// C++ names spelled by LLVM's Itanium demangler (linked on Linux, the system's
/// `__cxa_demangle` on macOS), as Apple's tools and llvm-symbolizer spell them.
@Suite struct ItaniumDemanglerTests {
    @Test(arguments: [
        ("_ZN6shapes3__16vectorIiNS0_9allocatorIiEEE4pushEi", "shapes::__1::vector<int, shapes::__1::allocator<int>>::push(int)"),
        (
            "_ZN6shapes7measureIsEENS_9enable_ifIXaasr8is_smallIT_EE5valuentsr10is_pointerIS2_EE5valueEiE4typeES2_",
            "shapes::enable_if<is_small<short>::value && !is_pointer<short>::value, int>::type shapes::measure<short>(short)"
        ),
        ("___ZN6shapes8scheduleEi_block_invoke", "invocation function for block in shapes::schedule(int)"),
        ("_ZZN6shapes7Counter3runEiENKUliE_clEi", "shapes::Counter::run(int)::'lambda'(int)::operator()(int) const"),
        ("_ZN3foo3barEv", "foo::bar()"),
        ("_ZN8CrashKit5Codec8checksumEPKhl", "CrashKit::Codec::checksum(unsigned char const*, long)"),
    ])
    func llvmSpelling(mangled: String, expected: String) {
        #expect(Demangler.usesLLVMItaniumDemangler, "LLVM's demangler is not linked (llvm-19-dev, installed by scripts/setup.sh)")
        #expect(Demangler.demangle(mangled) == expected)
    }

    /// Blocks in C++ functions as atos prints them, whether the name keeps its three
    /// underscores (a report) or lost one to the symbol table's strip (`__Z…`), numbered or not.
    @Test(arguments: [
        ("___Z3foov_block_invoke", "invocation function for block in foo()"),
        ("__Z3foov_block_invoke", "invocation function for block in foo()"),
        ("___Z3foov_block_invoke_2", "invocation function for block in foo()"),
        ("__Z3foov_block_invoke_2", "invocation function for block in foo()"),
        ("___ZN6shapes8scheduleEi_block_invoke_3", "invocation function for block in shapes::schedule(int)"),
        ("__ZN6shapes8scheduleEi_block_invoke", "invocation function for block in shapes::schedule(int)"),
    ])
    func blockInvokeNames(mangled: String, expected: String) throws {
        #expect(Demangler.demangle(mangled) == expected)
        // The oracle: llvm-cxxfilt-19 reads the three-underscore form.
        guard let cxxfilt = ExternalTool.find("llvm-cxxfilt-19") else { return }
        let threeUnderscores = mangled.hasPrefix("___") ? mangled : "_" + mangled
        #expect(try ExternalTool.run(cxxfilt, [threeUnderscores]).trimmingCharacters(in: .newlines) == expected)
    }

    /// Plain names and bare type manglings (`i` would be `int`) are never demangled.
    @Test(arguments: ["i", "Z", "catch_exception_raise", "_____Z3foov", "-[SHUploader uploadItems:]", "__44-[Foo bar]_block_invoke"])
    func notItanium(name: String) {
        #expect(Demangler.demangle(name) == nil)
    }
}
