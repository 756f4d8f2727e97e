import Foundation
import SymbolicateAudit
import SymbolicateCore
import SymbolicateMachO
import SymbolicatePipeline
import SymbolicateSymbolSources
import SymbolicateSymbolStore
import SymbolicateTestSupport
import Testing
import ZIPFoundation

/// The fixture archive (Fixtures/audit/generate.sh): one binary per case audit tells apart.
enum AuditFixtures {
    static let root = TestPaths.fixtures.appendingPathComponent("audit")
    static let archive = root.appendingPathComponent("Shop.xcarchive").path
    static let ipa = root.appendingPathComponent("Shop.ipa").path
    static let app = root.appendingPathComponent("Shop.xcarchive/Products/Applications/Shop.app").path
    static let dSYMs = root.appendingPathComponent("Shop.xcarchive/dSYMs").path

    /// One slice and what it is.
    struct Case: Sendable, CustomTestStringConvertible {
        var binary: String
        var arch: String
        var kind: String
        var role: BinaryRole
        var uuid: String
        var testDescription: String { "\(binary) (\(arch)): \(kind)" }
    }

    static let cases: [Case] = [
        Case(binary: "Shop.app/Shop", arch: "arm64", kind: "dwarf", role: .app, uuid: "4C4C4408-5555-3144-A192-BA6CCDDCB188"),
        Case(
            binary: "Shop.app/PlugIns/ShopWidget.appex/ShopWidget", arch: "arm64", kind: "other-build", role: .appExtension,
            uuid: "4C4C44AA-5555-3144-A14E-401D1D766BE9"),
        Case(
            binary: "Shop.app/Frameworks/Analytics.framework/Analytics", arch: "arm64", kind: "dwarf", role: .framework,
            uuid: "4C4C4403-5555-3144-A192-438020D3642D"),
        Case(
            binary: "Shop.app/Frameworks/Analytics.framework/Analytics", arch: "x86_64", kind: "dwarf", role: .framework,
            uuid: "4C4C446A-5555-3144-A1D5-B7E093E7F406"),
        Case(
            binary: "Shop.app/Frameworks/Vendor.framework/Vendor", arch: "arm64", kind: "symbol-table-only", role: .framework,
            uuid: "4C4C4401-5555-3144-A138-072FAC5D70B2"),
        Case(
            binary: "Shop.app/Frameworks/Ads.framework/Ads", arch: "arm64", kind: "stripped", role: .framework,
            uuid: "4C4C44B3-5555-3144-A1BD-0C480CF9D18E"),
        Case(
            binary: "Shop.app/Frameworks/Maps.framework/Maps", arch: "arm64", kind: "renamed", role: .framework,
            uuid: "4C4C44C6-5555-3144-A1F5-CD508618348B"),
        Case(
            binary: "Shop.app/Frameworks/Legacy.framework/Legacy", arch: "arm64", kind: "bitcode-hidden", role: .framework,
            uuid: "4C4C44D0-5555-3144-A145-FE78D14C43EC"),
        Case(
            binary: "Shop.app/Frameworks/libswiftCore.dylib", arch: "arm64", kind: "apple", role: .dylib,
            uuid: "4C4C44B3-5555-3144-A19F-3B550D8171F8"),
    ]

    static func finding(_ report: AuditReport?, _ c: Case) -> AuditFinding? {
        report?.findings.first { $0.binary == c.binary && $0.architecture.name == c.arch }
    }
}

@Suite struct AuditCaseTests {
    let response = AuditRequest(build: AuditFixtures.archive).run()

    @Test func theArchiveHasEveryBinaryAndSliceOnce() throws {
        let report = try #require(response.report)
        #expect(report.buildKind == .archive)
        #expect(report.findings.count == AuditFixtures.cases.count)
        #expect(report.binaryCount == 8)
        #expect(Set(report.findings.map { "\($0.binary) \($0.architecture.name)" }).count == AuditFixtures.cases.count)
    }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseIsReportedAsWhatItIs(_ c: AuditFixtures.Case) throws {
        let finding = try #require(AuditFixtures.finding(response.report, c))
        #expect(finding.status.kind == c.kind)
        #expect(finding.role == c.role)
        #expect(finding.uuid?.description == c.uuid)
    }

