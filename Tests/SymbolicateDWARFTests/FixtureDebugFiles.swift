import Foundation
import SymbolicateCore
import SymbolicateDWARF

/// Fixture debug files opened one file at a time: these tests are about the session, so
/// nothing is discovered (a stripped binary's `.gnu_debuglink` is not followed) and the build
/// is named outright. Choosing a build as `atos -o` does is `NamedDebugFile`'s, tested in
/// SymbolicateDiscoveryTests.
enum FixtureDebugFiles {
    struct NoSuchBuild: Error {}

    /// The DWARF files of a `.dSYM` bundle, or the file itself.
    static func files(_ path: String) -> [String] {
        let folder = DSYMBundle.dwarfFolder(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [path] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Every build in `path` (each file of a bundle, each slice of a universal file), from headers.
    static func builds(_ path: String) throws -> [any DebugObject] {
        try files(path).flatMap { file in
            guard let format = DebugFileFormats.format(ofFileAt: file) else { throw NoSuchBuild() }
            return try format.objects(inFile: file)
        }
    }

    /// Opens the build with `id`, or of `architecture`, or the first.
    static func open(_ path: String, id: DebugID? = nil, architecture: Architecture? = nil) throws -> any DebugLookup {
        let build = try builds(path).first { build in
            id.map { build.debugID == $0 } ?? architecture.map { build.architecture == $0 } ?? true
        }
        guard let build else { throw NoSuchBuild() }
        return try build.open()
    }
}
