import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// App Store Connect's diagnostic logs (`Fixtures/app-store-connect/crashapp.diagnostic-logs.json`,
/// derived from two MetricKit fixtures by `tools/app_store_connect_forms.py`) read as the MetricKit
/// diagnostics they hold: the same frames, the same typed facts under App Store Connect's key names.
@Suite struct DiagnosticLogsReaderTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: TestPaths.fixtures.appendingPathComponent(path), encoding: .utf8)
    }

    static func frames(_ report: CrashReport) -> [[String]] {
        report.threads.map { thread in
            thread.frames.map { "\($0.imageName ?? "?") 0x\(String($0.address, radix: 16)) +\($0.imageOffset.map { String($0) } ?? "?")" }
        }
    }

    @Test func theLayoutGoesToItsReader() throws {
        let document = TextDocument(text: try Self.text("app-store-connect/crashapp.diagnostic-logs.json"), hasBOM: false)
        let reader = ReportReaders.all.first { Self.detects($0, document) }.map { String(describing: $0) }
        #expect(reader == "DiagnosticLogsReader")
        // A MetricKit payload is not taken for one, nor the other way round.
        let metricKit = TextDocument(text: try Self.text("metrickit/crashapp-hang.metrickit-diagnostic.json"), hasBOM: false)
        #expect(DiagnosticLogsReader.detect(metricKit) == nil)
        #expect(MetricKitPayloadReader.detect(document) == nil)
    }

    private static func detects<Reader: ReportReader>(_ reader: Reader.Type, _ document: TextDocument) -> Bool {
        reader.detect(document) != nil
    }

    @Test func eachLogIsTheMetricKitDiagnosticItMirrors() throws {
        let path = "app-store-connect/crashapp.diagnostic-logs.json"
        let reports = try CrashReport.parseAll(data: Data(try Self.text(path).utf8), path: "logs.json")
        #expect(reports.map(\.kind) == [.metricKit(.hang), .metricKit(.diskWriteException)])
        for (report, name) in zip(reports, ["crashapp-hang", "crashapp-disk-write-exception"]) {
            let mirror = try CrashReport.parseAll(
                data: Data(try Self.text("metrickit/\(name).metrickit-diagnostic.json").utf8), path: "\(name).json")
            #expect(mirror.count == 1)
            #expect(!Self.frames(report).flatMap { $0 }.isEmpty)
            #expect(Self.frames(report) == Self.frames(mirror[0]), "\(name)")
            #expect(report.bundleIdentifier == "com.example.CrashApp")
            #expect(report.hardwareModel == "iPhone17,1")
            #expect(report.metricKit?.appBuildVersion == "7")
            #expect(report.metricKit?.appVersion == "2.4")
            #expect(report.metricKit?.bundleIdentifier == "com.example.CrashApp")
            #expect(report.metricKit?.otherMetaData.contains { $0.key == "signatureId" } == true)
        }
        #expect(reports[1].metricKit?.writesCaused?.text == "1,073.74 MB")
    }

    @Test func logsWithoutAnyLogAreRefusedInWords() throws {
        let empty = #"{"version":"1.0","productData":[{"signatureId":"x","diagnosticLogs":[]}]}"#
        #expect(throws: CrashReportError.self) { try CrashReport.parseAll(data: Data(empty.utf8), path: "empty.json") }
        do {
            _ = try CrashReport.parseAll(data: Data(empty.utf8), path: "empty.json")
        } catch {
            #expect("\(error)".contains("empty.json"))
            #expect("\(error)".contains("diagnostic logs without any log"))
        }
    }
}
