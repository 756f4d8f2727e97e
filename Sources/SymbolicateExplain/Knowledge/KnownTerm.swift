/// Knowledge-base entries the diagnosis rules name directly. Spelled once here, so a test
/// can check that every one of them resolves (a renamed entry must not silently drop a
/// rule's causes and citations).
enum KnownTerm: String, CaseIterable, Sendable {
    // Report kinds and notes
    case kernelPanicReport = "bug_type 210"
    case stackshotCode = "0xbaaaaaad"
    case nonFatalCondition = "NON-FATAL CONDITION"
    // Termination namespaces and codes
    case jetsamNamespace = "JETSAM"
    case codeSigningNamespace = "CODESIGNING"
    case watchdog = "0x8badf00d"
    case thermal = "0xc00010ff"
    case lockedFileAtSuspension = "0xdead10cc"
    case voipNoCall = "0xbaadca11"
    case voipTooManyPushes = "0xbad22222"
    case backgroundTaskTimeout = "0x2182bad2"
    case backgroundTaskTimeout3 = "0x2182bad3"
    case backgroundTaskTimeout4 = "0x2182bad4"
    case backgroundBudget1 = "0xc51bad01"
    case backgroundBudget2 = "0xc51bad02"
    case backgroundBudget3 = "0xc51bad03"
    case securityViolation = "0x2bad45ec"
    // Exceptions, codes and fault patterns
    case guardException = "EXC_GUARD"
    case breakpoint = "EXC_BREAKPOINT"
    case generalProtectionFault = "EXC_I386_GPFLT"
    case codeSignError = "KERN_CODESIGN_ERROR"
    case nullPointer = "NULL_POINTER_DEREFERENCE"
    case pointerAuthentication = "POINTER_AUTHENTICATION_FAILURE"
    case stackOverflow = "STACK_OVERFLOW"
    case objcConcurrentAccess = "0xbad0"
    case resourceCPU = "RESOURCE_TYPE_CPU"
    case resourceIO = "RESOURCE_TYPE_IO"
    case resourceWakeups = "RESOURCE_TYPE_WAKEUPS"
    // Messages and frames
    case swiftRuntimeFailure = "Swift runtime failure"
    case assertionFailure = "_assertionFailure"
    case unexpectedError = "swift_unexpectedError"
    case tryBang = "'try!' expression unexpectedly raised an error"
    case unownedDeallocated = "Attempted to read an unowned reference but object was already deallocated"
    case libdispatchClientBug = "BUG IN CLIENT OF LIBDISPATCH"
    case queueAssertion = "Block was expected to execute on queue"
    case dispatchSyncOnOwnedQueue = "dispatch_sync called on queue already owned by current thread"
    case uncaughtObjCException = "Terminating app due to uncaught exception"
    case uncaughtCppException = "terminating due to uncaught exception of type"
    case unrecognizedSelector = "doesNotRecognizeSelector:"
    case objcMsgSend = "objc_msgSend"
    case abortCalled = "abort() called"
    case stackCheckFail = "__stack_chk_fail"
    case freedNotAllocated = "pointer being freed was not allocated"
    case forkedMultithreaded = "multi-threaded process forked"
    case libcxxAssertion = "libc++ assertion"
    case mallocCheck = "malloc_zone_error"
    case terminateHandler = "demangling_terminate_handler"
    case pureVirtual = "__cxa_pure_virtual"
    case nsAssertionHandler = "NSAssertionHandler"
    case objcFatal = "_objc_fatal"
    case mainThreadOnly = "MAIN_THREAD_ONLY"
}

extension KnowledgeBase {
    /// The entry a rule names; `nil` only if the knowledge base lost it (a test prevents that).
    func entry(_ term: KnownTerm) -> KnowledgeEntry? {
        entries(named: term.rawValue).first
    }
}

extension KnowledgeEntry {
    /// Whether this entry is the one `term` names.
    func `is`(_ term: KnownTerm) -> Bool {
        KnowledgeBase.normalize(self.term) == KnowledgeBase.normalize(term.rawValue)
            || aliases.contains { KnowledgeBase.normalize($0) == KnowledgeBase.normalize(term.rawValue) }
    }
}
