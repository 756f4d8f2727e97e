import Foundation

/// Locates the shared corpus (`../shared/corpus/reports` beside the package root) and the
/// package's own `Fixtures/`.
public enum Corpus {
    public static let reportsDirectory: URL = TestPaths.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/reports")

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: reportsDirectory.path)
    }

    public static func url(_ name: String) -> URL { reportsDirectory.appendingPathComponent(name) }

    /// A corpus report copied into `Fixtures/corpus/` (with its source in Fixtures/README.md),
    /// for tests that must run where the shared corpus is absent, as on CI's fresh clone.
    public static func bundled(_ name: String) -> URL {
        TestPaths.fixtures.appendingPathComponent("corpus").appendingPathComponent(name)
    }

    public static var allReports: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: reportsDirectory.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "SOURCES.md" }.sorted()
    }

    /// Every report under `Fixtures/` (any depth) that looks like a crash report by name.
    public static var fixtureReports: [URL] {
        let root = TestPaths.fixtures
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var out: [URL] = []
        for case let url as URL in e where ["crash", "ips", "txt"].contains(url.pathExtension) && url.path.contains("/reports/") {
            out.append(url)
        }
        return out.sorted { $0.path < $1.path }
    }

    public static func skipReason() -> String? {
        isAvailable ? nil : "corpus not found at \(reportsDirectory.path); skipping corpus tests"
    }
}
