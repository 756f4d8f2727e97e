import Foundation
import Hummingbird
import HummingbirdTesting
import SymbolicateServe
import SymbolicateTestSupport
import Testing

/// Every limit of `serve` refuses what passes it, with its status.
@Suite struct LimitTests {
    @Test func aReportOverTheLimitIs413() async throws {
        let report = try Serve.report()
        let server = try Serve.server { $0.limits.reportBytes = report.count - 1 }
        try await Serve.routes(server) { client in
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"symbolicate_refusals_total{reason="body"} 1"#))
            }
        }
        // At the limit it is served.
        let roomy = try Serve.server { $0.limits.reportBytes = report.count }
        try await Serve.routes(roomy) { client in
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aBodyWithoutLengthOverTheLimitIs413() async throws {
        // Chunked: no Content-Length to refuse early, the count while reading refuses it.
        let server = try Serve.server { $0.limits.reportBytes = 1000 }
        try await Serve.live(server) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            let chunk = String(repeating: "A", count: 2000)
            connection.send(
                "POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
            #expect(await connection.readHead().hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test func pastTheConcurrencyLimitIs503() async throws {
        var configured = try Serve.server {
            $0.limits.concurrentRequests = 1
            $0.limits.requestSeconds = 120
        }
        // The first request is held at its first stage until the test lets it go: it holds
        // the only place (a body being read holds none).
        let release = StopFlag()
        configured.stageHook = { _ in
            let deadline = Date().addingTimeInterval(60)
            while !release.isSet && Date() < deadline { usleep(5000) }
        }
        let server = configured
        let report = try Serve.report()
        try await Serve.live(server) { client in
            let port = try #require(client.port)
            let held = try RawConnection(port: port)
            held.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(report.count)\r\n\r\n")
            _ = report.withUnsafeBytes { write(held.fd, $0.baseAddress, $0.count) }
            #expect(await Serve.eventually { server.requestsInProgress == 1 })
            try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
            }
            // The page and the health check are never refused.
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
            release.stop()
            #expect(await held.readHead().hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func pastTheTimeLimitIs504AndThePlaceIsFreedAgain() async throws {
        let server = try Serve.server {
            $0.limits.concurrentRequests = 1
            $0.limits.requestSeconds = 1
        }
        try await Serve.live(server) { client in
            let port = try #require(client.port)
            let slow = try RawConnection(port: port)
            slow.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nIncident")
            let head = await slow.readHead()
            // The time limit's answer (504, and the refusal counted as "time" below), not a
            // stopwatch: how soon it comes is the machine's business (issue 39).
            #expect(head.hasPrefix("HTTP/1.1 504"), "\(head)")
            // The place is free again: a second request is admitted (a 503 would say the place
            // is still held) and meets the same time limit. Not a real report: one that must
            // be symbolicated within the 1 s limit failed this test on a busy machine (issue 39).
            let second = try RawConnection(port: port)
            second.send("POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nIncident")
            let again = await second.readHead()
            #expect(again.hasPrefix("HTTP/1.1 504"), "admitted, not refused for want of a place: \(again)")
            try await client.execute(uri: "/metrics", method: .get) { response in
                let metrics = String(buffer: response.body)
                #expect(metrics.contains(#"symbolicate_refusals_total{reason="time"} 2"#), "\(metrics)")
                #expect(!metrics.contains(#"reason="concurrency""#), "\(metrics)")
            }
        }
    }

    /// Each request's timer goes when the request ends, not when its time limit would have
    /// run out: memory does not grow with request rate × time limit.
    @Test func finishedRequestsLeaveNoTimer() async throws {
        let server = try Serve.server { $0.limits.requestSeconds = 600 }
        let report = try Serve.report()
        try await Serve.routes(server) { client in
            for _ in 0..<20 {
                try await client.execute(uri: "/v1/symbolicate", method: .post, body: Serve.body(report)) { response in
                    #expect(response.status == .ok)
                }
            }
            // A refused body and a bad query end early too.
            try await client.execute(uri: "/v1/symbolicate?format=pdf", method: .post, body: Serve.body(report)) { response in
                #expect(response.status == .badRequest)
            }
        }
        #expect(server.pendingTimers.count == 0)
    }

    @Test func theDefaultAddressIsLoopback() {
        #expect(ServeConfiguration().host == "127.0.0.1")
    }
}
