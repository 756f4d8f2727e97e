import CLLVMDemangle

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

/// LLVM's demangler, linked into the binary (the `CLLVMDemangle` target over llvm-19-dev's
/// `libLLVMDemangle.a`): it spells C++ names as Apple's tools and llvm-symbolizer do
/// (`allocator<int>>`, `a && !b`, `'lambda'(int)`); libstdc++'s — what the Swift runtime calls
/// on Linux — spells them the GNU way (`allocator<int> >`, `a&&(!b)`, `{lambda(int)#1}`).
/// This is the one Swift file that calls into it.
private enum LLVMDemangler {
    static let isLinked = symbolicate_llvm_demangler_linked() != 0

    /// The demangled name, or nil when LLVM's demangler does not accept it.
    static func demangle(_ name: String) -> String? {
        guard let result = name.withCString({ symbolicate_llvm_demangle($0) }) else { return nil }
        defer { free(result) }
        return String(cString: result)
    }
}

/// Demangling of symbol names as atos shows them.
package enum Demangler {
    /// The simplified demangled form of `name`, or `nil` when the runtime does not
    /// recognise it as a Swift or C++ mangled name (the caller then prints it raw).
    ///
    /// Darwin symbol-table names carry a leading underscore (`_$s…`, `__Z…`); callers strip it
    /// with `symbolName(fromSymbolTable:)` first.
    package static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
        if isItanium(name), LLVMDemangler.isLinked {
            // LLVM's demangler decides alone: a name it rejects is printed raw, as llvm-symbolizer does.
            return LLVMDemangler.demangle(name).flatMap { $0.isEmpty || $0 == name ? nil : $0 }
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
    package static func displayName(_ name: String) -> String {
        demangle(name) ?? name
    }

    /// A symbol-table name without Darwin's leading underscore (`_main` → `main`).
    package static func symbolName(fromSymbolTable raw: String) -> String {
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

    /// Whether C++ names go through LLVM's demangler rather than the GNU one: linked in on
    /// Linux; on Darwin the runtime's own demangler already is LLVM's (libc++abi).
    package static var usesLLVMItaniumDemangler: Bool {
        #if os(Linux)
            LLVMDemangler.isLinked
        #else
            true
        #endif
    }
}
