import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateTestSupport
import Testing

@testable import SymbolicateSymbolication

/// A deep recursion repeats a few addresses a million times (issue 54): each distinct
/// (image, address) is looked up in the debug file once, and every repeat gets the same chain.
@Suite struct RepeatedAddressTests {
    static let index: DebugFileIndex? = try? DebugFileIndex(inputs: [TestPaths.dsyms])
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path

    @Test func repeatedFramesAreLookedUpOnceAndNamedAlike() throws {
        let annotator = Annotator(index: try #require(Self.index))
        var once = try CrashReport.parse(contentsOf: Self.report)
        let crashed = try #require(once.threads.firstIndex { $0.crashed })
        var repeated = once
        // The app's frames below the top, 200 times over, after the thread's own frames.
        let appFrames = once.threads[crashed].frames.dropFirst().filter { once.image(for: $0)?.isAppOwned == true }
        try #require(!appFrames.isEmpty)
        for _ in 0..<200 { repeated.threads[crashed].frames += appFrames }

        let onceSummary = annotator.annotate(&once)
        let repeatedSummary = annotator.annotate(&repeated)
        #expect(onceSummary.addressesLookedUp > 0)
        // 200 × the app frames more, and not one lookup more.
        #expect(repeatedSummary.addressesLookedUp == onceSummary.addressesLookedUp)
        #expect(repeatedSummary.framesSymbolicated == onceSummary.framesSymbolicated + 200 * appFrames.count)
        let originals = once.threads[crashed].frames
        let byAddress = Dictionary(originals.dropFirst().map { ($0.address, $0.symbolication) }, uniquingKeysWith: { a, _ in a })
        for frame in repeated.threads[crashed].frames.dropFirst(originals.count) {
            #expect(frame.symbolication != nil)
            #expect(frame.symbolication == byAddress[frame.address] ?? nil, "frame at 0x\(String(frame.address, radix: 16))")
        }
    }
}
