import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateDWARF
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// `serve --object-path-map`: a Debug build's binary among `--debug-files` answers every
/// request through the object files its debug map names, moved to another folder, exactly as
/// the dSYM dsymutil-19 links from the same map answers (Fixtures/debugmap), over loopback.
@Suite(.tags(.server)) struct DebugMapServeTests {
    static func answer(_ server: ServeServer, _ report: String) async throws -> String {
        try await Serve.live(server) { client in
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(Data(report.utf8))) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
        }
    }

    @Test func movedObjectsAnswerThroughThePathMap() async throws {
        let functions = try DebugMapFixture.functionAddresses()
        guard !functions.isEmpty else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let report = DebugMapFixture.report(functions.map(\.address))
        let rule = ObjectPathMap.Rule(old: DebugMapFixture.recordedObjects, new: objects.path)

        let mapped = try await Self.answer(
            try Serve.server(debugFiles: [DebugMapFixture.binary]) { $0.objectPathMap = ObjectPathMap([rule]) }, report)
        let reference = try await Self.answer(
            try Serve.server(debugFiles: [DebugMapFixture.root.appendingPathComponent("dsyms/DebugMapApp.dSYM").path]), report)
        let unmapped = try await Self.answer(try Serve.server(debugFiles: [DebugMapFixture.binary]), report)
        #expect(mapped == reference)
        for file in ["main.c", "Shapes.cpp", "Greeter.m", "MathUtil.c", "TextUtil.cpp"] {
            #expect(mapped.contains("(\(file):"), "\(file)")
        }
        #expect(!unmapped.contains("(main.c:"))
        // The flag reaches the configuration the server is made from.
        var request = ServeRequest(environment: [:])
        request.objectPathMap = ObjectPathMap([rule])
        #expect(request.configuration.objectPathMap == ObjectPathMap([rule]))
    }
}
