import Foundation

/// The debug-map fixture (Fixtures/debugmap, built by its generate.sh): a universal
/// executable without a dSYM, the objects and static library its debug map names, and the
/// dSYM dsymutil-19 linked from the same map (the reference answer).
public enum DebugMapFixture {
    public static let root = TestPaths.fixtures.appendingPathComponent("debugmap")
    public static let binary = root.appendingPathComponent("bin/DebugMapApp").path
    public static let dsymDWARF = root.appendingPathComponent("dsyms/DebugMapApp.dSYM/Contents/Resources/DWARF/DebugMapApp").path
    /// The objects' folder as the debug map records it (the generator's work folder, removed
    /// after the build so that no test finds the objects there by chance).
    public static let recordedObjects = "/tmp/symbolicate-fixtures-debugmap/obj"
    public static let architectures = ["arm64", "x86_64"]
    /// The Xcode 16+ Debug layout (arm64): the stub executable, `DebugDylibApp.debug.dylib`
    /// (the code, with its debug map) and `__preview.dylib`.
    public static let debugDylibApp = root.appendingPathComponent("DebugDylibApp.app").path
    public static let debugDylibDSYM = root.appendingPathComponent("dsyms/DebugDylibApp.debug.dylib.dSYM").path
    /// The modification time the map records for every object and archive member.
    public static let modificationTime = Date(timeIntervalSince1970: 1_700_000_000)

    /// Copies the objects into `folder/obj/<arch>/` (and `folder/obj/debugdylib/`) with the recorded modification time (git
    /// does not keep mtimes), as a build folder moved to another machine; returns `folder/obj`.
    @discardableResult
    public static func layOutObjects(in folder: URL) throws -> URL {
        let objects = folder.appendingPathComponent("obj")
        try FileManager.default.copyItem(at: root.appendingPathComponent("obj"), to: objects)
        // Every folder of objects: one per architecture, and the Debug dylib's own (`debugdylib`).
        for arch in try FileManager.default.contentsOfDirectory(atPath: objects.path) {
            let archFolder = objects.appendingPathComponent(arch)
            for name in try FileManager.default.contentsOfDirectory(atPath: archFolder.path) {
                try pin(archFolder.appendingPathComponent(name))
            }
        }
        return objects
    }

    /// Sets a file's modification time to the recorded one.
    public static func pin(_ file: URL, to date: Date = modificationTime) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    // MARK: A crash of the arm64 slice

    public static let arm64UUID = "4c4c445e55553144a1dffc3140ea49ab"
    public static let loadAddress: UInt64 = 0x1_04a0_0000
    public static let linkedAddress: UInt64 = 0x1_0000_0000

    /// The arm64 slice's functions (llvm-nm-19), each with an address inside it.
    public static func functionAddresses() throws -> [(name: String, address: UInt64)] {
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

    /// A report of the arm64 slice crashing with one frame per function (written for the
    /// fixture binary, in Apple's text layout).
    public static func report(_ frames: [UInt64]) -> String {
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
}
