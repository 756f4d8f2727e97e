import Foundation
import SymbolicateCore

/// The app's line: the frame of a thread where the app's own code is, and the function and
/// file:line in it to open. One rule for the headline (and with it batch grouping and CI
/// annotations) and for explain, so the two always name the same frame (issue 37).
package struct AppLine: Sendable, Hashable {
    /// Position of the frame in the thread's `frames`.
    package let position: Int
    /// The function of the chosen inline level; nil for a frame with no name.
    package let function: String?
    /// Full path and line of that level, as the debug info or the report gives them; nil when
    /// the level has none or it is library code (an SDK or C++ standard header).
    package let file: String?
    package let line: Int?
    /// `Swift runtime failure: …`: the trap the compiler put in the inline chain above the
    /// app's level, which names the reason rather than the place.
    package let runtimeFailure: String?
    /// The chosen level is code the compiler made (an outlined copy, a thunk, a synthesized
    /// accessor at `<compiler-generated>`): the app's own function is a caller further down.
    package var isGenerated = false

    /// The reason of `runtimeFailure` (`Unexpectedly found nil while unwrapping an Optional value`).
    package var runtimeFailureReason: String? {
        runtimeFailure.map { String($0.dropFirst(Self.runtimeFailurePrefix.count)).trimmingCharacters(in: .whitespaces) }
    }

    static let runtimeFailurePrefix = "Swift runtime failure:"

    /// `File.swift:42` (basename, as Apple prints it); `File.swift` when the line is unknown.
    package var location: String? {
        guard let file else { return nil }
        let name = file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? file
        return name + (line.map { ":\($0)" } ?? "")
    }
}

/// One level of a frame's inline chain, innermost first.
package struct AppLineLevel: Sendable, Hashable {
    package let function: String
    package let file: String?
    package let line: Int?

    package init(function: String, file: String?, line: Int?) {
        self.function = function
        self.file = file
        self.line = line
    }
}

extension AppLine {
    /// The level of `levels` (innermost first) that is the app's own code: the innermost one with
    /// a real line outside SDK headers, C++ standard headers, the Swift runtime's artificial
    /// frames and compiler-generated code (those are library code inlined into the app's
    /// function, not the app's line); else the outermost level, without a file when it is
    /// library code. Names that are placeholders (`<redacted>`, a bare address) are skipped.
    package static func choose(_ levels: [AppLineLevel], position: Int) -> AppLine? {
        choose(levels, positions: Array(repeating: position, count: levels.count), position: position)
    }

    /// `choose(_:position:)` over a chain the report printed as several frames at one address:
    /// the line's position is the printed frame that holds the chosen level.
    static func choose(_ levels: [AppLineLevel], positions: [Int], position: Int) -> AppLine? {
        let named = zip(levels, positions).filter { !isPlaceholder($0.0.function) }
        guard let outermost = named.last, let innermost = named.first else {
            return levels.isEmpty ? nil : AppLine(position: position, function: nil, file: nil, line: nil, runtimeFailure: nil)
        }
        let (level, at) =
            named.first { level, _ in
                guard let file = level.file, let line = level.line, line > 0 else { return false }
                return !isLibrary(file) && !isRuntimeTrap(level.function)
            } ?? outermost
        let file = level.file.flatMap { isLibrary($0) ? nil : $0 }
        let line = file == nil ? nil : level.line.flatMap { $0 > 0 ? $0 : nil }
        let failure =
            innermost.0.function.hasBytePrefix(runtimeFailurePrefix) && level.function != innermost.0.function
            ? innermost.0.function : nil
        let generated =
            isCompilerGlue(level.function)
            || (level.file.map { $0.containsBytes("<compiler-generated>") } == true && isSynthesizedAccessor(level.function))
        return AppLine(
            position: at, function: flat(level.function), file: file, line: line, runtimeFailure: failure, isGenerated: generated)
    }

    /// Glue the Swift compiler emits around the app's code, as the demangler prints it: value
    /// copies and destroys it outlined, thunks between conventions, witnesses that forward to
    /// the real method, merged duplicates, metadata accessors.
    static func isCompilerGlue(_ function: String) -> Bool {
        compilerGluePrefixes.contains { function.hasBytePrefix($0) }
    }

