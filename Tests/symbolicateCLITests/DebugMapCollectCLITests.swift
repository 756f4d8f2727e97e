import Foundation
import SymbolicateTestSupport
import Testing

/// `audit --collect` end to end on a Debug build without dSYMs (Fixtures/debugmap: the
/// universal DebugMapApp linked from several objects and a static library, and Xcode 16's
/// DebugDylibApp.debug.dylib), its objects moved to another folder and found through
/// `--object-path-map`: the dSYMs dsymutil links pass `llvm-dwarfdump-19 --verify`, and `atos`
/// through them answers every line-table row exactly as through the debug map.
@Suite(.tags(.launchesBinary)) struct DebugMapCollectCLITests {
    static let dsymutil = ExternalTool.find("dsymutil-19")
    static let dwarfdump = ExternalTool.find("llvm-dwarfdump-19")
    static let arm64UUID = "4C4C445E-5555-3144-A1DF-FC3140EA49AB"
    static let x86_64UUID = "4C4C444B-5555-3144-A11D-D0361A0A5B3C"
    static let dylibUUID = "4C4C444C-5555-3144-A115-9B12B68ABDF3"

    /// A build folder: the universal DebugMapApp and the Debug dylib layout, objects moved.
    static func build(in folder: URL) throws -> (build: String, pathMap: [String]) {
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let build = folder.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: DebugMapFixture.binary, toPath: build.appendingPathComponent("DebugMapApp").path)
        try FileManager.default.copyItem(
            atPath: DebugMapFixture.debugDylibApp, toPath: build.appendingPathComponent("DebugDylibApp.app").path)
        return (build.path, ["--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"])
    }

    static func findings(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["findings"] as? [[String: Any]] ?? []
    }

    @Test func collectedDSYMsVerifyAndAnswerAsTheDebugMap() throws {
        guard Self.dsymutil != nil, let dwarfdump = Self.dwarfdump else {
            print("DebugMapCollectCLITests: skipped: dsymutil-19 or llvm-dwarfdump-19 not found")
            return
        }
        let folder = try TestPaths.temporaryDirectory("debugmap-collect-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        let collected = folder.appendingPathComponent("dSYMs").path
        let result = try CLI.run(["audit", build, "--format", "json", "--collect", collected] + pathMap)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("collected 3 dSYMs (one per UUID) in \(collected)"), "\(result.stderr)")
        let linked = try Self.findings(result.stdout).filter { ($0["status"] as? String) == "debug-map" }
        #expect(linked.count == 3)
        for finding in linked {
            let collect = finding["collect"] as? [String: Any]
            #expect(collect?["status"] as? String == "linked", "\(finding)")
            #expect((collect?["dsymutil"] as? String)?.hasSuffix("dsymutil-19") == true)
        }

        // (collected DWARF file, the binary, its architecture, the reference dSYM's rows)
        let slices: [(dwarf: String, binary: String, arch: String, reference: String)] = [
            (
                "\(Self.arm64UUID).dSYM/Contents/Resources/DWARF/DebugMapApp", DebugMapFixture.binary, "arm64",
                DebugMapFixture.dsymDWARF
            ),
            (
                "\(Self.x86_64UUID).dSYM/Contents/Resources/DWARF/DebugMapApp", DebugMapFixture.binary, "x86_64",
                DebugMapFixture.dsymDWARF
            ),
            (
                "\(Self.dylibUUID).dSYM/Contents/Resources/DWARF/DebugDylibApp.debug.dylib",
                DebugMapFixture.debugDylibApp + "/DebugDylibApp.debug.dylib", "arm64",
                DebugMapFixture.debugDylibDSYM + "/Contents/Resources/DWARF/DebugDylibApp.debug.dylib"
            ),
        ]
        for slice in slices {
            let dwarf = (collected as NSString).appendingPathComponent(slice.dwarf)
            let verify = try ExternalTool.result(dwarfdump, ["--verify", dwarf])
            #expect(verify.status == 0 && verify.stdout.contains("No errors."), "\(slice.dwarf): \(verify.stdout)")
            let rows = try ExternalTool.lineRowAddresses(slice.reference, options: ["--arch=\(slice.arch)"], dwarfdump: dwarfdump)
            try #require(rows.count > 50)
            let addresses = rows.map { "0x" + String($0, radix: 16) }
            let throughDSYM = try CLI.run(["atos", "-o", dwarf, "--arch", slice.arch, "-i"] + addresses)
            let throughMap = try CLI.run(["atos", "-o", slice.binary, "--arch", slice.arch, "-i"] + pathMap + addresses)
            #expect(throughDSYM.status == 0 && throughMap.status == 0, "\(throughDSYM.stderr)\(throughMap.stderr)")
            #expect(throughDSYM.stdout == throughMap.stdout, "\(slice.dwarf)")
            #expect(throughDSYM.stdout.contains(".c:") && throughDSYM.stdout.contains(".cpp:"))
            #expect(throughMap.stderr.isEmpty, "\(throughMap.stderr)")
        }
    }

    /// Without dsymutil (PATH holds none): the slices are not collected, the message says what
    /// to install, the table names the reason, and the gate fails.
    @Test func withoutDsymutilNothingIsSkippedSilently() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap-collect-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        let empty = folder.appendingPathComponent("empty-path")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let collected = folder.appendingPathComponent("dSYMs").path
        let result = try CLI.run(["audit", build, "--collect", collected] + pathMap, environment: ["PATH": empty.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "not collected: DebugMapApp (arm64) has no dSYM, only a debug map, and none was linked: no dsymutil found: install"),
            "\(result.stderr)")
        #expect(result.stdout.contains("FAIL DebugDylibApp.app/DebugDylibApp.debug.dylib (arm64):"), "\(result.stdout)")
        #expect(result.stdout.contains("not collected: no dsymutil found"), "\(result.stdout)")

        let named = try CLI.run(
            ["audit", build, "--collect", collected, "--dsymutil", folder.appendingPathComponent("nowhere").path] + pathMap)
        #expect(named.status == 1)
        #expect(named.stderr.contains("is not an executable file"), "\(named.stderr)")
        let alone = try CLI.run(["audit", build, "--dsymutil", "dsymutil"] + pathMap)
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--dsymutil is used only with --collect or --collect-zip"), "\(alone.stderr)")
    }
}
