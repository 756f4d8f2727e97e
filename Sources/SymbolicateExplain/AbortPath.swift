import Foundation
import SymbolicateCrashReport

/// Who stopped the process on purpose, read from the crashed thread: the frames of the abort
/// machinery (`abort`, `pthread_kill`, `abort_with_payload`…), then the library that called it
/// and the function it stopped in, then that library's caller. A process that aborts was
/// stopped by code that decided to: malloc's heap checks, libc++abi's terminate handler, an
/// assertion handler, a runtime. Naming it is what tells one abort from another.
package struct AbortPath: Sendable, Equatable {
    /// The families of deliberate stops, each decided by a library for a reason it documents.
    package enum Stopper: String, Sendable, Codable, CaseIterable {
        /// libmalloc's heap checks (`malloc_zone_error`, `malloc_vreport`, nano/xzone guards).
        case malloc
        /// libc++abi's terminate path (`std::__terminate`, `demangling_terminate_handler`).
        case cxxTerminate
        /// An Objective-C exception nothing caught (`_objc_terminate`, `objc_exception_rethrow`).
        case objcException
        /// C `assert()` (`__assert_rtn`).
        case cAssert
        /// Foundation's `NSAssertionHandler` (an `NSAssert` or `NSCAssert` that failed).
        case nsAssertion
        /// The Swift runtime (`swift::fatalError`, `swift_dynamicCastFailure`, `_assertionFailure`).
        case swiftRuntime
        /// The Objective-C runtime's fatal errors (`_objc_fatal`).
        case objcRuntime
        /// libdispatch's API-misuse checks.
        case libdispatch
        /// dyld halting the launch.
        case dyld
        /// TCC stopping a privacy violation.
        case tcc
        /// Libc's stack protector and fortify checks (`__stack_chk_fail`, `__chk_fail`).
        case stackProtector
    }

    /// One frame the path read: where it is and its text, for evidence.
    package struct Step: Sendable, Equatable {
        package var place: String
        package var text: String
        package var frame: Frame
    }

    /// The crashed thread's printed number.
    package let thread: Int
    /// The abort machinery at the top of the thread, innermost first (may be empty when a
    /// library trapped directly, as newer libmalloc does with `__builtin_trap`).
    package let machinery: [Frame]
    /// The first frame past the machinery: the library that called abort, and its function.
    package let decider: Frame?
    /// The family of the stop, when a frame of the stop region names one (or its image does).
    package let stopper: Stopper?
    /// The frame that names the stop (`malloc_zone_error`, `__assert_rtn`), nil when only the
    /// image told.
    package let stopFrame: Frame?
    /// The first frame after the stopping library's own frames: who asked it to stop — the
    /// method that asserted, the code that freed, the call that threw.
    package let caller: Frame?

    /// Functions that only carry the stop out: they never decide it.
    static let machineryNames: Set<String> = [
        "__pthread_kill", "pthread_kill", "abort", "__abort", "raise", "__pthread_sigmask", "abort_with_reason",
        "abort_with_payload", "__abort_with_payload", "abort_with_payload_wrapper_internal", "terminate_with_reason",
        "terminate_with_payload", "__terminate_with_payload", "__sigkill", "kill", "__kill",
        // glibc's (2.34 on) and its older signal path.
        "__pthread_kill_implementation", "__pthread_kill_internal", "gsignal",
    ]

    /// C `assert()`'s handler in each C library: Apple's `__assert_rtn`, glibc's and musl's
    /// `__assert_fail` (glibc's `__assert_fail_base` and `__assert_perror_fail` behind it),
    /// Android bionic's `__assert2`, newlib's `__assert_func`.
    static let cAssertNames = ["__assert_rtn", "__assert_fail", "__assert_perror_fail", "__assert2", "__assert_func"]

    /// The names, matched as fragments of a frame's function, that decide each family; checked
    /// in this order so an Objective-C exception (which passes through libc++abi's terminate)
    /// is not taken for a C++ one.
    static let stopNames: [(Stopper, [String])] = [
        // (AppKit reports an exception nothing caught and traps on purpose: `-[NSApplication _crashOnException:]`.)
        (.objcException, ["_objc_terminate", "objc_exception_rethrow", "objc_exception_throw", "_crashOnException:"]),
        (.nsAssertion, ["-[NSAssertionHandler handleFailureIn"]),
        (.cAssert, cAssertNames),
        (
            .malloc,
            [
                "malloc_zone_error", "malloc_vreport", "malloc_report", "szone_error", "malloc_error_break", "BUG_IN_CLIENT_OF_LIBMALLOC",
                "nanov2_guard_corruption_detected", "nano_guard_corruption_detected", "_botch", "xzm_",
            ]
        ),
        (.stackProtector, ["__stack_chk_fail", "__chk_fail"]),
        (
            .cxxTerminate,
            [
                "std::__terminate", "std::terminate", "demangling_terminate_handler", "__cxa_throw", "__cxa_rethrow", "failed_throw",
                "__clang_call_terminate", "__cxa_call_unexpected", "__cxa_pure_virtual", "__cxa_deleted_virtual",
            ]
        ),
        (
            .swiftRuntime,
            [
                "swift::fatalError", "swift_dynamicCastFailure", "swift_abortRetainUnowned", "swift_abortRetainOverflow",
                "swift_deletedMethodError", "_assertionFailure", "swift::swift_abort", "swift_task_reportUnexpectedExecutor",
            ]
        ),
        (.objcRuntime, ["_objc_fatal"]),
        (.tcc, ["CRASHING_DUE_TO_PRIVACY_VIOLATION__"]),
        (.libdispatch, ["_dispatch_", "DISPATCH_CLIENT_CRASH", "dispatch_assert_queue"]),
        (.dyld, ["dyld4::halt", "dyld3::halt", "dyld::halt"]),
    ]

    /// The images whose frames, when nothing names the stop, still say which family it is
    /// (MetricKit and unsymbolicated reports carry images only).
    static let stopImages: [(Stopper, [String])] = [
        (.malloc, ["libsystem_malloc"]),
        (.cxxTerminate, ["libc++abi"]),
        (.objcRuntime, ["libobjc"]),
        (.swiftRuntime, ["libswiftCore"]),
        (.libdispatch, ["libdispatch"]),
        (.tcc, ["TCC"]),
        (.dyld, ["dyld"]),
    ]

    /// Frames past the machinery read for the stop: enough for the terminate chain
    /// (`__abort_message`, handler, `_objc_terminate`, `std::__terminate`, `failed_throw`,
    /// `__cxa_throw`, `objc_exception_throw`) and a malloc check's callers.
    static let stopRegion = 9

    /// Nil when the crashed thread does not stop through abort machinery or a named stop.
    package init?(report: CrashReport) {
        guard let thread = report.crashedThread, !thread.frames.isEmpty else { return nil }
        self.init(thread: thread)
    }

    init?(thread: CrashReport.Thread) {
        let frames = thread.frames
        var index = 0
        while index < frames.count, Self.isMachinery(frames[index], position: index, in: frames) { index += 1 }
        let machinery = Array(frames[..<index])
        let rest = Array(frames[index...])
        let region = rest.prefix(Self.stopRegion)
        var stopper: Stopper?
        var stopFrame: Frame?
        // On Apple platforms libobjc's terminate handler (`_objc_terminate`) sits on the path of
        // every uncaught exception; it is an Objective-C one only when libobjc threw it. A
        // `__cxa_throw` whose caller is not `objc_exception_throw`/`objc_exception_rethrow` is a
        // C++ throw.
        let cxxThrown = Self.throwsCxx(region: Array(region), in: rest)
        family: for (family, names) in Self.stopNames where !(cxxThrown && family == .objcException) {
            for frame in region where frame.functionNames.contains(where: { name in names.contains { name.containsBytes($0) } }) {
                stopper = family
                stopFrame = frame
                break family
            }
        }
        if stopper == nil, let first = region.first, let image = first.imageName {
            stopper = Self.stopImages.first { _, prefixes in prefixes.contains { image.hasPrefix($0) } }?.0
        }
        // Without machinery, only a named stop at the very top counts (a library that trapped).
        if machinery.isEmpty {
            guard let top = frames.first, let found = stopFrame, found.index == top.index else { return nil }
        }
        self.thread = thread.index
        self.machinery = machinery
        decider = rest.first
        self.stopper = stopper
        self.stopFrame = stopFrame
        // The caller: past the stop frame, the first frame outside the stopping library.
        let anchor = stopFrame ?? rest.first
        let libraryImage = anchor?.imageName
        let after = rest.drop { $0.index <= (anchor?.index ?? -1) }
        caller = after.first { frame in
            frame.imageName != libraryImage && !Self.isPlumbing(frame, stopper: stopper)
        }
    }

    /// True when a `__cxa_throw`/`__cxa_rethrow` in `region` was called by code other than the
    /// Objective-C runtime's throw (libobjc raises its exceptions through `__cxa_throw` too).
    static func throwsCxx(region: [Frame], in frames: [Frame]) -> Bool {
        guard
            let hit = region.first(where: { frame in
                frame.functionNames.contains { ["__cxa_throw", "__cxa_rethrow"].contains(baseName($0)) }
            })
        else { return false }
        guard let next = frames.first(where: { $0.index > hit.index }) else { return false }
        let objc = next.functionNames.contains { $0.hasPrefix("objc_exception_") }
        return !objc && !(next.imageName ?? "").hasPrefix("libobjc")
    }

    /// The abort machinery: the named functions anywhere at the top, and unnamed frames in the
    /// kernel and pthread libraries (and one libc frame right after them: `abort`).
    static func isMachinery(_ frame: Frame, position: Int, in frames: [Frame]) -> Bool {
        if let name = frame.functionNames.first {
            let base = baseName(name)
            // A Mach-O symbol as the symbol table spells it, its C name behind one more
            // underscore (`___pthread_kill`, `_abort`): crash services print those.
            return machineryNames.contains(base) || (base.hasPrefix("_") && machineryNames.contains(String(base.dropFirst())))
        }
        let image = frame.imageName ?? ""
        if image.hasPrefix("libsystem_kernel") || image.hasPrefix("libsystem_pthread") { return true }
        if image.hasPrefix("libsystem_c"), position > 0,
            let previous = frames[position - 1].imageName, previous.hasPrefix("libsystem_pthread") || previous.hasPrefix("libsystem_kernel")
        {
            return true
        }
        return false
    }

    /// `abort` and its variants (`__abort`, `abort_with_reason`, `abort_with_payload`), in the
    /// symbol table's spelling too (`_abort`).
    static func isAbortCall(_ name: String) -> Bool {
        var base = baseName(name)
        while base.hasPrefix("_") { base.removeFirst() }
        return base == "abort" || base.hasPrefix("abort_with_")
    }

    /// `pthread_kill$VARIANT$mp` → `pthread_kill`; `abort + 12` → `abort`; glibc's internal
    /// aliases as LLDB and gdb print them, `__GI_raise` → `raise`, `__GI___pthread_kill` →
    /// `__pthread_kill`.
    static func baseName(_ name: String) -> String {
        var text = name
        if let dollar = text.firstIndex(of: "$") { text = String(text[..<dollar]) }
        if let plus = text.byteRange(of: " + ") { text = String(text[..<plus.lowerBound]) }
        text = text.trimmedBlanks
        if text.hasPrefix("__GI_"), text.count > 5 { text = String(text.dropFirst(5)) }
        return text
    }

    /// Frames between the stop and its caller that belong to the stop's own plumbing: the
    /// exception machinery of Objective-C and C++, the Swift runtime's reporting helpers.
    static func isPlumbing(_ frame: Frame, stopper: Stopper?) -> Bool {
        let image = frame.imageName ?? ""
        if ["libc++abi", "libobjc", "libsystem_c", "libsystem_malloc", "libswiftCore", "libsystem_kernel", "libsystem_pthread"].contains(
            where: image.hasPrefix)
        {
            return true
        }
        let name = frame.functionNames.first ?? ""
        // libc++'s throw helpers (`std::__1::__throw_system_error`) only raise the exception for
        // the libc++ call that failed: the caller is that call, past the helper.
        if stopper == .cxxTerminate, image.hasPrefix("libc++"), libcxxThrownType(name) != nil { return true }
        if stopper == .nsAssertion || stopper == .objcException,
            ["__exceptionPreprocess", "+[NSException raise:", "-[NSException raise]", "_CFThrowFormattedException"].contains(
                where: name.hasPrefix)
        {
            return true
        }
        return false
    }

    /// The standard exception a libc++ throw helper raises, by the helper's name:
    /// `std::__1::__throw_system_error(int, char const*)` → `std::system_error`,
    /// `std::__1::__vector_base_common<true>::__throw_out_of_range() const` → `std::out_of_range`.
    /// libc++ defines each `__throw_<name>` helper to throw `std::<name>` (its `<stdexcept>`,
    /// `<system_error>`, `<new>`, `<functional>`… headers); nil for any other function.
    static func libcxxThrownType(_ function: String) -> String? {
        guard let range = function.byteRange(of: "::__throw_") else { return nil }
        let rest = function[range.upperBound...]
        let name = String(rest.prefix { $0.isLetter || $0 == "_" })
        return libcxxThrowHelpers.contains(name) ? "std::" + name : nil
    }

    /// The exceptions libc++'s `__throw_<name>` helpers throw.
    static let libcxxThrowHelpers: Set<String> = [
        "system_error", "out_of_range", "length_error", "logic_error", "runtime_error", "invalid_argument",
        "overflow_error", "range_error", "domain_error", "bad_alloc", "bad_array_new_length", "bad_function_call",
        "bad_optional_access", "bad_variant_access", "bad_any_cast", "bad_weak_ptr", "bad_cast", "bad_typeid",
        "future_error", "regex_error", "format_error", "bad_expected_access",
    ]

    /// The text batch grouping adds to a signature: the function that decided the stop, else
    /// its family, else the named function that called abort; nil when the path says nothing
    /// more than the frames a signature already names.
    package var groupingText: String? {
        if let name = stopFrame?.functionNames.first { return Self.baseName(name) }
        if let stopper { return "\(stopper.rawValue) (\(library ?? "?"))" }
        return decider?.functionNames.first.map(Self.baseName)
    }

    /// The library that stopped the process: the stop frame's image, else the decider's.
    package var library: String? { stopFrame?.imageName ?? decider?.imageName }
}