    /// An accessor or initializer the compiler wrote for a declaration (`Tab.url.getter` at
    /// `<compiler-generated>`): a specialized copy of the app's own function is there too, and
    /// stays the app's line.
    static func isSynthesizedAccessor(_ function: String) -> Bool {
        let name = function.split(separator: "(", maxSplits: 1).first ?? Substring(function)
        return [".getter", ".setter", ".modify", ".read", ".init", "Addressor"].contains { name.hasSuffix($0) }
    }

    static let compilerGluePrefixes = [
        "outlined ", "thunk for ", "reabstraction thunk", "protocol witness for ", "dispatch thunk of ", "@objc ",
        "type metadata accessor for ", "type metadata completion function for ", "lazy protocol witness table accessor",
        "partial apply forwarder", "partial apply for thunk", "value witness for ", "@nonobjc ",
    ]

    /// Code that is not the app's own even when it sits in the app's image: C++ standard
    /// headers (`vector`, `__tree`, no extension), SDK and toolchain headers, the standard
    /// libraries' sources a toolchain ships (Swift's, Zig's `lib/std/`, Rust's `library/std/src/`,
    /// Go's `src/runtime/`, a C++ library's `include/c++/`) and compiler-generated code.
    /// Runs for every app frame a headline looks at (a million-frame thread is all of them):
    /// compared as UTF-8 bytes, never with Foundation's string search.
    package static func isLibrary(_ path: String) -> Bool {
        if path.containsBytes("<compiler-generated>") || path.containsBytes(".sdk/") || path.containsBytes("/usr/include/")
            || path.containsBytes(".xctoolchain/") || path.containsBytes("/swift/stdlib/")
            || Self.standardLibrarySourceFolders.contains(where: { path.containsBytes($0) })
        {
            return true
        }
        // No extension in the last path component: a C++ standard header (`vector`, `__tree`).
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: "/") { return true }
            if byte == UInt8(ascii: ".") { return false }
        }
        return true
    }

    /// Where toolchains keep their standard libraries' sources, which their frames print.
    static let standardLibrarySourceFolders = [
        "/lib/std/", "/library/std/src/", "/library/core/src/", "/library/alloc/src/", "/go/src/runtime/", "/include/c++/",
    ]

    /// The Swift runtime's artificial trap frames and assertion levels the compiler inlines.
    static func isRuntimeTrap(_ function: String) -> Bool {
        function.hasBytePrefix("Swift runtime failure") || function.containsBytes(": assertion ")
    }

    /// `<deduplicated_symbol>`, `<redacted>`, `0x00020d58`: what a report prints where it has
    /// no name for a frame. Never the app's function. Blanks around the name are ignored.
    package static func isPlaceholder(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return false
        }
        let t = bytes[start...last]
        if t.first == UInt8(ascii: "<") && t.last == UInt8(ascii: ">") { return true }
        guard t.count > 2, t.first == UInt8(ascii: "0"), let x = t.dropFirst().first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X")
        else { return false }
        return t.dropFirst(2).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    /// Space, tab and the no-break space's bytes (what `trimmingCharacters(in: .whitespaces)` took
    /// off names in practice).
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0xC2 || byte == 0xA0
    }

    /// The name on one line. Only names holding a line break are rebuilt.
    static func flat(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C || $0 >= 0xC2 }) else { return name }
        return name.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Library code in the app's image: a C++ standard-library function, an assertion or
    /// runtime-trap level, or a frame whose only source file is a library header. The app's
    /// line is in a frame further down when there is one.
    var isLibraryCode: Bool {
        guard let function else { return false }
        return isGenerated || function.hasBytePrefix("std::") || Self.isRuntimeTrap(function) || Self.isRustStandardLibrary(function)
            || Self.isSwiftStandardLibrary(function) || Self.isLinkedLanguageRuntime(function)
    }

    /// Another language's runtime linked into the app's image, whose functions stop a process on
    /// its panics and fatal errors: Go's (`runtime.raiseproc`, `runtime.fatalpanic`, `runtime/cgo`)
    /// and Kotlin/Native's (`kfun:kotlin.…`, `Kotlin_…`, `ThrowException`). The app's line is the
    /// caller.
    package static func isLinkedLanguageRuntime(_ name: String) -> Bool {
        ["runtime.", "runtime/", "kfun:kotlin.", "Kotlin_", "ThrowException", "TerminateWithUnhandledException"].contains {
            name.hasBytePrefix($0)
        }
    }

    /// A Swift standard-library or Foundation function specialized into the app's image
    /// (`specialized Array.subscript.getter`): its caller is the app's line.
    static func isSwiftStandardLibrary(_ function: String) -> Bool {
        if let owner = AppOwnership.swiftOwner(function) { return AppOwnership.appleModulesAndTypes.contains(String(owner)) }
        // A crash service's web text names the member without its arguments (Sentry's `[inlined]
        // CheckedContinuation.resume<T>`): one of the standard library's or Foundation's types, then
        // `.` and a member, is theirs (no C or Objective-C name has a dot).
        var name = Substring(function)
        if name.hasBytePrefix("[inlined] ") { name = name.dropFirst(10) }
        let owner = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let after = name.dropFirst(owner.count)
        guard after.hasBytePrefix(".") || after.hasBytePrefix("<"), after.dropFirst().first?.isLetter == true || after.first == "<"
        else { return false }
        return AppOwnership.appleModulesAndTypes.contains(String(owner))
    }

    /// Rust's standard library and panic runtime, linked into the app's image (`core::`, `std::`,
    /// `alloc::`, `<core::… as …>`, `__rust_start_panic`, `rust_begin_unwind`…).
    package static func isRustStandardLibrary(_ name: String) -> Bool {
        [
            "core::", "std::", "alloc::", "<core::", "<std::", "<alloc::", "panic_abort::", "panic_unwind::", "__rust", "rust_panic",
            "rust_begin_unwind", "_rust_", "__rg_",
        ].contains { name.hasBytePrefix($0) }
    }
}