    @Test func theAppsDSYMCountsItsTwoCompileUnits() throws {
        let shop = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[0]))
        #expect(shop.status == .dwarf(compileUnits: 2))
        #expect(shop.debugFile?.hasSuffix("dSYMs/Shop.app.dSYM") == true)
    }

    @Test func anotherBuildsDSYMIsNamedWithBothUUIDs() throws {
        let widget = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[1]))
        guard case .otherBuild(let nearest, let arch, let path) = widget.status else {
            Issue.record("ShopWidget: \(widget.status)")
            return
        }
        #expect(nearest.description == "4C4C44E1-5555-3144-A166-0AA15FA41A23")
        #expect(nearest != widget.uuid)
        #expect(arch == .arm64)
        #expect(path.hasSuffix("ShopWidget.appex.dSYM"))
        #expect(widget.detail.contains("4C4C44E1-5555-3144-A166-0AA15FA41A23"))
        #expect(widget.debugFile == nil)
    }

    @Test func theRenamedProductIsFoundByUUID() throws {
        let maps = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[6]))
        #expect(maps.status == .renamed(compileUnits: 1, debugFileName: "MapsKit"))
        #expect(maps.status.isComplete)
    }

    @Test func bitcodeHiddenNamesNeedTheSymbolMaps() throws {
        let legacy = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[7]))
        #expect(legacy.status == .bitcodeHidden(compileUnits: 1, symbolMap: nil))
        #expect(!legacy.status.isComplete)
    }

    @Test func aBCSymbolMapMakesHiddenNamesComplete() throws {
        let folder = try TestPaths.temporaryDirectory("audit-bcsymbolmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("4C4C44D0-5555-3144-A145-FE78D14C43EC.bcsymbolmap")
        try Data("BCSymbolMap Version: 2.0\n_Legacy_step\n".utf8).write(to: map)
        let report = try #require(AuditRequest(build: AuditFixtures.archive, debugFiles: [folder.path]).run().report)
        let legacy = try #require(AuditFixtures.finding(report, AuditFixtures.cases[7]))
        #expect(legacy.status == .bitcodeHidden(compileUnits: 1, symbolMap: map.path))
        #expect(legacy.status.isComplete)
    }

    @Test func theUnstrippedAndTheStrippedFrameworkDiffer() throws {
        let vendor = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[4]))
        let ads = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[5]))
        #expect(vendor.status == .symbolTableOnly(.binary))
        #expect(ads.status == .stripped)
        #expect(vendor.installName == "@rpath/Vendor.framework/Vendor")
    }

    @Test func theSwiftRuntimeCopyIsApplesAndNeverRequired() throws {
        let swift = try #require(AuditFixtures.finding(response.report, AuditFixtures.cases[8]))
        #expect(swift.status == .apple)
        #expect(swift.installName == "@rpath/libswiftCore.dylib")
        #expect(!swift.required)
        #expect(!swift.fails)
    }

    @Test func theAppleRuleIsNarrow() {
        #expect(AuditClassifier.isApple(name: "libswiftCore.dylib", installName: "@rpath/libswiftCore.dylib"))
        #expect(AuditClassifier.isApple(name: "libswiftUIKit.dylib", installName: "/usr/lib/swift/libswiftUIKit.dylib"))
        // The team's own dylib, whatever its install name says.
        #expect(!AuditClassifier.isApple(name: "libswiftCore.dylib", installName: "@rpath/libMine.dylib"))
        #expect(!AuditClassifier.isApple(name: "libswiftCore.dylib", installName: nil))
        #expect(!AuditClassifier.isApple(name: "libAds.dylib", installName: "@rpath/libAds.dylib"))
    }
}

