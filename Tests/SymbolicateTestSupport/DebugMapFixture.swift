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
}
