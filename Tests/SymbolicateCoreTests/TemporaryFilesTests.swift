import SymbolicateCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct TemporaryFilesTests {
    /// Issue 26: the clean-up set each signal to "ignore" and armed a dispatch source after,
    /// losing the signals that came in between. Installed now, each signal has its handler
    /// (never "ignore"), except one the process was started with ignored, which stays so.
    @Test func signalsGetTheirHandlerAtOnce() {
        let ignoredBefore = TemporaryFiles.cleanedSignals.filter(TemporaryFiles.isIgnored)
        TemporaryFiles.installCleanup()
        let ignore = unsafeBitCast(SIG_IGN, to: Int.self), byDefault = unsafeBitCast(SIG_DFL, to: Int.self)
        for number in TemporaryFiles.cleanedSignals {
            let handler = TemporaryFiles.handler(of: number)
            if ignoredBefore.contains(number) {
                #expect(handler == ignore, "signal \(number) was ignored when the process started")
            } else {
                #expect(handler != nil && handler != ignore && handler != byDefault, "signal \(number)")
            }
        }
        #expect(!ignoredBefore.contains(SIGTERM), "nobody starts a process with SIGTERM ignored")
    }
}
