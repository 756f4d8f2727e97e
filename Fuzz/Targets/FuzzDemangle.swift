import SymbolicateDemangling

/// libFuzzer entry: bytes as a symbol name handed to the demanglers (Swift through the runtime,
/// C++ through LLVM's, Rust legacy and v0 in Swift: backreferences, punycode, deep nesting) and
/// to the placeholder check. A name either demangles or is refused; it never traps or hangs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDemangle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let name = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = Demangler.demangle(name)
    _ = RustDemangler.demangle(name)
    _ = RustDemangler.demangle("_R" + name)
    _ = RustDemangler.demangle("_ZN" + name)
    _ = PlaceholderName(name)
    return 0
}
