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

/// Demangling of symbol names as atos shows them.
public enum Demangler {
    /// The simplified demangled form of `name`, or `nil` when the runtime does not
    /// recognise it as a Swift or C++ mangled name (the caller then prints it raw).
    ///
    /// Darwin symbol-table names carry a leading underscore (`_$s…`, `__Z…`); callers strip it
    /// with `symbolName(fromSymbolTable:)` first.
    public static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
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

    /// Prefixes of the manglings the runtime understands; anything else (C, Objective-C
    /// `-[Foo bar]`) is not passed to it at all.
    static func looksMangled(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("$S") || name.hasPrefix("$e") || name.hasPrefix("_T0")
            || name.hasPrefix("_Z") || name.hasPrefix("___Z") || name.hasPrefix("@__swiftmacro_")
    }
}
