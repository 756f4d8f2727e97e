import Foundation
import SymbolicatePipeline
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// `serve`'s rules without the binary: which flags make no server, the configuration the
/// flags and environment describe, and what a server that cannot start says.
@Suite struct ServeRequestTests {
    static func request(_ adjust: (inout ServeRequest) -> Void) -> ServeRequest {
        var request = ServeRequest(environment: [:])
        adjust(&request)
        return request
    }

    @Test func flagsOutOfRangeAreUsageErrors() {
        #expect(ServeRequest(environment: [:]).invalidArgument == nil)
        #expect(Self.request { $0.port = 0 }.invalidArgument == nil)
        #expect(Self.request { $0.port = 65535 }.invalidArgument == nil)
        #expect(Self.request { $0.port = -1 }.invalidArgument == "--port must be 0…65535")
        #expect(Self.request { $0.port = 65536 }.invalidArgument == "--port must be 0…65535")
        #expect(Self.request { $0.limits.uploadBytes = 0 }.invalidArgument == "--max-upload-bytes must be positive")
        #expect(Self.request { $0.limits.reportBytes = -5 }.invalidArgument == "--max-report-bytes must be positive")
        #expect(Self.request { $0.limits.concurrentRequests = 0 }.invalidArgument == "--max-requests must be at least 1")
        #expect(Self.request { $0.limits.requestSeconds = 0 }.invalidArgument == "--request-timeout must be positive")
        #expect(Self.request { $0.limits.requestSeconds = .nan }.invalidArgument == "--request-timeout must be positive")
        #expect(Self.request { $0.limits.headerSeconds = 0 }.invalidArgument == "--header-timeout must be positive")
        #expect(Self.request { $0.limits.bodySeconds = -1 }.invalidArgument == "--body-timeout must be positive")
        #expect(Self.request { $0.limits.idleSeconds = .nan }.invalidArgument == "--idle-timeout must be positive")
        #expect(Self.request { $0.limits.connections = 0 }.invalidArgument == "--max-connections must be at least 1")
        #expect(Self.request { $0.limits.connectionsPerClient = 0 }.invalidArgument == "--max-connections-per-client must be at least 1")
    }

    @Test func configurationFromFlagsAndEnvironment() {
        let defaults = ServeRequest(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"]).configuration
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8080)
        #expect(defaults.storePath == "/data/symbolicate/store")
        #expect(defaults.token == nil)
        #expect(ServeRequest(environment: ["HOME": "/home/me"]).configuration.storePath == "/home/me/.local/share/symbolicate/store")
        let given = Self.request {
            $0.store = "/srv/store"
            $0.debugFiles = ["a.dSYM"]
            $0.limits.requestSeconds = 5
            $0.environment = ["SYMBOLICATE_SERVE_TOKEN": "secret"]
        }.configuration
        #expect(given.storePath == "/srv/store" && given.debugFiles == ["a.dSYM"] && given.limits.requestSeconds == 5)
        #expect(given.token == "secret")
        // An empty token is none: the store stays read-only over HTTP.
        #expect(Self.request { $0.environment = ["SYMBOLICATE_SERVE_TOKEN": ""] }.configuration.token == nil)
    }

    /// A debug file that is not there stops the server before it listens: a usage error,
    /// said once, in the CLI's words.
    @Test func serverThatCannotStartIsAUsageError() async throws {
        let root = try TestPaths.temporaryDirectory("serve-request")
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("nope.dSYM").path
        let request = Self.request {
            $0.port = 0
            $0.debugFiles = [missing]
            $0.store = root.appendingPathComponent("store").path
        }
        let said = Collected()
        let status = try await request.run { said.append($0.text(tool: "symbolicate serve")) }
        #expect(status == .usage)
        #expect(said.all == ["symbolicate serve: error: \(missing): no such file or folder\n"])
    }

    /// A port another program listens on: said plainly, a usage error (not NIO's errno).
    @Test func aPortInUseIsSaidPlainly() async throws {
        let root = try TestPaths.temporaryDirectory("serve-port-in-use")
        defer { try? FileManager.default.removeItem(at: root) }
        let listener = try Listener()
        let request = Self.request {
            $0.port = listener.port
            $0.store = root.appendingPathComponent("store").path
        }
        let said = Collected()
        let status = try await request.run { said.append($0.text(tool: "symbolicate serve")) }
        #expect(status == .usage)
        #expect(
            said.all == [
                "symbolicate serve: error: port \(listener.port) on 127.0.0.1 is in use: stop what listens there or choose another --port\n"
            ])
        withExtendedLifetime(listener) {}
    }

    @Test func listeningLineNamesTheAddress() {
        let message = ServeMessage.listening(host: "0.0.0.0", port: 41234)
        #expect(message.text(tool: "symbolicate serve") == "symbolicate serve: listening on http://0.0.0.0:41234/ (open it in a browser)\n")
        #expect(message.stream == .standardError)
    }
}
