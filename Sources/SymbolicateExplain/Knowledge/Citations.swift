/// The sources behind the knowledge base (keys match the project's reference notes): Apple's
/// documentation and WWDC sessions, and Apple's open source (xnu, dyld, Libc, Swift) only —
/// never third-party or reverse-engineered material, which may be wrong and cannot be checked.
extension Citation {
    private static func apple(_ key: String, _ title: String, _ slug: String) -> Citation {
        Citation(key: key, title: title, url: "https://developer.apple.com/documentation/xcode/\(slug)")
    }
    private static func xnu(_ key: String, _ path: String) -> Citation {
        Citation(
            key: key, title: "xnu \(path)",
            url: "https://github.com/apple-oss-distributions/xnu/blob/main/\(path)")
    }
    private static func swift(_ key: String, _ path: String) -> Citation {
        Citation(key: key, title: "Swift \(path)", url: "https://github.com/swiftlang/swift/blob/main/\(path)")
    }

    static let aTypes = apple(
        "A-TYPES", "Understanding the exception types in a crash report",
        "understanding-the-exception-types-in-a-crash-report")
    static let aBadAccess = apple("A-BADACC", "EXC_BAD_ACCESS", "exc_bad_access")
    static let aSegv = apple("A-SEGV", "EXC_BAD_ACCESS (SIGSEGV)", "sigsegv")
    static let aBus = apple("A-BUS", "EXC_BAD_ACCESS (SIGBUS)", "sigbus")
    static let aTrap = apple("A-TRAP", "EXC_BREAKPOINT (SIGTRAP) and EXC_BAD_INSTRUCTION (SIGILL)", "sigtrap_sigill")
    static let aArith = apple("A-ARITH", "EXC_ARITHMETIC", "exc_arithmetic")
    static let aCrash = apple("A-CRASH", "EXC_CRASH", "exc_crash")
    static let aAbort = apple("A-ABRT", "EXC_CRASH (SIGABRT)", "sigabrt")
    static let aKill = apple("A-KILL", "EXC_CRASH (SIGKILL)", "sigkill")
    static let aQuit = apple("A-QUIT", "EXC_CRASH (SIGQUIT)", "sigquit")
    static let aTerm = apple("A-TERM", "EXC_CRASH (SIGTERM)", "sigterm")
    static let aSys = apple("A-SYS", "EXC_CRASH (SIGSYS)", "sigsys")
    static let aGuard = apple("A-GUARD", "EXC_GUARD", "exc_guard")
    static let aResource = apple("A-RES", "EXC_RESOURCE", "exc_resource")
    static let aMemory = apple("A-MEM", "Investigating memory access crashes", "investigating-memory-access-crashes")
    static let aWatchdog = apple("A-WD", "Addressing watchdog terminations", "addressing-watchdog-terminations")
    static let aLanguage = apple("A-LANG", "Addressing language exception crashes", "addressing-language-exception-crashes")
    static let aMessage = apple("A-MSG", "Reading an exception message", "reading-an-exception-message")
    static let aSwift = apple(
        "A-SWIFT", "Addressing crashes from Swift runtime errors",
        "addressing-crashes-from-swift-runtime-errors")
    static let aFramework = apple("A-FW", "Addressing missing framework crashes", "addressing-missing-framework-crashes")
    static let aCommon = apple("A-COMMON", "Identifying the cause of common crashes", "identifying-the-cause-of-common-crashes")
    static let aFields = apple("A-FIELDS", "Examining the fields in a crash report", "examining-the-fields-in-a-crash-report")
    static let aJSON = apple(
        "A-JSON", "Interpreting the JSON format of a crash report",
        "interpreting-the-json-format-of-a-crash-report")
    static let aJetsam = apple(
        "A-JETSAM", "Identifying high-memory use with jetsam event reports",
        "identifying-high-memory-use-with-jetsam-event-reports")
    /// WWDC20 session 10078: jetsam, watchdog, CPU, thermal and background-task terminations.
    static let wwdcKilled = Citation(
        key: "WWDC20-10078", title: "WWDC20: Why is my app getting killed?",
        url: "https://developer.apple.com/videos/play/wwdc2020/10078/")
    static let tn2151 = Citation(
        key: "TN2151", title: "Technical Note TN2151: Understanding and Analyzing Application Crash Reports (archived)",
        url: "https://developer.apple.com/library/archive/technotes/tn2151/_index.html")

    static let xnuExceptionTypes = xnu("XNU-EXC", "osfmk/mach/exception_types.h")
    static let xnuARM = xnu("XNU-ARM", "osfmk/mach/arm/exception.h")
    static let xnuKernReturn = xnu("XNU-KR", "osfmk/mach/kern_return.h")
    static let xnuUnixException = xnu("XNU-UX", "bsd/uxkern/ux_exception.c")
    static let xnuReason = xnu("XNU-REASON", "bsd/sys/reason.h")
    static let xnuOSReason = xnu("XNU-OSREASON", "libkern/os/reason_private.h")
    static let xnuResource = xnu("XNU-RES", "osfmk/kern/exc_resource.h")
    static let xnuGuard = xnu("XNU-GUARD", "osfmk/kern/exc_guard.h")
    static let xnuGuardedFD = xnu("XNU-FDG", "bsd/sys/guarded.h")
    static let xnuPortGuards = xnu("XNU-MPG", "doc/mach_ipc/guard_exceptions.md")
    static let xnuMemorystatus = xnu("XNU-MEMSTAT", "bsd/sys/kern_memorystatus.h")
    static let xnuSignal = xnu("XNU-SIGNAL", "bsd/sys/signal.h")
    static let xnuI386 = xnu("XNU-I386", "osfmk/mach/i386/exception.h")
    static let dyld = Citation(
        key: "DYLD", title: "dyld include/mach-o/dyld_priv.h (DYLD_EXIT_REASON_*)",
        url: "https://github.com/apple-oss-distributions/dyld")
    static let swiftAssert = swift("SW-ASSERT", "stdlib/public/core/AssertCommon.swift")
    static let swiftRuntime = swift("SW-RT", "stdlib/public/runtime/Errors.cpp")
    static let swiftCasting = swift("SW-RT", "stdlib/public/runtime/Casting.cpp")
    static let swiftIRGen = swift("SW-IRGEN", "lib/IRGen/IRGenDebugInfo.cpp")
    static let swiftDictionary = swift("SW-DICT", "stdlib/public/core/NativeDictionary.swift")
    static let swiftConcurrency = swift("SW-CONC", "stdlib/public/Concurrency/ExecutorAssertions.swift")
    static let foundationExceptions = Citation(
        key: "NSEXC", title: "Foundation: NSExceptionName / Predefined exceptions",
        url: "https://developer.apple.com/documentation/foundation/nsexceptionname")
    static let libc = Citation(
        key: "LIBC", title: "Apple Libc (stack_protector.c, fortify)",
        url: "https://github.com/apple-oss-distributions/Libc")
}