/// The API that threw an Objective-C exception, read from the Last Exception Backtrace past the
/// throwing machinery (`__exceptionPreprocess`, `objc_exception_throw`, `+[NSException raise…]`).
/// An `NSAssertionHandler` frame there means an `NSAssert` failed; the frame after it is the
/// method that asserted.
struct ThrowSite {
    let thrower: Frame?
    /// The assertion handler's frame, when the exception is a failed NSAssert.
    let assertionHandler: Frame?
    /// The method that asserted (the caller of the handler) or the caller of the thrower.
    let caller: Frame?

    static let machinery = [
        "__exceptionPreprocess", "objc_exception_throw", "+[NSException raise:", "-[NSException raise]", "_CFThrowFormattedException",
        "+[NSException exceptionWithName:", "-[NSException initWithName:", "objc_exception_rethrow", "__cxa_throw", "__cxa_rethrow",
        "swift_willThrow", "_userInfoForFileAndLine",
    ]

    init?(frames: [Frame]) {
        let named = frames.filter { !$0.functionNames.isEmpty }
        guard !named.isEmpty else { return nil }
        let rest = frames.drop { frame in
            guard let name = frame.functionNames.first else { return false }
            return Self.machinery.contains { name.hasPrefix($0) }
        }
        guard rest.count < frames.count, let first = rest.first else { return nil }
        if first.functionNames.first?.hasPrefix("-[NSAssertionHandler handleFailureIn") == true {
            assertionHandler = first
            thrower = first
            caller = rest.dropFirst().first
        } else {
            assertionHandler = nil
            thrower = first
            caller = rest.dropFirst().first { $0.imageName != first.imageName }
        }
    }
}
