import Foundation
import SymbolicateCore
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// One entry of `Fixtures/reports/manifest.json`, the ground truth the fixture generator
/// wrote when it built each report from the binaries (independent of this parser).
struct FixtureEntry: Sendable, CustomTestStringConvertible {
    var file: String
    var format: String
    var exceptionType: String?
    var signal: String?
    var crashedThread: Int?
    var threadCount: Int?
    var binaryImageCount: Int?
    var crashedThreadFrameCount: Int?
    var appImages: [(name: String, uuid: String, loadAddress: UInt64)]
    var appFrames: [(index: Int, image: String, address: UInt64, imageOffset: UInt64)]
    var testDescription: String { file }

    static func load() -> [FixtureEntry] {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/reports/manifest.json")
        guard let data = try? Data(contentsOf: url), let list = try? JSONParser.parse(Array(data)).value.arrayValue else { return [] }
        return list.compactMap { e in
            guard let file = e["file"]?.stringValue else { return nil }
            return FixtureEntry(
                file: file, format: e["format"]?.stringValue ?? "",
                exceptionType: e["exceptionType"]?.stringValue, signal: e["signal"]?.stringValue,
                crashedThread: e["crashedThread"]?.intValue, threadCount: e["threadCount"]?.intValue,
                binaryImageCount: e["binaryImageCount"]?.intValue, crashedThreadFrameCount: e["crashedThreadFrameCount"]?.intValue,
                appImages: (e["appImages"]?.arrayValue ?? []).compactMap { i in
                    guard let n = i["name"]?.stringValue, let u = i["uuid"]?.stringValue, let a = i["loadAddress"]?.uint64Value else {
                        return nil
                    }
                    return (n, u, a)
                },
                appFrames: (e["crashedThreadAppFrames"]?.arrayValue ?? []).compactMap { f in
                    guard let i = f["frameIndex"]?.intValue, let img = f["image"]?.stringValue, let a = f["address"]?.uint64Value,
                        let o = f["imageOffset"]?.uint64Value
                    else { return nil }
                    return (i, img, a, o)
                })
        }
    }
}

@Suite(
    "Fixture reports against the generator's manifest",
    .enabled(if: !FixtureEntry.load().isEmpty, "Fixtures/reports/manifest.json not present; skipped"))
struct FixtureManifestTests {
    @Test("each fixture report parses to the manifest's facts", arguments: FixtureEntry.load())
    func manifest(_ entry: FixtureEntry) throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(entry.file).path
        let report = try CrashReport.parse(contentsOf: path)
        #expect(report.format == (entry.format == "ips" ? .ips : report.format))
        #expect(report.exception?.type == entry.exceptionType)
        #expect(report.exception?.signal == entry.signal)
        #expect(report.crashedThreadIndex == entry.crashedThread)
        if let n = entry.threadCount { #expect(report.threads.count == n) }
        if let n = entry.binaryImageCount { #expect(report.binaryImages.count == n) }
        if let n = entry.crashedThreadFrameCount { #expect(report.crashedThread?.frames.count == n) }
        for app in entry.appImages {
            let image = report.binaryImages.first { $0.debugID == DebugID(uuid: app.uuid) }
            #expect(image?.loadAddress == app.loadAddress, "\(app.name)")
            #expect(image?.isAppOwned == true, "\(app.name) should be an app image")
        }
        let frames = report.crashedThread?.frames ?? []
        for f in entry.appFrames {
            guard f.index < frames.count else {
                Issue.record("no frame \(f.index)")
                continue
            }
            let frame = frames[f.index]
            #expect(frame.address == f.address)
            #expect(frame.imageOffset == f.imageOffset)
            #expect(report.image(for: frame)?.name == f.image)
        }
    }
}
