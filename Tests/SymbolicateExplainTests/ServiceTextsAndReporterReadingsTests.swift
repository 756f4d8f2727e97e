import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Crash services' issue texts and crash reporters' own readings, as the twenty-fourth gathering
/// showed them after its one measure (issue 48): App Center's crash group as its issue-tracker
/// integration files it (frames `symbol (file:line);image`), and KSCrash's CrashDoctor sentence in
/// the Application Specific Information of KSCrash's and Sentry's Apple-format texts. Each test
/// cites the public thread its lines come from.
@Suite struct ServiceTextsAndReporterReadingsTests {
    /// App Center's issue for a Swift app (https://github.com/charmian-ch/bug-tracker/issues/4):
    /// its stack is the crashed thread's frames, each with its place and image; the signal is the
    /// reason, shown once.
    @Test func appCenterIssueFramesWithTheirImage() throws {
        let text = """
            ### Version 3.3.4 ###

            ### Stacktrace ###

            FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> () (GameViewController.swift:60);FlappyBird

            @objc FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> () (GameViewController.swift:0);FlappyBird

            main (AppDelegate.swift:15);FlappyBird

            ### Reason ###

            SIGABRT
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 3)
        #expect(frames.first?.imageName == "FlappyBird")
        #expect(frames.first?.sourceFile == "GameViewController.swift")
        #expect(frames.first?.sourceLine == 60)
        #expect(frames.first?.symbol == "FlappyBird.GameViewController.buttonAction(sender: __ObjC.UIButton!) -> ()")
        #expect(report.appVersion == "3.3.4")
        #expect(report.facts.exception?.signal == "SIGABRT")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("GameViewController.swift:60"), "\(diagnosis.said)")
        // One line of the text is cited once, however many facts it gave.
        let cited = diagnosis.evidence.map { [$0.field, $0.quote] }
        #expect(Set(cited).count == cited.count, "\(cited)")
    }

    /// The same integration for an Android app (https://github.com/charmian-ch/bug-tracker/issues/3):
    /// managed frames have no image after the semicolon; the reason names the exception.
    @Test func appCenterIssueManagedFramesAndReason() throws {
        let text = """
            ### Version 1.2.2 ###

            ### Stacktrace ###

            com.microsoft.appcenter.crashes.Crashes.generateTestCrash (Crashes.java:223);

            com.example.testing.testingexample.MainActivity.sayHello (MainActivity.java:203);

            ### Reason ###

            com.microsoft.appcenter.crashes.model.TestCrashException
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.sourceLine) == [223, 203])
        #expect(frames.allSatisfy { $0.imageName == nil })
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("TestCrashException"), "\(diagnosis.headline)")
        // A sentence with a semicolon and a place in parentheses is no frame.
        #expect(PastedFrameGrammar.hockeyApp("See the log (Crashes.java:223); it says more", 1) == nil)
    }

    /// Sentry's Apple-format text of a macOS crash (https://github.com/getsentry/sentry-cocoa/issues/603):
    /// CrashDoctor's sentence under the Mach exception's line is the reporter's reading, typed as
    /// such, never the crash's own message, and said.
    @Test func crashDoctorSentenceInApplicationSpecificInformation() throws {
        let text = """
            OS Version: macOS 10.15.5 (19F101)
            Report Version: 104

            Exception Type: EXC_BAD_ACCESS (SIGBUS)
            Exception Codes: BUS_NOOP at 0x00000001092759d0
            Crashed Thread: 10

            Application Specific Information:
            Exception 1, Code 0, Subcode 8 >
            Attempted to dereference garbage pointer 0x1092759d0.

            Thread 10 Crashed:
            0   libobjc.A.dylib                 0xfffeb66d1829      objc_msgSend
            1   Sentry                          0x10927373b         -[SentryClient sendEvent:withScope:alwaysAttachStacktrace:]
            2   Sentry                          0x10927339a         -[SentryClient captureMessage:withScope:]
            """
        let report = try readPasted(text)
        #expect(report.facts.reporterDiagnosis?.lines == ["Attempted to dereference garbage pointer 0x1092759d0."])
        #expect(!report.facts.statedMessages.contains { $0.text.contains("dereference garbage pointer") })
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("Attempted to dereference garbage pointer 0x1092759d0."), "\(diagnosis.said)")
        #expect(!diagnosis.headline.contains("garbage pointer"), "\(diagnosis.headline)")
    }

    /// KSCrash's own Apple-format text labels the diagnosis in its extra information; the labelled
    /// line is read whatever the sentence, and the sentences the doctor writes are its only
    /// unlabelled ones (React Native's `Attempted to dereference an invalid ObjC Object` is not).
    @Test func crashDoctorLabelsAndVocabulary() {
        let labelled = ReporterDiagnosisFact.crashDoctor(in: [
            "CrashDoctor Diagnosis: Application threw exception NSGenericException: *** Collection was mutated"
        ])
        #expect(labelled?.label == "CrashDoctor Diagnosis")
        #expect(labelled?.lines == ["Application threw exception NSGenericException: *** Collection was mutated"])
        let withOrigin = ReporterDiagnosisFact.crashDoctor(in: [
            "Attempted to dereference null pointer.", "Originated at or in a subcall of -[ALAsset(TravelLists) initWithCoder:]",
        ])
        #expect(withOrigin?.lines.count == 2)
        #expect(
            ReporterDiagnosisFact.crashDoctor(in: [
                "Attempted to dereference an invalid ObjC Object or send it an unrecognized selector"
            ]) == nil)
        #expect(ReporterDiagnosisFact.crashDoctor(in: ["Originated at or in a subcall of main"]) == nil)
    }
}
