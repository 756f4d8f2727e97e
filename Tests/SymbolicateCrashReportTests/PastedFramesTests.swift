import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Issue 54, finding 1: frame lines copied from the middle of a thread (into a chat or an
/// issue) without their `Thread 0 Crashed:` line were refused as "not a crash report". They are
/// one thread of a partial report, in every frame syntax Apple's text reports print.
@Suite struct PastedFramesTests {
    /// Frames 0–14 of the crashed thread of `Fixtures/reports/swift-trap.crash`, without its title.
    static func pastedFrames() throws -> String {
        let text = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let title = try #require(lines.firstIndex { $0.hasPrefix("Thread 0 Crashed:") })
        return lines[(title + 1)...(title + 15)].joined(separator: "\n") + "\n"
    }

    static func parse(_ text: String) throws -> CrashReport {
        try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
    }

    /// Every frame layout of Apple's text reports: the image-base form, a symbol with and
    /// without `+ offset`, with a file and line, `[inlined]`; tabs or spaces between columns.
    static let layouts: [(name: String, lines: [String])] = [
        ("image base", ["0   CrashApp                      \t       0x1002c8410 0x1002c4000 + 17424"]),
        ("symbol + offset", ["3   CrashApp   0x1002c83a0 ViewController.viewDidLoad() + 48"]),
        ("symbol alone", ["7   UIKitCore\t0x1ab4b0984 -[UIViewController loadViewIfRequired]"]),
        ("symbol, file and line", ["4\tCrashApp\t0x1002c849c Profile.load() + 12 (Profile.swift:28)"]),
        (
            "inlined chain",
            [
                "0   CrashApp    0x1002c8410 Swift runtime failure: Unexpectedly found nil + 0 (<compiler-generated>:0) [inlined]",
                "0   CrashApp    0x1002c8410 Profile.load() + 16 (Profile.swift:28)",
            ]
        ),
    ]

    @Test(arguments: layouts.map(\.name))
    func pastedFramesAreOneThreadOfAPartialReport(layout: String) throws {
        let lines = try #require(Self.layouts.first { $0.name == layout }).lines
        let report = try Self.parse(lines.joined(separator: "\n") + "\n")
        #expect(report.threads.count == 1)
        #expect(report.threads.first?.frames.count == lines.count)
        #expect(report.completeness.missing.first == .framesWithoutThreadHeader)
        #expect(report.pastedThread?.frames.count == lines.count)
        // The pasted frames are what the reader asks about; they are not said to be the main thread.
        #expect(report.crashedThread?.frames.count == lines.count)
        #expect(report.mainThread == nil)
        #expect(report.threads.first?.crashed == false)
        let partial = report.warnings.filter { $0.kind == .partialReport }
        #expect(partial.count == 1)
        #expect(partial.first?.message.contains("frames pasted without their thread's title line") == true)
    }

    @Test func fifteenFramesFromTheMiddleOfAThreadAreRead() throws {
        let report = try Self.parse(try Self.pastedFrames())
        let frames = try #require(report.pastedThread?.frames)
        #expect(frames.count == 15)
        #expect(frames.map(\.index) == Array(0..<15))
        // The image-base form places the app's frames: its images are taken from them.
        #expect(report.binaryImages.contains { $0.name == "CrashApp" && $0.isInferredFromFrames })
        #expect(report.completeness.missing == [.framesWithoutThreadHeader, .noBinaryImages])
    }

    /// With the title the frames belong to a numbered, crashed thread, as before.
    @Test func theSameFramesWithTheirTitleAreNotPasted() throws {
        let report = try Self.parse("Thread 0 Crashed:\n" + (try Self.pastedFrames()))
        #expect(report.pastedThread == nil)
        #expect(report.crashedThread?.index == 0)
        #expect(report.crashedThread?.crashed == true)
    }

    /// A text with no frame and no crash fact is still refused, in one line naming the file and
    /// what was looked for, and at most one hint line.
    @Test func aTextWithNoFrameIsRefusedBriefly() throws {
        do {
            _ = try CrashReport.parse(
                data: Data("Steps: open the app, tap Save.\nExpected: saved. Actual: the app closes.\n".utf8), path: "pasted.txt")
            Issue.record("read as a report")
        } catch {
            #expect(error.kind == .notACrashReport)
            let lines = error.description.split(separator: "\n")
            #expect(lines.count <= 2, "\(error.description)")
            #expect(lines.first?.hasPrefix("pasted.txt: not a crash report: no frame line and no crash fact") == true)
            #expect(lines.allSatisfy { $0.count <= 200 }, "\(error.description)")
        }
    }

    /// A text's readings keep what the readers asked of each line (issue 47's fuzz-target time):
    /// a frame read once is given again with the asking line's number, and the edge blanks of the
    /// line do not make it another line.
    @Test func aFrameIsReadOncePerText() throws {
        let document = TextDocument(text: "/usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e]\n", hasBOM: false)
        let first = try #require(document.readings.frame("/usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e]", reportLine: 1))
        let again = try #require(document.readings.frame("  /usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e] ", reportLine: 7))
        #expect(first.frame.reportLine == 1)
        #expect(again.frame.reportLine == 7)
        #expect(again.frame.symbol == first.frame.symbol)
        #expect(document.readings.frame("not a frame at all", reportLine: 2) == nil)
    }
}
