import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Issue 38: an Application Specific Information field of about 131,000 short lines was read
/// in linear time but slowly (each rule went over every line: about 50 s per MiB in a debug
/// build). The rules now read a bounded part of the field (`FactReading.messageLineLimit` lines of
/// at most `FactReading.messageLineLength` characters); what they read is counted here, for a
/// 1 KB field and a 1 MB one in the same run, never timed.
@Suite struct BoundedFieldTests {
    /// A report whose ASI is `bytes` bytes of short numbered lines, after a first line a rule reads.
    static func report(asiBytes bytes: Int, first: String = "abort() called") -> String {
        var lines = [first]
        var total = first.utf8.count + 1
        var number = 0
        while total < bytes {
            let line = "line \(number)"
            lines.append(line)
            total += line.utf8.count + 1
            number += 1
        }
        return RuleDiagnosisTests.report(
            exception: ["Exception Type:  EXC_CRASH (SIGABRT)"], asi: lines, frames: RuleDiagnosisTests.appFrames)
    }

    static func facts(_ text: String) throws -> CrashFacts {
        try CrashReport.parse(data: Data(text.utf8), path: "asi.crash").facts
    }

    @Test("the rules read as many ASI lines of a 1 MB field as of a 1 KB one, give or take the bound")
    func linesReadAreBounded() throws {
        let small = try Self.facts(Self.report(asiBytes: 1_000))
        let large = try Self.facts(Self.report(asiBytes: 1_000_000))
        // The 1 KB field is read whole; the 1 MB one (over 100,000 lines) only up to the bound.
        #expect(small.messageLines.count > 100)
        #expect(small.messageLines.count <= FactReading.messageLineLimit)
        #expect(large.messageLines.count == FactReading.messageLineLimit)
        let smallCharacters = small.messageLines.reduce(0) { $0 + $1.count }
        let largeCharacters = large.messageLines.reduce(0) { $0 + $1.count }
        // A thousand times the field, at most twice the text read (linear reading would be 1,000 times).
        #expect(largeCharacters <= smallCharacters * 2, "1 KB: \(smallCharacters) characters read, 1 MB: \(largeCharacters)")
        // What the rules need is at the top, and is kept.
        #expect(large.messageLines.first == "abort() called")
        #expect(large.messageLines.prefix(small.messageLines.count) == small.messageLines[...])
    }

    @Test("a 1 MB ASI field is diagnosed as its first lines are, and quotes no more lines than the bound")
    func diagnosisOfALongFieldMatchesTheShortOne() throws {
        let small = diagnose(try CrashReport.parse(data: Data(Self.report(asiBytes: 1_000).utf8), path: "short.crash"))
        let large = diagnose(try CrashReport.parse(data: Data(Self.report(asiBytes: 1_000_000).utf8), path: "long.crash"))
        #expect(large.category == small.category)
        #expect(large.headline == small.headline)
        let largeJSON = large.renderJSON()
        // No line past the bound reaches the output.
        #expect(!largeJSON.contains("line \(FactReading.messageLineLimit + 10)"))
        #expect(largeJSON.utf8.count < 200_000)
    }

    @Test("one very long ASI line is cut to the bound; the lines after it are still read")
    func longLineIsCut() throws {
        let long = String(repeating: "x", count: 1_000_000)
        let text = RuleDiagnosisTests.report(
            exception: ["Exception Type:  EXC_CRASH (SIGABRT)"], asi: [long, "abort() called"], frames: RuleDiagnosisTests.appFrames)
        let facts = try Self.facts(text)
        #expect(facts.messageLines.count == 2)
        #expect(facts.messageLines.first?.count == FactReading.messageLineLength)
        #expect(facts.messageLines.last == "abort() called")
    }

    @Test("blank lines and surrounding spaces are dropped as before, CRLF ends a line")
    func linesAreTrimmed() {
        #expect(FactReading.boundedLines(of: "  a  \n\n\r\n b\r\nc") == ["a", "b", "c"])
        #expect(FactReading.boundedLines(of: "") == [])
        #expect(FactReading.boundedLines(of: "\n\n") == [])
    }
}
