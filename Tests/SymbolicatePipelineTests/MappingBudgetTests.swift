import Foundation
import SymbolicateCore
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// One run never maps more debug files than its budget (issue 54, finding 3): a run given more
/// debug files than the budget (66,000 stored images, 70,000 Mach-O files, here eight files
/// and a budget of three) maps at most that many at once, says once that the rest were not
/// opened, and ends as any run does, where it used to take the process past the kernel's
/// mappings and abort.
@Suite struct MappingBudgetTests {
    @Test func aRunWithMoreDebugFilesThanTheBudgetStaysWithinIt() throws {
        let folder = try TestPaths.temporaryDirectory("mapping-budget")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dwarf = TestPaths.dsyms + "/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp"
        let kit = TestPaths.dsyms + "/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit"
        for copy in 0..<4 {
            try FileManager.default.copyItem(atPath: dwarf, toPath: folder.appendingPathComponent("CrashApp-\(copy)").path)
            try FileManager.default.copyItem(atPath: kit, toPath: folder.appendingPathComponent("CrashKit-\(copy)").path)
        }
        let budget = MappingBudget(limit: 3)
        let response = MappingBudget.$current.withValue(budget) {
            ReportRequest(
                report: .file(TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path), debugFiles: [folder.path]
            ).run()
        }
        // The run ended with its output; the files past the budget were one warning.
        #expect(response.output != nil)
        let notOpened = response.messages.map { $0.text(tool: "symbolicate") }.filter { $0.contains("files are mapped at once already") }
        #expect(notOpened.count == 1, "\(response.messages)")
        #expect(notOpened.first?.contains("other debug files") == true, "\(notOpened)")
        #expect(budget.peak <= 3)
        #expect(budget.peak >= 1)
        // Every mapping is given back with the run.
        #expect(budget.inUse == 0)
    }

    @Test func theProcessBudgetLeavesHalfTheKernelsLimit() throws {
        #if os(Linux)
            let text = try String(contentsOfFile: "/proc/sys/vm/max_map_count", encoding: .utf8)
            let kernel = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(MappingBudget.process.limit == kernel / 2)
        #else
            #expect(MappingBudget.process.limit == 65_530 / 2)
        #endif
    }
}
