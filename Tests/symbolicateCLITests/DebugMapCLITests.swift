import Foundation
import SymbolicateTestSupport
import Testing

/// The binary end to end on a Debug build without a dSYM (Fixtures/debugmap): `report` and
/// `atos` answer through the debug map exactly as through the dSYM dsymutil-19 links from the
/// same map; moved objects through `--object-path-map`; a touched object named in a warning.
@Suite struct DebugMapCLITests {
    static let arm64UUID = "4c4c445e55553144a1dffc3140ea49ab"
    static let loadAddress: UInt64 = 0x1_04a0_0000
    static let linkedAddress: UInt64 = 0x1_0000_0000

    /// The arm64 slice's functions (llvm-nm-19), each with an address inside it.
    static func functionAddresses() throws -> [(name: String, address: UInt64)] {
        guard let nm = ExternalTool.find("llvm-nm-19") else { return [] }
        let text = try ExternalTool.run(nm, ["--arch=arm64", "--defined-only", DebugMapFixture.binary])
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[1] == "T" || parts[1] == "t", let address = UInt64(parts[0], radix: 16),
                !parts[2].hasPrefix("__mh")
            else { return nil }
            return (String(parts[2]), address + 4)
        }
    }

    /// A report of the arm64 slice crashing with one frame per function (written here for
    /// the fixture binary, in Apple's text layout).
    static func report(_ frames: [UInt64]) -> String {
        let slide = loadAddress - linkedAddress
        var text = """
            Incident Identifier: 6A1C2E34-9B7D-4F10-8E55-2D3C4B5A6978
            Hardware Model:      iPhone14,2
            Process:             DebugMapApp [4120]
            Path:                /private/var/containers/Bundle/Application/0C1D2E3F-4A5B-6C7D-8E9F-A0B1C2D3E4F5/DebugMapApp.app/DebugMapApp
            Identifier:          com.example.DebugMapApp
            Version:             1.0 (1)
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 15.5 (19F77)
            Report Version:      104

            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000008
            Triggered by Thread:  0

            Thread 0 Crashed:

            """
        for (index, address) in frames.enumerated() {
            let runtime = address + slide
            text +=
                "\(index)\(String(repeating: " ", count: 4 - String(index).count))DebugMapApp                   \t0x\(String(runtime, radix: 16)) 0x\(String(loadAddress, radix: 16)) + \(runtime - loadAddress)\n"
        }
        text += """

            Binary Images:
                   0x\(String(loadAddress, radix: 16)) -        0x\(String(loadAddress + 0xFFFF, radix: 16)) DebugMapApp arm64  <\(arm64UUID)> /private/var/containers/Bundle/Application/0C1D2E3F-4A5B-6C7D-8E9F-A0B1C2D3E4F5/DebugMapApp.app/DebugMapApp

            """
        return text
    }

    @Test func reportAndAtosAnswerAsTheDSYM() throws {
        let functions = try Self.functionAddresses()
        guard !functions.isEmpty else { return }
        #expect(functions.count >= 8)
        let folder = try TestPaths.temporaryDirectory("debugmap-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let pathMap = ["--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"]
        let reportFile = folder.appendingPathComponent("crash.crash")
        try Self.report(functions.map(\.address)).write(to: reportFile, atomically: true, encoding: .utf8)
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
        let functions = try Self.functionAddresses()
        guard !functions.isEmpty else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        try DebugMapFixture.pin(
            objects.appendingPathComponent("arm64/Shapes.o"), to: DebugMapFixture.modificationTime.addingTimeInterval(3600))
        let reportFile = folder.appendingPathComponent("crash.crash")
        try Self.report(functions.map(\.address)).write(to: reportFile, atomically: true, encoding: .utf8)
        let result = try CLI.run(
            [reportFile.path, DebugMapFixture.binary, "--object-path-map", "\(DebugMapFixture.recordedObjects)=\(objects.path)"])
        #expect(result.stderr.contains("\(DebugMapFixture.recordedObjects)/arm64/Shapes.o changed since the binary was linked"))
        #expect(!result.stdout.contains("Shapes.cpp:"))
        #expect(result.stdout.contains("dm::measure(dm::Shape const&, int)"))
        #expect(result.stdout.contains("main.c:"))
    }

    @Test func malformedPathMapIsAUsageError() throws {
        let result = try CLI.run(["atos", "-o", DebugMapFixture.binary, "--object-path-map", "no-equals-sign", "0x100004000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--object-path-map"))
    }
}