@Suite struct AuditFormatTests {
    static let response = AuditRequest(build: AuditFixtures.archive).run()
    static var report: AuditReport? { response.report }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseInTheTable(_ c: AuditFixtures.Case) throws {
        let report = try #require(Self.report)
        let finding = try #require(AuditFixtures.finding(report, c))
        let row = report.renderText().split(separator: "\n").first { $0.contains(c.binary + " ") && $0.contains(" \(c.arch) ") }
        let line = try #require(row.map(String.init), "no row for \(c.binary) \(c.arch)")
        #expect(line.contains(c.uuid))
        #expect(line.contains(finding.statusWord))
        #expect(line.hasPrefix(finding.status.isComplete ? "ok" : "FAIL"))
    }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseInJSON(_ c: AuditFixtures.Case) throws {
        let report = try #require(Self.report)
        let json = try JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let item = try #require(findings.first { $0["binary"] as? String == c.binary && $0["architecture"] as? String == c.arch })
        #expect(item["status"] as? String == c.kind)
        #expect(item["uuid"] as? String == c.uuid)
        #expect(item["role"] as? String == c.role.rawValue)
        if c.kind == "other-build" {
            let other = try #require(item["otherBuild"] as? [String: Any])
            #expect(other["uuid"] as? String == "4C4C44E1-5555-3144-A166-0AA15FA41A23")
        }
        if c.kind == "dwarf" || c.kind == "renamed" { #expect(item["compileUnits"] as? Int ?? 0 > 0) }
    }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseInMarkdown(_ c: AuditFixtures.Case) throws {
        let report = try #require(Self.report)
        let finding = try #require(AuditFixtures.finding(report, c))
        let rows = report.renderMarkdown().split(separator: "\n").filter { $0.contains("`\(c.binary)`") && $0.contains("| \(c.arch) |") }
        #expect(rows.count == 1)
        let row = try #require(rows.first.map(String.init))
        #expect(row.contains(finding.status.isComplete ? finding.statusWord : finding.detail))
        #expect(row.contains(c.uuid))
    }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseInJUnit(_ c: AuditFixtures.Case) throws {
        let report = try #require(Self.report)
        let finding = try #require(AuditFixtures.finding(report, c))
        let junit = report.renderJUnit()
        #expect(JUnitXML(Data(junit.utf8)).parseError == nil)
        let start = try #require(junit.range(of: "name=\"\(c.binary) (\(c.arch))\">"))
        let end = try #require(junit.range(of: "</testcase>", range: start.upperBound..<junit.endIndex))
        let body = junit[start.upperBound..<end.lowerBound]
        #expect(body.contains("<failure type=\"\(c.kind)\"") == finding.fails)
        #expect(body.contains("<skipped") == (!finding.status.isComplete && !finding.required))
    }

    @Test(arguments: AuditFixtures.cases)
    func eachCaseInTheAnnotations(_ c: AuditFixtures.Case) throws {
        let report = try #require(Self.report)
        let finding = try #require(AuditFixtures.finding(report, c))
        let lines = report.renderGitHubAnnotations().split(separator: "\n").filter { $0.contains("::\(c.binary) \(c.uuid):") }
        #expect(lines.count == (finding.status.isComplete ? 0 : 1))
        if let line = lines.first { #expect(line.hasPrefix(finding.fails ? "::error " : "::warning ")) }
    }

    @Test func junitCountsFailures() throws {
        let report = try #require(Self.report)
        let junit = JUnitXML(Data(report.renderJUnit().utf8))
        #expect(junit.testcases.count == AuditFixtures.cases.count)
        // other-build, symbol-table-only, stripped, bitcode-hidden.
        #expect(junit.failures == 4)
    }
}

@Suite struct AuditPolicyTests {
    @Test(arguments: [
        (AuditRequirement.app, SymbolicatePipeline.ExitStatus.success, 0), (.appAndExtensions, .failed, 1), (.all, .failed, 4),
    ])
    func theExitStatusFollowsRequire(_ requirement: AuditRequirement, _ status: SymbolicatePipeline.ExitStatus, _ failing: Int) throws {
        let response = AuditRequest(build: AuditFixtures.archive, requirement: requirement).run()
        #expect(response.status == status)
        #expect(response.report?.failing.count == failing)
    }

    @Test func aCompleteFolderPassesAll() throws {
        let framework = AuditFixtures.app + "/Frameworks/Analytics.framework"
        let response = AuditRequest(build: framework, debugFiles: [AuditFixtures.dSYMs], requirement: .all).run()
        #expect(response.status == .success)
        #expect(response.report?.findings.count == 2)
        #expect(response.report?.buildKind == .folder)
    }

    @Test func theIPAGivesTheArchivesAnswersWithItsDSYMs() throws {
        let archive = try #require(AuditRequest(build: AuditFixtures.archive).run().report)
        let ipa = try #require(AuditRequest(build: AuditFixtures.ipa, debugFiles: [AuditFixtures.dSYMs]).run().report)
        #expect(ipa.buildKind == .ipa)
        #expect(ipa.findings.map(\.binary) == archive.findings.map(\.binary))
        #expect(ipa.findings.map(\.status.kind) == archive.findings.map(\.status.kind))
    }

    @Test func anIPAWithoutDSYMsHasOnlyTheBinariesSymbolTables() throws {
        let report = try #require(AuditRequest(build: AuditFixtures.ipa).run().report)
        let kinds = Dictionary(uniqueKeysWithValues: report.findings.map { ("\($0.binary) \($0.architecture.name)", $0.status.kind) })
        #expect(kinds["Shop.app/Shop arm64"] == "symbol-table-only")
        #expect(kinds["Shop.app/Frameworks/Ads.framework/Ads arm64"] == "stripped")
        #expect(kinds["Shop.app/Frameworks/libswiftCore.dylib arm64"] == "apple")
    }

    @Test func anAppIsShownUnderItsOwnName() throws {
        let report = try #require(AuditRequest(build: AuditFixtures.app, debugFiles: [AuditFixtures.dSYMs]).run().report)
        #expect(report.buildKind == .app)
        #expect(report.findings.first?.binary == "Shop.app/Shop")
        #expect(report.findings.first?.status == .dwarf(compileUnits: 2))
    }

    @Test(arguments: [
        ("Shop.app/Shop", BinaryRole.app), ("Shop.app/AppClips/Clip.app/Clip", .app), ("Shop.app/Watch/W.app/W", .app),
        ("Mac.app/Contents/MacOS/Mac", .app), ("Shop.app/PlugIns/Share.appex/Share", .appExtension),
        ("Mac.app/Contents/XPCServices/Helper.xpc/Contents/MacOS/Helper", .appExtension),
        ("Mac.app/Contents/Frameworks/K.framework/Versions/A/K", .framework), ("Shop.app/Frameworks/K.framework/K", .framework),
        ("Shop.app/Frameworks/libz.dylib", .dylib), ("Mac.app/Contents/Helpers/tool", .other), ("tool", .other),
        // Xcode 16+ Debug builds: the code is in `<name>.debug.dylib` beside the stub executable.
        ("Shop.app/Shop.debug.dylib", .app), ("Mac.app/Contents/MacOS/Mac.debug.dylib", .app),
        ("Shop.app/PlugIns/Share.appex/Share.debug.dylib", .appExtension), ("Shop.app/__preview.dylib", .dylib),
    ])
    func rolesComeFromTheBundles(_ path: String, _ role: BinaryRole) {
        #expect(AuditBuild.role(of: path) == role)
    }

    @Test func aSymbolSourceAnswersWhatNoLocalFileHas() throws {
        let cache = try TestPaths.temporaryDirectory("audit-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = try DebugFileStore(root: cache.path + "/debug-files")
        try store.put(fileAt: AuditFixtures.dSYMs + "/Shop.app.dSYM")
        let settings = try SymbolSourceSettings.resolve(environment: [:], cacheDirectory: cache.path, offline: true)
        var request = AuditRequest(build: AuditFixtures.app, collectFolder: cache.path + "/collected")
        request.remoteDebugFiles = SymbolSources(settings: settings)
        let report = try #require(request.run().report)
        let shop = try #require(report.findings.first)
        #expect(shop.binary == "Shop.app/Shop")
        #expect(shop.status == .dwarf(compileUnits: 2))
        #expect(shop.debugFile?.hasPrefix(cache.path) == true)
        #expect(report.findings.first { $0.name == "Ads" }?.status == .stripped)
        // A fetched dSYM is collected like a local one.
        let collected = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/collected")
        #expect(collected == ["4C4C4408-5555-3144-A192-BA6CCDDCB188.dSYM"])
        let dwarf = cache.path + "/collected/4C4C4408-5555-3144-A192-BA6CCDDCB188.dSYM/Contents/Resources/DWARF"
        #expect(try FileManager.default.contentsOfDirectory(atPath: dwarf) == ["Shop"])
    }

    @Test func aMissingBuildIsInvalidInput() {
        let response = AuditRequest(build: "/nonexistent/Shop.xcarchive").run()
        #expect(response.status == .invalidInput)
        #expect(response.report == nil)
        #expect(response.messages == [.failure(.buildNotFound(path: "/nonexistent/Shop.xcarchive"))])
    }

    @Test func aFolderWithoutBinariesIsNotABuild() throws {
        let response = AuditRequest(build: AuditFixtures.dSYMs).run()
        #expect(response.status == .invalidInput)
        guard case .failure(.notABuild(let path, _)) = response.messages.last else {
            Issue.record("\(response.messages)")
            return
        }
        #expect(path == AuditFixtures.dSYMs)
    }

    @Test func aMissingDSYMsPathIsInvalidInput() {
        let response = AuditRequest(build: AuditFixtures.archive, debugFiles: ["/nonexistent/x.dSYM"]).run()
        #expect(response.status == .invalidInput)
    }

    @Test func aJUnitFileMayNotReplaceAnInput() {
        let binary = AuditFixtures.app + "/Shop"
        let response = AuditRequest(build: AuditFixtures.archive, junit: binary).run()
        #expect(response.status == .usage)
    }
}

@Suite struct AuditCollectTests {
    /// The UUIDs with a matching debug file: the app, both Analytics slices, Maps (renamed) and Legacy.
    static let matching: Set<String> = [
        "4C4C4408-5555-3144-A192-BA6CCDDCB188", "4C4C4403-5555-3144-A192-438020D3642D", "4C4C446A-5555-3144-A1D5-B7E093E7F406",
        "4C4C44C6-5555-3144-A1F5-CD508618348B", "4C4C44D0-5555-3144-A145-FE78D14C43EC",
    ]

    @Test func collectGivesExactlyTheMatchingSet() throws {
        let folder = try TestPaths.temporaryDirectory("audit-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("collected").path
        let response = AuditRequest(build: AuditFixtures.archive, collectFolder: destination).run()
        #expect(response.messages.contains(.collected(5, destination: destination)))
        let names = try FileManager.default.contentsOfDirectory(atPath: destination)
        #expect(Set(names) == Set(Self.matching.map { "\($0).dSYM" }))
        for name in names {
            let dwarf = "\(destination)/\(name)/Contents/Resources/DWARF"
            let files = try FileManager.default.contentsOfDirectory(atPath: dwarf)
            #expect(files.count == 1)
            let first = try #require(files.first)
            let file = try MachOFile(path: "\(dwarf)/\(first)")
            // One thin slice, the UUID the bundle is named by.
            #expect(file.slices.count == 1)
            #expect(file.slices.first.flatMap(\.debugID).map { "\($0).dSYM" } == name)
            #expect(FileManager.default.fileExists(atPath: "\(destination)/\(name)/Contents/Info.plist"))
        }
        // Again into the same folder: replaced in place, still exactly the set, no temporaries left.
        _ = AuditRequest(build: AuditFixtures.archive, collectFolder: destination).run()
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: destination)) == Set(Self.matching.map { "\($0).dSYM" }))
    }

    @Test func collectZipHoldsTheSameBundles() throws {
        let folder = try TestPaths.temporaryDirectory("audit-collect-zip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("dSYMs.zip")
        let response = AuditRequest(build: AuditFixtures.ipa, debugFiles: [AuditFixtures.dSYMs], collectZip: zip.path).run()
        #expect(response.status == .failed)
        let archive = try Archive(url: zip, accessMode: .read)
        let bundles = Set(archive.compactMap { $0.path.split(separator: "/").first.map(String.init) })
        #expect(bundles == Set(Self.matching.map { "\($0).dSYM" }))
        let dwarfFiles = archive.filter { $0.path.contains("/Contents/Resources/DWARF/") && $0.type == .file }
        #expect(dwarfFiles.count == Self.matching.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dSYMs.zip"])
    }

    /// What `serve`'s `PUT /v1/debug-files` does with a body: the collected zip of an archive's dSYMs is
    /// one upload, and the store then holds exactly the builds the audit matched.
    @Test func theCollectedZipIsOneUploadToAStore() throws {
        let folder = try TestPaths.temporaryDirectory("audit-collect-store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("dSYMs.zip")
        _ = AuditRequest(build: AuditFixtures.archive, collectZip: zip.path).run()
        let store = try DebugFileStore(root: folder.appendingPathComponent("store").path)
        let put = try store.put(fileAt: zip.path, origin: "upload")
        #expect(Set(put.stored.map { "\($0.debugID)" }) == Self.matching)
        #expect(put.stored.filter { !$0.hasDWARF }.isEmpty)
    }
}
