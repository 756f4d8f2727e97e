import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Programs' own words for the signal that ends them and the stacks their handlers print (issue
/// 48): the words between the arrival and the signal vary by program, a handler's frames sit above
/// the signal trampoline, and an exception's reason can quote words of its own.
@Suite struct ProgramsOwnSignalWordsTests {
    /// Words between the arrival and the signal: Vim's `Caught deadly signal SEGV`
    /// (https://github.com/ycm-core/YouCompleteMe/issues/3395), Redis's `crashed by signal: 11`
    /// (https://github.com/redis/redis/issues/8291), `got fatal signal 6`.
    @Test func wordsBetweenTheArrivalAndTheSignal() {
        #expect(SignalLine.statedArrival(in: "Vim: Caught deadly signal SEGV") == "SIGSEGV")
        #expect(SignalLine.statedArrival(in: "# Redis 6.0.9 crashed by signal: 11, si_code: 2") == "SIGSEGV")
        #expect(SignalLine.statedArrival(in: "the worker got fatal signal 6") == "SIGABRT")
        // Not a signal's name after the words: nothing.
        #expect(SignalLine.statedArrival(in: "caught deadly exception in the parser") == nil)
    }

    /// Vim's line alone is a crash text: the signal is its fact.
    @Test func vimsLastWordsAreRead() throws {
        let diagnosis = try diagnoseText("Vim: Caught deadly signal SEGV\nVim: Finished.")
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("Caught deadly signal SEGV"), "\(diagnosis.said)")
    }

    /// A program's fatal-signal handler prints the stack it runs on: Emacs's
    /// `deliver_fatal_thread_signal`/`handle_sigsegv` above `_sigtramp` are not where it crashed;
    /// the first frame of its own below is. https://github.com/railwaycat/homebrew-emacsmacport/issues/206
    @Test func aFatalSignalHandlersFramesAreSkipped() throws {
        let diagnosis = try diagnoseText(
            """
            Fatal error 11: Segmentation fault
            Backtrace:
            0   Emacs                               0x000000010e3f5a66 deliver_thread_signal + 54
            1   Emacs                               0x000000010e3f4559 deliver_fatal_thread_signal + 9
            2   Emacs                               0x000000010e3f5b68 handle_sigsegv + 168
            3   libsystem_platform.dylib            0x00007fff6eb095bd _sigtramp + 29
            4   ???                                 0x0000000000000000 0x0 + 0
            5   Emacs                               0x000000010e4d6268 mac_clear_area + 88
            6   Emacs                               0x000000010e51384b -[EmacsView drawRect:] + 283
            """)
        #expect(diagnosis.said.contains("mac_clear_area"), "\(diagnosis.said)")
        #expect(!diagnosis.said.contains("deliver_thread_signal"), "\(diagnosis.said)")
    }

    /// A reason that quotes a name of its own (`relationship 'song' between objects in different
    /// contexts (source = <…> ; data: {`, continued on the next lines): the quote inside is not its
    /// end. https://github.com/BLeeEZ/amperfy/issues/6
    @Test func aQuoteInsideTheReasonIsNotItsEnd() throws {
        let line =
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Illegal attempt to establish a relationship 'song' between objects in different contexts (source = <PlaylistElement: 0x6000029b68f0> (entity: PlaylistElement; id: 0x600000aaaee0 <x-coredata:///PlaylistElement/t1> ; data: {"
        let report = try readPasted(line + "\n    order = 0;\n")
        let reason = try #require(report.facts.uncaughtException?.exception.reason)
        #expect(reason.contains("'song' between objects in different contexts"), "\(reason)")
        // The closing quote with a few words after it still closes.
        let closed = try #require(
            ConsoleLine.objcException("*** Terminating app due to uncaught exception 'X', reason: 'a 'b' c' userInfo: (null)"))
        #expect(closed.reason == "a 'b' c" && closed.complete)
    }

    /// A parent's words for a helper that died (git's `error: index-pack died of signal 11`,
    /// https://github.com/darlinghq/darling/issues/356, holdout21, measured once before this rule),
    /// and a fault's description with its address (SBCL's `Memory fault at 0x139a30090 (pc=…)`,
    /// https://github.com/rabbibotton/clog/issues/436; ksh's `Memory fault(coredump)`).
    @Test func aHelperThatDiedAndAFaultAtAnAddress() throws {
        #expect(SignalLine.statedArrival(in: "error: index-pack died of signal 11") == "SIGSEGV")
        #expect(SignalLine.statedArrival(in: "fatal: the remote helper died with signal 6") == "SIGABRT")
        let git = try diagnoseText(
            "Receiving objects: 100% (37826/37826), done.\nerror: index-pack died of signal 11\nfatal: index-pack failed")
        #expect(git.headline.hasPrefix("SIGSEGV"), "\(git.headline)")
        #expect(git.said.contains("index-pack died of signal 11"), "\(git.said)")
        let sbcl = try diagnoseText(
            """
            CORRUPTION WARNING in SBCL pid 4239 pthread 0x16b5fb000:
            Memory fault at 0x139a30090 (pc=0x1049c94dc)
            The integrity of this image is possibly compromised.
            Exiting.
            """)
        #expect(sbcl.headline.hasPrefix("SIGSEGV") && sbcl.headline.contains("0x139a30090"), "\(sbcl.headline)")
        #expect(SignalLine.signal(in: "Memory fault(coredump)") == "SIGSEGV")
        // The words inside a sentence are no description.
        #expect(SignalLine.signal(in: "Memory fault tolerance is a feature of ECC RAM") == nil)
    }
}
