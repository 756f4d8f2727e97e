import Foundation
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Text reports that parse: every corpus and fixture file whose content is text (not a JSON
/// body) and that is not truncated.
private func textReportURLs() -> [URL] {
    var urls: [URL] = []
    if Corpus.isAvailable { urls += Corpus.allReports.map(Corpus.url) }
    urls += Corpus.fixtureReports
    urls.append(Corpus.bundled("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash"))
    return urls.filter { url in
        guard let report = try? CrashReport.parse(contentsOf: url.path) else { return false }
        return report.format != .ips
    }
}

@Suite("Text round trip")
struct TextRoundTripTests {
    /// Byte-identical but for the names the report gave mangled, which are printed as Apple's
    /// tools print them: those frame lines differ from the input by that name alone.
    @Test("parse + write without changes is byte-identical", arguments: textReportURLs())
    func roundTrip(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        let report = try CrashReport.parse(data: data, path: url.path)
        var renamed: [Int: (mangled: String, demangled: String)] = [:]
        for (_, frames) in report.allBacktraces {
            for frame in frames {
                guard let line = frame.reportLine, let mangled = frame.mangledSymbol, let symbol = frame.symbol else { continue }
                renamed[line] = (mangled, symbol)
            }
        }
        guard !renamed.isEmpty else {
            #expect(Data(report.textOutput().utf8) == data, "\(url.lastPathComponent) changed on round trip")
            return
        }
        let input = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let output = report.textOutput().split(separator: "\n", omittingEmptySubsequences: false)
        try #require(input.count == output.count, "\(url.lastPathComponent): line count changed on round trip")
        for (index, (was, now)) in zip(input, output).enumerated() where was != now {
            let name = try #require(renamed[index + 1], "\(url.lastPathComponent):\(index + 1) changed: \(now)")
            #expect(now == was.replacing(name.mangled, with: name.demangled, maxReplacements: 1))
            #expect(name.demangled != name.mangled && !now.contains(name.mangled))
        }
    }

    /// The round trip must have text reports to run on even without the shared corpus: the
    /// fixture reports and the bundled corpus copies.
    @Test("the round trip covers the fixture reports and the bundled corpus copies")
    func fixturesListed() {
        let names = Set(textReportURLs().map(\.lastPathComponent))
        #expect(!Corpus.fixtureReports.isEmpty)
        #expect(names.contains("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash"))
    }
}

/// `.ips` files with a text twin rendered by Apple (SOURCES.md "pair with"/"same incident").
let ipsTwins: [(ips: String, text: String)] = [
    ("macsym__exc-breakpoint_iphone14-2_ios16-0.ips", "macsym__exc-breakpoint_text-with-json-header_iphone14-2_ios16-0.crash"),
    ("macsym__exc-breakpoint_iphone14-2_ios16-0.ips", "macsym__exc-breakpoint_text-without-json-header_iphone14-2_ios16-0.crash"),
    ("macsym__exc-breakpoint_iphone14-2_ios15-5.ips", "macsym__exc-breakpoint_unsymbolicated_iphone14-2_ios15-5.crash"),
    ("macsym__multi-target-sigill_macos12-4.ips", "macsym__multi-target-sigill_unsymbolicated_macos12-4.crash"),
    (
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips",
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash"
    ),
    ("zqqf16-sym__tcc-abort_iphone13-4_ios15-2.ips", "zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash"),
]

/// Lines of the interesting kinds, read from Apple's text with plain pattern matching
/// (independent of the parser): thread headers, frame lines, Binary Images lines.
private func appleLines(_ text: String) -> (threads: [String], frames: [String], images: [String]) {
    var threads: [String] = [], frames: [String] = [], images: [String] = []
    var inFrames = false, inImages = false
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let line = String(raw)
        if line == "Full Report" { break }  // Console appends the .ips after the translation
        if line.trimmingCharacters(in: .whitespaces).isEmpty {
            inFrames = false
            inImages = false
            continue
        }
        if line.hasPrefix("Binary Images") {
            inImages = true
            continue
        }
        if inImages {
            images.append(line)
            continue
        }
        if line.hasPrefix("Thread "), !line.contains(" crashed with "), !line.contains("instruction stream") {
            threads.append(line)
            inFrames = !line.contains(" name:")
            continue
        }
        if line == "Last Exception Backtrace:" {
            inFrames = true
            continue
        }
        if inFrames, line.first?.isNumber == true { frames.append(line) }
    }
    return (threads, frames, images)
}

private func normalized(_ s: String) -> String {
    s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
}

