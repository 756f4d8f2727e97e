import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Line roles are decided while reading, once; they must be what classifying the whole
/// document afterwards gives, for every text layout we have (the writer relied on the latter).
@Suite struct LineRoleTests {
    static var textInputs: [URL] {
        let logs = ["macapp-sample.txt", "macapp-spindump.txt", "crashapp-cpu-usage.ips"]
            .map { TestPaths.fixtures.appendingPathComponent("logs/\($0)") }
        let corpus = Corpus.isAvailable ? Corpus.allReports.map(Corpus.url) : []
        return Corpus.fixtureReports + logs + corpus
    }

    @Test func everyTextInputIsClassifiedWhileRead() throws {
        var checked = 0
        for url in Self.textInputs {
            guard let data = try? Data(contentsOf: url),
                let reports = try? CrashReport.parseAll(data: data, path: url.path)
            else { continue }
            for report in reports {
                guard case .text(let document) = report.source else { continue }
                #expect(document.roles.count == document.lines.count, "\(url.lastPathComponent): lines not classified by the reader")
                let imageLines = Set(report.binaryImages.compactMap(\.reportLine))
                let afterwards = document.classifyingLines(imageLines: imageLines).roles
                let differing = zip(document.roles, afterwards).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(differing == nil, "\(url.lastPathComponent): line \((differing?.offset ?? 0) + 1) classified differently")
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    @Test func registerBlocksEndAtBlankLinesAndImages() {
        var tracker = LineRoleTracker(lineCount: 6)
        tracker.classify(0, "Thread 0 crashed with ARM Thread State (64-bit):")
        tracker.classify(1, "    x0: 0x0000000000000001   x1: 0x0000000000000002")
        tracker.classify(2, "")
        tracker.classify(3, "Thread 1 Crashed:")
        tracker.classify(4, "Binary Images:")
        tracker.markImageLine(5)
        #expect(tracker.roles == [.threadState(0), .threadState(0), .other, .threadHeader(1), .sectionHeader, .other])
    }
}
