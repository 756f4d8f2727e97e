import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateTestSupport
import Testing

/// The library path `report`, `explain` and `batch` share, run in process: it must give the
/// CLI goldens byte for byte (they are tied to llvm-symbolizer by `GoldenTests`), so the
/// commands cannot drift from it.
@Suite struct PipelineTests {
    static let reportsFolder = TestPaths.fixtures.appendingPathComponent("reports")
    static let index: DebugFileIndex? = try? ReportPipeline.debugFiles([TestPaths.dsyms], searchPath: false)

    static var reports: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: reportsFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".crash") || $0.hasSuffix(".ips") }.sorted()
    }

    @Test func fixturesArePresent() throws {
        #expect(Self.reports.count >= 12)
        #expect(try #require(Self.index).entries.count > 0)
    }

    @Test(arguments: reports)
    func textOutputMatchesGolden(_ name: String) throws {
        let pipeline = ReportPipeline(debugFiles: try #require(Self.index))
        let processed = try pipeline.run(.file(Self.reportsFolder.appendingPathComponent(name).path))
        #expect(processed.count == 1)
        let first = try #require(processed.first)
        #expect(first.summary != nil)
        #expect(first.diagnosis == nil, "diagnosis runs only when asked")
        let text = try first.render(with: Presenter(format: .text, headline: true), withDiagnosis: false)
        let expected = try Golden.text("\(name).txt")
        #expect(text == expected, "pipeline output for \(name) differs from Fixtures/expected/\(name).txt")
    }

    @Test func bytesAndFileSourcesGiveTheSameReport() throws {
        let path = Self.reportsFolder.appendingPathComponent("swift-trap.ips").path
        let fromFile = try ReportPipeline.read(.file(path))
        let fromBytes = try ReportPipeline.read(.bytes(try Data(contentsOf: URL(fileURLWithPath: path)), name: path))
        #expect(fromFile.map { $0.renderedLines().joinedText() } == fromBytes.map { $0.renderedLines().joinedText() })
    }

    /// An Xcode Organizer export is read wherever a report is: each log is a report.
    @Test func crashPointBundlesGiveEveryLog() throws {
        let bundle = TestPaths.fixtures.appendingPathComponent("logs/CrashApp.xccrashpoint").path
        let reports = try ReportPipeline.read(.file(bundle))
        #expect(reports.count == 2)
        #expect(reports.allSatisfy { $0.path.hasPrefix(bundle + "/") })
    }

    /// Errors name the input as the user knows it (`reports.zip!a.ips`), never the unpacked copy.
    @Test func errorsUseTheDisplayPath() throws {
        let folder = try TestPaths.temporaryDirectory("pipeline")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("unpacked.ips")
        try Data("{\"bug_type\":\"309\"}\n{ not json".utf8).write(to: file)
        #expect {
            try ReportPipeline.read(.file(file.path, displayPath: "reports.zip!a.ips"))
        } throws: { error in
            let description = (error as? CrashReportError)?.description ?? ""
            return description.hasPrefix("reports.zip!a.ips") && !description.contains("unpacked")
        }
    }

    /// Without debug files (`explain REPORT`) nothing is symbolicated and no image is called
    /// missing; the diagnosis still runs.
    @Test func withoutDebugFilesReportsAreOnlyDiagnosed() throws {
        let path = Self.reportsFolder.appendingPathComponent("swift-trap.crash").path
        let original = try ReportPipeline.read(.file(path))
        let processed = try ReportPipeline(annotator: nil).run(.file(path), diagnose: true)
        #expect(processed.count == 1)
        #expect(processed[0].summary == nil)
        #expect(processed[0].diagnosis != nil)
        #expect(processed[0].report.renderedLines().joinedText() == original[0].renderedLines().joinedText())
    }

    @Test func debugFilesSymbolicateAppFrames() throws {
        let path = Self.reportsFolder.appendingPathComponent("swift-trap.crash").path
        let bare = try ReportPipeline(annotator: nil).run(.file(path), diagnose: true)
        let symbolicated = try ReportPipeline(debugFiles: try #require(Self.index)).run(.file(path), diagnose: true)
        let summary = try #require(symbolicated[0].summary)
        #expect(summary.appFramesSymbolicated > 0)
        #expect(bare[0].report.renderedLines().joinedText() != symbolicated[0].report.renderedLines().joinedText())
    }

    /// The initializers a user of the `SymbolicateKit` product has (debug files by path, or
    /// none) give what the package's own (an index, an annotator) give.
    @Test func publicInitializersMatchThePackageOnes() throws {
        let path = Self.reportsFolder.appendingPathComponent("swift-trap.crash").path
        let byPath = try ReportPipeline(debugFiles: [TestPaths.dsyms]).run(.file(path))
        let byIndex = try ReportPipeline(debugFiles: try #require(Self.index)).run(.file(path))
        #expect(byPath.map { $0.report.renderedLines().joinedText() } == byIndex.map { $0.report.renderedLines().joinedText() })
        #expect(byPath.first?.summary == byIndex.first?.summary)
        let bare = try ReportPipeline().run(.file(path))
        #expect(bare.first?.summary == nil)
        let missing = TestPaths.fixtures.appendingPathComponent("no-such.dSYM").path
        #expect(throws: DiscoveryError.notFound(path: missing)) { try ReportPipeline(debugFiles: [missing]) }
    }

    @Test func severalOutputsJoin() {
        #expect(ReportPipeline.join(["a\n"], asJSONArray: true) == "a\n")
        #expect(ReportPipeline.join(["{}\n", "{}\n"], asJSONArray: true) == "[\n{},\n{}\n]\n")
        #expect(ReportPipeline.join(["a\n", "b\n"], asJSONArray: false) == "a\n\nb\n")
    }
}
