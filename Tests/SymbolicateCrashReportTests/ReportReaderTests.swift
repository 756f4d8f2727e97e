import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// The reader registry: each layout goes to its own reader, in the documented order, and
/// reading through the registry gives what the reader gives alone.
@Suite struct ReportReaderTests {
    static let metricKit = """
        {"crashDiagnostics":[{"version":"1.0.0","callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,\
        "callStackRootFrames":[{"binaryUUID":"4C4C443B-5555-3144-A1E9-455154CFFD57","binaryName":"CrashApp","address":4297032604,\
        "offsetIntoBinaryTextSegment":17564,"sampleCount":1}]}]},"diagnosticMetaData":{"exceptionType":1,"signal":11,\
        "osVersion":"iPhone OS 17.0 (21A329)","platformArchitecture":"arm64"}}]}
        """
    static let callGraph = """
        Analysis of sampling Demo (pid 123) every 1 millisecond
        Call graph:
            2449 Thread_16614993   DispatchQueue_1: com.apple.main-thread  (serial)
            + 2449 start  (in dyld) + 6076  [0x18e8a7154]

        """

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/\(name)"), encoding: .utf8)
    }

    static func debugger(_ name: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent("debugger/\(name)"), encoding: .utf8)
    }

    /// The first reader of the registry that recognises `text`.
    static func chosenReader(_ text: String) -> String? {
        let document = TextDocument(text: text, hasBOM: false)
        return ReportReaders.all.first { detects($0, document) }.map { String(describing: $0) }
    }

    private static func detects<Reader: ReportReader>(_ reader: Reader.Type, _ document: TextDocument) -> Bool {
        reader.detect(document) != nil
    }

    @Test func eachLayoutGoesToItsReader() throws {
        #expect(Self.chosenReader(Self.metricKit) == "MetricKitPayloadReader")
        #expect(Self.chosenReader("[" + Self.metricKit + "]") == "MetricKitPayloadReader")
        #expect(Self.chosenReader(try Self.fixture("swift-trap.ips")) == "IPSReportReader")
        #expect(Self.chosenReader(Self.callGraph) == "CallGraphReportReader")
        #expect(Self.chosenReader(try Self.fixture("swift-trap.crash")) == "AppleTextReportReader")
        #expect(Self.chosenReader(try Self.debugger("objc-exception.console.txt")) == "XcodeConsoleReportReader")
        #expect(Self.chosenReader(try Self.debugger("objc-exception.lldb.txt")) == "LLDBReportReader")
        // Not a report at all: the text reader takes it and says what it lacks.
        #expect(Self.chosenReader("hello\n") == "AppleTextReportReader")
    }

    @Test func appleTextIsTheLastResort() {
        #expect(ReportReaders.all.last.map { String(describing: $0) } == "AppleTextReportReader")
    }

    @Test func everyReportHasItsKindJudged() throws {
        let ips = try CrashReport.parseAll(data: Data(try Self.fixture("swift-trap.ips").utf8), path: "t.ips")
        #expect(ips.count == 1 && ips[0].kind == .crash)
        let text = try CrashReport.parseAll(data: Data(try Self.fixture("swift-trap.crash").utf8), path: "t.crash")
        #expect(text.count == 1 && text[0].kind == ips[0].kind)
        let metric = try CrashReport.parseAll(data: Data(Self.metricKit.utf8), path: "p.json")
        #expect(metric.map(\.kind) == [.metricKit(.crash)])
        let sample = try CrashReport.parseAll(data: Data(Self.callGraph.utf8), path: "s.txt")
        #expect(sample.map(\.kind) == [.sample])
    }

    /// A registry without the catch-all reader reads nothing it does not recognise.
    @Test func aRegistryWithoutTheTextReaderRecognisesOnlyItsLayouts() throws {
        let document = TextDocument(text: "hello\n", hasBOM: false)
        let readers: [any ReportReader.Type] = [MetricKitPayloadReader.self, IPSReportReader.self]
        #expect(try ReportReaders.read(document, path: "h.txt", readers: readers) == nil)
        let ips = TextDocument(text: try Self.fixture("swift-trap.ips"), hasBOM: false)
        #expect(try ReportReaders.read(ips, path: "t.ips", readers: readers)?.first?.format == .ips)
    }

    @Test func documentBytesKeepTerminators() {
        let document = TextDocument(text: "a\r\nb\nc", hasBOM: false)
        #expect(document.bytes() == Array("a\r\nb\nc".utf8))
        #expect(document.bytes(from: 1) == Array("b\nc".utf8))
        #expect(document.bytes(from: 9).isEmpty)
    }
}
