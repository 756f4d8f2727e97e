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