extension CrashReport.Thread {
    /// The inline chain of the frame at `position`, innermost first: the symbolicator's levels,
    /// or the `[inlined]` lines the report printed at the same address.
    package func inlineLevels(at position: Int) -> [AppLineLevel] {
        printedChain(at: position).map(\.level)
    }

    /// The chain with the position of the frame that printed each level.
    private func printedChain(at position: Int) -> [(level: AppLineLevel, position: Int)] {
        let frame = frames[position]
        if let resolved = frame.symbolication, !resolved.isEmpty {
            return resolved.map { (AppLineLevel(function: $0.function, file: $0.file, line: $0.line), position) }
        }
        guard !frame.isUnsymbolicated else { return [] }
        var chain: [(level: AppLineLevel, position: Int)] = []
        var index = position
        while index < frames.count, frames[index].address == frame.address {
            let printed = frames[index]
            if let symbol = printed.symbol {
                chain.append((AppLineLevel(function: symbol, file: printed.sourceFile, line: printed.sourceLine), index))
            }
            guard printed.isInlined else { break }
            index += 1
        }
        return chain
    }

    /// The app's line of the frame at `position` (whatever image it is in).
    package func line(at position: Int) -> AppLine? {
        guard frames.indices.contains(position) else { return nil }
        let chain = printedChain(at: position)
        guard !chain.isEmpty else {
            return AppLine(position: position, function: nil, file: nil, line: nil, runtimeFailure: nil)
        }
        var line = AppLine.choose(chain.map(\.level), positions: chain.map(\.position), position: position)
        // A frame named only by a library header (`vector`, no symbolication): not the app's line.
        if let chosen = line, chosen.file == nil, frames[chosen.position].symbolication == nil, frames[chosen.position].sourceFile != nil {
            line = AppLine(
                position: chosen.position, function: chosen.function, file: nil, line: nil, runtimeFailure: chosen.runtimeFailure,
                isGenerated: chosen.isGenerated)
        }
        return line
    }
}

extension CrashReport {
    /// The app's line in `thread`: the first frame in the app's own code, searched in `order`
    /// (positions in `thread.frames`; call graphs pass their heaviest path, callee end first).
    /// A frame with no name gives way to a later app frame with one, and library code inlined
    /// into the app's image (C++ standard library, assertion and runtime-trap levels, headers)
    /// gives way to the app's own code further down. Nil when no frame is in the app's image.
    package func appLine(in thread: Thread, order: [Int]? = nil) -> AppLine? {
        if let order { return appLine(in: thread, positions: order) }
        return appLine(in: thread, positions: Self.pastSignalHandler(thread)..<thread.frames.count)
    }

    /// Where a thread's own frames start: below the signal trampoline (`_sigtramp` on Apple's
    /// systems, glibc's `__restore_rt`) when the frames above it are a signal handler capturing
    /// the stack it prints (`callStackSymbols`, `backtrace()`); else 0. A handler that crashed
    /// itself (a reporter writing its report) is where the crash is, and stays. A list that
    /// starts at the trampoline starts below it.
    package static func pastSignalHandler(_ thread: Thread) -> Int {
        max(pastTrampoline(thread), pastPanicMachinery(thread))
    }

