import Foundation
import SymbolicateDiscovery
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateBatch

/// Issue 54, finding 12: every zip inside a zip got its own allowance (the ratio's grace), so
/// 14 KB of nested zips unpacked to 3.6 GB and only the per-run cap stopped them. One budget
/// per top-level input now, shared by every zip inside it: counted in bytes unpacked.
@Suite struct NestedZipBudgetTests {
    /// `outer.zip` holding `count` zips (stored), each with one deflated `r.ips` of `size`
    /// zero bytes: each inner zip alone stays within the default grace (4 MiB).
    static func nestedBomb(in root: URL, count: Int, size: Int) throws -> URL {
        let inner = root.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        for number in 1...count {
            let url = inner.appendingPathComponent(String(format: "inner-%02d.zip", number))
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(with: "r.ips", type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { _, chunk in
                Data(count: chunk)
            }
        }
        let outer = root.appendingPathComponent("outer.zip")
        let archive = try Archive(url: outer, accessMode: .create)
        for number in 1...count {
            try archive.addEntry(with: String(format: "inner-%02d.zip", number), relativeTo: inner, compressionMethod: .none)
        }
        return outer
    }

    @Test func nestedZipsShareTheTopLevelBudget() throws {
        let root = try TestPaths.temporaryDirectory("batch-nested-zip")
        defer { try? FileManager.default.removeItem(at: root) }
        let count = 12
        let size = 4_000_000
        #expect(UInt64(size) + 2 * ZipExtractor.inodeCost < ZipExtractor.defaultRatioGrace, "each inner zip alone is within the grace")
        let outer = try Self.nestedBomb(in: root, count: count, size: size)
        let outerSize = try #require(try FileManager.default.attributesOfItem(atPath: outer.path)[.size] as? Int)
        #expect(outerSize < 100_000)

        let inputs = ReportInputSet(inputs: [outer.path])
        defer { inputs.removeTemporaryFiles() }
        // Refused once everything unpacked from the one top-level zip passes its allowance,
        // naming the inner zip and its entry.
        let refusals = inputs.problems.filter { $0.message.contains("zip bomb") }
        #expect(!refusals.isEmpty, "\(inputs.problems)")
        #expect(
            refusals.allSatisfy { $0.input.hasPrefix("\(outer.path)!inner-") && $0.input.hasSuffix(".zip!r.ips") },
            "\(refusals.map(\.input))")
        // Bytes, not time: what came out is bounded by the top-level zip's allowance
        // (100 times its size, at least the grace), not by the number of inner zips.
        let allowance = max(ZipExtractor.defaultRatioGrace, 100 * UInt64(outerSize))
        let unpacked = inputs.reports.reduce(UInt64(0)) { total, report in
            total + ((try? FileManager.default.attributesOfItem(atPath: report.path)[.size] as? UInt64) ?? 0)
        }
        #expect(unpacked <= allowance, "\(unpacked) bytes unpacked")
        #expect(inputs.reports.count < count)
    }
}
