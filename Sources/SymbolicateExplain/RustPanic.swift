import Foundation
import SymbolicateCrashReport

/// A Rust panic read from the crashed thread: the Rust runtime's panic machinery
/// (`core::panicking::*`, `std::panicking::*`, `rust_panic`, `__rust_start_panic`,
/// `rust_begin_unwind`, `std::sys::…::abort_internal`) is on the stack, and the function that
/// panicked says which check failed. Names are demangled when the report is read
/// (`SymbolicateDemangling`), so legacy and v0 symbols read the same here.
package struct RustPanic: Sendable {
    /// Which check failed. The raw value is the stable ID the JSON output carries (`matched.id`).
    package enum Kind: String, CaseIterable, Sendable {
        /// `panic_bounds_check`: a slice or array indexed past its length.
        case indexOutOfBounds = "index-out-of-bounds"
        /// `unwrap_failed`, `expect_failed`: `unwrap()`/`expect()` on `None` or `Err`.
        case unwrapFailed = "unwrap-failed"
        /// `slice_*_fail`, `str::slice_error_fail`: a range outside a slice or a string, or not on a character boundary.
        case sliceRange = "slice-range"
        /// `panic_const_*_overflow`: arithmetic overflow in a build with overflow checks.
        case arithmeticOverflow = "arithmetic-overflow"
        /// `panic_const_div_by_zero`, `panic_const_rem_by_zero`.
        case divideByZero = "divide-by-zero"
        /// `panic_cannot_unwind`, `panic_nounwind`, `panic_in_cleanup`: a panic that could not
        /// unwind (out of an `extern "C"` function, or during another unwind), so Rust aborted.
        case cannotUnwind = "panic-cannot-unwind"
        /// `handle_alloc_error`, `rust_oom`: an allocation failed.
        case allocationFailure = "allocation-failure"
        /// `abort_internal` without a panic: `std::process::abort()` or the runtime's own fatal error.
        case runtimeAbort = "runtime-abort"
        /// `panic!`, `panic_fmt`, `begin_panic`: any other panic (an explicit `panic!`, `assert!`, `unreachable!`…).
        case explicit = "panic"

        /// Fragments of the function names that name each kind, checked in this order.
        static let table: [(Kind, [String])] = [
            (.cannotUnwind, ["panic_cannot_unwind", "panic_nounwind", "panic_in_cleanup"]),
            (.indexOutOfBounds, ["panic_bounds_check"]),
            (.unwrapFailed, ["unwrap_failed", "expect_failed"]),
            (
                .sliceRange,
                [
                    "slice_start_index_len_fail", "slice_end_index_len_fail", "slice_index_order_fail", "slice_error_fail",
                    "slice_start_index_overflow_fail", "slice_end_index_overflow_fail", "str_index_overflow_fail",
                ]
            ),
            (.divideByZero, ["panic_const_div_by_zero", "panic_const_rem_by_zero"]),
            (.arithmeticOverflow, ["panic_const_add_overflow", "panic_const_sub_overflow", "panic_const_mul_overflow", "_overflow"]),
            (.allocationFailure, ["handle_alloc_error", "rust_oom", "__rg_oom"]),
        ]

        /// The kind the message names, for an older Rust whose checks all went through
        /// `core::panicking::panic` with a fixed message.
        static func fromMessage(_ message: RustPanicMessage) -> Kind? {
            switch message.standardCheck {
            case .indexOutOfBounds?: .indexOutOfBounds
            case .unwrapFailed?: .unwrapFailed
            case .divideByZero?: .divideByZero
            case .arithmeticOverflow?: .arithmeticOverflow
            case .cannotUnwind?: .cannotUnwind
            case nil: nil
            }
        }
    }

    package let kind: Kind
    /// The frame that names the kind (else the first frame of the panic machinery).
    package let panicFrame: Frame
    /// The panic machinery's frames, innermost first.
    package let machinery: [Frame]

    /// Frames read for the machinery: the abort machinery, the panic hook, the formatter and
    /// the panicking function fit well within this.
    static let region = 48

    /// True when `name` is a frame of Rust's standard library or its panic runtime.
    static func isStandardLibrary(_ name: String) -> Bool {
        AppLine.isRustStandardLibrary(name)
    }

    /// True when `name` is a frame of the panic machinery.
    static func isPanicMachinery(_ name: String) -> Bool {
        name.containsBytes("core::panicking::") || name.containsBytes("std::panicking::") || name.hasPrefix("rust_panic")
            || name.hasPrefix("__rust_start_panic") || name.hasPrefix("rust_begin_unwind") || name.containsBytes("abort_internal")
            || name.hasPrefix("panic_abort::") || name.containsBytes("unwrap_failed") || name.containsBytes("expect_failed")
            || name.containsBytes("handle_alloc_error") || name.hasPrefix("__rg_oom") || name.containsBytes("slice_error_fail")
            || (name.hasPrefix("core::") && name.containsBytes("index_") && name.hasSuffix("_fail"))
    }

    package init?(thread: CrashReport.Thread, message: RustPanicMessage?) {
        let region = thread.frames.prefix(Self.region)
        let machinery = region.filter { frame in frame.functionNames.contains(where: Self.isPanicMachinery) }
        guard let first = machinery.first else { return nil }
        self.machinery = machinery
        var found: (Kind, Frame)?
        // The most specific fragment first: `panic_cannot_unwind` names the kind better than the
        // `panic_nounwind_fmt` it calls.
        kinds: for (kind, fragments) in Kind.table {
            for fragment in fragments {
                for frame in machinery where frame.functionNames.contains(where: { $0.contains(fragment) }) {
                    // `_overflow` only inside a `panic_const_` name.
                    if kind == .arithmeticOverflow, !frame.functionNames.contains(where: { $0.containsBytes("panic_const_") }) { continue }
                    found = (kind, frame)
                    break kinds
                }
            }
        }
        let panics = machinery.contains { frame in
            frame.functionNames.contains {
                $0.containsBytes("panicking::") || $0.hasPrefix("rust_panic") || $0.hasPrefix("__rust_start_panic")
            }
        }
        if let found {
            (kind, panicFrame) = found
        } else if let message, let named = Kind.fromMessage(message) {
            (kind, panicFrame) = (named, first)
        } else if !panics {
            (kind, panicFrame) = (.runtimeAbort, first)
        } else {
            // The outermost panicking function: `panic_fmt`, `begin_panic`, `panic`.
            let outer = machinery.last { frame in frame.functionNames.contains { $0.containsBytes("panicking::") } } ?? first
            (kind, panicFrame) = (.explicit, outer)
        }
    }

    /// The panic runtime's entry (`rust_begin_unwind`, else `__rust_start_panic`), when on the stack.
    package var runtimeEntry: Frame? {
        for name in ["rust_begin_unwind", "__rust_start_panic", "rust_panic"] {
            if let frame = machinery.first(where: { $0.functionNames.contains { $0.hasPrefix(name) } }) { return frame }
        }
        return nil
    }

    /// The panicking function's name without its hash or offset (`core::panicking::panic_bounds_check`).
    package var function: String? {
        panicFrame.functionNames.first.map(AbortPath.baseName)
    }
}