    /// Below Rust's panic machinery (`std::panicking::…`, `rust_begin_unwind`,
    /// `core::panicking::panic_fmt`) or a fatal logger's (glog's, Abseil's) when the top of the
    /// thread holds it: the frames above it are the hook printing the backtrace, whatever crate
    /// the hook is in; the first frame under it is the code that panicked or failed its check.
    static func pastPanicMachinery(_ thread: Thread) -> Int {
        let machinery = [
            "std::panicking::", "core::panicking::", "rust_begin_unwind", "__rustc::rust_begin_unwind", "std::rt::begin_panic",
            "std::panic::", "core::panic::", "panicking::", "__rust_start_panic", "rust_panic",
            // glog's and Abseil's fatal log, which prints the stack from inside the logger.
            "absl::log_internal::", "absl::lts_", "google::LogMessage", "google::LogMessageFatal", "google::logging_fail",
        ]
        guard
            let last = thread.frames.prefix(32).lastIndex(where: { frame in
                guard let name = frame.symbol else { return false }
                return machinery.contains { name.hasBytePrefix($0) }
            })
        else { return 0 }
        return last + 1 < thread.frames.count ? last + 1 : 0
    }

    /// Below the signal trampoline, as `pastSignalHandler` says.
    static func pastTrampoline(_ thread: Thread) -> Int {
        func isCapturing(_ frame: Frame) -> Bool {
            guard let name = frame.symbol else { return false }
            // (LLVM's tools print theirs from `SignalHandler(int)` with `llvm::sys::PrintStackTrace`.)
            // A program's own fatal-signal handler (Emacs's `deliver_fatal_thread_signal`, Ruby's
            // `rb_bug_for_fatal_signal`, mysqld's `handle_fatal_signal` and older `handle_segfault`)
            // prints the stack it is in.
            // (Words joined by underscores too: GIMP's `gimp_stack_trace_print`, `signal_handler`.)
            let words = name.containsBytes("_") ? name.filter { $0 != "_" } : name
            // And a handler named for the signal it serves (`sigsegv_handler`, Crystal's `__crystal_sigfault_handler`).
            if words.containsBytesIgnoringASCIICase("handler"), words.containsBytesIgnoringASCIICase("sig") { return true }
            return ["callstack", "backtrace", "stacktrace", "signalhandler", "fatal", "segfault"].contains {
                words.containsBytesIgnoringASCIICase($0)
            }
        }
        func isReporterHandler(_ frame: Frame) -> Bool {
            ["plcrash", "kscrash", "sentrycrash"].contains { frame.symbol?.containsBytesIgnoringASCIICase($0) == true }
        }
        guard
            let trampoline = thread.frames.prefix(16).indices.first(where: { index in
                let frame = thread.frames[index]
                guard var name = frame.symbol.map({ Substring($0) }) else {
                    // glibc's `backtrace_symbols` names no symbol for the trampoline: the C
                    // library's frame without one, right under a handler capturing the stack
                    // (`/lib/x86_64-linux-gnu/libpthread.so.0(+0x110e0)[0x7fe1f80f50e0]`).
                    guard let image = frame.imageName, image.hasBytePrefix("libpthread") || image.hasBytePrefix("libc.so") else {
                        return false
                    }
                    return thread.frames[..<index].contains(where: isCapturing)
                }
                if name.hasSuffix("()") { name = name.dropLast(2) }
                // A runtime's own trace names the trampoline `???` (Crystal's `CallStack`), no
                // image given: the unnamed frame right under the handler capturing the stack.
                if name == "???", frame.imageName == nil, index > 0 { return isCapturing(thread.frames[index - 1]) }
                // `_sigtramp` redacted (iOS's system symbols in a device log): libsystem_platform's
                // frame right under a handler capturing the stack.
                // (A crash reporter's handler too, PLCrashReporter's `plcrash::…`: a named `_sigtramp`
                // under one may be the reporter's own crash, which its frames are then the answer to.)
                if name == "<redacted>", frame.imageName?.hasBytePrefix("libsystem_platform") == true {
                    return thread.frames[..<index].contains { isCapturing($0) || isReporterHandler($0) }
                }
                return name == "_sigtramp" || name == "__restore_rt"
            })
        else { return 0 }
        let redacted = thread.frames[trampoline].symbol == "<redacted>"
        let capturing = thread.frames[..<trampoline].contains { isCapturing($0) || (redacted && isReporterHandler($0)) }
        // The trampoline as the first frame (a list that starts where the signal was delivered):
        // the thread's own frames are under it (past a second trampoline frame some unwinders print).
        guard capturing || trampoline == 0 else { return 0 }
        var start = trampoline + 1
        while start < thread.frames.count - 1, thread.frames[start].symbol == thread.frames[trampoline].symbol { start += 1 }
        return start
    }

