// Messages found in Application Specific Information, exception reasons and frame names:
// Swift runtime errors, concurrency/libdispatch, libc/malloc, Objective-C exceptions, dyld.
// Facts: project reference explain.md §6, §7, §4.2.

extension KnowledgeBase {
    private static func swiftMessage(
        _ term: String, _ title: String, _ meaning: String, causes: [String] = [], checkNext: [String] = [],
        sources: [Citation] = [.swiftAssert], provenance: Provenance = .openSource,
        aliases: [String] = [], patterns: [String]
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: term, kind: .swiftRuntimeMessage, title: title, meaning: meaning, causes: causes,
            checkNext: checkNext.isEmpty ? ["Symbolicate frame 0–1 for the file and line of the failed check"] : checkNext,
            sources: sources, provenance: provenance, aliases: aliases, patterns: patterns)
    }

    static let swiftMessages: [KnowledgeEntry] = [
        swiftMessage(
            "Unexpectedly found nil while unwrapping an Optional value", "Force-unwrapped nil",
            "A force unwrap (!) was applied to an Optional that was nil.",
            causes: ["A value assumed present (dictionary lookup, URL(string:), first, a failable init) was nil"],
            checkNext: ["Find the ! at the crashing line; replace it with if let / guard let and handle the nil case"],
            sources: [.aSwift, .swiftAssert], provenance: .documented,
            aliases: ["force unwrap", "force unwrapped a nil value"],
            patterns: ["Unexpectedly found nil while unwrapping an Optional value", "force unwrapped a nil value"]),
        swiftMessage(
            "Unexpectedly found nil while implicitly unwrapping an Optional value", "Implicitly unwrapped nil",
            "An implicitly unwrapped optional (Type!) was used while nil.",
            causes: ["An @IBOutlet used before viewDidLoad or not connected", "A property read before initialisation completed"],
            checkNext: ["Check outlet connections and the order of initialisation"],
            provenance: .observed, patterns: ["Unexpectedly found nil while implicitly unwrapping an Optional value"]),
        swiftMessage(
            "Could not cast value of type", "Failed forced cast (as!)",
            "An as! cast failed: the value's dynamic type is not the target type (the message names both).",
            causes: ["Decoded or bridged data of an unexpected type", "A wrong assumption about a subclass or protocol"],
            checkNext: ["Use as? and handle the failure"],
            sources: [.swiftCasting], aliases: ["as!", "Unconditional cast failed"],
            patterns: ["Could not cast value of type", "Unconditional cast failed"]),
        swiftMessage(
            "Index out of range", "Array index out of range",
            "An Array (or ContiguousArray) subscript was outside 0..<count.",
            causes: ["A stale count or index after the array changed", "Off-by-one loops", "Indexing an empty array"],
            checkNext: ["Check the index against indices / count at the crashing line"],
            provenance: .observed, patterns: ["Index out of range"]),
        swiftMessage(
            "Range out of bounds", "Slice or range out of bounds",
            "A slice or replaceSubrange used bounds outside the collection.",
            patterns: ["Range out of bounds", "Index out of bounds", "Invalid slice"]),
        swiftMessage(
            "Range requires lowerBound <= upperBound", "Inverted range",
            "A range a..<b or a...b was formed with a > b.",
            causes: ["Computed bounds where the end came before the start (e.g. empty input)"],
            provenance: .observed, aliases: ["Can't form Range with upperBound < lowerBound"],
            patterns: ["Range requires lowerBound <= upperBound", "Can't form Range with upperBound < lowerBound"]),
        swiftMessage(
            "arithmetic overflow", "Integer overflow",
            "A +, - or * on a fixed-width integer overflowed (Swift traps instead of wrapping).",
            causes: ["Counters or sizes exceeding Int32/UInt8…", "Subtracting into negative values of an unsigned type"],
            checkNext: ["Use a wider type, checked arithmetic (addingReportingOverflow) or &+ when wrapping is intended"],
            provenance: .observed, patterns: ["arithmetic overflow"]),
        swiftMessage(
            "Division by zero", "Division by zero",
            "An integer / or % had a zero divisor, or Int.min / -1 overflowed.",
            provenance: .thirdParty, patterns: ["Division by zero", "Division results in an overflow"]),
        swiftMessage(
            "Not enough bits to represent the passed value", "Integer conversion out of range",
            "An integer conversion such as Int32(x) or UInt8(x) got a value that does not fit.",
            checkNext: ["Use init(exactly:) or init(clamping:) and handle the failure"],
            patterns: ["Not enough bits to represent the passed value", "Negative value is not representable"]),
        swiftMessage(
            "Double value cannot be converted to Int", "Floating-point to integer conversion failed",
            "Int(someDouble) was given NaN, infinity or a value too large for Int.",
            checkNext: ["Check isFinite and the range before converting; use Int(exactly:)"],
            provenance: .observed,
            patterns: ["value cannot be converted to Int because", "cannot be converted to"]),
        swiftMessage(
            "Can't remove last element from an empty collection", "Removing from an empty collection",
            "removeLast()/removeFirst() was called on an empty collection.",
            provenance: .thirdParty,
            patterns: ["Can't remove last element from an empty collection", "Can't remove first element from an empty collection"]),
        swiftMessage(
            "Negative count", "Negative count",
            "A negative count was passed (Array(repeating:count:), dropFirst, prefix…).",
            patterns: [
                "Can't construct Array with count < 0", "Can't drop a negative number of elements",
                "Can't take a prefix of negative length",
            ]),
        swiftMessage(
            "Duplicate keys of type", "Dictionary with duplicate keys",
            "A Dictionary found two equal keys: the key type's == and hash(into:) disagree, or a key was mutated after insertion (frame KEY_TYPE_OF_DICTIONARY_VIOLATES_HASHABLE_REQUIREMENTS).",
            checkNext: ["Make == and hash(into:) use the same properties; never mutate keys stored in a Dictionary or Set"],
            sources: [.swiftDictionary],
            aliases: ["KEY_TYPE_OF_DICTIONARY_VIOLATES_HASHABLE_REQUIREMENTS", "Dictionary literal contains duplicate keys"],
            patterns: [
                "Duplicate keys of type", "KEY_TYPE_OF_DICTIONARY_VIOLATES_HASHABLE_REQUIREMENTS",
                "Dictionary literal contains duplicate keys",
            ]),
        swiftMessage(
            "Attempted to read an unowned reference but object was already deallocated", "unowned reference outlived its object",
            "An unowned reference was used after the object it points to was deallocated.",
            checkNext: ["Use weak instead of unowned (e.g. in closure capture lists) and handle nil"],
            sources: [.swiftRuntime], provenance: .observed,
            patterns: ["Attempted to read an unowned reference but object", "was already deallocated"]),
        swiftMessage(
            "Simultaneous accesses", "Exclusivity violation",
            "Swift's runtime exclusivity check found overlapping accesses to the same variable where one modifies it.",
            causes: ["Passing a property inout while also reading it", "Unsynchronized access from two threads"],
            checkNext: ["Read the 'Previous access' / 'Current access' lines; copy the value before the call or synchronize"],
            sources: [.swiftRuntime], provenance: .observed,
            patterns: ["Simultaneous accesses to", "but modification requires exclusive access"]),
        swiftMessage(
            "'try!' expression unexpectedly raised an error", "try! on a call that threw",
            "A try! call threw an error (the runtime reports it via swift_unexpectedError).",
            checkNext: ["Replace try! with do/catch or try? and handle the error named in the message"],
            provenance: .observed, aliases: ["try!", "swift_unexpectedError"],
            patterns: ["'try!' expression unexpectedly raised an error"]),
        swiftMessage(
            "Error raised at top level", "Uncaught error at top level",
            "An error was thrown out of top-level code or main and nothing caught it.",
            provenance: .observed, patterns: ["Error raised at top level"]),
        swiftMessage(
            "unexpected enum case", "Unexpected enum value",
            "A switch over a non-frozen or C enum met a raw value with no matching case.",
            causes: ["A newer OS or server returned a new case", "Memory corruption of an enum value"],
            checkNext: ["Add @unknown default handling"],
            patterns: ["unexpected enum case"]),
        swiftMessage(
            "precondition failure", "Precondition failed",
            "A precondition or preconditionFailure failed. In optimized builds the message is stripped and only this static reason remains.",
            checkNext: ["Symbolicate frame 0: the failed precondition is at that file and line"],
            patterns: ["precondition failure", "Precondition failed"]),
        swiftMessage(
            "Fatal error", "Swift fatal error",
            "Swift stopped the program with fatalError or a standard-library check; the text after 'Fatal error:' is the reason.",
            checkNext: ["Read the message and the file:line before it when present", "Symbolicate frame 0"],
            sources: [.aSwift, .swiftAssert, .swiftRuntime], provenance: .documented,
            aliases: ["fatalError"], patterns: ["Fatal error:"]),
        swiftMessage(
            "Assertion failed", "Swift assert failed",
            "A debug-build assert() failed.",
            patterns: ["Assertion failed:"]),
        swiftMessage(
            "Swift runtime failure", "Swift runtime check (frame name)",
            "In optimized builds the reason of a Swift runtime check survives only as the name of an artificial inlined frame 'Swift runtime failure: <reason>', visible after symbolication with the dSYM.",
            checkNext: [
                "Symbolicate with the matching dSYM and read the reason after the colon", "The next frame gives the file and line",
            ],
            sources: [.swiftIRGen, .swiftAssert], aliases: ["Swift runtime failure:"], patterns: ["Swift runtime failure:"]),
    ]

    static let concurrencyMessages: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "SWIFT TASK CONTINUATION MISUSE", kind: .concurrencyMessage, title: "Continuation resumed twice",
            meaning:
                "A checked continuation was resumed more than once, which traps. (The variant 'leaked its continuation without resuming it' is only logged; the task then hangs forever.)",
            checkNext: ["Make every path resume the continuation exactly once"],
            sources: [.swiftConcurrency], provenance: .observed, patterns: ["SWIFT TASK CONTINUATION MISUSE"]),
        KnowledgeEntry(
            term: "Incorrect actor executor assumption", kind: .concurrencyMessage, title: "Code ran off its actor",
            meaning:
                "assumeIsolated / preconditionIsolated or a Swift 6 isolation check failed: code ran on a different executor than it claimed.",
            checkNext: ["Find which callback invoked the isolated code from another queue and hop explicitly"],
            sources: [.swiftConcurrency], provenance: .openSource, patterns: ["Incorrect actor executor assumption"]),
        KnowledgeEntry(
            term: "Block was expected to execute on queue", kind: .concurrencyMessage,
            title: "Main-actor closure called off the main queue",
            meaning:
                "dispatch_assert_queue failed (frame _dispatch_assert_queue_fail): typically a closure inferred @MainActor in Swift 6 mode was called by an API on a background queue.",
            checkNext: ["Mark the callback @Sendable / nonisolated and hop to the main actor explicitly"],
            sources: [.swiftConcurrency], provenance: .observed,
            aliases: ["_dispatch_assert_queue_fail"],
            patterns: ["Block was expected to execute on queue", "_dispatch_assert_queue_fail"]),
        KnowledgeEntry(
            term: "dispatch_sync called on queue already owned by current thread", kind: .concurrencyMessage,
            title: "dispatch_sync deadlock caught",
            meaning:
                "dispatch_sync (DispatchQueue.sync) targeted the queue the thread is already running on — a guaranteed deadlock that libdispatch turns into a crash.",
            checkNext: ["Remove the sync hop, or use async"],
            sources: [.aFields], provenance: .documented,
            patterns: ["dispatch_sync called on queue already owned by current thread"]),
        KnowledgeEntry(
            term: "BUG IN CLIENT OF LIBDISPATCH", kind: .concurrencyMessage, title: "Dispatch API misuse",
            meaning:
                "libdispatch detected misuse of its API and trapped; the text names the rule (e.g. releasing a suspended object, over-resume, semaphore destroyed while in use).",
            checkNext: ["Read the rest of the message; check balance of suspend/resume, enter/leave, wait/signal"],
            sources: [.aTrap], provenance: .documented, patterns: ["BUG IN CLIENT OF LIBDISPATCH"]),
    ]

    static let applicationSpecificMessages: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "abort() called", kind: .applicationSpecificMessage, title: "abort() called",
            meaning: "The process called abort(). The reason is elsewhere: an exception, an assertion, or the code that called abort.",
            checkNext: ["Follow the crashed thread up from abort to the first frame of your code"],
            sources: [.aAbort], provenance: .observed, patterns: ["abort() called"]),
        KnowledgeEntry(
            term: "__stack_chk_fail", kind: .applicationSpecificMessage, title: "Stack buffer overflow detected",
            meaning:
                "The stack canary was overwritten (or libc fortify detected a buffer overflow): memory corruption on the stack, usually a buffer overflow in C-family or unsafe code.",
            checkNext: [
                "Reproduce with Address Sanitizer", "Check fixed-size buffers written by strcpy/sprintf/memcpy in the frames below",
            ],
            sources: [.libc], provenance: .openSource,
            aliases: ["stack buffer overflow", "detected buffer overflow"],
            patterns: [
                "__stack_chk_fail", "stack buffer overflow", "detected buffer overflow", "detected source and destination buffer overlap",
            ]),
        KnowledgeEntry(
            term: "pointer being freed was not allocated", kind: .applicationSpecificMessage, title: "Heap corruption / double free",
            meaning:
                "malloc detected a double free, a free of a pointer it never returned, or heap corruption (frames ___BUG_IN_CLIENT_OF_LIBMALLOC_…).",
            checkNext: ["Reproduce with Address Sanitizer or Guard Malloc / Malloc Scribble"],
            sources: [.libc], provenance: .thirdParty,
            aliases: ["Heap corruption detected", "BUG_IN_CLIENT_OF_LIBMALLOC"],
            patterns: [
                "pointer being freed was not allocated", "Heap corruption detected", "BUG_IN_CLIENT_OF_LIBMALLOC", "malloc: *** error",
            ]),
        KnowledgeEntry(
            term: "terminating due to uncaught exception of type", kind: .applicationSpecificMessage, title: "Uncaught C++ exception",
            meaning:
                "A C++ exception (or an Objective-C exception escaping through C++) was not caught; libc++abi called abort. No exception backtrace is available for C++ throws.",
            checkNext: ["Read the exception type and message; find the throwing call in the crashed thread"],
            sources: [.aLanguage], provenance: .observed,
            aliases: ["libc++abi", "terminating with uncaught exception of type"],
            patterns: ["terminating due to uncaught exception of type", "terminating with uncaught exception of type"]),
        KnowledgeEntry(
            term: "Terminating app due to uncaught exception", kind: .applicationSpecificMessage, title: "Uncaught Objective-C exception",
            meaning:
                "An Objective-C exception was thrown and not caught, so the app aborted. The name and reason follow in the message; the Last Exception Backtrace shows where it was thrown.",
            checkNext: [
                "Read the Last Exception Backtrace from the top to the first frame in your code",
                "Set an exception breakpoint when reproducing",
            ],
            sources: [.aLanguage, .aMessage], provenance: .documented,
            patterns: ["Terminating app due to uncaught exception"]),
        KnowledgeEntry(
            term: "multi-threaded process forked", kind: .applicationSpecificMessage, title: "Crash in a forked child process",
            meaning:
                "The process called fork() while it had several threads and the child crashed before exec ('crashed on child side of fork pre-exec'). In the child only async-signal-safe calls are allowed; locks held by other threads at fork time stay locked forever.",
            causes: ["Calling non-async-signal-safe code (malloc, Objective-C, Swift runtime, dispatch) between fork() and exec()"],
            checkNext: ["Use posix_spawn or Process instead of fork(); otherwise call only async-signal-safe functions before exec"],
            sources: [.libc], provenance: .observed,
            patterns: ["multi-threaded process forked", "crashed on child side of fork pre-exec"]),
        KnowledgeEntry(
            term: "objc_msgSend() selector name", kind: .applicationSpecificMessage, title: "Crash inside objc_msgSend",
            meaning:
                "The crash happened inside objc_msgSend while sending the named selector — the receiver was most likely a deallocated (over-released) object or a garbage pointer.",
            checkNext: ["Reproduce with Zombies enabled; check ownership of the receiver"],
            sources: [.aMemory, .aCommon], provenance: .observed, patterns: ["objc_msgSend() selector name:"]),
    ]

    private static func objc(
        _ name: String, _ title: String, _ meaning: String, causes: [String] = [], checkNext: [String] = [],
        provenance: Provenance = .documented, patterns: [String] = []
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: name, kind: .objcException, title: title, meaning: meaning, causes: causes,
            checkNext: checkNext + ["Read the Last Exception Backtrace down to the first frame in your code"],
            sources: [.foundationExceptions, .aLanguage, .aMessage], provenance: provenance,
            patterns: patterns)
    }

    static let objcExceptions: [KnowledgeEntry] = [
        objc(
            "NSInvalidArgumentException", "Invalid argument",
            "A method got an argument it does not accept.",
            causes: [
                "nil inserted into an NSArray/NSDictionary ('object cannot be nil')",
                "'unrecognized selector sent to instance': wrong receiver type, a broken storyboard action, or a zombie whose memory was reused",
                "Mismatched object and key counts; archiving a non-NSCoding object",
            ],
            checkNext: [
                "If the reason says 'unrecognized selector', check the receiver's class in the reason; suspect a zombie when it makes no sense"
            ]),
        objc(
            "NSRangeException", "Index or range out of bounds",
            "An index or range was outside the bounds of a collection, string or data ('index 12 beyond bounds [0 .. 0]').",
            causes: [
                "A stale count or index", "NSNotFound used as an index", "A range length computed from a negative number",
                "Removing a KVO observer that was not registered",
            ]),
        objc(
            "NSInternalInconsistencyException", "Internal inconsistency",
            "An API detected that its internal state or a caller's contract was violated.",
            causes: [
                "Table/collection view batch updates with the wrong number of rows", "UI used off the main thread",
                "Mutating an immutable collection", "PushKit: VoIP push not reported to CallKit",
            ]),
        objc(
            "NSGenericException", "Generic exception",
            "A generic Foundation exception; the reason explains it.",
            causes: ["'Collection was mutated while being enumerated'"], provenance: .observed),
        objc(
            "NSUnknownKeyException", "Key-value coding key not found",
            "setValue:forUndefinedKey: — the class is not key-value coding compliant for the key, usually a stale IBOutlet connection in a storyboard or xib.",
            checkNext: ["Remove or reconnect the outlet named in the reason"], patterns: ["not key value coding-compliant"]),
        objc("NSObjectInaccessibleException", "Object inaccessible", "A distributed object was accessed from the wrong thread."),
        objc("NSObjectNotAvailableException", "Object not available", "An object was not available for distributed objects."),
        objc("NSDestinationInvalidException", "Destination invalid", "A distributed-objects destination is no longer valid."),
        objc("NSPortTimeoutException", "Port timeout", "A port send or receive timed out."),
        objc("NSInvalidSendPortException", "Invalid send port", "The send port is invalid."),
        objc("NSInvalidReceivePortException", "Invalid receive port", "The receive port is invalid."),
        objc("NSPortSendException", "Port send failed", "Sending on a port failed."),
        objc("NSPortReceiveException", "Port receive failed", "Receiving on a port failed."),
        objc(
            "NSMallocException", "Allocation failed",
            "Memory could not be allocated — out of memory or an absurd size (often computed from a negative number)."),
        objc("NSInconsistentArchiveException", "Inconsistent archive", "An archive could not be decoded consistently."),
        objc(
            "NSFileHandleOperationException", "File handle operation failed",
            "A read or write on an NSFileHandle failed (e.g. the other end closed).",
            checkNext: ["Use the throwing FileHandle APIs (read(upToCount:), write(contentsOf:))"]),
        objc("NSCharacterConversionException", "Character conversion failed", "A string could not be converted to the requested encoding."),
        objc("NSParseErrorException", "Parse error", "A property list or string could not be parsed."),
        objc("NSDecimalNumberDivideByZeroException", "Decimal division by zero", "An NSDecimalNumber division by zero."),
        objc(
            "NSInvalidArchiveOperationException", "Invalid archive operation",
            "Archiving failed (e.g. an object that does not support secure coding)."),
        objc(
            "NSInvalidUnarchiveOperationException", "Invalid unarchive operation",
            "Unarchiving failed (e.g. a class not allowed by secure coding)."),
    ]

    static let dyldErrors: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "Library not loaded", kind: .dyldError, title: "Missing library",
            meaning: "dyld could not find a library the binary links against.",
            causes: [
                "Framework linked but not embedded (Embed & Sign)", "Wrong @rpath search paths",
                "Library removed by app thinning or architecture settings",
            ],
            checkNext: ["Read 'Referenced from' and the paths tried; check the app's Frameworks folder"],
            sources: [.aFramework], provenance: .documented, patterns: ["Library not loaded", "image not found"]),
        KnowledgeEntry(
            term: "Symbol not found", kind: .dyldError, title: "Missing symbol",
            meaning: "A library loaded but lacks a symbol the binary needs.",
            causes: ["Built against a newer SDK or library version than present at runtime", "Mismatched prebuilt frameworks"],
            checkNext: ["Read 'Expected in'; weak-link new APIs and guard them with availability checks"],
            sources: [.aFramework, .dyld], provenance: .observed, patterns: ["Symbol not found"]),
    ]

    /// Frame names that carry meaning on their own.
    static let frameSymbols: [KnowledgeEntry] = [
        KnowledgeEntry(
            term: "objc_msgSend", kind: .frameSymbol, title: "Crash in objc_msgSend",
            meaning:
                "A crash at the top of the stack in objc_msgSend, objc_retain or objc_release usually means the message was sent to a deallocated (over-released) object or a garbage pointer.",
            causes: [
                "Over-released object (zombie)", "unsafe_unretained / assign reference to a freed object",
                "Memory corruption of the isa pointer",
            ],
            checkNext: ["Reproduce with Zombies enabled", "Check ownership of the receiver; use weak instead of assign/unsafe_unretained"],
            sources: [.aMemory, .aCommon], provenance: .documented,
            aliases: ["objc_retain", "objc_release", "objc_autorelease"],
            patterns: ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease"]),
        KnowledgeEntry(
            term: "_assertionFailure", kind: .frameSymbol, title: "Swift standard-library check failed",
            meaning:
                "_assertionFailure / _fatalErrorMessage in the crashed thread confirm that a Swift check (fatalError, precondition, a standard-library check) stopped the program.",
            checkNext: ["Read the Swift message in Application Specific Information; the frame below is the failed check"],
            sources: [.swiftAssert, .aSwift], provenance: .openSource,
            aliases: ["_fatalErrorMessage"], patterns: ["_assertionFailure", "_fatalErrorMessage", "assertionFailure"]),
        KnowledgeEntry(
            term: "swift_unexpectedError", kind: .frameSymbol, title: "try! failed",
            meaning: "swift_unexpectedError is called when a try! expression's call throws.",
            checkNext: ["The frame below is the try! call; handle the error instead"],
            sources: [.swiftRuntime], provenance: .openSource, patterns: ["swift_unexpectedError"]),
        KnowledgeEntry(
            term: "doesNotRecognizeSelector:", kind: .frameSymbol, title: "Unrecognized selector",
            meaning:
                "An object received a message it does not implement; Objective-C then throws NSInvalidArgumentException. When the receiver's class makes no sense, the object was probably deallocated and its memory reused (a zombie).",
            checkNext: ["Check the receiver class and selector in the exception reason; reproduce with Zombies"],
            sources: [.aLanguage, .aCommon, .tn2151], provenance: .documented, patterns: ["doesNotRecognizeSelector"]),
        KnowledgeEntry(
            term: "libc++ assertion", kind: .frameSymbol, title: "C++ standard-library hardening assertion",
            meaning:
                "libc++ built with hardening checks traps when a precondition fails (e.g. 'assertion __n < size() failed: vector[] index out of bounds'); like Swift, the message survives as the name of an artificial inlined frame.",
            causes: ["An index or iterator outside the container's bounds", "Another violated precondition named in the message"],
            checkNext: ["The frame below the assertion frame is the call that broke the precondition"],
            sources: [.swiftIRGen], provenance: .observed,
            aliases: ["_LIBCPP_ASSERT", "libc++ hardening"], patterns: ["assertion", "failed:"]),
        KnowledgeEntry(
            term: "__pthread_kill", kind: .frameSymbol, title: "Signal sent to self",
            meaning:
                "__pthread_kill / pthread_kill at the top of the crashed thread is how abort() raises SIGABRT; the interesting frames are further down.",
            checkNext: ["Read down from abort to the first frame in your code"],
            sources: [.aAbort], provenance: .observed, patterns: ["__pthread_kill", "pthread_kill"]),
    ]
}
