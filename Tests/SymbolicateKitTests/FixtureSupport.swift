import Foundation

/// Locations of the committed fixtures and the ground truth written by Fixtures/generate.sh
/// from llvm-symbolizer (Fixtures/reports/manifest.json).
enum FixtureSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let dsyms = fixtures.appendingPathComponent("dsyms").path
    static let binaries = fixtures.appendingPathComponent("bin").path

    struct ExpectedLevel: Decodable, Sendable {
        var function: String
        var file: String?
        var line: Int?
    }

    struct ExpectedFrame: Decodable, Sendable {
        var frameIndex: Int
        var image: String
        var address: String
        var crashingFrame: Bool
        var dsym: String?
        var expected: [ExpectedLevel]?
        /// Nearest preceding LC_SYMTAB symbol of the binary (llvm-nm), atos-style offset.
        var symbolTable: SymbolTableFact?
    }

    struct SymbolTableFact: Decodable, Sendable {
        var symbol: String
        var offset: UInt64
    }

    struct AppImage: Decodable, Sendable {
        var name: String
        var uuid: String
        var arch: String
        var dsym: String?
    }

    struct Report: Decodable, Sendable {
        var file: String
        var format: String
        var scenario: String
        var exceptionType: String
        var crashedThread: Int
        var appImages: [AppImage]
        var crashedThreadAppFrames: [ExpectedFrame]
        var lastExceptionBacktraceAppFrames: [ExpectedFrame]?
        var path: String { fixtures.appendingPathComponent(file).path }
        var testDescription: String { file }
    }

    static let manifest: [Report] = {
        let url = fixtures.appendingPathComponent("reports/manifest.json")
        guard let data = try? Data(contentsOf: url),
              let reports = try? JSONDecoder().decode([Report].self, from: data)
        else { return [] }
        return reports
    }()
}

