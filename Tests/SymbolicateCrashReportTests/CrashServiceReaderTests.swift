import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Crash services' issue text (issue 40): Crashlytics, Sentry and HockeyApp as pasted into
/// public GitHub issues (`Fixtures/pasted/`, origins in Fixtures/README.md).
@Suite struct CrashServiceReaderTests {
    static func read(_ name: String) throws -> CrashReport {
        let text = try DeviceLogReaderTests.fixture(name)
        return try DeviceLogReaderTests.read(text, path: name)
    }

    /// firebase-ios-sdk#10159: the exception's name and reason, its frames as the Last Exception
    /// Backtrace, placed in their images by the UUIDs Crashlytics printed.
    @Test func crashlyticsFatalException() throws {
        let name = "crashlytics__firebase-ios-sdk-10159_unrecognized-selector_excerpt.txt"
        #expect(ReportReaderTests.chosenReader(try DeviceLogReaderTests.fixture(name)) == "CrashServiceReportReader")
        let report = try Self.read(name)
        #expect(report.exception?.type == "EXC_CRASH" && report.exception?.signal == "SIGABRT")
        #expect(
            report.facts.uncaughtException?.exception
                == UncaughtException(
                    language: .objectiveC, name: "NSInvalidArgumentException",
                    reason:
                        "-[_UIRemoteInputViewController _alignsToContentViewController]: unrecognized selector sent to instance 0x118c1ca00"
                ))
        #expect(report.applicationSpecificInformation == nil)
        let frames = try #require(report.lastExceptionBacktrace?.frames)
        #expect(frames.map(\.index) == Array(0...7))
        #expect(frames[1].symbol == "objc_exception_throw" && frames[1].imageIndex == nil)
        #expect(report.binaryImages.map(\.name) == ["CoreFoundation", "UIKitCore"])
        #expect(
            report.binaryImages.map { $0.debugID?.description.lowercased() }
                == ["1b67e644-593a-3401-b48d-084b8d879212", "ac8cbdf0-0884-3177-b89b-40e5a83a5f96"])
        #expect(report.binaryImages.allSatisfy { $0.loadAddress == 0 && !$0.isAppOwned })
        let first = frames[0]
        #expect(first.imageIndex == 0 && first.imageOffset == 0xa248 && first.symbol == nil)
        // The frame without a UUID is kept as printed, and said so.
        #expect(report.warnings.contains { $0.message.contains("1 frame kept as printed (libobjc.A.dylib)") })
        #expect(report.threads.isEmpty && !report.completeness.isComplete)
    }

    /// atinternet-apple-sdk#69: Crashlytics repeats the crashed thread's title after the
    /// exception line; one thread, its names demangled when read.
    @Test func crashlyticsCrashedThread() throws {
        let report = try Self.read("crashlytics__atinternet-apple-sdk-69_swift-bad-access.txt")
        #expect(report.threads.count == 1)
        let thread = try #require(report.crashedThread)
        #expect(thread.queue == "com.apple.main-thread" && thread.frames.count == 3)
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000000")
        #expect(thread.frames.allSatisfy { !($0.symbol ?? "").hasPrefix("$s") && $0.mangledSymbol?.hasPrefix("$s") == true })
        #expect(thread.frames[2].symbolOffset == 132)
        #expect(report.binaryImages.isEmpty)
    }

    @Test func crashlyticsExportHeader() throws {
        let report = try Self.read("crashlytics__onesignal-ios-sdk-1409_export-header_excerpt.txt")
        #expect(report.bundleIdentifier == "com.myapp.myapp")
        #expect(report.headerFields.first { $0.key == "Issue" }?.value == "b080f49da7bb072c4a0cbf850b2189ee")
        #expect(report.threads.count == 1 && report.threads[0].queue == "com.apple.main-thread" && report.threads[0].frames.count == 4)
        #expect(
            report.threads[0].frames[1].symbol
                == "-[NSAttributedString(SPI) initSwiftUIAttributedStringWithFormat:options:locale:arguments:]")
    }

    /// sentry-cocoa#7861: Sentry's type and value, then unnumbered frames.
    @Test func sentryStackTrace() throws {
        let name = "sentry__sentry-cocoa-7861_deep-copy-bad-access_excerpt.txt"
        #expect(ReportReaderTests.chosenReader(try DeviceLogReaderTests.fixture(name)) == "CrashServiceReportReader")
        let report = try Self.read(name)
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.subtype == "KERN_MEMORY_ERROR at 0x1a5aad010")
        let thread = try #require(report.crashedThread)
        #expect(thread.frames.map(\.index) == Array(0...10))
        #expect(thread.frames[8].imageName == "Supercharge" && thread.frames[8].address == 0x1_00f9_dde8)
        #expect(thread.frames[8].symbol == "sentry_deepCopyValue")
    }

    @Test func hockeyAppSummary() throws {
        let name = "hockeyapp__provenance-1090_main-line-17.txt"
        #expect(ReportReaderTests.chosenReader(try DeviceLogReaderTests.fixture(name)) == "CrashServiceReportReader")
        let report = try Self.read(name)
        #expect(report.appVersion == "1.5 (830)" && report.bundleIdentifier == "com.provenance-emu.provenance")
        #expect(report.exception == nil)
        #expect(!report.completeness.isComplete && report.warnings.contains { $0.kind == .partialReport })
    }

    @Test func frameLines() throws {
        let located = try #require(
            CrashServiceLine.frame(
                "1  U2Client                       0x246e35c -[FIOSView insertText:] + 636 (IOSView.cpp:636)", reportLine: 3))
        #expect(located.frame.index == 1 && located.frame.imageName == "U2Client" && located.frame.address == 0x246_e35c)
        #expect(located.frame.symbol == "-[FIOSView insertText:]" && located.frame.symbolOffset == 636)
        #expect(located.frame.sourceFile == "IOSView.cpp" && located.frame.sourceLine == 636 && located.numbered)
        let missing = try #require(CrashServiceLine.frame("25 Flutter                        0x2ee570 (Missing)", reportLine: 1))
        #expect(missing.frame.symbol == nil && missing.uuid == nil)
        let inApp = try #require(CrashServiceLine.frame("  MyApp  0x100f9dde8  ViewController.load() In App", reportLine: 1))
        #expect(inApp.frame.symbol == "ViewController.load()" && !inApp.numbered)
        #expect(CrashServiceLine.frame("Crashed: com.apple.main-thread", reportLine: 1) == nil)
        #expect(CrashServiceLine.frame("not a frame 0x10 at all", reportLine: 1) == nil)
    }

    /// A text with some facts and nothing else is read, marked partial, and keeps its facts.
    @Test func factsWithoutFramesAreReadAsPartial() throws {
        let crashlytics = try DeviceLogReaderTests.read(
            "Crashed: com.apple.main-thread\nEXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x0000000000000010\n")
        #expect(crashlytics.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(crashlytics.crashedThread?.queue == "com.apple.main-thread" && crashlytics.crashedThread?.frames.isEmpty == true)
        #expect(!crashlytics.completeness.isComplete)
        let sentry = try DeviceLogReaderTests.read("EXC_BAD_ACCESS: Exception 1, Code 1, Subcode 8 > KERN_INVALID_ADDRESS at 0x8.\n")
        #expect(sentry.exception?.type == "EXC_BAD_ACCESS" && sentry.exception?.subtype == "KERN_INVALID_ADDRESS at 0x8")
        #expect(sentry.completeness.missing.contains(.noThreads))
    }

    /// Texts that only look like one: a prover's "Termination reason:", a note about watchdogs,
    /// "exceeded CPU" without a process. Refused, as before. (Crashlytics' title of an Android
    /// crash, `Fatal Exception: java.lang.NullPointerException`, is a crash text since holdout23,
    /// issue 48: read for what it says.)
    @Test(arguments: [
        "% (3820)Version: Vampire 4.5.0\n% (3820)Termination reason: Refutation\n",
        "# Watchdog\nA 0x8badf00d code means the watchdog killed the app.\n",
        "The build exceeded CPU quota on the runner.\n",
    ])
    func lookalikesAreNotRead(_ text: String) {
        #expect(ReportReaderTests.chosenReader(text) == "AppleTextReportReader")
        #expect(throws: CrashReportError.self) { _ = try CrashReport.parseAll(data: Data(text.utf8), path: "t.txt") }
    }

    /// A text with no crash fact is refused, naming the layouts tried.
    @Test func aTextWithoutAnyCrashFactIsRefused() throws {
        #expect {
            _ = try CrashReport.parseAll(data: Data("Dear team,\nthe app closes when I tap Save.\nThanks\n".utf8), path: "mail.txt")
        } throws: { error in
            guard let error = error as? CrashReportError, error.kind == .notACrashReport else { return false }
            return error.message.contains("device log lines") && error.message.contains("Crashlytics/Sentry/HockeyApp")
                && error.message.contains("Swift backtraces")
        }
    }
}

/// Batch mode finds the pasted texts in folders (issue 40).
@Suite struct PastedTextSniffingTests {
    @Test(arguments: [
        "devicelog__fcitx5-ios_keyboard-jetsam_console.log", "devicelog__ssdpmenabler-19_launchd-sigkill_excerpt.log",
        "crashlytics__firebase-ios-sdk-10159_unrecognized-selector_excerpt.txt",
        "crashlytics__atinternet-apple-sdk-69_swift-bad-access.txt",
        "sentry__sentry-cocoa-7861_deep-copy-bad-access_excerpt.txt", "hockeyapp__provenance-1090_main-line-17.txt",
        "crashlytics__onesignal-ios-sdk-1409_export-header_excerpt.txt",
    ])
    func aPastedTextLooksLikeAReport(_ name: String) {
        #expect(ReportSniffer.looksLikeReport(path: TestPaths.fixtures.appendingPathComponent("pasted/\(name)").path))
    }
}
