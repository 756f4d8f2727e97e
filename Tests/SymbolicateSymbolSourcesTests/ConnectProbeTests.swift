import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateSymbolSources

/// A server that is down is known at once, not after async-http-client's connect retries: the
/// probe before the first request says refused, silent or open.
@Suite struct ConnectProbeTests {
    @Test func aClosedPortIsRefusedAtOnce() {
        // Port 9 (discard) on loopback: nothing listens there on a test machine. A refusal is the
        // kernel's answer; waiting out the time limit would answer `.silent` instead, so the
        // answer itself says the probe did not wait (no clock is read: issue 39).
        let answer = ConnectProbe.probe(host: "127.0.0.1", port: 9, timeout: 10)
        #expect(answer == .refused("connection refused"))
    }

    @Test func aListeningServerIsOpen() throws {
        let root = try TestPaths.temporaryDirectory("probe")
        defer { try? FileManager.default.removeItem(at: root) }
        let served = root.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let server = try SymbolServerProcess(root: served)
        #expect(ConnectProbe.probe(host: "127.0.0.1", port: server.port, timeout: 10) == .open)
        #expect(ConnectProbe.probe(host: "localhost", port: server.port, timeout: 10) == .open)
        // Through the downloader: the server probed once, then one request per URL.
        let downloader = HTTPDownloader(timeout: 30, maximumSize: 1 << 20)
        for name in ["a", "b"] {
            _ = downloader.download(
                server.base + "/\(name)", to: root.appendingPathComponent(name).path, headersFor: { _ in [] })
        }
        #expect(downloader.counts == .init(probes: 1, requests: 2))
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
        for name in ["a", "b", "c"] {
            let outcome = downloader.download(
                "http://127.0.0.1:9/\(name)", to: root.appendingPathComponent(name).path, headersFor: { _ in [] })
            #expect(outcome == .failed("cannot connect (connection refused)", reachable: false))
        }
        // One probe for the three URLs, and the refusal answered before any request was sent:
        // async-http-client, asked instead, retried a refused connection until its connect
        // timeout (what a duration used to stand for here, issue 39).
        #expect(downloader.counts == .init(probes: 1, requests: 0))
    }
}
