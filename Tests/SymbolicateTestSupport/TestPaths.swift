import Foundation

/// Where the package's fixtures and the shared corpus live, for every test target.
public enum TestPaths {
    /// The package root, derived from this file's location (Tests/SymbolicateTestSupport/…).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    /// The folder of committed dSYM bundles.
    public static let dsyms = fixtures.appendingPathComponent("dsyms").path
    /// The folder of the binaries the dSYMs were made from.
    public static let binaries = fixtures.appendingPathComponent("bin").path

    /// Every committed dSYM bundle: the app fixtures (`Fixtures/dsyms`) and the Xcode-shape
    /// fixtures (`Fixtures/xcode-shapes/dsyms`).
    public static var dsymBundles: [String] {
        ["dsyms", "xcode-shapes/dsyms"].flatMap { path -> [String] in
            let folder = fixtures.appendingPathComponent(path)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".dSYM") }.sorted().map { folder.appendingPathComponent($0).path }
        }
    }

    /// A fresh temporary folder (the caller removes it).
    public static func temporaryDirectory(_ label: String = "test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The Linux fixtures (Fixtures/linux, built by Fixtures/linux/generate.sh).
public enum LinuxFixtures {
    public static let root = TestPaths.fixtures.appendingPathComponent("linux")
    /// Stripped program with a `.gnu_debuglink` to `crashy.debug`.
    public static let binary = root.appendingPathComponent("bin/crashy").path
    public static let debugFile = root.appendingPathComponent("bin/crashy.debug").path
    public static let zlibDebugFile = root.appendingPathComponent("bin/crashy-zlib.debug").path
    public static let zstdDebugFile = root.appendingPathComponent("bin/crashy-zstd.debug").path
    public static let modes = ["unwrap", "index", "pointer", "async"]

    public static func log(_ name: String) -> String { root.appendingPathComponent("logs/\(name)").path }

    /// One oracle answer (llvm-symbolizer-19 + swift-demangle --simplified, recorded by the
    /// generator) for a frame of a log.
    public struct OracleFrame: Decodable, Sendable {
        public struct Level: Decodable, Sendable, Equatable {
            public var function: String
            public var file: String
            public var line: Int
            /// `function | file:line`, how tests print and compare a level.
            public var text: String { "\(function) | \(file):\(line)" }
        }
        public var thread: Int
        public var frame: Int
        public var address: String
        public var fileAddress: String
        public var frames: [Level]
    }

    /// `oracle.json`: log file name → the program's frames with their oracle chains.
    public static let oracle: [String: [OracleFrame]] = oracle(in: root)

    /// The `oracle.json` of a Linux fixture folder (written by `Fixtures/linux/oracle.py`).
    public static func oracle(in folder: URL) -> [String: [OracleFrame]] {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("oracle.json").path),
            let decoded = try? JSONDecoder().decode([String: [OracleFrame]].self, from: data)
        else { return [:] }
        return decoded
    }
}

/// The named-frame Linux fixture (Fixtures/linux-named, built by its generate.sh): the Swift
/// runtime named every frame from the debug file's symbol table, with no file or line.
public enum LinuxNamedFixture {
    public static let root = TestPaths.fixtures.appendingPathComponent("linux-named")
    public static let debugFile = root.appendingPathComponent("bin/app.debug").path
    public static let logs = ["crash.txt", "crash.json"]
    public static func log(_ name: String) -> String { root.appendingPathComponent("logs/\(name)").path }
    public static let oracle: [String: [LinuxFixtures.OracleFrame]] = LinuxFixtures.oracle(in: root)
}

/// Named-frame variants of the fixture reports and logs (Fixtures/named, written by
/// Fixtures/tools/named.py): app frames named from the binaries' symbol tables, no file or line.
public enum NamedFrameFixtures {
    public static let root = TestPaths.fixtures.appendingPathComponent("named")
    /// File names in Fixtures/named; each is a variant of the file of that name in
    /// Fixtures/reports or Fixtures/logs.
    public static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    }
    /// The unnamed original of a variant.
    public static func original(of name: String) -> String {
        let report = TestPaths.fixtures.appendingPathComponent("reports/\(name)").path
        return FileManager.default.fileExists(atPath: report) ? report : TestPaths.fixtures.appendingPathComponent("logs/\(name)").path
    }
}

/// The ELF naming fixtures (Fixtures/elf-lto, built by its generate.sh with gcc-12 and clang):
/// LTO-renamed locals, clones, folded aliases, GCC ABI-2 template-pack manglings.
public enum ELFNamingFixtures {
    public static let root = TestPaths.fixtures.appendingPathComponent("elf-lto")
    public static let debugFiles = ["gcc-lto", "gcc-abi2", "clang-thinlto"].map { root.appendingPathComponent("bin/\($0).debug").path }
}
