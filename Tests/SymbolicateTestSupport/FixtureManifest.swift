import Foundation

/// Locations of the committed fixtures and the ground truth written by Fixtures/generate.sh
/// from llvm-symbolizer (Fixtures/reports/manifest.json).
public enum FixtureManifest {
    public struct ExpectedLevel: Decodable, Sendable {
        public var function: String
        public var file: String?
        public var line: Int?
    }

    public struct ExpectedFrame: Decodable, Sendable {
        public var frameIndex: Int
        public var image: String
        public var address: String
        public var crashingFrame: Bool
        /// The frame's offset in its image (address − load address), from the fixture script.
        public var imageOffset: UInt64?
        public var dsym: String?
        public var expected: [ExpectedLevel]?
        /// Nearest preceding LC_SYMTAB symbol of the binary (llvm-nm), atos-style offset.
        public var symbolTable: SymbolTableFact?
    }

    public struct SymbolTableFact: Decodable, Sendable {
        public var symbol: String
        public var offset: UInt64
    }

    public struct AppImage: Decodable, Sendable {
        public var name: String
        public var uuid: String
        public var arch: String
        public var dsym: String?
    }

    public struct Report: Decodable, Sendable {
        public var file: String
        public var format: String
        public var scenario: String
        public var exceptionType: String
        public var crashedThread: Int
        public var appImages: [AppImage]
        public var crashedThreadAppFrames: [ExpectedFrame]
        public var lastExceptionBacktraceAppFrames: [ExpectedFrame]?
        public var path: String { TestPaths.fixtures.appendingPathComponent(file).path }
        public var testDescription: String { file }
    }

    public static let reports: [Report] = {
        let url = TestPaths.fixtures.appendingPathComponent("reports/manifest.json")
        guard let data = try? Data(contentsOf: url),
            let reports = try? JSONDecoder().decode([Report].self, from: data)
        else { return [] }
        return reports
    }()
}
