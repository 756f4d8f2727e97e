import SymbolicateCore

/// What a cause or a step of the catalogs addresses, needs from a report or claims about it.
/// `Relevance` keeps or drops texts by these tags, never by their words; the tags are written
/// beside each text in the catalogs' data files (`Catalogs/*.json`).
package enum ExplainTag: String, CaseIterable, Sendable {
    // MARK: The platform or architecture a text addresses (kept only for reports from it)

    /// Intel processes: x86_64, Catalyst or the simulator on an Intel Mac.
    case intel
    /// Native ARM processes (not x86_64 code translated by Rosetta).
    case nativeARM
    /// arm64e processes (pointer authentication).
    case arm64e
    /// Advice through Apple's tools (dSYMs, Xcode, Instruments, Zombies, the Organizer): not for Linux.
    case appleTools
    case iOS
    case macOS
    case watchOS
    case tvOS
    case visionOS

    // MARK: General knowledge-base advice a report settles by itself

    /// Names frames by number ("frames 0/1"): the diagnosis names the frame itself.
    case namesFrameByNumber
    /// Points at another entry ("See EXC_BAD_ACCESS").
    case pointsToAnotherEntry
    /// Says to read the fault address: the diagnosis has read it, or the report has none.
    case readsFaultAddress
    /// Says to look up a code: the diagnosis has looked it up.
    case looksUpCode

    // MARK: What a step reads from the report (kept only when the report has it)

    case needsFaultAddress
    /// The program counter beside the fault address.
    case needsProgramCounter
    /// The fault address with pointer-authentication bits stripped.
    case needsStrippedAddress
    case needsVMRegionInfo
    case needsApplicationSpecificInformation
    case needsExceptionBacktrace
    case needsExceptionMessage
    case needsTerminationReason
    /// A watchdog report's elapsed application CPU time, not quoted yet.
    case needsWatchdogCPUTime
    /// The main thread's backtrace, not quoted yet.
    case needsMainThreadBacktrace
    case needsCrashedThread
    /// An exception name the report states.
    case needsExceptionName
    /// An Objective-C runtime function (`objc_msgSend`, `objc_release`…) at the top of the crashed thread.
    case needsObjCRuntimeTopFrame
    case needsUnrecognizedSelector
    /// Frames still to symbolicate.
    case needsSymbolication

    // MARK: What a cause claims (dropped when the evidence rules it out)

    case claimsNil
    case claimsStackOverflow
    case claimsAbort
    case claimsExceptionBacktrace
    case claimsLibcxxabiMessage
    case claimsNonSignalTermination

    // MARK: What a headline already says

    /// A verdict sentence that names the crash itself: it spells the exception or signal
    /// (`(SIGABRT)`, `{signal}`), or quotes the crash's own words (a stated message, a runtime
    /// error, a Rust panic). The report's name for the exception is not put in front of it.
    case namesTheCrash

    // MARK: The idea a text names: two texts naming the same idea say the same thing

    case topicDangling
    case topicNil
    case topicBounds
    case topicStack
    case topicCorruption
    case topicSanitizer
    case topicFaultAddress
    case topicAsi
    case topicExceptionBacktrace
    case topicSymbolicate
    case topicOffMain
    case topicBusyMainThread
    case topicBlockedMainThread
    case topicAppFrame

    /// The topics, the ideas `Relevance.distinct` keeps one text for.
    static let topics: Set<ExplainTag> = [
        .topicDangling, .topicNil, .topicBounds, .topicStack, .topicCorruption, .topicSanitizer, .topicFaultAddress,
        .topicAsi, .topicExceptionBacktrace, .topicSymbolicate, .topicOffMain, .topicBusyMainThread,
        .topicBlockedMainThread, .topicAppFrame,
    ]

    /// The operating systems a text can address.
    static let platforms: [(tag: ExplainTag, platform: OperatingSystem.Platform)] = [
        (.iOS, .iOS), (.macOS, .macOS), (.watchOS, .watchOS), (.tvOS, .tvOS), (.visionOS, .visionOS),
    ]
}
