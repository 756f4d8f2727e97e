import Foundation
import SymbolicateTestSupport
import Testing

/// Cut, pasted and non-report inputs through the real binary: a readable partial report is
/// symbolicated as far as it goes with warnings and exit 0; a file that is no report at all
/// exits 65 saying what it looks like.
@Suite(.tags(.launchesBinary)) struct PartialReportTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("partial-cli-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The report's lines up to the end of the crashed thread's backtrace, and its number.
    static func cutAfterCrashedThread(_ text: String) -> (text: String, thread: Int)? {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix(" Crashed:") }),
            let number = Int(lines[start].dropFirst(7).prefix(while: \.isNumber))
        else { return nil }
        let end = lines[start...].firstIndex(where: { $0.isEmpty }) ?? lines.count
        return (lines[..<end].joined(separator: "\n") + "\n", number)
    }

    /// Frame lines of the crashed thread in text output, `[unverified]` markers removed.
    static func crashedThreadFrames(_ output: String) -> [String] {
        let lines = output.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix(" Crashed:") }) else { return [] }
        return lines[(start + 1)...].prefix(while: { !$0.isEmpty }).map { $0.replacingOccurrences(of: " [unverified]", with: "") }
    }

    /// Text fixtures whose app images match a fixture dSYM (uuid-mismatch matches none by design).
    static let reports = [
        "swift-trap.crash", "null-deref.crash", "objc-exception.crash", "watchdog.crash",
        "swift-index-dwarf4.crash", "macapp-x86_64.crash",
    ]

    @Test("a report cut right after its crashed thread symbolicates that thread's frames exactly as the full report", arguments: reports)
    func cutReportMatchesFullReport(_ name: String) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/\(name)"), encoding: .utf8)
        let cut = try #require(Self.cutAfterCrashedThread(full))
        let cutFile = folder.appendingPathComponent(name)
        try Data(cut.text.utf8).write(to: cutFile)

        let whole = try CLI.run(
            ["Fixtures/reports/\(name)", "Fixtures/dsyms", "--color", "never"], currentDirectory: TestPaths.packageRoot)
        let partial = try CLI.run([cutFile.path, "Fixtures/dsyms", "--color", "never"], currentDirectory: TestPaths.packageRoot)
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(partial.stderr.contains("warning: partial report: report ends inside Thread \(cut.thread); no Binary Images section"))
        #expect(partial.stderr.contains("by name only"))
        let expected = Self.crashedThreadFrames(whole.stdout)
        #expect(!expected.isEmpty)
        #expect(Self.crashedThreadFrames(partial.stdout) == expected)
        // Every rewritten line of a name-only match says so.
        let rewritten = partial.stdout.components(separatedBy: "\n").filter {
            $0.contains(" (") && $0.contains(".") && $0.contains("[unverified]")
        }
        #expect(!rewritten.isEmpty)
    }

    @Test("name-only matches are marked unverified in JSON and Markdown too")
    func unverifiedInEveryFormat() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash"), encoding: .utf8)
        let cutFile = folder.appendingPathComponent("cut.crash")
        try Data(try #require(Self.cutAfterCrashedThread(full)).text.utf8).write(to: cutFile)
        let json = try CLI.run([cutFile.path, "Fixtures/dsyms", "--format", "json"], currentDirectory: TestPaths.packageRoot)
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let report = try #require(object["report"] as? [String: Any])
        let completeness = try #require(report["completeness"] as? [String: Any])
        #expect(completeness["complete"] as? Bool == false)
        let threads = try #require(report["threads"] as? [[String: Any]])
        let levels = (threads.first?["frames"] as? [[String: Any]] ?? []).compactMap { $0["symbolication"] as? [[String: Any]] }.flatMap {
            $0
        }
        #expect(!levels.isEmpty)
        #expect(levels.allSatisfy { $0["unverified"] as? Bool == true })
        let markdown = try CLI.run([cutFile.path, "Fixtures/dsyms", "--format", "markdown"], currentDirectory: TestPaths.packageRoot)
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("[unverified]"))
    }

    @Test(
        "files that are not reports exit 65 and say what they look like",
        arguments: [
            (
                "Package.swift",
                Data("// swift-tools-version: 6.0\nimport PackageDescription\n\nlet package = Package(name: \"x\")\n".utf8),
                "Swift package manifest"
            ),
            ("screenshot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), "PNG image"),
            ("empty.crash", Data(), "empty"),
        ])
    func notAReport(_ name: String, _ bytes: Data, _ what: String) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try bytes.write(to: file)
        for arguments in [[file.path], ["explain", file.path]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr.contains(file.path))
            #expect(result.stderr.contains(what), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
