import Foundation

/// Every report file the fixtures hold, as paths relative to `Fixtures/`: the made fixtures,
/// the bundled real corpus, the abort-path reports and the logs. For tests that check a rule
/// holds on every report (not for goldens, which name their files).
public enum FixtureReports {
    public static let all: [String] = {
        var paths: [String] = []
        for folder in ["reports", "corpus", "abort-paths/reports", "logs"] {
            let url = TestPaths.fixtures.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix(".json") && !name.hasSuffix(".py") {
                var isFolder: ObjCBool = false
                let path = url.appendingPathComponent(name).path
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                    paths.append("\(folder)/\(name)")
                }
            }
        }
        return paths
    }()
}
