import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

@testable import SymbolicateScrub

/// Real reports: the shared corpus scrubbed against goldens, and every fixture report
/// scrubbed and symbolicated to the same frames as the original.
@Suite struct ScrubCorpusTests {
    /// The shared corpus (reports and MetricKit payloads), or the reports bundled from it
    /// where it is absent (a fresh clone); each golden is named after its file.
    static let corpusFiles: [String] = {
        let shared = Corpus.reportsDirectory.deletingLastPathComponent()
        if Corpus.isAvailable {
            let metricKit = (try? FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent("metrickit").path)) ?? []
            return Corpus.allReports.map { Corpus.url($0).path }
                + metricKit.filter { $0.hasSuffix(".json") }.sorted().map { shared.appendingPathComponent("metrickit/\($0)").path }
        }
        let bundled = TestPaths.fixtures.appendingPathComponent("corpus")
        return ((try? FileManager.default.contentsOfDirectory(atPath: bundled.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            .map { bundled.appendingPathComponent($0).path }
    }()

    @Test(arguments: corpusFiles)
    func corpusGolden(path: String) throws {
        let response = ScrubRequest(files: [path]).run()
        #expect(response.status == .success, "\(response.messages.map(\.body))")
        let output = try #require(response.standardOutput)
        try Golden.check(output, against: "scrub/\(URL(fileURLWithPath: path).lastPathComponent)", what: "scrub")
    }

    /// Every report file the fixtures hold, in every layout: Apple's text and `.ips`, KSCrash,
    /// Sentry events and envelopes, MetricKit, logs, Linux backtraces, pasted text; not the second
    /// held-back crash texts (crashtexts/holdout2 to holdout29), which no tool runs on before issue 48's end.
    static let fixtureFiles: [String] = {
        let folders = [
            "reports", "corpus", "abort-paths/reports", "logs", "thirdparty", "metrickit", "panics", "pasted", "linux", "named",
            "crashtexts", "system-symbols",
        ]
        var files: [String] = []
        for folder in folders {
            let root = TestPaths.fixtures.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker
            where ["crash", "ips", "json", "envelope", "txt", "log"].contains(url.pathExtension)
                && !["manifest.json", "facts.json", "SOURCES.md"].contains(url.lastPathComponent)
                && !url.path.contains("/crashtexts/holdout2/") && !url.path.contains("/crashtexts/holdout3/")
                && !url.path.contains("/crashtexts/holdout4/") && !url.path.contains("/crashtexts/holdout5/")
                && !url.path.contains("/crashtexts/holdout6/") && !url.path.contains("/crashtexts/holdout7/")
                && !url.path.contains("/crashtexts/holdout8/") && !url.path.contains("/crashtexts/holdout9/")
                && !url.path.contains("/crashtexts/holdout10/") && !url.path.contains("/crashtexts/holdout11/")
                && !url.path.contains("/crashtexts/holdout12/") && !url.path.contains("/crashtexts/holdout13/")
                && !url.path.contains("/crashtexts/holdout14/") && !url.path.contains("/crashtexts/holdout15/")
                && !url.path.contains("/crashtexts/holdout16/") && !url.path.contains("/crashtexts/holdout17/")
                && !url.path.contains("/crashtexts/holdout18/") && !url.path.contains("/crashtexts/holdout19/")
                && !url.path.contains("/crashtexts/holdout20/") && !url.path.contains("/crashtexts/holdout21/")
                && !url.path.contains("/crashtexts/holdout22/") && !url.path.contains("/crashtexts/holdout23/")
                && !url.path.contains("/crashtexts/holdout24/") && !url.path.contains("/crashtexts/holdout25/")
                && !url.path.contains("/crashtexts/holdout26/") && !url.path.contains("/crashtexts/holdout27/")
                && !url.path.contains("/crashtexts/holdout28/") && !url.path.contains("/crashtexts/holdout29/")
            {
                files.append(url.path)
            }
        }
        return files.sorted()
    }()

    /// A source file by its name: a report that already had file paths in its frames keeps
    /// them scrubbed (`/Users/user-1/src/A.swift`), the same file and line.
    private static func fileName(_ path: String?) -> String {
        path.map { String($0.split(separator: "/").last ?? "") } ?? ""
    }

    /// The frames as symbolication leaves them: image, address, name, file and line of every
    /// frame and inlined frame, and every image's identity, load address and name.
    private static func frames(of reports: [ProcessedReport]) -> [String] {
        reports.flatMap { processed -> [String] in
            let report = processed.report
            let backtraces =
                report.threads.map { ("\($0.index)", $0.frames) } + report.asiBacktraces.map { ($0.title, $0.frames) }
                + (report.lastExceptionBacktrace.map { [($0.title, $0.frames)] } ?? [])
            let threads = backtraces.flatMap { title, frames in
                frames.map { frame in
                    let inlined = (frame.symbolication ?? []).map { "\($0.function) \(fileName($0.file)) \($0.line ?? 0)" }
                    return
                        "\(title) \(frame.imageName ?? "") \(frame.address) \(frame.symbol ?? "") \(fileName(frame.sourceFile)) \(frame.sourceLine ?? 0) \(inlined)"
                }
            }
            let images = report.binaryImages.map { "\($0.name) \($0.loadAddress) \($0.debugID?.description ?? "")" }
            return [report.format.rawValue, "\(report.kind)"] + threads + images
        }
    }

    @Test func everyFixtureReportSymbolicatesTheSameAfterScrubbing() throws {
        #expect(Self.fixtureFiles.count > 100)
        let pipeline = try ReportPipeline(debugFiles: TestPaths.dsymBundles)
        let folder = try TestPaths.temporaryDirectory("scrub-fixtures")
        defer { try? FileManager.default.removeItem(at: folder) }
        var compared = 0
        var changed = 0
        for (number, path) in Self.fixtureFiles.enumerated() {
            guard let original = try? ReportPipeline.read(.file(path)) else { continue }
            let scrubbedPath = folder.appendingPathComponent("\(number)-" + URL(fileURLWithPath: path).lastPathComponent).path
            let response = ScrubRequest(files: [path], destination: .file(scrubbedPath)).run()
            #expect(response.status == .success, "\(path): \(response.messages.map(\.body))")
            if response.tally.replacements > 0 { changed += 1 }
            let scrubbed = try ReportPipeline.read(.file(scrubbedPath))
            let before = Self.frames(of: original.map { pipeline.process($0) })
            let after = Self.frames(of: scrubbed.map { pipeline.process($0) })
            #expect(before == after, "\(path): frames differ after scrubbing")
            compared += 1
        }
        #expect(compared > 100)
        #expect(changed > 20, "scrubbing replaced something in \(changed) reports only")
    }

    @Test func scrubbedIPSAndJSONLayoutsStayValidJSON() throws {
        for path in Self.fixtureFiles + Self.corpusFiles where path.hasSuffix(".ips") || path.hasSuffix(".json") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let scrubbed = try #require(ScrubRequest.scrub(text: text, name: path).standardOutput)
            #expect(Self.jsonParts(text).count == Self.jsonParts(scrubbed).count, "\(path): a JSON part no longer parses")
        }
    }

    /// The parts of a file that parse as JSON: the whole file, or an `.ips`'s header line and body.
    private static func jsonParts(_ text: String) -> [Int] {
        let candidates: [Substring] = [Substring(text)] + (text.firstIndex(of: "\n").map { [text[..<$0], text[$0...]] } ?? [])
        return candidates.enumerated().compactMap { index, part in
            (try? JSONSerialization.jsonObject(with: Data(part.utf8), options: [.fragmentsAllowed])) == nil ? nil : index
        }
    }

    @Test func tallyPerFileAndReportJSON() throws {
        let folder = try TestPaths.temporaryDirectory("scrub-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.crash")
        let b = folder.appendingPathComponent("b.crash")
        try "Incident Identifier: 11111111-2222-4333-8444-555555555555\nPath: /Users/jane/App\n".write(
            to: a, atomically: true, encoding: .utf8)
        try "Incident Identifier: 11111111-2222-4333-8444-555555555555\n".write(to: b, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let report = folder.appendingPathComponent("report.json")
        let response = ScrubRequest(files: [a.path, b.path], destination: .folder(out.path), reportJSON: report.path).run()
        #expect(response.status == .success)
        #expect(try String(contentsOf: out.appendingPathComponent("b.crash"), encoding: .utf8) == "Incident Identifier: incident-1\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["replacements"] as? Int == 3)
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect((files[1]["kinds"] as? [[String: Any]])?.first?["values"] as? Int == 0, "b's incident is a's, already counted")
        #expect(!(try String(contentsOf: report, encoding: .utf8)).contains("jane"))
    }

    @Test func refusesToReplaceAnInputUnlessInPlace() throws {
        let folder = try TestPaths.temporaryDirectory("scrub-refuse")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.crash")
        let original = "Incident Identifier: 11111111-2222-4333-8444-555555555555\n"
        try original.write(to: a, atomically: true, encoding: .utf8)
        let refused = ScrubRequest(files: [a.path], destination: .file(a.path)).run()
        #expect(refused.status == .usage)
        #expect(try String(contentsOf: a, encoding: .utf8) == original)
        let several = ScrubRequest(files: [a.path, a.path]).run()
        #expect(several.status == .usage)
        let missing = ScrubRequest(files: [folder.appendingPathComponent("none.crash").path]).run()
        #expect(missing.status == .invalidInput)
        #expect(missing.messages.map(\.body).joined().contains("none.crash"))
        let inPlace = ScrubRequest(files: [a.path], destination: .inPlace).run()
        #expect(inPlace.status == .success)
        #expect(try String(contentsOf: a, encoding: .utf8) == "Incident Identifier: incident-1\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.crash"], "no temporary file left")
    }
}
