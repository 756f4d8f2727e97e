import Foundation
import SymbolicateTestSupport
import Testing

/// The binary end to end on Xcode 16+'s Debug layout (Fixtures/debugmap/DebugDylibApp.app: a
/// stub executable, `DebugDylibApp.debug.dylib` holding the code with its debug map, and
/// `__preview.dylib`): the debug dylib is matched by its own UUID and answers through its
/// debug map exactly as through the dSYM dsymutil-19 links from it; the stub and the
/// Previews interposer are not asked for dSYMs; DerivedData's built app is found with no
/// debug-file argument; `audit` tells the three apart.
@Suite(.tags(.launchesBinary)) struct DebugDylibCLITests {
    static let stubUUID = "4c4c44a155553144a123b533da50b7c1"
    static let dylibUUID = "4c4c444c55553144a1159b12b68abdf3"
    static let previewUUID = "4c4c44bf55553144a197482b5a4d9a73"
    static let stubLoad: UInt64 = 0x1_02f0_0000
    static let previewLoad: UInt64 = 0x1_0320_0000
    static let dylibLoad: UInt64 = 0x1_0340_0000
    static let container = "/private/var/containers/Bundle/Application/1D2E3F40-5B6C-7D8E-9FA0-B1C2D3E4F506/DebugDylibApp.app"

    /// The debug dylib's functions (llvm-nm-19; its `__TEXT` is linked at 0), each with an
    /// address inside it, and the stub's entry point.
    static func functions(of binary: String) throws -> [(name: String, address: UInt64)] {
        guard let nm = ExternalTool.find("llvm-nm-19") else { return [] }
        let text = try ExternalTool.run(nm, ["--defined-only", binary])
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[1] == "T" || parts[1] == "t", let address = UInt64(parts[0], radix: 16),
                !parts[2].hasPrefix("__mh")
            else { return nil }
            return (String(parts[2]), address + 4)
        }
    }

    /// A device report of the Debug app crashing in the debug dylib (one frame per function),
    /// the stub's frame last, in Apple's text layout.
    static func report(dylibFrames: [UInt64], stubFrame: UInt64) -> String {
        var frames = dylibFrames.map { ("DebugDylibApp.debug.dylib", dylibLoad, $0) }
        frames.append(("DebugDylibApp", stubLoad, stubFrame - 0x1_0000_0000))
        var text = """
            Incident Identifier: 7B2D3F45-AC8E-4021-9F66-3E4D5C6B7A89
            Hardware Model:      iPhone15,3
            Process:             DebugDylibApp [5120]
            Path:                \(container)/DebugDylibApp
            Identifier:          com.example.DebugDylibApp
            Version:             1.0 (1)
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 18.1 (22B83)
            Report Version:      104

            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000008
            Triggered by Thread:  0

            Thread 0 Crashed:

            """
        for (index, (name, load, offset)) in frames.enumerated() {
            let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
            text +=
                "\(index)\(String(repeating: " ", count: 4 - String(index).count))\(padded)\t0x\(String(load + offset, radix: 16)) 0x\(String(load, radix: 16)) + \(offset)\n"
        }
        func image(_ load: UInt64, _ name: String, _ uuid: String) -> String {
            "       0x\(String(load, radix: 16)) -        0x\(String(load + 0x7FFF, radix: 16)) \(name) arm64  <\(uuid)> \(container)/\(name)\n"
        }
        text += "\nBinary Images:\n"
        text += image(stubLoad, "DebugDylibApp", stubUUID) + image(previewLoad, "__preview.dylib", previewUUID)
        text += image(dylibLoad, "DebugDylibApp.debug.dylib", dylibUUID)
        return text
    }

    static func writeReport(in folder: URL) throws -> String? {
        let dylib = try functions(of: DebugMapFixture.debugDylibApp + "/DebugDylibApp.debug.dylib")
        let stub = try functions(of: DebugMapFixture.debugDylibApp + "/DebugDylibApp")
        guard !dylib.isEmpty, let entry = stub.first(where: { $0.name == "___debug_blank_executor_main" }) else { return nil }
        let file = folder.appendingPathComponent("DebugDylibApp-2026-11-29-093000.crash")
        try report(dylibFrames: dylib.map(\.address), stubFrame: entry.address).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func debugDylibAnswersThroughItsMapAsThroughItsDSYM() throws {
        let folder = try TestPaths.temporaryDirectory("debug-dylib-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let report = try Self.writeReport(in: folder) else { return }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let pathMap = ["--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"]

        let mapped = try CLI.run(["--color", "never", report, DebugMapFixture.debugDylibApp] + pathMap)
        let reference = try CLI.run(["--color", "never", report, DebugMapFixture.debugDylibDSYM, DebugMapFixture.debugDylibApp])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stdout == reference.stdout)
        #expect(mapped.stderr == reference.stderr)
        for expected in [
            "dm_text_measure + 4 (TextUtil.cpp:", "main + 4 (main.c:", "__debug_main_executable_dylib_entry_point + 4 (DebugEntry.c:",
        ] {
            #expect(mapped.stdout.contains(expected), "\(expected)")
        }
        // The stub and the Previews interposer are Apple's code: no dSYM is asked for them.
        #expect(!mapped.stderr.contains("no dSYM"), "\(mapped.stderr)")
    }

    /// With nothing given, the debug dylib is the one image said to be missing, and the note
    /// says where a Debug build keeps its DWARF instead of pointing at App Store Connect.
    @Test func withoutDebugFilesTheNoteIsADebugBuilds() throws {
        let folder = try TestPaths.temporaryDirectory("debug-dylib-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let report = try Self.writeReport(in: folder) else { return }
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let result = try CLI.run(
            ["--color", "never", report], environment: ["HOME": home.path, "XDG_CACHE_HOME": "", "SYMBOLICATE_DSYM_PATH": ""],
            currentDirectory: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no dSYM for DebugDylibApp.debug.dylib"))
        #expect(!result.stderr.contains("no dSYM for DebugDylibApp <"), "the stub: \(result.stderr)")
        #expect(!result.stderr.contains("no dSYM for __preview.dylib"), "\(result.stderr)")
        #expect(result.stderr.contains("DebugDylibApp.debug.dylib is a Debug build's code"), "\(result.stderr)")
        #expect(!result.stderr.contains("App Store Connect"), "\(result.stderr)")
    }

    /// A Simulator Debug build left in DerivedData (`Build/Products/Debug-iphonesimulator/`)
    /// is found with no debug-file argument, by the debug dylib's UUID, and answers through
    /// its debug map.
    @Test func derivedDataBuiltAppIsFoundWithNoArgument() throws {
        let folder = try TestPaths.temporaryDirectory("debug-dylib-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let report = try Self.writeReport(in: folder) else { return }
        let home = folder.appendingPathComponent("home")
        let products = home.appendingPathComponent(
            "Library/Developer/Xcode/DerivedData/DebugDylibApp-ckdmwqfbhx/Build/Products/Debug-iphonesimulator")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: DebugMapFixture.debugDylibApp), to: products.appendingPathComponent("DebugDylibApp.app"))
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let result = try CLI.run(
            ["--color", "never", report, "--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"],
            environment: ["HOME": home.path, "XDG_CACHE_HOME": "", "SYMBOLICATE_DSYM_PATH": ""], currentDirectory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("searched ~/Library/Developer/Xcode/DerivedData") && result.stderr.contains("1 built app, 1 matching"),
            "\(result.stderr)")
        #expect(result.stdout.contains("dm_text_measure + 4 (TextUtil.cpp:"), "\(result.stdout)")
        #expect(!result.stderr.contains("no dSYM"), "\(result.stderr)")
    }

    /// `audit` of the Debug app: the stub is named as such, `__preview.dylib` is Xcode's, and
    /// the debug dylib gives names only while none of its objects is here (the gate fails),
    /// is a complete debug map once `--object-path-map` shows where they are (the gate
    /// passes), and names the one object that was rebuilt since the link.
    @Test func auditTellsTheDebugLayoutApart() throws {
        let folder = try TestPaths.temporaryDirectory("debug-dylib-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let missing = try CLI.run(["audit", "--format", "json", DebugMapFixture.debugDylibApp])
        #expect(missing.status == 1, "\(missing.stderr)")
        let found = try CLI.run(
            [
                "audit", "--format", "json", DebugMapFixture.debugDylibApp, "--object-path-map",
                "\(DebugMapFixture.recordedObjects)=\(objects.path)",
            ])
        #expect(found.status == 0, "\(found.stderr)")

        func findings(_ json: String) throws -> [String: [String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let list = object?["findings"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.map { (($0["binary"] as? String) ?? "", $0) })
        }
        let before = try findings(missing.stdout)
        let after = try findings(found.stdout)
        #expect(before["DebugDylibApp.app/DebugDylibApp"]?["status"] as? String == "debug-stub")
        #expect(before["DebugDylibApp.app/DebugDylibApp"]?["debugDylib"] as? String == "DebugDylibApp.debug.dylib")
        #expect(before["DebugDylibApp.app/__preview.dylib"]?["status"] as? String == "apple")
        let dylib = before["DebugDylibApp.app/DebugDylibApp.debug.dylib"]
        #expect(dylib?["status"] as? String == "symbol-table-only")
        #expect(dylib?["role"] as? String == "app")
        #expect(dylib?["fails"] as? Bool == true)
        let mapped = after["DebugDylibApp.app/DebugDylibApp.debug.dylib"]
        #expect(mapped?["status"] as? String == "debug-map")
        #expect(mapped?["complete"] as? Bool == true)
        #expect((mapped?["debugMap"] as? [String: Any])?["objects"] as? Int == 6)
        #expect(((mapped?["debugMap"] as? [String: Any])?["unusable"] as? [Any])?.isEmpty == true)

        // One object rebuilt after the link: named, and the gate fails.
        try DebugMapFixture.pin(
            objects.appendingPathComponent("arm64/Shapes.o"), to: DebugMapFixture.modificationTime.addingTimeInterval(60))
        let touched = try CLI.run(
            [
                "audit", "--format", "json", DebugMapFixture.debugDylibApp, "--object-path-map",
                "\(DebugMapFixture.recordedObjects)=\(objects.path)",
            ])
        #expect(touched.status == 1, "\(touched.stderr)")
        let partial = try findings(touched.stdout)["DebugDylibApp.app/DebugDylibApp.debug.dylib"]
        #expect(partial?["status"] as? String == "debug-map")
        let unusable = (partial?["debugMap"] as? [String: Any])?["unusable"] as? [[String: Any]]
        #expect(unusable?.count == 1)
        #expect(unusable?.first?["object"] as? String == "\(DebugMapFixture.recordedObjects)/arm64/Shapes.o")
        #expect(unusable?.first?["reason"] as? String == "modified")
    }
}
