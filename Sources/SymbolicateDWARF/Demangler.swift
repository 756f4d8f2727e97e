#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Swift runtime's backtrace demangler: Swift and Itanium C++ names, simplified the way
/// Apple's atos prints them (`specialized static CrashClass.pleaseCrash()`).
@_silgen_name("_swift_backtrace_demangle")
private func _swiftBacktraceDemangle(
    _ mangledName: UnsafePointer<UInt8>?,
    _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?
) -> UnsafeMutablePointer<CChar>?

/// LLVM's Itanium C++ demangler: `__cxa_demangle` of libc++abi (Debian `libc++abi1-19`),
/// which spells names as Apple's tools and llvm-symbolizer do (`allocator<int>>`,
/// `a && !b`, `'lambda'(int)`); libstdc++'s — what the Swift runtime calls on Linux —
/// spells them the GNU way (`allocator<int> >`, `a&&(!b)`, `{lambda(int)#1}`).
///
/// Loaded with `RTLD_LOCAL` so its `__cxa_*` symbols never interpose on libstdc++'s in
/// the rest of the process; looked up through its own handle.
private final class LLVMItaniumDemangler: @unchecked Sendable {
    typealias Function =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?

    let function: Function?

    /// Loaded once per process; when the library is missing, says so once on stderr.
    static let shared = LLVMItaniumDemangler()

    private init() {
        #if os(Linux)
            let candidates = [
                "libc++abi.so.1", "/usr/lib/llvm-19/lib/libc++abi.so.1",
                "/usr/lib/x86_64-linux-gnu/libc++abi.so.1", "/usr/lib/aarch64-linux-gnu/libc++abi.so.1",
            ]
            var found: Function?
            for candidate in candidates {
                guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else { continue }
                if let symbol = dlsym(handle, "__cxa_demangle") {
                    found = unsafeBitCast(symbol, to: Function.self)
                    break
                }
                dlclose(handle)
            }
            function = found
            if found == nil {
                let notice =
                    "symbolicate: note: LLVM's C++ demangler (libc++abi.so.1, Debian package libc++abi1-19) "
                    + "is not installed; C++ names are spelled by the GNU demangler (`allocator<int> >`) instead of "
                    + "as Apple's tools spell them\n"
                _ = notice.withCString { write(2, $0, strlen($0)) }
            }
        #else
            // Elsewhere the runtime's demangler already is LLVM's (libc++abi).
            function = nil
        #endif
    }

    /// The demangled name, or nil when it is not a valid Itanium mangling.
    func demangle(_ name: String) -> String? {
        guard let function else { return nil }
        var status: Int32 = 0
        guard let result = name.withCString({ function($0, nil, nil, &status) }) else { return nil }
        defer { free(result) }
        return status == 0 ? String(cString: result) : nil
    }
}

/// Demangling of symbol names as atos shows them.
public enum Demangler {
    /// The simplified demangled form of `name`, or `nil` when the runtime does not
    /// recognise it as a Swift or C++ mangled name (the caller then prints it raw).
    ///
    /// Darwin symbol-table names carry a leading underscore (`_$s…`, `__Z…`); callers strip it
    /// with `symbolName(fromSymbolTable:)` first.
    public static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
        if isItanium(name), usesLLVMItaniumDemangler {
            // LLVM's demangler decides alone: a name it rejects is printed raw, as llvm-symbolizer does.
            return LLVMItaniumDemangler.shared.demangle(name).flatMap { $0.isEmpty || $0 == name ? nil : $0 }
        }
        // The C++ path hands the pointer to __cxa_demangle, which reads up to a NUL:
        // the buffer must be NUL-terminated even though the length is passed.
        let result: UnsafeMutablePointer<CChar>? = name.withCString { pointer in
            _swiftBacktraceDemangle(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), strlen(pointer), nil, nil)
        }
        guard let result else { return nil }
        defer { free(result) }
        let text = String(cString: result)
        return text.isEmpty || text == name ? nil : text
    }

    /// The demangled name if there is one, else `name` unchanged.
    public static func displayName(_ name: String) -> String {
        demangle(name) ?? name
    }

    /// A symbol-table name without Darwin's leading underscore (`_main` → `main`).
    public static func symbolName(fromSymbolTable raw: String) -> String {
        raw.hasPrefix("_") ? String(raw.dropFirst()) : raw
    }

    /// Prefixes of the manglings the demanglers understand; anything else (C, Objective-C
    /// `-[Foo bar]`) is not passed to them at all (`__cxa_demangle` would read `i` as `int`).
    static func looksMangled(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("$S") || name.hasPrefix("$e") || name.hasPrefix("_T0")
            || isItanium(name) || name.hasPrefix("@__swiftmacro_")
    }

    /// An Itanium C++ mangling as LLVM recognises one: 1–4 underscores, then `Z` (`_Z…`;
    /// `___Z…_block_invoke` for blocks in C++ functions).
    static func isItanium(_ name: String) -> Bool {
        let underscores = name.utf8.prefix { $0 == UInt8(ascii: "_") }.count
        return (1...4).contains(underscores) && name.utf8.dropFirst(underscores).first == UInt8(ascii: "Z")
    }

    /// Whether C++ names go through LLVM's demangler (libc++abi) rather than the GNU one.
    public static var usesLLVMItaniumDemangler: Bool {
        #if os(Linux)
            LLVMItaniumDemangler.shared.function != nil
        #else
            true
        #endif
    }
}