    /// `appLine(in:)` over the frames from `start` on, with no list of positions made (the
    /// source context walks a million-frame thread app frame by app frame).
    package func appLine(in thread: Thread, from start: Int) -> AppLine? {
        appLine(in: thread, positions: min(max(start, 0), thread.frames.count)..<thread.frames.count)
    }

    private func appLine(in thread: Thread, positions: some Sequence<Int>) -> AppLine? {
        // Lazily, in order: a thread of a million frames is searched only as far as its answer
        // (each image's ownership decided once, a frame's line chosen only when reached).
        var owned: [Int: Bool] = [:]
        func isApp(_ frame: Frame) -> Bool {
            guard let index = frame.imageIndex else { return frame.isAppCodeWithoutImage == true }
            if let known = owned[index] { return known }
            let answer = image(for: frame)?.isAppOwned == true
            owned[index] = answer
            return answer
        }
        func isAnswer(_ line: AppLine) -> Bool { !line.isLibraryCode && !isHeaderOnly(line, in: thread) }
        var first: AppLine?  // the first candidate
        var firstAnswer: AppLine?  // the first candidate that is the app's own code
        // A first app frame "named" by a placeholder gives way to the next one with a real name:
        // until one is met, the candidates so far are kept in case none is.
        var awaitingName = false
        func visit(_ position: Int) -> AppLine? {
            guard thread.frames.indices.contains(position), isApp(thread.frames[position]),
                let line = thread.line(at: position)
            else { return nil }
            if first == nil {
                first = line
                awaitingName = Self.hasPlaceholderName(thread.frames[line.position])
                if !awaitingName { return isAnswer(line) ? line : nil }
                if isAnswer(line) { firstAnswer = line }
                return nil
            }
            if awaitingName {
                guard Self.hasRealName(thread.frames[line.position]) else {
                    if firstAnswer == nil, isAnswer(line) { firstAnswer = line }
                    return nil
                }
                // The candidates start again at this frame.
                awaitingName = false
                first = line
                firstAnswer = nil
            }
            return isAnswer(line) ? line : nil
        }
        for position in positions { if let answer = visit(position) { return answer } }
        return firstAnswer ?? first
    }

    /// The frame the headline names in `thread` and the line it gives: the app's line, else the
    /// first frame of `order` (a thread with no frame in the app's image: pasted frames whose
    /// images the report does not tie to the app). Explain reads the same value.
    package func namedFrame(in thread: Thread, order: [Int]? = nil) -> (position: Int, line: AppLine)? {
        if let line = appLine(in: thread, order: order) { return (line.position, line) }
        guard let first = order?.first ?? thread.frames.indices.first, let line = thread.line(at: first) else { return nil }
        return (first, line)
    }

    /// A frame the report names only by a placeholder (`<deduplicated_symbol>`, a bare address).
    package static func hasPlaceholderName(_ frame: Frame) -> Bool {
        frame.symbolication?.isEmpty != false && frame.symbol.map(AppLine.isPlaceholder) == true
    }

    /// A frame with a name: symbolicated, or a symbol the report printed that is not a placeholder.
    package static func hasRealName(_ frame: Frame) -> Bool {
        if let chain = frame.symbolication, !chain.isEmpty { return true }
        return !frame.isUnsymbolicated && !hasPlaceholderName(frame)
    }

    /// A frame whose only source is a library header (the report printed `vector:123`).
    /// `<compiler-generated>` is not one: the app's own function, with no line to give.
    private func isHeaderOnly(_ line: AppLine, in thread: Thread) -> Bool {
        let frame = thread.frames[line.position]
        guard frame.symbolication == nil, let file = frame.sourceFile, line.file == nil else { return false }
        return !file.containsBytes("<compiler-generated>")
    }

    /// The app's line of the crashed thread.
    package var crashedAppLine: AppLine? {
        crashedThread.flatMap { appLine(in: $0) }
    }
}
