import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateSymbolSources

/// A server that is down is known at once, not after async-http-client's connect retries: the
/// probe before the first request says refused, silent or open.
@Suite struct ConnectProbeTests {
    @Test func aClosedPortIsRefusedAtOnce() {
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        let start = Date()
        let answer = ConnectProbe.probe(host: "127.0.0.1", port: 9, timeout: 10)
        #expect(answer == .refused("connection refused"))
        // Bounds well under the time limit, so a loaded machine does not decide.
        #expect(Date().timeIntervalSince(start) < 5, "a refusal must not wait for the time limit")
    }

    @Test func aListeningServerIsOpen() throws {
        let root = try TestPaths.temporaryDirectory("probe")
        defer { try? FileManager.default.removeItem(at: root) }
        let served = root.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let server = try SymbolServerProcess(root: served)
        #expect(ConnectProbe.probe(host: "127.0.0.1", port: server.port, timeout: 10) == .open)
        #expect(ConnectProbe.probe(host: "localhost", port: server.port, timeout: 10) == .open)
    }

    @Test func aNameThatDoesNotResolveSaysSo() {
        // `.invalid` never resolves (RFC 2606).
        guard case .refused(let why) = ConnectProbe.probe(host: "symbol-server.invalid", port: 80, timeout: 5) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(why.hasPrefix("cannot resolve symbol-server.invalid"))
    }

    @Test func theDownloaderAsksEachServerOnceAndNamesTheRefusal() throws {
        let downloader = HTTPDownloader(timeout: 5, maximumSize: 1 << 20)
        let root = try TestPaths.temporaryDirectory("probe")
        defer { try? FileManager.default.removeItem(at: root) }
        let start = Date()
        for name in ["a", "b", "c"] {
            let outcome = downloader.download(
                "http://127.0.0.1:9/\(name)", to: root.appendingPathComponent(name).path, headersFor: { _ in [] })
            #expect(outcome == .failed("cannot connect (connection refused)", reachable: false))
        }
        // Under one connect timeout (5 s) for all three: each alone used to wait it out.
        #expect(Date().timeIntervalSince(start) < 4.5, "three refusals took \(Date().timeIntervalSince(start)) s")
    }
}
