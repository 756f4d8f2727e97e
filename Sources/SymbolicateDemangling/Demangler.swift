import CLLVMDemangle
import Synchronization

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

    /// The demangled name, `.notMangled` when the demangler does not accept it, `.refused` at a bound.
    static func demangle(_ name: String) -> Demangling {
        var result: UnsafeMutablePointer<CChar>?
        let status = name.withCString { symbolicate_llvm_demangle($0, DemangleLimits.maxOutputBytes, &result) }
        defer { free(result) }
        switch status {
        case SYMBOLICATE_DEMANGLE_OK:
            guard let result else { return .notMangled }
            return .demangled(String(cString: result))
        case SYMBOLICATE_DEMANGLE_TOO_LONG:
            return .refused(.tooLong(length: name.utf8.count, limit: symbolicate_llvm_demangle_max_length()))
        case SYMBOLICATE_DEMANGLE_TOO_LARGE:
            return .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes))
        case SYMBOLICATE_DEMANGLE_NO_RESOURCES:
            return .refused(.noResources)
        default:
            return .notMangled
        }
    }
}

/// The Swift runtime's demangler, on a stack deep enough for any name admitted: its parser
/// and printer recurse per level of nesting (the printer stops at some hundreds of levels,
/// about 1.5 KiB of stack each), so names longer than `inlineLength` run on a thread of their
/// own with `threadStackBytes`; shorter ones (measured under 256 KiB on the deepest shapes)
/// on the caller's, which may be a 512 KiB thread.
private enum SwiftRuntimeDemangler {
    static let inlineLength = 256
    static let threadStackBytes = 16 << 20

    static func demangle(_ name: String) -> Demangling {
        guard name.utf8.count > inlineLength else { return demangleHere(name) }
        return LargeStack.run(bytes: threadStackBytes) { demangleHere(name) } ?? .refused(.noResources)
    }

    /// How long a child demangling one name may take: the demangler needs microseconds; a name
    /// that makes it loop is stopped here.
    static let childTimeoutSeconds: UInt32 = 5

    /// `name` demangled by a child process (`SwiftDemanglerHazard.genericParameterMarker`): a
    /// name the runtime's printer would end the process on ends only the child, and is refused.
    static func demangleInChild(_ name: String) -> Demangling {
        // The bytes `Rv`/`RV` are in some identifiers too (`ARView`): a name seen before is answered
        // without another child.
        if let known = childAnswers.withLock({ $0[name] }) { return known }
        // The child runs on the forking thread's stack: a long name forks from a large one.
        let answer =
            name.utf8.count > inlineLength
            ? LargeStack.run(bytes: threadStackBytes) { demangleInChildHere(name) } ?? .refused(.noResources) : demangleInChildHere(name)
        if answer != .refused(.noResources) {
            childAnswers.withLock { answers in
                if answers.count >= childAnswerLimit { answers.removeAll(keepingCapacity: true) }
                answers[name] = answer
            }
        }
        return answer
    }

    /// The children's answers, by name (at most `childAnswerLimit`, then forgotten together).
    static let childAnswers = Mutex<[String: Demangling]>([:])
    static let childAnswerLimit = 4_096

    static func demangleInChildHere(_ name: String) -> Demangling {
        var result: UnsafeMutablePointer<CChar>?
        let status = name.withCString { symbolicate_swift_demangle_in_child($0, strlen($0), childTimeoutSeconds, &result) }
        defer { free(result) }
        switch status {
        case SYMBOLICATE_DEMANGLE_OK:
            guard let result else { return .notMangled }
            let text = String(cString: result)
            return text.isEmpty || text == name ? .notMangled : .demangled(text)
        case SYMBOLICATE_DEMANGLE_NO_RESOURCES:
            return .refused(.noResources)
        default:
            return .refused(.malformed)
        }
    }

    static func demangleHere(_ name: String) -> Demangling {
        // The C++ path hands the pointer to __cxa_demangle, which reads up to a NUL:
        // the buffer must be NUL-terminated even though the length is passed.
        let result: UnsafeMutablePointer<CChar>? = name.withCString { pointer in
            _swiftBacktraceDemangle(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), strlen(pointer), nil, nil)
        }
        guard let result else { return .notMangled }
        defer { free(result) }
        let text = String(cString: result)
        return text.isEmpty || text == name ? .notMangled : .demangled(text)
    }
}

/// Demangling of symbol names as atos shows them.
package enum Demangler {
    /// The simplified demangled form of `name`, or `nil` when it is not a Swift, C++ or Rust
    /// mangled name the demanglers accept, or is one over their bounds (the caller then prints
    /// it raw; `demangling` says which).
    package static func demangle(_ name: String) -> String? {
        demangling(name).text
    }

    /// What the demanglers make of `name`: every name from a report, a symbol table or DWARF
    /// goes through here, so the bounds (`DemangleLimits`, `CLLVMDemangle`) are checked here.
    ///
    /// Rust names are read in both manglings, Swift names with and without the underscore
    /// Mach-O adds (`_$s…`); for C++ the underscore must be gone (`symbolName(fromSymbolTable:)`),
    /// except in block names, whose three underscores (`___Z…_block_invoke`) are their own.
    package static func demangling(_ name: String) -> Demangling {
        // No symbol name holds a NUL (C strings end there): the demanglers would read only the
        // part before it, which the checks below would not have seen.
        guard looksMangled(name), !name.utf8.contains(0) else { return .notMangled }
        if RustDemangler.mayBeRust(name) {
            let rust = RustDemangler.demangling(name)
            if rust != .notMangled { return rust }
        }
        if isItanium(name), ItaniumDemangler.isLinked {
            // The C++ demangler decides alone: a name it rejects is printed raw, as llvm-symbolizer does.
            let cxx = ItaniumDemangler.demangle(blockName(name))
            if let text = cxx.text, text.isEmpty || text == name { return .notMangled }
            return cxx
        }
        guard isSwift(name) || isItanium(name) || name.hasPrefix("@__swiftmacro_") else { return .notMangled }
        // Swift names from a Mach-O symbol table keep their underscore here (`_$s…`).
        let swiftName = name.hasPrefix("_$") ? String(name.dropFirst()) : name
        let length = swiftName.utf8.count
        guard length <= DemangleLimits.maxNameBytes else {
            return .refused(.tooLong(length: length, limit: DemangleLimits.maxNameBytes))
        }
        guard let mangling = swiftMangling(swiftName) else { return SwiftRuntimeDemangler.demangle(swiftName) }
        if SwiftManglingBound.exceeds(mangling, limit: DemangleLimits.maxOutputBytes) {
            return .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes))
        }
        switch SwiftDemanglerHazard.find(in: mangling) {
        case .unterminatedSpecializationConstant:
            return .refused(.malformed)
        case .genericParameterMarker:
            return SwiftRuntimeDemangler.demangleInChild(swiftName)
        case nil:
            return SwiftRuntimeDemangler.demangle(swiftName)
        }
    }

    /// The bytes of a Swift mangling after its prefix (`$s`, `$S`, `$e`, `_T0`,
    /// `@__swiftmacro_`), which `SwiftManglingBound` scans; nil for other names.
    static func swiftMangling(_ name: String) -> ArraySlice<UInt8>? {
        let bytes = Array(name.utf8)
        for prefix in ["@__swiftmacro_", "_T0", "$s", "$S", "$e"] where name.hasPrefix(prefix) {
            return bytes[prefix.utf8.count...]
        }
        return nil
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
