import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateMachO
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateAudit

/// `--collect` of a Debug build (Fixtures/debugmap): a slice with only a debug map is linked
/// into a dSYM by dsymutil, checked, and collected; what cannot be linked is not collected,
/// with the reason, and fails the gate. The answers through the collected dSYMs are compared
/// with the debug map's in `DebugMapCollectCLITests` (the real binary).
@Suite struct DebugMapCollectTests {
    static let arm64 = "4C4C445E-5555-3144-A1DF-FC3140EA49AB"
    static let x86_64 = "4C4C444B-5555-3144-A11D-D0361A0A5B3C"
    static let dsymutil = ExternalTool.find("dsymutil-19")

    /// A build folder holding the universal DebugMapApp, its objects moved to `folder/obj`.
    static func build(in folder: URL) throws -> (build: String, pathMap: ObjectPathMap) {
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let build = folder.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: DebugMapFixture.binary, toPath: build.appendingPathComponent("DebugMapApp").path)
        return (build.path, ObjectPathMap([ObjectPathMap.Rule(old: DebugMapFixture.recordedObjects, new: objects.path)]))
    }

    static func request(_ build: String, _ pathMap: ObjectPathMap, folder: String? = nil, zip: String? = nil) -> AuditRequest {
        var request = AuditRequest(build: build, collectFolder: folder, collectZip: zip)
        request.objectPathMap = pathMap
        return request
    }

    /// A fake dsymutil: a shell script with `body`.
    static func fakeTool(_ body: String, in folder: URL, name: String = "dsymutil") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// Both slices linked (the objects through `--object-path-map`), one zip entry per UUID,
    /// each DWARF file a dSYM of its slice's UUID; dsymutil's relocation files (local paths)
    /// are not collected.
    @Test func debugMappedSlicesAreLinkedAndCollected() throws {
        guard Self.dsymutil != nil else {
            print("DebugMapCollectTests: skipped: dsymutil-19 not found")
            return
        }
        let folder = try TestPaths.temporaryDirectory("debugmap-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        let zip = folder.appendingPathComponent("dSYMs.zip")
        var request = Self.request(build, pathMap, zip: zip.path)
        request.format = .json
        let response = request.run()
        #expect(response.status == .success, "\(response.messages.map(\.body))")
        #expect(response.messages.contains(.collected(2, destination: zip.path)))
        let findings = try #require(response.report?.findings)
        #expect(findings.count == 2)
        for finding in findings {
            guard case .linked(let tool)? = finding.collection else {
                Issue.record("\(finding.architecture.name): \(String(describing: finding.collection))")
                continue
            }
            #expect(tool.hasSuffix("dsymutil-19"))
        }
        #expect(response.standardOutput?.contains(#""collect" : {"#) == true || response.standardOutput?.contains(#""collect":{"#) == true)
        #expect(response.standardOutput?.contains("linked") == true)

        let archive = try Archive(url: zip, accessMode: .read)
        let files = archive.filter { $0.type == .file }.map(\.path).sorted()
        #expect(
            files
                == [Self.x86_64, Self.arm64].sorted().flatMap {
                    ["\($0).dSYM/Contents/Info.plist", "\($0).dSYM/Contents/Resources/DWARF/DebugMapApp"]
                })
        let unpacked = folder.appendingPathComponent("unpacked")
        try FileManager.default.unzipItem(at: zip, to: unpacked)
        for (uuid, arch) in [(Self.arm64, "arm64"), (Self.x86_64, "x86_64")] {
            let dwarf = unpacked.appendingPathComponent("\(uuid).dSYM/Contents/Resources/DWARF/DebugMapApp").path
            let slices = try MachOFile(path: dwarf).slices
            #expect(slices.count == 1)
            #expect(slices.first?.debugID?.description == uuid)
            #expect(slices.first?.architecture == Architecture(arch))
            #expect((slices.first?.section(segment: "__DWARF", name: "__debug_info")?.size ?? 0) > 0)
        }
    }

    /// A rebuilt object: the slice is not linked (a dSYM of it would miss that object's
    /// lines), its reason names the object, and the gate fails; the other slice is collected.
    @Test func touchedObjectMakesTheSliceNotCollected() throws {
        guard Self.dsymutil != nil else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        try DebugMapFixture.pin(
            folder.appendingPathComponent("obj/arm64/Shapes.o"), to: DebugMapFixture.modificationTime.addingTimeInterval(60))
        let destination = folder.appendingPathComponent("collected").path
        let response = Self.request(build, pathMap, folder: destination).run()
        #expect(response.status == .failed)
        let arm64 = try #require(response.report?.findings.first { $0.architecture == Architecture("arm64") })
        guard case .notCollected(let reason)? = arm64.collection else {
            Issue.record("\(String(describing: arm64.collection))")
            return
        }
        #expect(reason.contains("\(DebugMapFixture.recordedObjects)/arm64/Shapes.o: modified"))
        #expect(arm64.fails)
        #expect(arm64.detail.contains("not collected: "))
        #expect(response.report?.renderJSON().contains(#""status" : "not-collected""#) == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["\(Self.x86_64).dSYM"])
        #expect(response.messages.contains { if case .notLinked = $0 { return true } else { return false } })
    }

    /// No dsymutil: every debug-mapped slice is not collected with what to install, and the
    /// gate fails; nothing is skipped in silence.
    @Test func missingDsymutilSaysWhatToInstall() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        let empty = folder.appendingPathComponent("no-tools")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        var request = Self.request(build, pathMap, folder: folder.appendingPathComponent("collected").path)
        request.toolSearchPath = empty.path
        let response = request.run()
        #expect(response.status == .failed)
        for finding in response.report?.findings ?? [] {
            #expect(finding.collection == .notCollected(reason: DebugMapLinker.installHint))
        }
        let warnings = response.messages.filter { if case .notLinked = $0 { return true } else { return false } }
        #expect(warnings.count == 2)
        #expect(warnings.first?.body.contains("apt-get install llvm-19") == true)
        #expect(response.messages.contains(.collected(0, destination: folder.appendingPathComponent("collected").path)))
    }

    /// `--dsymutil PATH`, else the newest `dsymutil-N` on PATH, else `dsymutil`.
    @Test func dsymutilIsFoundByADocumentedSearch() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        for place in [first, second] { try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true) }
        let plain = try Self.fakeTool("exit 0", in: first)
        #expect(DebugMapLinker.find(explicit: nil, searchPath: first.path) == .success(plain))
        _ = try Self.fakeTool("exit 0", in: first, name: "dsymutil-14")
        let newest = try Self.fakeTool("exit 0", in: second, name: "dsymutil-19")
        #expect(DebugMapLinker.find(explicit: nil, searchPath: "\(first.path):\(second.path)") == .success(newest))
        // Not executable: not a candidate.
        try "".write(to: first.appendingPathComponent("dsymutil-20"), atomically: true, encoding: .utf8)
        #expect(DebugMapLinker.find(explicit: nil, searchPath: "\(first.path):\(second.path)") == .success(newest))
        #expect(DebugMapLinker.find(explicit: plain, searchPath: second.path) == .success(plain))
        #expect(DebugMapLinker.find(explicit: nil, searchPath: "") == .failure(.tool(DebugMapLinker.installHint)))
        let missing = folder.appendingPathComponent("nowhere/dsymutil").path
        #expect(
            DebugMapLinker.find(explicit: missing, searchPath: second.path)
                == .failure(.tool("--dsymutil \(missing) is not an executable file")))
    }

    /// What dsymutil makes is checked: no DWARF file, a dSYM of several slices, a warning about
    /// an object — each leaves the slice not collected with the reason.
    @Test func whatDsymutilMadeIsChecked() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap-collect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (build, pathMap) = try Self.build(in: folder)
        let reference = DebugMapFixture.root.appendingPathComponent("dsyms/DebugMapApp.dSYM").path
        // Arguments: -arch A --oso-prepend-path ROOT -o BUNDLE BINARY.
        let cases: [(body: String, reason: String)] = [
            ("exit 0", "made no DWARF file"),
            ("mkdir -p \"$6\" && cp -R '\(reference)/.' \"$6\"", "its dSYM has 2 slices, not one"),
            (
                "echo \"warning: $4/tmp/x.o: timestamp mismatch between object file and debug map\" >&2; mkdir -p \"$6\"",
                "/tmp/x.o: timestamp mismatch"
            ),
            ("echo 'error: out of disk' >&2; exit 3", "failed (status 3): error: out of disk"),
        ]
        for (index, item) in cases.enumerated() {
            let tools = folder.appendingPathComponent("tools-\(index)")
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            var request = Self.request(build, pathMap, folder: folder.appendingPathComponent("collected-\(index)").path)
            request.dsymutil = try Self.fakeTool(item.body, in: tools)
            let response = request.run()
            #expect(response.status == .failed, "\(item.body)")
            for finding in response.report?.findings ?? [] {
                guard case .notCollected(let reason)? = finding.collection else {
                    Issue.record("\(item.body): \(String(describing: finding.collection))")
                    continue
                }
                #expect(reason.contains(item.reason), "\(reason)")
            }
        }
    }
}
