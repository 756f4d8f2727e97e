import Foundation
import SymbolicateDemangling
import SymbolicateTestSupport
import Testing

/// Rust names as rustfilt prints them by default (no hashes): the fixture's 1,200 real names
/// from rustc 1.95 (legacy and v0), spec examples, and what must not be read as Rust.
@Suite struct RustDemanglerTests {
    /// Every name of Fixtures/names/rust.tsv (rustfilt's answers, cross-checked against
    /// llvm-cxxfilt-19 and c++filt by generate.sh), bare and with Mach-O's extra underscore.
    @Test func everyFixtureNameMatchesRustfilt() throws {
        let pairs = try NameFixtures.pairs("rust.tsv")
        #expect(pairs.count >= 1000)
        #expect(pairs.contains { $0.mangled.hasPrefix("_ZN") } && pairs.contains { $0.mangled.hasPrefix("_R") })
        var differences: [String] = []
        for (mangled, answer) in pairs {
            for name in [mangled, "_" + mangled] where Demangler.demangle(name) != answer {
                differences.append("\(name)\n  ours     \(Demangler.demangle(name) ?? "nil")\n  rustfilt \(answer)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(8).joined(separator: "\n"))")
    }

    /// The fixture's names, as rustfilt on this machine prints them today (skipped without it).
    @Test func recordedAnswersAreRustfilts() throws {
        guard let rustfilt = ExternalTool.find("rustfilt") else {
            print("RustDemanglerTests: skipped: rustfilt not found")
            return
        }
        let pairs = try NameFixtures.pairs("rust.tsv")
        let theirs = try ExternalTool.run(rustfilt, [], stdin: pairs.map(\.mangled).joined(separator: "\n") + "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(theirs.count >= pairs.count)
        #expect(zip(pairs, theirs).allSatisfy { $0.0.answer == $0.1 })
    }

    /// The fixture program's own shapes, one of each, so a failure names the feature.
    @Test(arguments: [
        ("_ZN5names13Gr$uf6$$udf$e7doppelt17h27b2d08838488f2bE", "names::Größe::doppelt"),
        ("_ZN1m16Wrapper$LT$T$GT$3get17h124c718f031d0cf4E", "m::Wrapper<T>::get"),
        ("_RNvMCskK7mfDs1mzF_1mINtB2_7WrappermE3getB2_", "<m::Wrapper<u32>>::get"),
        ("_RNvCs4T4zK9Otvt5_5namesu9gre_6ka8l", "names::grüße"),
        ("_RNvMs3_Cs4T4zK9Otvt5_5namesNtB5_u9Gre_6ka8i7doppelt", "<names::Größe>::doppelt"),
        ("_RNvMs1_Cs4T4zK9Otvt5_5namesINtB5_4FlagKb1_Kc3bb_E3getB5_", "<names::Flag<true, 'λ'>>::get"),
        ("_RINvCs4T4zK9Otvt5_5names5applyNCNvB2_4mains_0EB2_", "names::apply::<names::main::{closure#1}>"),
        // RFC 2603 / rustc's const-generics test: constants print without their type suffix.
        ("_RMCsno73SFvQKx_1cINtB0_8UnsignedKhb_E", "<c::Unsigned<11>>"),
        ("_RMs_Csno73SFvQKx_1cINtB2_6SignedKsn98_E", "<c::Signed<-152>>"),
        ("_RMs0_Csno73SFvQKx_1cINtB3_4BoolKb1_E", "<c::Bool<true>>"),
        ("_RMs1_Csno73SFvQKx_1cINtB3_4CharKc2202_E", "<c::Char<'∂'>>"),
        // ThinLTO's `.llvm.<hex>` is dropped, another suffix kept.
        ("_ZN4core9panicking5panic17h0123456789abcdefE.llvm.1234ABCD", "core::panicking::panic"),
        ("_RNvNtCs1234_4core9panicking5panic.llvm.99", "core::panicking::panic"),
        ("_RNvNtCs1234_4core9panicking5panic.0", "core::panicking::panic.0"),
    ])
    func shapes(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
        #expect(Demangler.demangle("_" + mangled) == expected)
    }

    /// Legacy names as Apple's reports print them: demangled by an Itanium demangler, so the
    /// elements are joined with `::` but still carry rustc's escapes and the hash.
    @Test(arguments: [
        (
            "_$LT$core..panic..unwind_safe..AssertUnwindSafe$LT$F$GT$$u20$as$u20$core..ops..function..FnOnce$LT$$LP$$RP$$GT$$GT$::call_once::hbc653bab54913889",
            "<core::panic::unwind_safe::AssertUnwindSafe<F> as core::ops::function::FnOnce<()>>::call_once"
        ),
        (
            "std::panicking::begin_panic_handler::_$u7b$$u7b$closure$u7d$$u7d$::h0f4b2a4c8e6d1a3b",
            "std::panicking::begin_panic_handler::{{closure}}"
        ),
        ("core::panicking::panic_fmt::h5e3f0a1b2c3d4e5f", "core::panicking::panic_fmt"),
    ])
    func itaniumPrintedLegacyNames(printed: String, expected: String) {
        #expect(Demangler.demangle(printed) == expected)
    }

    /// Not Rust: C++ names (left to the C++ demangler), C names starting with `_R`, broken
    /// manglings (refused, never a crash), and a hostile backreference loop.
    @Test(arguments: [
        "_ZN3foo3barEv", "_RegisterClass", "_R", "_RNv", "_RNvC3foo", "_RNvCs_3foo3barX", "_RB_", "_RNvB0_3foo",
        "_RINvCs_1aB3_E", "_ZN3foo3bar17h0123456789abcdefEv", "foo::bar", "main", "foo::h0123456789abcdef",
        "a b::h0123456789abcdef",
    ])
    func notRust(name: String) {
        let result = RustDemangler.demangle(name)
        if name == "_ZN3foo3barEv" { #expect(Demangler.demangle(name) == "foo::bar()") }
        #expect(result == nil, "\(name) read as \(result ?? "")")
    }

    /// Deep nesting is refused, not a stack overflow.
    @Test func deepNestingIsRefused() {
        let deep = "_RNv" + String(repeating: "INv", count: 5000) + "C1a"
        #expect(RustDemangler.demangle(deep) == nil)
        let deepTypes = "_RINvC1a1f" + String(repeating: "RRRRRRRRRR", count: 2000) + "uE"
        #expect(RustDemangler.demangle(deepTypes) == nil)
    }
}
