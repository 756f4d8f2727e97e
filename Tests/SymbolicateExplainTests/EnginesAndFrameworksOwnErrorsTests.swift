import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Errors an embedded engine or a framework prints in its own format (issue 48): a JavaScript
/// engine's native errors and React's `Invariant Violation` (React Native's console levels
/// included), Dart's `Unhandled Exception:`, Metal's aborted command
/// buffers, key-value observing's change nobody handled, a WatchKit task released before it was
/// completed, launchd's word on a service that died, and Foundation's logged errors that name
/// where to break. Real public texts of holdout17 (measured once, then tuned on); their sources
/// are in `manifest.json`.
@Suite struct EnginesAndFrameworksOwnErrorsTests {
    // MARK: - Engines

    /// React Native's TurboModule registry throws an `Invariant Violation` when a native module
    /// is missing from the binary; the console tags the line `[javascript]`.
    /// https://github.com/orbital-systems/react-native-esp-idf-provisioning/issues/87
    @Test func reactsInvariantViolationIsTheStatedError() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1839-react-native-turbomodule-not-found.txt")
        let first = try #require(report.facts.statedMessages.first)
        #expect(first.family == .managedException)
        #expect(first.text.hasPrefix("Invariant Violation: TurboModuleRegistry.getEnforcing"))
        // The first error, not the warning that quotes a later TypeError.
        #expect(diagnosis.headline.contains("'EspIdfProvisioning' could not be found"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id.contains("configuration") == true, "\(String(describing: diagnosis.matched))")
    }

    @Test func javaScriptErrorNamesAndReactNativesLevels() throws {
        #expect(JavaScriptErrorLine.isError("TypeError: undefined is not an object (evaluating 'a.b')"))
        #expect(JavaScriptErrorLine.isError("ReferenceError: Can't find variable: MSAnalytics"))
        #expect(!JavaScriptErrorLine.isError("TypeError: "))
        #expect(!JavaScriptErrorLine.isError("Error: something"))
        #expect(!JavaScriptErrorLine.isError("MyTypeError: x"))
        // LogBox's ` ERROR  ` level, two blanks after it, is a prefix like `ERROR:`.
        let report = try readPasted(" ERROR  TypeError: Cannot read property 'map' of undefined, js engine: hermes\n")
        #expect(report.facts.statedMessages.first?.text.hasPrefix("TypeError: Cannot read property 'map'") == true)
        // A line that only mentions the word does not state an error.
        #expect(throws: CrashReportError.self) { try readPasted("The docs explain TypeError handling in depth.\n") }
    }

    /// Flutter logs the Dart exception the app's code let escape, with the Dart stack under it.
    /// https://github.com/flutter-moum/flutter_screenshot_callback/issues/31
    @Test func dartsUnhandledExceptionIsRead() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1813-flutter-dart-unhandled-exception.txt")
        #expect(report.facts.statedMessages.first?.family == .managedException)
        #expect(
            diagnosis.headline.contains("MissingPluginException(No implementation found for method initialize"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id.contains("configuration") == true, "\(String(describing: diagnosis.matched))")
    }

    // MARK: - Frameworks

    /// Metal logs each command buffer the GPU gave up on; the first is the hang, the rest its victims.
    /// https://github.com/brianadvent/3DObjectScanningAndDetection/issues/2
    @Test func anAbortedCommandBufferIsTheGPUsLimit() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1824-metal-gpu-hang.txt")
        #expect(report.facts.statedMessages.first?.family == .resource)
        #expect(diagnosis.category == .resourceLimit)
        #expect(diagnosis.headline.contains("Caused GPU Hang Error (IOAF code 3)"), "\(diagnosis.headline)")
        #expect(diagnosis.matched?.id.contains("Metal command buffer error") == true, "\(String(describing: diagnosis.matched))")
    }

    /// Key-value observing's reason names the change's key path on the lines after it; the
    /// throw-site table knows the rule.
    /// https://github.com/sequelpro/sequelpro/issues/2246
    @Test func aChangeNobodyHandledKeepsItsKeyPath() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1838-objc-kvo-message-not-handled.txt")
        let message = try #require(report.facts.statedMessages.first { $0.text.contains("message was received but not handled") })
        #expect(message.family == .objcException)
        #expect(message.text.contains("Key path: CustomQueryEditorTabStopWidth"), "\(message.text)")
        #expect(diagnosis.category == .uncaughtObjCException)
        #expect(diagnosis.throwSite == "foundation.kvo.change-not-handled")
    }

    /// WatchKit aborts from `-[WKRefreshBackgroundTask dealloc]`: the raising frame alone names
    /// the rule, so it is likely, not stated.
    /// https://github.com/Automattic/pocket-casts-ios/issues/1340
    @Test func aBackgroundTaskReleasedUncompletedIsNamedByItsFrame() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout17/1853-watchkit-background-task-abort.txt")
        #expect(diagnosis.throwSite == "watchkit.background-task.released-uncompleted")
        #expect(diagnosis.certainty == .likely)
        #expect(diagnosis.headline.contains("setTaskCompletedWithSnapshot"), "\(diagnosis.headline)")
    }

    /// minidump_stackwalk's frame with its source place, `MakeFriends!-[MJProperty valueForObject:]
    /// [MJProperty.m : 79 + 0x10]`: read, so the call that broke key-value coding's rule is named.
    /// https://github.com/CoderMJLee/MJExtension/issues/423
    @Test func breakpadFramesWithTheirSourcePlace() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout14/1537-objc-kvc-undefined-key.txt")
        let frame = try #require(report.crashedThread?.frames.first { $0.symbol == "-[MJProperty valueForObject:]" })
        #expect(frame.imageName == "MakeFriends")
        #expect(frame.sourceFile == "MJProperty.m" && frame.sourceLine == 79)
        #expect(diagnosis.throwSite == "foundation.kvc.undefined-key")
        #expect(
            diagnosis.causes.contains { ($0.frames ?? []).contains { $0.contains("-[MJProperty valueForObject:]") } }, "\(diagnosis.causes)"
        )
    }

    /// A tool's symbolication appended to `callStackSymbols` after an arrow: atos's answer is the
    /// frame (element-ios's crash log, https://github.com/element-hq/element-ios/issues/452).
    @Test func atosAnswersAfterAnArrowAreTheFrame() throws {
        let (report, _) = try diagnoseCrashText("holdout17/1837-objc-kvo-message-not-handled.txt")
        let frame = try #require(report.allBacktraces.flatMap(\.frames).first { $0.imageName == "Vector" })
        #expect(frame.symbol == "-[AppDelegate applicationDidEnterBackground:]")
        #expect(frame.sourceFile == "AppDelegate.m" && frame.sourceLine == 366)
        // A Swift function type's arrow is part of the name.
        let swift = try #require(
            TextReportParser.parseFrame("3   App   0x0000000100001234 closure #1 (Swift.Int) -> Swift.Bool in App.f() + 20", reportLine: 1))
        #expect(swift.symbol == "closure #1 (Swift.Int) -> Swift.Bool in App.f()")
    }

    /// launchd's line names the service; a device log is about any process, so the headline says which.
    /// https://github.com/griff/metaz/issues/243
    @Test func launchdsServiceIsNamedInTheHeadline() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1820-launchd-service-exited-signal.txt")
        #expect(report.logEvents.count == 1)
        #expect(diagnosis.headline.hasPrefix("org.maven-group.MetaZ"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("SIGSEGV"))
    }

    /// Tk's version check printed, zsh's job report of the abort, then the whole report pasted:
    /// the report's `abort() called` says nothing; the line printed before the shell's stop does.
    /// https://github.com/wpilibsuite/frc-characterization/issues/159
    @Test func aTerminalsOutputAboveAPastedReportIsTheLastOutput() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout17/1845-tk-macos-version-abort.txt")
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.facts.lastOutput.map(\.text) == ["macOS 11 or later required !"])
        #expect(diagnosis.category == .abort)
        #expect(diagnosis.headline.contains("macOS 11 or later required !"), "\(diagnosis.headline)")
    }

    /// `*** -[NSLock unlock]: … unlocked when not locked`, then `*** Break on _NSLockError() to
    /// debug.`: Foundation logged the misuse and went on. Not a crash.
    /// https://github.com/3lvis/SwiftSync/issues/278
    @Test func aLoggedErrorBeforeItsBreakHintIsNoCrash() throws {
        let url = TestPaths.fixtures.appendingPathComponent("crashtexts/holdout17/1827-near-miss.txt")
        #expect(throws: CrashReportError.self) { try CrashReport.parse(data: Data(contentsOf: url), path: url.path) }
        // The same message with no hint after it is read.
        let read = try readPasted("*** -[NSLock unlock]: lock (<NSLock: 0x7f933c134aa0> '(null)') unlocked when not locked\n")
        #expect(read.facts.statedMessages.first?.family == .objcException)
    }
}
