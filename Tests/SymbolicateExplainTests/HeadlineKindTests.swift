import Foundation
import Testing

@testable import SymbolicateExplain

/// The headline says what the report calls the crash (issue 48: never less than the text).
@Suite struct HeadlineKindTests {
    /// A fault's verdict is led by the exception and signal as printed; a verdict that spells
    /// them itself, or quotes the crash's own words, is not led again.
    @Test func aFaultsHeadlineIsLedByItsExceptionAndSignal() throws {
        let fault = try diagnoseText(
            """
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000000

            Thread 0 Crashed:
            0   MyApp                         0x0000000100004000 0x100000000 + 16384
            """)
        #expect(fault.category == .nilDereference)
        // The kernel's words for the fault, as the report prints them, go with it.
        #expect(fault.headline.hasPrefix("EXC_BAD_ACCESS (SIGSEGV), KERN_INVALID_ADDRESS at 0x0000000000000000 — "), "\(fault.headline)")
        let killed = try diagnoseText(
            """
            Exception Type:  EXC_CRASH (SIGKILL)

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        0x00000001b3c6c84c 0x1b3c4f000 + 120908
            """)
        #expect(killed.category == .killed)
        #expect(!killed.headline.hasPrefix("EXC_CRASH"), "\(killed.headline)")
    }

    /// A reporter that puts the signal where Apple puts the Mach type (IBM MQA's
    /// `Exception Type:  SIGABRT`), and a type the rules name no fault for (`EXC_SOFTWARE`,
    /// EXC_UNIX_ABORT): the signal decides, as it does alone.
    /// https://github.com/IBM-MIL/IBM-Ready-App-for-Loyalty/issues/20 and https://github.com/Muirey03/Cr4shed/issues/68
    @Test func theSignalDecidesUnderATypeTheRulesDoNotName() throws {
        for type in ["SIGABRT", "EXC_SOFTWARE (SIGABRT)"] {
            let diagnosis = try diagnoseText(
                """
                Exception Type:  \(type)

                Thread 0 Crashed:
                0   libsystem_kernel.dylib              0x0000000196523270 0x196508000 + 111216
                1   libsystem_c.dylib                   0x000000019649ab18 0x196438000 + 404248
                """)
            #expect(![.unknown].contains(diagnosis.category), "\(type): \(diagnosis.headline)")
            #expect(diagnosis.headline.contains("SIGABRT"), "\(type): \(diagnosis.headline)")
        }
    }

    /// Frames and nothing else: where the crashed thread stopped, the app's call below the
    /// library's frame and the thread's name, never "not enough information".
    /// https://github.com/flutter/flutter/issues/141351 (the thread) and a crash service's frames.
    @Test func framesAloneSayWhereAndOnWhichThread() throws {
        let diagnosis = try diagnoseText(
            """
            Crashed: me.corsin.SCRecorder.Audio
            0  libdispatch.dylib              0x1841cec54 _dispatch_sync_wait + 604
            1  SCRecorder                     0x10898df9c -[SCRecordSession dispatchSyncOnSessionQueue:] (SCRecordSession.m:161)
            """)
        #expect(diagnosis.headline.contains("_dispatch_sync_wait"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("me.corsin.SCRecorder.Audio"), "\(diagnosis.headline)")
        #expect(
            diagnosis.headline.contains("called from SCRecorder -[SCRecordSession dispatchSyncOnSessionQueue:]"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.hasPrefix("Not enough information"), "\(diagnosis.headline)")
    }

    /// A crash service shows its reporter's exception handler as the crashed thread: the crash is
    /// the uncaught exception it was recording.
    /// https://github.com/firebase/firebase-ios-sdk/issues/10107
    @Test func aReportersExceptionHandlerThreadIsAnUncaughtException() throws {
        let diagnosis = try diagnoseText(
            """
            Crashed: com.google.firebase.crashlytics.ios.exception
            0 FirebaseCrashlytics 0x1cd90 FIRCLSProcessRecordAllThreads + 393 (FIRCLSProcess.c:393)
            1 FirebaseCrashlytics 0x15f88 FIRCLSHandler + 34 (FIRCLSHandler.m:34)
            2 FirebaseCrashlytics 0x10954 __FIRCLSExceptionRecord_block_invoke + 218 (FIRCLSException.mm:218)
            """)
        #expect(diagnosis.category == .uncaughtCppException)
        #expect(diagnosis.headline.hasPrefix("An uncaught exception"), "\(diagnosis.headline)")
        // A thread of the app's own that records nothing is no reporter's.
        let plain = try diagnoseText(
            """
            Crashed: com.example.worker
            0 MyApp 0x1cd90 Worker.run() + 393 (Worker.swift:393)
            """)
        #expect(plain.category != .uncaughtCppException)
    }

    /// Frames alone through `abort()` as the symbol table spells it (`___pthread_kill`,
    /// `_abort`): the abort, and the code that called it.
    /// https://github.com/flutter/flutter/issues/149133
    @Test func framesAloneThroughAbortNameTheCaller() throws {
        let diagnosis = try diagnoseText(
            """
            #11 Thread
            0  libsystem_kernel.dylib           ___pthread_kill + 8
            1  libsystem_pthread.dylib          _pthread_kill + 268
            2  libsystem_c.dylib                _abort + 164
            3  Flutter                          fml::LogMessage::~LogMessage()(logging.cc:100)
            """)
        #expect(diagnosis.category == .abort, "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("abort()"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("fml::LogMessage::~LogMessage()"), "\(diagnosis.headline)")
    }
}
