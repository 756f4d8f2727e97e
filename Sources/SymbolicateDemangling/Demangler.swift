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

/// The Itanium C++ demangler (the `CLLVMDemangle` target): LLVM's, linked in from llvm-19-dev's
/// `libLLVMDemangle.a` on Linux, the system's `__cxa_demangle` (libc++abi, whose demangler is
/// LLVM's) on macOS. Either spells C++ names as Apple's tools and llvm-symbolizer do
/// (`allocator<int>>`, `a && !b`, `'lambda'(int)`, `invocation function for block in f()`);
/// libstdc++'s — what the Swift runtime calls on Linux — spells them the GNU way
/// (`allocator<int> >`, `a&&(!b)`, `{lambda(int)#1}`), and the runtime hands it `_Z…` names
/// only. This is the one Swift file that calls into it.
private enum ItaniumDemangler {
    static let isLinked = symbolicate_llvm_demangler_linked() != 0

    /// The demangled name, or nil when the demangler does not accept it.
    static func demangle(_ name: String) -> String? {
        guard let result = name.withCString({ symbolicate_llvm_demangle($0) }) else { return nil }
        defer { free(result) }
        return String(cString: result)
    }
}

/// Demangling of symbol names as atos shows them.
package enum Demangler {
    /// The simplified demangled form of `name`, or `nil` when it is not a Swift, C++ or Rust
    /// mangled name the demanglers accept (the caller then prints it raw).
    ///
    /// Rust names are read in both manglings, Swift names with and without the underscore
    /// Mach-O adds (`_$s…`); for C++ the underscore must be gone (`symbolName(fromSymbolTable:)`),
    /// except in block names, whose three underscores (`___Z…_block_invoke`) are their own.
    package static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
        if RustDemangler.mayBeRust(name), let rust = RustDemangler.demangle(name) { return rust }
        if isItanium(name), ItaniumDemangler.isLinked {
            // The C++ demangler decides alone: a name it rejects is printed raw, as llvm-symbolizer does.
            return ItaniumDemangler.demangle(blockName(name)).flatMap { $0.isEmpty || $0 == name ? nil : $0 }
        }
        guard isSwift(name) || isItanium(name) || name.hasPrefix("@__swiftmacro_") else { return nil }
        // Swift names from a Mach-O symbol table keep their underscore here (`_$s…`).
        let swiftName = name.hasPrefix("_$") ? String(name.dropFirst()) : name
        // The C++ path hands the pointer to __cxa_demangle, which reads up to a NUL:
        // the buffer must be NUL-terminated even though the length is passed.
        let result: UnsafeMutablePointer<CChar>? = swiftName.withCString { pointer in
            _swiftBacktraceDemangle(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), strlen(pointer), nil, nil)
        }
        guard let result else { return nil }
        defer { free(result) }
        let text = String(cString: result)
        return text.isEmpty || text == swiftName ? nil : text
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
        isSwift(name) || isItanium(name) || name.hasPrefix("@__swiftmacro_") || RustDemangler.mayBeRust(name)
    }

    /// Swift's manglings: `$s` (Swift 5), `$S` (4.2), `$e` (Embedded), `_T0` (4.0), with or
    /// without the underscore Mach-O adds before `$`.
    static func isSwift(_ name: String) -> Bool {
        let text = name.hasPrefix("_$") ? name.dropFirst() : Substring(name)
        return text.hasPrefix("$s") || text.hasPrefix("$S") || text.hasPrefix("$e") || text.hasPrefix("_T0")
    }

    /// An Itanium C++ mangling as LLVM recognises one: 1–4 underscores, then `Z` (`_Z…`;
    /// `___Z…_block_invoke` for blocks in C++ functions).
    static func isItanium(_ name: String) -> Bool {
        let underscores = name.utf8.prefix { $0 == UInt8(ascii: "_") }.count
        return (1...4).contains(underscores) && name.utf8.dropFirst(underscores).first == UInt8(ascii: "Z")
    }

    /// A block in a C++ function keeps its three underscores (`___Z3foov_block_invoke`) on
    /// every platform; a symbol table's `___Z…` loses one to `symbolName(fromSymbolTable:)`,
    /// which is given back here so the demangler reads it as a block
    /// (`invocation function for block in foo()`, as atos prints it).
    static func blockName(_ name: String) -> String {
        guard name.hasPrefix("__Z"), !name.hasPrefix("___"), name.contains("_block_invoke") else { return name }
        return "_" + name
    }

    /// Whether C++ names go through LLVM's demangler rather than the GNU one: linked in on
    /// Linux, the system's (libc++abi, LLVM's own) on macOS.
    package static var usesLLVMItaniumDemangler: Bool { ItaniumDemangler.isLinked }
}
