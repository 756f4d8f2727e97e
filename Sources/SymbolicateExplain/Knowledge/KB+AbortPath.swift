import Foundation

/// The libraries that stop a process on purpose, named by the frames between `abort()` and
/// its caller (issue 31). Each cites the library's own source as Apple publishes it.
extension Citation {
    private static func oss(_ key: String, _ repository: String, _ what: String) -> Citation {
        Citation(
            key: key, title: "Apple open source: \(repository) (\(what))", url: "https://github.com/apple-oss-distributions/\(repository)")
    }

    static let libmalloc = oss("LIBMALLOC", "libmalloc", "malloc_zone_error, nano and xzone allocators")
    static let libcxxabi = oss("LIBCXXABI", "libcxxabi", "cxa_handlers, cxa_default_handlers, abort_message")
    static let objc4 = oss("OBJC4", "objc4", "objc-errors.mm: _objc_fatal, _objc_terminate")
    static let libdispatch = oss("LIBDISPATCH", "libdispatch", "DISPATCH_CLIENT_CRASH, dispatch_assert_queue")
    static let aDiagnosing = Citation(
        key: "A-DIAG", title: "Diagnosing memory, thread, and crash issues early",
        url: "https://developer.apple.com/documentation/xcode/diagnosing-memory-thread-and-crash-issues-early")
    static let nsAssertionHandler = Citation(
        key: "NSASSERT", title: "Foundation: NSAssertionHandler",
        url: "https://developer.apple.com/documentation/foundation/nsassertionhandler")
    static let uikitMainThread = Citation(
        key: "UIKIT", title: "UIKit (use UIKit classes only from the app's main thread)",
        url: "https://developer.apple.com/documentation/uikit")
}

extension KnowledgeBase {
    static let abortPathFrames: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "malloc_zone_error", kind: .frameSymbol, title: "malloc's heap check stopped the process",
            meaning:
                "libmalloc checks its own metadata when memory is allocated and freed; when a check fails (a double free, a free of a pointer it never returned, a block whose header or guard was overwritten) it reports through malloc_zone_error / malloc_report and aborts. The check runs later than the bug: the frames show who touched the heap next, not who corrupted it.",
            causes: [
                "A double free, or a free of a pointer malloc did not return",
                "Heap corruption: a write past the end of a heap block, or into one already freed",
            ],
            checkNext: [
                "Reproduce with Address Sanitizer: it stops at the bad write or free itself",
                "Enable Guard Malloc and Malloc Scribble to make the corruption fail nearer its cause",
            ],
            sources: [.libmalloc, .aDiagnosing], provenance: .openSource,
            aliases: [
                "malloc_report", "malloc_vreport", "szone_error", "malloc_error_break", "nanov2_guard_corruption_detected",
                "___BUG_IN_CLIENT_OF_LIBMALLOC_POINTER_BEING_FREED_WAS_NOT_ALLOCATED",
            ],
            patterns: ["malloc_zone_error", "malloc_vreport", "nanov2_guard_corruption_detected", "BUG_IN_CLIENT_OF_LIBMALLOC"]),
        KnowledgeEntry(
            term: "demangling_terminate_handler", kind: .frameSymbol, title: "C++ terminate handler",
            meaning:
                "libc++abi's default terminate handler: std::terminate ran — an exception nothing caught (__cxa_throw found no handler), an exception leaving a noexcept function (__clang_call_terminate), or a rethrow with no exception. It prints the exception type to the console and calls abort().",
            causes: ["A C++ exception was thrown and no handler caught it"],
            checkNext: ["Find the throw: the frame that called __cxa_throw is the throwing call"],
            sources: [.libcxxabi, .aLanguage], provenance: .openSource,
            aliases: ["std::__terminate", "std::terminate", "__cxa_throw", "__clang_call_terminate"],
            patterns: ["demangling_terminate_handler", "std::__terminate"]),
        KnowledgeEntry(
            term: "__cxa_pure_virtual", kind: .frameSymbol, title: "Pure virtual function called",
            meaning:
                "libc++abi aborts with 'Pure virtual function called!' when a call reaches a pure virtual method: the object is still being constructed, is being destroyed, or was already freed.",
            causes: ["A virtual call on an object during its constructor or destructor, or after it was freed"],
            checkNext: ["Reproduce with Address Sanitizer to catch a use after free"],
            sources: [.libcxxabi], provenance: .openSource, aliases: ["__cxa_deleted_virtual"]),
        KnowledgeEntry(
            term: "NSAssertionHandler", kind: .frameSymbol, title: "NSAssert failed",
            meaning:
                "-[NSAssertionHandler handleFailureInMethod:…] / handleFailureInFunction: raise NSInternalInconsistencyException when an NSAssert or NSCAssert condition is false. The frame after it is the method whose assertion failed; when that method belongs to a system framework, the framework found the app using it in a way it does not allow.",
            checkNext: ["Read the asserting method's documentation for the rule it checks, and the app's call into it"],
            sources: [.nsAssertionHandler, .aLanguage], provenance: .documented,
            aliases: ["-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]", "handleFailureInFunction"]),
        KnowledgeEntry(
            term: "_objc_fatal", kind: .frameSymbol, title: "Objective-C runtime fatal error",
            meaning:
                "The Objective-C runtime found a state it cannot continue from and stopped the process; it prints its reason as 'objc[pid]: …' to the console (for example a weak reference formed to an object that is being deallocated).",
            checkNext: ["Read the console log from the moment of the crash: the runtime printed its reason there"],
            sources: [.objc4], provenance: .openSource, aliases: ["_objc_fatalv", "_objc_fatal_with_reason"]),
        KnowledgeEntry(
            term: "MAIN_THREAD_ONLY", kind: .faultPattern, title: "UI called off the main thread",
            meaning:
                "UIKit and AppKit views, windows and the application object may be used only from the main thread; a call from another thread can crash inside the framework, trip one of its assertions, or fail a main-queue or main-actor check. Xcode's Main Thread Checker reports such calls while the app runs.",
            causes: ["A UI method called from a background thread or queue (a network or completion callback, a background task)"],
            checkNext: [
                "Move the UI call to the main thread (DispatchQueue.main.async, or a @MainActor function)",
                "Run with the Main Thread Checker (scheme › Diagnostics) to find every such call",
            ],
            sources: [.uikitMainThread, .aDiagnosing], provenance: .documented,
            aliases: ["main thread checker", "off the main thread"]),
    ]
}
