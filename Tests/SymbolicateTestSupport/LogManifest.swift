import Foundation

/// Ground truth for the non-report logs (`Fixtures/logs/manifest.json`, written by
/// `Fixtures/tools/logs.py`): every app frame of every `sample`, spindump and MetricKit log
/// with llvm-symbolizer-19's answer at its lookup address.
public enum LogManifest {
    public struct Frame: Decodable, Sendable {
        public var address: String
        public var image: String
        public var uuid: String
        public var dsym: String
        public var arch: String
        /// The deepest frame of a branch (where the thread was): looked up at its address;
        /// every other frame is a return address, looked up at address − 1.
        public var deepest: Bool
        public var lookupFileAddress: String
        public var expected: [FixtureManifest.ExpectedLevel]
    }

    public struct Log: Decodable, Sendable {
        public var file: String
        public var producer: String
        public var appFrames: [Frame]
        public var name: String { URL(fileURLWithPath: file).lastPathComponent }
    }

    public static let logs: [Log] = {
        let url = TestPaths.fixtures.appendingPathComponent("logs/manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Log].self, from: data)) ?? []
    }()
}
