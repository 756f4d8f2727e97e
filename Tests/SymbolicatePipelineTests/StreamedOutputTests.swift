import Foundation
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

/// Issue 54: Apple's text goes to standard output or a file as it is rendered, so a report of a
/// million frames is never held as one string besides its model. What comes out is what the
/// whole-string path gives, byte for byte, with the messages before the report's text.
@Suite struct StreamedOutputTests {
    /// Collects what a sink is handed, in order, as `M:` (messages) and `T:` (text) pieces.
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var pieces: [String] = []
        func add(_ piece: String) {
            lock.lock()
            pieces.append(piece)
            lock.unlock()
        }
        var text: String { pieces.filter { $0.hasPrefix("T:") }.map { String($0.dropFirst(2)) }.joined() }
    }

    static func sink(_ collector: Collector, failing: Bool = false) -> StandardOutputSink {
        StandardOutputSink(
            messages: { messages in collector.add("M:" + messages.map { $0.text(tool: "t") }.joined()) },
            text: { text in
                if failing { throw CocoaError(.fileWriteNoPermission) }
                collector.add("T:" + text)
            })
    }

    @Test(arguments: ["swift-trap.crash", "swift-trap.ips", "objc-exception.ips", "watchdog.crash"])
    func theStreamIsTheWholeOutput(_ name: String) throws {
        let path = TestPaths.fixtures.appendingPathComponent("reports/\(name)").path
        let whole = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms], explain: true, headline: true).run()
        var request = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms], explain: true, headline: true)
        let collector = Collector()
        request.standardOutputSink = Self.sink(collector)
        let streamed = request.run()
        #expect(streamed.status == whole.status)
        #expect(streamed.standardOutput == nil)
        #expect(collector.text == (try #require(whole.standardOutput)))
        // The messages said before the text are the whole run's first ones, not said again.
        let said = collector.pieces.first { $0.hasPrefix("M:") }.map { String($0.dropFirst(2)) } ?? ""
        #expect(said + streamed.messages.map { $0.text(tool: "t") }.joined() == whole.messages.map { $0.text(tool: "t") }.joined())
        #expect(collector.pieces.first?.hasPrefix("M:") == true)
    }

    @Test func aFileGetsTheSameBytesWrittenInPieces() throws {
        let folder = try TestPaths.temporaryDirectory("streamed-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path
        let output = folder.appendingPathComponent("out.txt").path
        let whole = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms]).run()
        let toFile = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms], destination: .file(output)).run()
        #expect(toFile.status == .success)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == (try #require(whole.standardOutput)))
        // Nothing but the output is left in the folder (the temporary file was renamed).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.txt"])
    }

    @Test func aSinkThatCannotWriteEndsTheRunAsCannotWrite() throws {
        let path = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        var request = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms])
        request.standardOutputSink = Self.sink(Collector(), failing: true)
        let response = request.run()
        #expect(response.status == .cannotWrite)
    }

    /// Several reports in one input (an Xcode Organizer export) are separated by a blank line,
    /// as the whole-string path joins them.
    @Test func severalReportsAreJoinedAsBefore() throws {
        let path = TestPaths.fixtures.appendingPathComponent("logs/CrashApp.xccrashpoint").path
        let whole = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms]).run()
        #expect(whole.reports.count > 1)
        var request = ReportRequest(report: .file(path), debugFiles: [TestPaths.dsyms])
        let collector = Collector()
        request.standardOutputSink = Self.sink(collector)
        _ = request.run()
        #expect(collector.text == (try #require(whole.standardOutput)))
    }
}
