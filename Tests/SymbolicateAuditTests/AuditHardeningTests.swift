import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateAudit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 54, findings 5, 17 and 8, on the real fixture build (Fixtures/audit/generate.sh):
/// `--collect` and `--collect-zip` never destroy what is at their place, never store a link,
/// and what audit could not read fails the release gate instead of passing it quietly.
@Suite struct AuditHardeningTests {
    static let shopUUID = "4C4C4408-5555-3144-A192-BA6CCDDCB188"

    static func folder(_ name: String) throws -> URL { try TestPaths.temporaryDirectory(name) }

    static func leftovers(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".symbolicate") }
    }

    /// An App Store Connect download names bundles by UUID: collecting into the folder that
    /// holds one given as DSYMS renamed it away and deleted it.
    @Test func collectNeverReplacesAnInputBundleNamedByUUID() throws {
        let root = try Self.folder("audit-collect-input")
        defer { try? FileManager.default.removeItem(at: root) }
        let downloads = root.appendingPathComponent("dSYMs").path
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        let bundle = downloads + "/\(Self.shopUUID).dSYM"
        try FileManager.default.copyItem(atPath: AuditFixtures.dSYMs + "/Shop.app.dSYM", toPath: bundle)
        let dwarf = bundle + "/Contents/Resources/DWARF/Shop"
        let before = try Data(contentsOf: URL(fileURLWithPath: dwarf))
        let response = AuditRequest(build: AuditFixtures.app, debugFiles: [bundle], requirement: .app, collectFolder: downloads).run()
        #expect(response.status == .usage)
        guard case .failure(.outputReplacesInput(.collect, let output, let input))? = response.messages.last else {
            Issue.record("expected a refusal, got \(response.messages)")
            return
        }
        #expect(output == bundle)
        #expect(input == bundle || input == dwarf)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dwarf)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads) == ["\(Self.shopUUID).dSYM"])
    }

    /// A file (or anything but a dSYM bundle) where a bundle goes is said and kept.
    @Test func collectKeepsAFileWhereABundleWouldGo() throws {
        let root = try Self.folder("audit-collect-file")
        defer { try? FileManager.default.removeItem(at: root) }
        let destination = root.appendingPathComponent("collected").path
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let mine = destination + "/\(Self.shopUUID).dSYM"
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: mine))
        let response = AuditRequest(build: AuditFixtures.archive, collectFolder: destination).run()
        #expect(response.status == .cannotWrite)
        #expect(response.messages.last?.body.contains("is a regular file, not a dSYM bundle; not replaced") == true, "\(response.messages)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "my notes\n")
        // Checked before anything was written: no other bundle, nothing left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["\(Self.shopUUID).dSYM"])
    }

    /// `--collect-zip` onto a FIFO renamed a regular file over it; now it is written as `-o`
    /// writes one: in place (here with no reader, so refused), never replaced.
    @Test func collectZipNeverRenamesOverAFIFO() throws {
        let root = try Self.folder("audit-collect-fifo")
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("upload.zip").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let response = AuditRequest(build: AuditFixtures.archive, collectZip: fifo).run()
        #expect(response.status == .cannotWrite)
        #expect(response.messages.last?.body.contains("is a FIFO with no reader") == true, "\(response.messages)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["upload.zip"])
    }

    /// A linked Info.plist went into the zip as an absolute link (a local path in an upload);
    /// a DWARF file linked from outside its bundle was followed into it. Neither is collected
    /// now, and both are named.
    @Test func collectZipStoresRegularFilesFromInsideTheBundleOnly() throws {
        let root = try Self.folder("audit-collect-links")
        defer { try? FileManager.default.removeItem(at: root) }
        let dSYMs = root.appendingPathComponent("dSYMs").path
        try FileManager.default.copyItem(atPath: AuditFixtures.dSYMs, toPath: dSYMs)
        let outside = root.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("SECRET local file\n".utf8).write(to: URL(fileURLWithPath: outside + "/Info.plist"))
        let plist = dSYMs + "/Shop.app.dSYM/Contents/Info.plist"
        try FileManager.default.removeItem(atPath: plist)
        #expect(symlink(outside + "/Info.plist", plist) == 0)
        let analytics = dSYMs + "/Analytics.framework.dSYM/Contents/Resources/DWARF/Analytics"
        try FileManager.default.moveItem(atPath: analytics, toPath: outside + "/Analytics")
        #expect(symlink(outside + "/Analytics", analytics) == 0)

        let zip = root.appendingPathComponent("upload.zip")
        let response = AuditRequest(build: AuditFixtures.app, debugFiles: [dSYMs], collectZip: zip.path).run()
        let archive = try Archive(url: zip, accessMode: .read)
        #expect(archive.filter { $0.type == .symlink }.isEmpty)
        var shopPlist = Data()
        let entry = try #require(archive["\(Self.shopUUID).dSYM/Contents/Info.plist"])
        _ = try archive.extract(entry) { shopPlist.append($0) }
        let text = String(decoding: shopPlist, as: UTF8.self)
        #expect(!text.contains("SECRET"))
        #expect(text.contains("com.apple.xcode.dsym.Shop"))
        // Neither Analytics slice (4C4C4403…, 4C4C446A…) was collected.
        #expect(!archive.contains { $0.path.hasPrefix("4C4C4403-") || $0.path.hasPrefix("4C4C446A-") })
        let notCollected = response.messages.compactMap { message -> String? in
            if case .notCollected(let path, _) = message { return path }
            return nil
        }
        #expect(notCollected.contains(plist))
        #expect(notCollected.contains(analytics))
        #expect(response.messages.contains { $0.text(tool: "symbolicate").contains("links are never collected") })
    }

    /// A damaged binary was a warning on stderr, not in the table, the JSON or the counts, and
    /// the gate passed.
    @Test func anUnreadableBinaryIsAFindingThatFailsTheGate() throws {
        let root = try Self.folder("audit-unreadable")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = root.appendingPathComponent("Shop.app").path
        try FileManager.default.copyItem(atPath: AuditFixtures.app, toPath: app)
        let vendor = app + "/Frameworks/Vendor.framework/Vendor"
        // Its Mach-O header stays; its load commands are cut off.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: vendor))
        try handle.truncate(atOffset: 64)
        try handle.close()
        let passing = AuditRequest(build: AuditFixtures.app, debugFiles: [AuditFixtures.dSYMs], requirement: .app).run()
        #expect(passing.status == .success, "the intact build passes --require app")

        let request = AuditRequest(build: app, debugFiles: [AuditFixtures.dSYMs], requirement: .app, format: .json)
        let response = request.run()
        #expect(response.status == .failed)
        let report = try #require(response.report)
        let finding = try #require(report.findings.first { $0.binary == "Shop.app/Frameworks/Vendor.framework/Vendor" })
        #expect(finding.status.kind == "unreadable")
        #expect(finding.fails)
        #expect(report.failing.count == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data((response.standardOutput ?? "").utf8)) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect((totals["byStatus"] as? [String: Int])?["unreadable"] == 1)
        #expect(totals["failing"] as? Int == 1)
        #expect(report.renderText().contains("FAIL Shop.app/Frameworks/Vendor.framework/Vendor"))
    }

    /// An `.ipa` whose unpacking stopped at the limit before the app's own binary passed the
    /// gate on what it had read.
    @Test func anIPAUnpackLimitIsAFindingThatFailsTheGate() throws {
        let whole = AuditRequest(build: AuditFixtures.ipa, debugFiles: [AuditFixtures.dSYMs], requirement: .app).run()
        #expect(whole.status == .success, "\(whole.messages)")
        var request = AuditRequest(build: AuditFixtures.ipa, debugFiles: [AuditFixtures.dSYMs], requirement: .app)
        request.unpackLimit = 120_000
        let response = request.run()
        #expect(response.status == .failed)
        let unreadable = (response.report?.findings ?? []).filter { $0.status.kind == "unreadable" }
        #expect(!unreadable.isEmpty)
        #expect(unreadable.allSatisfy { $0.fails })
        #expect(unreadable.contains { $0.detail.contains("limit") }, "\(unreadable.map(\.detail))")
        // The app's executable, last in the archive, was never reached: it is not reported as checked.
        #expect(!(response.report?.findings ?? []).contains { $0.binary == "Shop.app/Shop" && $0.status.isComplete })
    }

    /// The table was 200 columns wide and had no colour: on a terminal it fits the width (paths
    /// shortened in the middle) and colours the verdicts; a pipe keeps every path whole.
    @Test func theTableFitsTheTerminalAndColoursVerdicts() throws {
        let report = try #require(AuditRequest(build: AuditFixtures.archive).run().report)
        func tableRows(_ text: String) -> [Substring] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let header = lines.firstIndex(where: { $0.contains("BINARY") }) else { return [] }
            return Array(lines[header...].prefix { !$0.isEmpty })
        }
        let whole = report.renderText()
        #expect(tableRows(whole).contains { $0.count > 120 }, "the fixture's table is wider than the terminal of the test")
        let fitted = report.renderText(width: 120)
        #expect(tableRows(fitted).count == report.findings.count + 1)
        #expect(tableRows(fitted).allSatisfy { $0.count <= 120 }, "\(fitted)")
        // Shortened in the middle: the start of the path and the file name stay.
        #expect(tableRows(fitted).contains { $0.contains("Shop.app/") && $0.contains("…") && $0.contains("Analytics") }, "\(fitted)")
        #expect(!whole.contains("…"))
        // Every UUID stays whole: it is what people copy.
        for finding in report.findings { #expect(fitted.contains(finding.uuid?.description ?? "–")) }

        let coloured = report.renderText(color: true)
        #expect(coloured.contains("\u{1B}[1;31mFAIL\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[32mok\u{1B}[0m"))
        #expect(!whole.contains("\u{1B}["))
        // Colour takes no columns: without the escapes the coloured table is the plain one.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == whole)
    }

    /// Finding 6 for `--collect` and `--collect-zip`: another user's link among the folders on
    /// the way is not followed (root only: a link is given to uid 4242).
    @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
    func collectNeverGoesThroughAnotherUsersFolderLink() throws {
        let root = try Self.folder("audit-collect-parent-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("root-only").path
        #expect(mkdir(target, 0o700) == 0)
        let link = root.appendingPathComponent("shared").path
        #expect(symlink(target, link) == 0)
        #expect(lchown(link, 4242, 4242) == 0)
        let folder = AuditRequest(build: AuditFixtures.archive, collectFolder: link + "/dSYMs").run()
        #expect(folder.status == .cannotWrite)
        #expect(folder.messages.last?.body.contains("owned by another user (uid 4242): not followed") == true, "\(folder.messages)")
        let zip = AuditRequest(build: AuditFixtures.archive, collectZip: link + "/dSYMs.zip").run()
        #expect(zip.status == .cannotWrite)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }
}
