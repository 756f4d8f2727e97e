import Foundation
import SymbolicateBatch
import SymbolicateTestSupport
import Testing

/// Batch groups, the summary and GitHub annotations name functions as Apple's tools do, even
/// when the reports named them with mangled Swift (sentry-cocoa's SentryCrash reports).
@Suite struct BatchNameTests {
    @Test func groupsAndAnnotationsNameDemangledFunctions() throws {
        let root = try TestPaths.temporaryDirectory("batch-names")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = TestPaths.fixtures.appendingPathComponent("thirdparty/sentry-cocoa").path
        let out = root.appendingPathComponent("out")
        var request = BatchRequest(inputs: [inputs], outputFolder: out.path, githubAnnotations: true, failOn: .never)
        request.jobs = 1
        let response = request.run()
        let summary = try #require(response.summary)
        let signatures = summary.groups.map(\.signature)
        #expect(!signatures.isEmpty)
        let mangled = /(?:\$[sSe]|_T0)[0-9]+[A-Za-z_]/
        #expect(signatures.allSatisfy { $0.firstMatch(of: mangled) == nil }, "\(signatures)")
        #expect(signatures.contains { $0.contains("ViewController.causeCrash(_:)") }, "\(signatures)")
        let annotations = try #require(response.standardOutput)
        #expect(annotations.firstMatch(of: mangled) == nil)
        let markdown = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.firstMatch(of: mangled) == nil)
    }
}
