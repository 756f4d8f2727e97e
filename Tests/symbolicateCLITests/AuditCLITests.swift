import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate audit` end to end, with the real binary on the fixture archive
/// (Fixtures/audit/generate.sh).
@Suite(.tags(.launchesBinary)) struct AuditCLITests {
    static let root = TestPaths.fixtures.appendingPathComponent("audit")
    static let archive = root.appendingPathComponent("Shop.xcarchive").path
    static let ipa = root.appendingPathComponent("Shop.ipa").path
    static let dSYMs = root.appendingPathComponent("Shop.xcarchive/dSYMs").path

    @Test func theTableShowsEveryCaseAndTheRunFailsUnderRequireAll() throws {
        let result = try CLI.run(["audit", Self.archive])
        #expect(result.status == 1, "\(result.stderr)")
        for word in ["ok", "other build", "names only", "missing", "ok (renamed)", "hidden names", "Apple's"] {
            #expect(result.stdout.contains("  \(word)  "), "no \(word) in:\n\(result.stdout)")
        }
        #expect(result.stderr.contains("symbolicate: error: 9 slices of 8 binaries, 5 complete; 4 required by --require all"))
    }

    @Test func requireAppPasses() throws {
        let result = try CLI.run(["audit", Self.archive, "--require", "app"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("everything --require app asks for can be symbolicated"))
    }

    @Test func requireAppAndExtensionsFailsOnTheWidget() throws {
        let result = try CLI.run(["audit", Self.archive, "--require", "app+extensions", "--github-annotations", "--format", "json"])
        #expect(result.status == 1)
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 1)
        #expect(annotations.first?.contains("ShopWidget") == true)
        // The JSON document comes first and parses on its own.
        let json = result.stdout.components(separatedBy: "\n::").first ?? ""
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["totals"] as? [String: Any])?["failing"] as? Int == 1)
    }

    @Test func theIPAWithTheArchivesDSYMsWritesJUnitAndCollects() throws {
        let folder = try TestPaths.temporaryDirectory("audit-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("audit.xml").path
        let collected = folder.appendingPathComponent("dSYMs").path
        let result = try CLI.run(["audit", Self.ipa, Self.dSYMs, "--format", "markdown", "--junit", junit, "--collect", collected])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("## dSYM audit of \(Self.ipa) (ipa)"))
        let xml = JUnitXML(try Data(contentsOf: URL(fileURLWithPath: junit)))
        #expect(xml.parseError == nil)
        #expect(xml.testcases.count == 9)
        #expect(xml.failures == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: collected).count == 5)
        #expect(result.stderr.contains("collected 5 dSYMs (one per UUID) in \(collected)"))
    }

    @Test func exitCodes() throws {
        #expect(try CLI.run(["audit", "/nonexistent/Shop.xcarchive"]).status == 65)
        #expect(try CLI.run(["audit", Self.archive, "/nonexistent/Shop.dSYM"]).status == 65)
        #expect(try CLI.run(["audit", Self.archive, "--require", "everything"]).status == 64)
        let binary = Self.archive + "/Products/Applications/Shop.app/Shop"
        #expect(try CLI.run(["audit", Self.archive, "--junit", binary]).status == 64)
        #expect(try CLI.run(["audit", Self.archive, "--junit", "/nonexistent-folder/audit.xml"]).status == 73)
    }

    @Test func theGitHubActionHasAnAuditMode() throws {
        let work = try TestPaths.temporaryDirectory("audit-action")
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = work.appendingPathComponent("step_summary.md")
        let output = work.appendingPathComponent("out")
        let result = try CLI.run(
            [TestPaths.packageRoot.appendingPathComponent("scripts/github-action.sh").path],
            environment: [
                "SYMBOLICATE_MODE": "audit", "SYMBOLICATE_BUILD": Self.archive, "SYMBOLICATE_REQUIRE": "app",
                "SYMBOLICATE_OUTPUT": output.path, "SYMBOLICATE_BIN": CLI.binary.path, "GITHUB_STEP_SUMMARY": summary.path,
                "RUNNER_TEMP": work.path,
            ], currentDirectory: TestPaths.packageRoot, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(result.stderr)")
        // Incomplete binaries --require app lets pass are warnings in the log.
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::warning ") })
        #expect(result.stdout.contains("Ads"))
        let table = try String(contentsOf: summary, encoding: .utf8)
        #expect(table.hasPrefix("## dSYM audit of"))
        #expect(!table.contains("::"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("audit.junit.xml").path))
    }
}
