import Foundation

/// Rust panics (issue 41), one entry per kind (`RustPanic.Kind`), each citing the Rust
/// project's own documentation of the function that panics or of the panic runtime.
extension Citation {
    private static func rust(_ key: String, _ title: String, _ path: String) -> Citation {
        Citation(key: key, title: title, url: "https://doc.rust-lang.org/" + path)
    }
    static let rustPanic = rust(
        "RUST-PANIC", "The Rust Book: Unrecoverable errors with panic!", "book/ch09-01-unrecoverable-errors-with-panic.html")
    static let rustBacktrace = rust("RUST-BT", "Rust std::backtrace (RUST_BACKTRACE, RUST_LIB_BACKTRACE)", "std/backtrace/index.html")
    static let rustCatchUnwind = rust("RUST-CATCH", "Rust std::panic::catch_unwind", "std/panic/fn.catch_unwind.html")
    static let rustFFIUnwind = rust(
        "RUST-FFI", "The Rust Reference: unwinding across FFI (extern \"C\" aborts)", "reference/items/functions.html#unwinding")
    static let rustProfilePanic = Citation(
        key: "CARGO-PANIC", title: "The Cargo Book: profile setting panic = \"abort\"",
        url: "https://doc.rust-lang.org/cargo/reference/profiles.html#panic")
    static let rustSliceIndex = rust(
        "RUST-SLICE", "Rust std::slice::SliceIndex / str::get (checked indexing)", "std/primitive.slice.html#method.get")
    static let rustOption = rust("RUST-OPTION", "Rust Option::unwrap / expect", "std/option/enum.Option.html#method.unwrap")
    static let rustOverflow = rust(
        "RUST-OVERFLOW", "The Rust Reference: integer overflow (debug_assertions, overflow-checks)",
        "reference/expressions/operator-expr.html#overflow")
    static let rustAllocError = rust("RUST-ALLOC", "Rust std::alloc::handle_alloc_error", "std/alloc/fn.handle_alloc_error.html")
    static let rustAbort = rust("RUST-ABORT", "Rust std::process::abort", "std/process/fn.abort.html")
}

extension KnowledgeBase {
    /// `Rust panic: <kind ID>`: the term a kind's entry is found by.
    static func rustPanicTerm(_ kind: RustPanic.Kind) -> String { "Rust panic: " + kind.rawValue }

    private static func rust(
        _ kind: RustPanic.Kind, _ title: String, _ meaning: String, causes: [String], steps: [String], sources: [Citation],
        aliases: [String]
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: rustPanicTerm(kind), kind: .frameSymbol, title: title, meaning: meaning, causes: causes, checkNext: steps,
            sources: sources + [.rustPanic], provenance: .projectDocumentation, aliases: aliases)
    }

    static let rustPanics: [KnowledgeEntry] = [
        rust(
            .indexOutOfBounds, "index out of bounds",
            "Rust checked an index into a slice, array or Vec and it was not below the length: core::panicking::panic_bounds_check panicked with 'index out of bounds: the len is L but the index is I'.",
            causes: [
                "An index computed from data that can be longer or shorter than the code expected (an off-by-one, an empty collection)"
            ],
            steps: ["Use get(i), which returns None instead of panicking, where the index can be out of range"],
            sources: [.rustSliceIndex], aliases: ["panic_bounds_check"]),
        rust(
            .unwrapFailed, "unwrap or expect on None or Err",
            "unwrap() or expect() was called on an Option that was None or a Result that was Err: the value the code assumed was there was not.",
            causes: [
                "A value the code assumed present was missing, or an operation it assumed would succeed failed (the Err's Debug text is in the message)"
            ],
            steps: ["Handle the None or Err case (match, if let, ?) instead of unwrap() at that call"],
            sources: [.rustOption], aliases: ["unwrap_failed", "expect_failed"]),
        rust(
            .sliceRange, "slice range out of bounds",
            "A range used to slice a slice or a string was outside it, ended before it started, or (for a string) did not fall on a character boundary.",
            causes: [
                "A range computed from lengths that do not match the data, or a byte offset into a UTF-8 string that splits a character"
            ],
            steps: ["Use get(range), which returns None instead of panicking; for strings, find boundaries with char_indices()"],
            sources: [.rustSliceIndex], aliases: ["slice_end_index_len_fail", "slice_start_index_len_fail", "slice_index_order_fail"]),
        rust(
            .arithmeticOverflow, "arithmetic overflow",
            "Integer arithmetic overflowed in a build with overflow checks (debug builds, or overflow-checks = true): Rust panics instead of wrapping.",
            causes: ["A value larger or smaller than its integer type can hold (a count, a size or a subtraction going below zero)"],
            steps: ["Use checked_*, saturating_* or wrapping_* arithmetic where the values can leave the type's range, or a wider type"],
            sources: [.rustOverflow], aliases: ["panic_const_add_overflow", "panic_const_sub_overflow", "panic_const_mul_overflow"]),
        rust(
            .divideByZero, "divide by zero",
            "An integer division or remainder had a zero divisor: Rust always panics on it, in every build.",
            causes: ["A divisor computed from data that can be zero (an empty list's length, a zero-sized step)"],
            steps: ["Check the divisor first, or use checked_div / checked_rem, which return None"],
            sources: [.rustOverflow], aliases: ["panic_const_div_by_zero", "panic_const_rem_by_zero"]),
        rust(
            .cannotUnwind, "panic that cannot unwind (across FFI)",
            "A panic reached a function it cannot unwind out of: an extern \"C\" function called from Swift, Objective-C or C, or a destructor running during another panic. Rust aborts the process there ('panic in a function that cannot unwind').",
            causes: ["Rust code called through an extern \"C\" function panicked, and nothing caught the panic at that boundary"],
            steps: [
                "Wrap the body of every extern \"C\" function in std::panic::catch_unwind and return an error value the caller checks"
            ],
            sources: [.rustFFIUnwind, .rustCatchUnwind], aliases: ["panic_cannot_unwind", "panic_nounwind"]),
        rust(
            .allocationFailure, "memory allocation failed",
            "An allocation failed and Rust's allocation-error handler stopped the process ('memory allocation of N bytes failed').",
            causes: ["A very large allocation (a size computed from bad data), or the process ran out of memory"],
            steps: ["Check the size requested against what the data should need; use try_reserve where sizes come from input"],
            sources: [.rustAllocError], aliases: ["handle_alloc_error", "rust_oom"]),
        rust(
            .runtimeAbort, "Rust runtime abort",
            "Rust's standard library aborted the process without a panic: std::process::abort() was called, or the runtime hit a fatal error it reports as 'fatal runtime error: …' on standard error.",
            causes: ["Code called std::process::abort(), or the runtime detected a state it cannot continue from"],
            steps: ["Read the process's standard error for the 'fatal runtime error' line"],
            sources: [.rustAbort], aliases: ["abort_internal"]),
        rust(
            .explicit, "panic",
            "Rust code panicked: an explicit panic!, assert!, unreachable!, todo! or a library's own check. The message says which.",
            causes: ["A condition the code (or a library it calls) asserts did not hold"],
            steps: ["Read the panic's message and location; they name the check that failed"],
            sources: [], aliases: ["core::panicking::panic_fmt", "rust_begin_unwind"]),
    ]
}
