import Foundation
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateTestSupport
import Testing

/// The text, Markdown and JSON of `swift-trap.crash` with the lines of a checkout made in the
/// test (`FixtureSources.history`: fixed authors and dates, so the hashes are the same on
/// every run). The checkout's temporary path is written `<checkout>` in the goldens, the
/// fixtures' folder `Fixtures`.
@Suite("Source context goldens")
struct SourceContextGoldenTests {
    @Test(arguments: [(OutputFormat.text, "txt"), (.markdown, "md"), (.json, "json")])
    func golden(format: OutputFormat, ext: String) throws {
        let (checkout, _) = try FixtureSources.history("golden-\(ext)")
        defer { checkout.remove() }
        var request = ReportRequest(
            report: .file(SourceContextTests.report), debugFiles: [TestPaths.dsyms], searchesNearReport: false, format: format)
        request.sourceContext = try SourceContextProvider(options: SourceContextOptions(root: checkout.path))
        let response = request.run()
        let output = try #require(response.standardOutput)
        // Neither the checkout's temporary path nor the clone's own (the JSON names the report and dSYMs).
        let shown = output.replacingOccurrences(of: checkout.path, with: "<checkout>")
            .replacingOccurrences(of: TestPaths.fixtures.path, with: "Fixtures")
        try Golden.check(shown, against: "source-context/swift-trap.crash.\(ext)", what: "--source-root --format \(format.rawValue)")
    }

    @Test("explain's open-the-line step shows the line itself, in English and Japanese")
    func explainStep() throws {
        let (checkout, _) = try FixtureSources.history("explain")
        defer { checkout.remove() }
        for (language, word) in [(Language.english, "the line reads: return value!"), (.japanese, "その行: return value!")] {
            var request = ExplainRequest(
                subject: .report(.file(SourceContextTests.report), debugFiles: [TestPaths.dsyms]), language: language)
            request.sourceContext = try SourceContextProvider(options: SourceContextOptions(root: checkout.path))
            let output = try #require(request.run().standardOutput)
            #expect(output.contains(word), "\(language): \(output)")
            let plain = ExplainRequest(
                subject: .report(.file(SourceContextTests.report), debugFiles: [TestPaths.dsyms]), language: language)
            #expect(try #require(plain.run().standardOutput).contains(word) == false)
        }
    }
}
