import Foundation
import SymbolicateTestSupport
import Testing

/// The binary end to end on a Debug build without a dSYM (Fixtures/debugmap): `report` and
/// `atos` answer through the debug map exactly as through the dSYM dsymutil-19 links from the
/// same map; moved objects through `--object-path-map`; a touched object named in a warning.
@Suite struct DebugMapCLITests {
    @Test func reportAndAtosAnswerAsTheDSYM() throws {
        let functions = try DebugMapFixture.functionAddresses()
        guard !functions.isEmpty else { return }
        #expect(functions.count >= 8)
        let folder = try TestPaths.temporaryDirectory("debugmap-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let pathMap = ["--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"]
        let reportFile = folder.appendingPathComponent("crash.crash")
        try DebugMapFixture.report(functions.map(\.address)).write(to: reportFile, atomically: true, encoding: .utf8)
        let dsym = DebugMapFixture.root.appendingPathComponent("dsyms/DebugMapApp.dSYM").path

        let mapped = try CLI.run([reportFile.path, DebugMapFixture.binary] + pathMap)
        let reference = try CLI.run([reportFile.path, dsym])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stdout == reference.stdout)
        #expect(mapped.stderr == reference.stderr)
        for file in ["main.c", "Shapes.cpp", "Greeter.m", "MathUtil.c", "TextUtil.cpp"] {
            #expect(mapped.stdout.contains("/src/DebugMapApp/\(file):") || mapped.stdout.contains("(\(file):"), "\(file)")
        }

        let addresses = functions.map { "0x" + String($0.address, radix: 16) }
        let atosMapped = try CLI.run(["atos", "-o", DebugMapFixture.binary, "--arch", "arm64", "-i"] + pathMap + addresses)
        let atosReference = try CLI.run(["atos", "-o", dsym, "--arch", "arm64", "-i"] + addresses)
        #expect(atosMapped.status == 0, "\(atosMapped.stderr)")
        #expect(atosMapped.stdout == atosReference.stdout)
        #expect(atosMapped.stderr.isEmpty, "\(atosMapped.stderr)")
    }

    /// A rebuilt object (another modification time) is named on standard error; its frames
    /// keep only the symbol table's names, the other objects still answer with file and line.
    @Test func touchedObjectIsNamedInAWarning() throws {
        let functions = try DebugMapFixture.functionAddresses()
        guard !functions.isEmpty else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        try DebugMapFixture.pin(
            objects.appendingPathComponent("arm64/Shapes.o"), to: DebugMapFixture.modificationTime.addingTimeInterval(3600))
        let reportFile = folder.appendingPathComponent("crash.crash")
        try DebugMapFixture.report(functions.map(\.address)).write(to: reportFile, atomically: true, encoding: .utf8)
        let result = try CLI.run(
            [reportFile.path, DebugMapFixture.binary, "--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"])
        #expect(result.stderr.contains("\(DebugMapFixture.recordedObjects)/arm64/Shapes.o changed since the binary was linked"))
        #expect(!result.stdout.contains("Shapes.cpp:"))
        #expect(result.stdout.contains("dm::measure(dm::Shape const&, int)"))
        #expect(result.stdout.contains("main.c:"))
    }

    /// `explain` takes the map as `report` does: a moved object folder gives the diagnosis the
    /// lines and functions the dSYM gives it; without the map the objects are missing, named.
    @Test func explainAnswersThroughAMovedObjectFolder() throws {
        let functions = try DebugMapFixture.functionAddresses()
        guard !functions.isEmpty else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let reportFile = folder.appendingPathComponent("crash.crash")
        try DebugMapFixture.report(functions.map(\.address)).write(to: reportFile, atomically: true, encoding: .utf8)
        let dsym = DebugMapFixture.root.appendingPathComponent("dsyms/DebugMapApp.dSYM").path

        for format in ["text", "json"] {
            let flags = ["explain", "--format", format, "--color", "never", reportFile.path]
            let mapped = try CLI.run(
                flags + [DebugMapFixture.binary, "--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"])
            let reference = try CLI.run(flags + [dsym])
            let unmapped = try CLI.run(flags + [DebugMapFixture.binary])
            #expect(mapped.status == 0, "\(mapped.stderr)")
            #expect(mapped.stdout == reference.stdout, "\(format)")
            #expect(mapped.stdout.contains("TextUtil.cpp:9"), "\(format): \(mapped.stdout)")
            #expect(!unmapped.stdout.contains("TextUtil.cpp:"), "\(format)")
            #expect(unmapped.stderr.contains("\(DebugMapFixture.recordedObjects)/arm64/main.o named by the debug map is missing"))
            #expect(!mapped.stderr.contains("missing"), "\(mapped.stderr)")
        }
    }

    @Test func malformedPathMapIsAUsageError() throws {
        let result = try CLI.run(["atos", "-o", DebugMapFixture.binary, "--object-path-map", "no-equals-sign", "0x100004000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--object-path-map"))
    }
}
