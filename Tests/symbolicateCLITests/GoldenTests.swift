import Foundation
import SymbolicateTestSupport
import Testing

/// Whole-output golden tests: the real binary symbolicates every fixture report against the
/// fixture dSYMs and must reproduce `Fixtures/expected/` byte for byte.
///
/// The expected files were written by this tool (`SYMBOLICATE_UPDATE_GOLDEN=1 swift test
/// --filter GoldenTests`) and are held to the oracle by `goldenFramesAgreeWithOracle`: every
/// app frame that llvm-symbolizer resolved (Fixtures/reports/manifest.json) must appear in
/// the golden text with the same function and file:line.
@Suite(.tags(.launchesBinary)) struct GoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var report: String
        var arguments: [String]
        var expected: String
        var status: Int32 = 0
        var testDescription: String { expected }
    }

    static let reportsFolder = TestPaths.fixtures.appendingPathComponent("reports")

    static var reports: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: reportsFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".crash") || $0.hasSuffix(".ips") }.sorted()
    }

    static var cases: [Case] {
        var cases: [Case] = []
        for name in reports {
            let path = "Fixtures/reports/\(name)"
            cases.append(
                Case(report: name, arguments: [path, "Fixtures/dsyms", "--color", "never", "--headline"], expected: "\(name).txt"))
            if name.hasSuffix(".ips") {
                cases.append(
                    Case(report: name, arguments: [path, "Fixtures/dsyms", "--format", "ips"], expected: "\(name).symbolicated.ips"))
            }
        }
        cases.append(
            Case(
                report: "swift-trap.crash", arguments: ["Fixtures/reports/swift-trap.crash", "Fixtures/dsyms", "--format", "markdown"],
                expected: "swift-trap.crash.md"))
        cases.append(
            Case(
                report: "objc-exception.ips", arguments: ["Fixtures/reports/objc-exception.ips", "Fixtures/dsyms", "--format", "json"],
                expected: "objc-exception.ips.json"))
        cases.append(
            Case(
                report: "watchdog.crash",
                arguments: ["Fixtures/reports/watchdog.crash", "Fixtures/dsyms", "--crashed-only", "--color", "never", "--headline"],
                expected: "watchdog.crash.crashed-only.txt"))
        cases.append(
            Case(
                report: "null-deref.ips",
                arguments: ["Fixtures/reports/null-deref.ips", "Fixtures/dsyms", "--crashed-only", "--color", "always", "--headline"],
                expected: "null-deref.ips.crashed-only.ansi"))
        return cases
    }

    @Test(arguments: cases)
    func outputMatchesGolden(_ testCase: Case) throws {
        let result = try CLI.run(testCase.arguments, currentDirectory: TestPaths.packageRoot)
        #expect(result.status == testCase.status, "\(testCase.arguments): \(result.stderr)")
        try Golden.check(
            result.stdout, against: testCase.expected, what: "output of `symbolicate \(testCase.arguments.joined(separator: " "))`")
    }

    struct ManifestFrame: Decodable {
        var frameIndex: Int
        var address: String
        var expected: [Level]?
        struct Level: Decodable {
            var function: String
            var file: String?
            var line: Int?
        }
    }
    struct ManifestReport: Decodable {
        var file: String
        var crashedThreadAppFrames: [ManifestFrame]
    }

    /// Ties the golden files to the oracle rather than to our own earlier output.
    @Test func goldenFramesAgreeWithOracle() throws {
        let data = try Data(contentsOf: Self.reportsFolder.appendingPathComponent("manifest.json"))
        let manifest = try JSONDecoder().decode([ManifestReport].self, from: data)
        #expect(!manifest.isEmpty)
        for report in manifest {
            let name = URL(fileURLWithPath: report.file).lastPathComponent
            let golden = try Golden.text("\(name).txt")
            let lines = golden.split(separator: "\n", omittingEmptySubsequences: false)
            for frame in report.crashedThreadAppFrames {
                guard let levels = frame.expected else { continue }
                let address = "0x" + frame.address.dropFirst(2).lowercased()
                let frameLines = lines.filter { $0.contains("\t       \(address) ") }
                for level in levels {
                    let file = level.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
                    let location = level.line.map { "(\(file):\($0))" } ?? ""
                    #expect(
                        frameLines.contains { $0.contains(" \(level.function) + ") && $0.contains(location) },
                        "\(name): no golden line for \(address) \(level.function) \(location)")
                }
            }
        }
    }
}