@Suite(".ips to text rendering", .enabled(if: Corpus.isAvailable, "corpus not found beside the package (../shared/corpus); skipped"))
struct IPSRenderingTests {
    @Test("thread headers, frames and Binary Images match Apple's text twin", arguments: ipsTwins.map { "\($0.ips) | \($0.text)" })
    func twin(_ pair: String) throws {
        let names = pair.components(separatedBy: " | ")
        let report = try CrashReport.parse(contentsOf: Corpus.url(names[0]).path)
        let twinText = try String(contentsOf: Corpus.url(names[1]), encoding: .utf8)
        let expected = appleLines(twinText)
        let rendered = report.renderedLines()
        let threads = rendered.filter {
            if case .threadHeader = $0.kind { return true }
            return false
        }.map(\.text)
        // Only lines that start a frame (a symbol with a newline continues on the next line).
        let frames = rendered.filter {
            if case .frame = $0.kind { return $0.text.first?.isNumber == true }
            return false
        }.map(\.text)
        let images = rendered.filter {
            if case .binaryImage = $0.kind { return true }
            return false
        }.map(\.text)
        #expect(threads.map(normalized) == expected.threads.map(normalized))
        #expect(frames.count == expected.frames.count)
        for (a, b) in zip(frames, expected.frames) where normalized(a) != normalized(b) {
            Issue.record("frame differs:\n  ours:  \(a)\n  apple: \(b)")
            break
        }
        #expect(images.map(normalized) == expected.images.map(normalized))
    }
}

/// Twins whose whole text is Apple's translation of the `.ips`: the rendering must match every
/// line. `dropLeading` skips what the publisher put before the report (a blank line, Console's
/// "Translated Report" banner); the comparison stops where Console appends the full `.ips`.
let exactTwins: [(ips: String, text: String, dropLeading: Int)] = [
    ("macsym__exc-breakpoint_iphone14-2_ios16-0.ips", "macsym__exc-breakpoint_text-without-json-header_iphone14-2_ios16-0.crash", 1),
    ("macsym__exc-breakpoint_iphone14-2_ios15-5.ips", "macsym__exc-breakpoint_unsymbolicated_iphone14-2_ios15-5.crash", 1),
    (
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64.ips",
        "ips2crashlog__sim-exc-breakpoint_transit_macos15-2-arm64_console-translated.crash", 4
    ),
]

@Suite(
    ".ips to text rendering, whole report",
    .enabled(if: Corpus.isAvailable, "corpus not found beside the package (../shared/corpus); skipped"))
struct IPSFullRenderingTests {
    @Test("rendering equals Apple's translation line for line", arguments: exactTwins.map { "\($0.ips) | \($0.text) | \($0.dropLeading)" })
    func exact(_ spec: String) throws {
        let parts = spec.components(separatedBy: " | ")
        let report = try CrashReport.parse(contentsOf: Corpus.url(parts[0]).path)
        var apple = try String(contentsOf: Corpus.url(parts[1]), encoding: .utf8).components(separatedBy: "\n")
        apple.removeFirst(Int(parts[2]) ?? 0)
        // Console: translated text ("…EOF\n\n"), then the "Full Report" banner.
        if let banner = apple.firstIndex(of: "Full Report") { apple = Array(apple[..<(banner - 1)]) + [""] }
        let ours = report.textOutput().components(separatedBy: "\n")
        let n = min(ours.count, apple.count)
        if let first = (0..<n).first(where: { ours[$0] != apple[$0] }) {
            Issue.record("line \(first + 1) differs:\n  ours:  \(ours[first])\n  apple: \(apple[first])")
        }
        #expect(ours.count == apple.count)
    }
}

private func ipsReportNames() -> [String] {
    guard Corpus.isAvailable else { return [] }
    // A cut `.ips` is read as far as its JSON goes (issue 40): written out it is the closed JSON, not the input.
    return Corpus.allReports.filter { name in
        let report = try? CrashReport.parse(contentsOf: Corpus.url(name).path)
        return report?.format == .ips && report?.completeness.isComplete == true
    }
}

@Suite(".ips JSON out", .enabled(if: Corpus.isAvailable, "corpus not found beside the package (../shared/corpus); skipped"))
struct IPSRoundTripTests {
    @Test("unchanged .ips written out holds the same header and body JSON (every key kept)", arguments: ipsReportNames())
    func sameJSON(_ name: String) throws {
        let path = Corpus.url(name).path
        let report = try CrashReport.parse(contentsOf: path)
        let out = try report.ipsOutput()
        let original = try String(contentsOf: Corpus.url(name), encoding: .utf8)
        let (origHeader, origBody) = try splitIPS(original)
        let (outHeader, outBody) = try splitIPS(out)
        #expect(outHeader == origHeader)
        #expect(outBody == origBody)
        // Nothing was symbolicated, so nothing may change: same layout, byte for byte.
        #expect(out == original, "\(name): --format ips of an unsymbolicated report is not the input byte for byte")
    }

    private func splitIPS(_ text: String) throws -> (JSONValue, JSONValue) {
        let parts = text.split(separator: "\n", maxSplits: 1)
        return (try JSONParser.parse(Array(parts[0].utf8)).value, try JSONParser.parse(Array(parts[1].utf8)).value)
    }
}
