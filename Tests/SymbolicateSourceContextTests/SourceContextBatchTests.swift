import Foundation
import SymbolicateBatch
import SymbolicateSourceContext
import SymbolicateTestSupport
import Testing

/// Batch mode: the lines once per crash group, and one blame per distinct line however many
/// reports of the group there are.
@Suite("Source context in batch mode")
struct SourceContextBatchTests {
    @Test func oncePerGroup() throws {
        let (checkout, _) = try FixtureSources.history("batch")
        defer { checkout.remove() }
        let work = try TestPaths.temporaryDirectory("source-batch")
        defer { try? FileManager.default.removeItem(at: work) }
        // Eight copies of one crash (text and .ips): one group.
        let inputs = work.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for n in 0..<4 {
            for ext in ["crash", "ips"] {
                try FileManager.default.copyItem(
                    at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.\(ext)"),
                    to: inputs.appendingPathComponent("swift-trap-\(n).\(ext)"))
            }
        }
        let provider = try SourceContextProvider(options: SourceContextOptions(root: checkout.path))
        var request = BatchRequest(
            inputs: [inputs.path], debugFiles: [TestPaths.dsyms], outputFolder: work.appendingPathComponent("out").path, jobs: 4,
            githubAnnotations: true, sourceRoot: checkout.path)
        request.sourceContext = provider
        let response = request.run()
        let summary = try #require(response.summary)
        #expect(summary.groups.count == 1)
        let context = try #require(summary.groups.first?.sourceContext)
        #expect(context.frames.first?.lines.first { $0.marked }?.text == "        return value!")
        #expect(summary.reports.allSatisfy { $0.sourceContext == nil })
        // One blame and one reverse blame per distinct line of the group's frames.
        let lines = Set(context.frames.filter { !$0.lines.isEmpty }.map { "\($0.path ?? ""):\($0.line)" })
        #expect(!lines.isEmpty)
        #expect(provider.counter.count("blame") == 2 * lines.count)
        let markdown = try String(contentsOf: work.appendingPathComponent("out/summary.md"), encoding: .utf8)
        #expect(markdown.contains("### Source lines"))
        #expect(markdown.components(separatedBy: "> 28 |").count == 2)
        let annotations = try #require(response.standardOutput)
        #expect(annotations.contains("file=CrashApp/Profile.swift,line=28"))
        #expect(annotations.contains("> 28 | return value!"))
        #expect(annotations.contains("https://github.com/example/CrashApp/blob/"))
    }
}
