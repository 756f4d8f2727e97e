import Crypto
import Foundation
import SymbolicatePipeline
import SymbolicateTestSupport
import Synchronization
import Testing

@testable import SymbolicateAppStoreConnect

/// `fetch` against `FakeAppStoreConnect` on loopback (never the network): paging, dates and
/// versions, 429s, expired and refused tokens, a revoked key, a resumed download, the key kept
/// out of every output. Waiting is counted through an injected `sleep`, never timed.
@Suite struct FetchTests {
    /// A fresh key pair: the client signs with the private half written as a .p8 file, the
    /// server verifies with the public half.
    struct Keys: Sendable {
        let privateKey = P256.Signing.PrivateKey()
        let folder: URL
        let path: String
        let key: AppStoreConnectKey

        init() throws {
            folder = try TestPaths.temporaryDirectory("asc")
            path = folder.appendingPathComponent("AuthKey_TESTKEY123.p8").path
            try privateKey.pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
            key = try AppStoreConnectKey.load(keyID: "TESTKEY123", issuerID: "69a6de70-0000-47e3-e053-5b8c7c11a4d1", privateKeyPath: path)
        }

        /// Every spelling of the private key a leak could take.
        var secrets: [String] {
            let pemLines = privateKey.pemRepresentation.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
            return pemLines + [privateKey.derRepresentation.base64EncodedString(), privateKey.rawRepresentation.base64EncodedString()]
        }
    }

    /// What the client was told to wait, recorded instead of waited.
    final class Sleeps: Sendable {
        private let seconds = Mutex<[Double]>([])
        var all: [Double] { seconds.withLock { $0 } }
        func record(_ value: Double) { seconds.withLock { $0.append(value) } }
    }

    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    static func request(
        _ keys: Keys, base: String, clock: TestClock, sleeps: Sleeps, output: URL, kind: FetchKind = .all, version: String? = nil,
        since: Date? = nil
    ) -> FetchRequest {
        var request = FetchRequest(
            key: keys.key, app: FakeAppStoreConnect.bundleID, version: version, since: since, kind: kind, outputFolder: output.path)
        request.baseURL = base
        request.clock = { clock.now() }
        request.sleep = { sleeps.record($0) }
        return request
    }

    static func files(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static func text(_ response: FetchResponse) -> String {
        response.messages.map { $0.text(tool: "symbolicate") }.joined()
    }

    @Test func everyPageIsReadAndEachCrashIsOneFileNamedByDate() async throws {
        let keys = try Keys()
        let clock = TestClock()
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock)
        let output = keys.folder.appendingPathComponent("out")
        let sleeps = Sleeps()
        let response = try await server.running { base in
            await Self.request(keys, base: base, clock: clock, sleeps: sleeps, output: output).run()
        }
        #expect(response.status == .success, "\(Self.text(response))")
        // Five submissions over three pages; crash-4 has no log; two signatures for build 7.
        #expect(
            Self.files(output) == [
                "2026-03-01T10-00-00Z-crash-crash-1.crash", "2026-03-02T09-00-00Z-diagnostic-7-disk_writes-disk-write-signature-1.json",
                "2026-03-02T09-00-00Z-diagnostic-7-hangs-hang-signature-1.json", "2026-03-02T10-00-00Z-crash-crash-2.crash",
                "2026-03-03T10-00-00Z-crash-crash-3.crash", "2026-03-05T10-00-00Z-crash-crash-5.crash",
            ])
        #expect(
            response.counts == FetchCounts(crashLogs: 4, diagnosticLogs: 2, skipped: 0, withoutLog: 1, requests: server.log.paths.count))
        let crashPages = server.log.paths.filter { $0.contains("betaFeedbackCrashSubmissions?") }
        #expect(crashPages.count == 3)
        #expect(crashPages.allSatisfy { $0.contains("limit=200") && $0.contains("sort=-createdDate") })
        #expect(server.log.refusedTokens == 0)
        #expect(Set(server.log.tokens).count == 1)
        // The logs are written as received.
        let crash = try String(contentsOf: output.appendingPathComponent("2026-03-05T10-00-00Z-crash-crash-5.crash"), encoding: .utf8)
        #expect(crash == server.submissions[0].logText)
        let logs = try String(
            contentsOf: output.appendingPathComponent("2026-03-02T09-00-00Z-diagnostic-7-hangs-hang-signature-1.json"), encoding: .utf8)
        #expect(logs == server.diagnosticLogs)
        #expect(Self.text(response).contains("4 crash logs and 2 diagnostic logs downloaded to \(output.path), 0 already there"))
    }

    @Test func versionAndSinceNarrowWhatIsAskedFor() async throws {
        let keys = try Keys()
        let clock = TestClock()
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock)
        let output = keys.folder.appendingPathComponent("out")
        let since = FetchRequest.date("2026-03-03T00:00:00Z")
        let response = try await server.running { base in
            await Self.request(
                keys, base: base, clock: clock, sleeps: Sleeps(), output: output, kind: .crashes, version: "2.4", since: since
            )
            .run()
        }
        #expect(response.status == .success, "\(Self.text(response))")
        #expect(Self.files(output) == ["2026-03-03T10-00-00Z-crash-crash-3.crash", "2026-03-05T10-00-00Z-crash-crash-5.crash"])
        #expect(
            server.log.paths.contains {
                $0.contains("filter%5BpreReleaseVersion.version%5D=2.4") || $0.contains("filter[preReleaseVersion.version]=2.4")
            })
        #expect(server.log.paths.contains { $0.contains("filter%5Bbuild%5D=build-7") || $0.contains("filter[build]=build-7") })
        // Newest first: the page holding a crash older than --since is the last one read.
        #expect(server.log.paths.filter { $0.contains("betaFeedbackCrashSubmissions?") }.count == 2)
        #expect(!server.log.paths.contains { $0.contains("diagnosticSignatures") })
    }

    @Test func a429IsWaitedOutAsRetryAfterSays() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.rateLimitOnce = ["/v1/apps/\(FakeAppStoreConnect.appID)/betaFeedbackCrashSubmissions": "3"]
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let sleeps = Sleeps()
        let response = try await server.running { base in
            await Self.request(
                keys, base: base, clock: clock, sleeps: sleeps, output: keys.folder.appendingPathComponent("out"), kind: .crashes
            )
            .run()
        }
        #expect(response.status == .success, "\(Self.text(response))")
        #expect(sleeps.all == [3])
        #expect(server.log.rateLimited == 1)
        #expect(response.counts.crashLogs == 4)
    }

    @Test func aRetryAfterLongerThanTheBoundStopsInWords() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.rateLimitOnce = ["/v1/apps": "3600"]
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let sleeps = Sleeps()
        let response = try await server.running { base in
            await Self.request(keys, base: base, clock: clock, sleeps: sleeps, output: keys.folder.appendingPathComponent("out")).run()
        }
        #expect(response.status == .failed)
        #expect(sleeps.all.isEmpty)
        #expect(Self.text(response).contains("rate limit"))
        #expect(Self.text(response).contains("Retry-After 3600 s"))
    }

    @Test func aTokenIsRenewedBeforeItExpires() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        // After the third request, 25 minutes pass: the first token (at most 20 minutes) is expired.
        behaviour.advanceClockAfter = 3
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let response = try await server.running { base in
            await Self.request(keys, base: base, clock: clock, sleeps: Sleeps(), output: keys.folder.appendingPathComponent("out")).run()
        }
        #expect(response.status == .success, "\(Self.text(response))")
        #expect(server.log.refusedTokens == 0)
        #expect(Set(server.log.tokens).count == 2)
    }

    @Test func aRefusedTokenIsSignedAgainOnce() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.refuseFirstToken = true
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let response = try await server.running { base in
            await Self.request(keys, base: base, clock: clock, sleeps: Sleeps(), output: keys.folder.appendingPathComponent("out")).run()
        }
        #expect(response.status == .success, "\(Self.text(response))")
        #expect(server.log.refusedTokens == 1)
        #expect(response.counts.crashLogs == 4)
    }

    @Test func aRevokedKeyIsSaidInWords() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.revoked = true
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let output = keys.folder.appendingPathComponent("out")
        let response = try await server.running { base in
            await Self.request(keys, base: base, clock: clock, sleeps: Sleeps(), output: output).run()
        }
        #expect(response.status == .failed)
        let text = Self.text(response)
        #expect(text.contains("error: App Store Connect answered 401 Unauthorized to GET /v1/apps?"))
        #expect(text.contains("NOT_AUTHORIZED: Authentication credentials are missing or invalid."))
        #expect(text.contains("the key may be revoked"))
        // One request, one renewal, then the words: never a loop.
        #expect(server.log.paths.count == 2)
        #expect(Self.files(output).isEmpty)
    }

    @Test func anInterruptedDownloadIsResumed() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.failOnce = ["/v1/betaFeedbackCrashSubmissions/crash-3/crashLog"]
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let output = keys.folder.appendingPathComponent("out")
        let (first, second) = try await server.running { base in
            let request = Self.request(keys, base: base, clock: clock, sleeps: Sleeps(), output: output, kind: .crashes)
            return (await request.run(), await request.run())
        }
        #expect(first.status == .failed)
        #expect(Self.text(first).contains("500 Internal Server Error"))
        #expect(Self.text(first).contains("UNEXPECTED_ERROR"))
        #expect(Self.text(first).contains("1 crash log and 0 diagnostic logs downloaded"))
        #expect(first.files == ["2026-03-05T10-00-00Z-crash-crash-5.crash"])
        #expect(second.status == .success, "\(Self.text(second))")
        #expect(second.counts.skipped == 1)
        #expect(
            second.files == [
                "2026-03-03T10-00-00Z-crash-crash-3.crash", "2026-03-02T10-00-00Z-crash-crash-2.crash",
                "2026-03-01T10-00-00Z-crash-crash-1.crash",
            ])
        // What was downloaded is not asked for again; no temporary file is left.
        #expect(server.log.paths.filter { $0.hasSuffix("/crash-5/crashLog") }.count == 1)
        #expect(Self.files(output).count == 4)
        #expect(!Self.files(output).contains { $0.hasPrefix(".") })
    }

    @Test func theKeyIsNeverPrintedWrittenOrSent() async throws {
        let keys = try Keys()
        let clock = TestClock()
        var behaviour = FakeAppStoreConnect.Behaviour()
        behaviour.refuseFirstToken = true
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock, behaviour: behaviour)
        let output = keys.folder.appendingPathComponent("out")
        let lines = Lines()
        let response = try await server.running { base in
            var request = Self.request(keys, base: base, clock: clock, sleeps: Sleeps(), output: output)
            request.progress = { line in lines.append(line) }
            return await request.run()
        }
        var everything = Self.text(response) + lines.all.joined(separator: "\n")
        everything += "\(keys.key) \(String(reflecting: keys.key))" + server.log.paths.joined() + server.log.tokens.joined()
        for file in Self.files(output) {
            everything += (try? String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        #expect(keys.secrets.count >= 3)
        for secret in keys.secrets { #expect(!everything.contains(secret)) }
    }

    @Test func aKeyFileThatIsNoKeyIsRefusedWithoutShowingIt() throws {
        let folder = try TestPaths.temporaryDirectory("asc-key")
        let path = folder.appendingPathComponent("AuthKey.p8").path
        try "-----BEGIN PRIVATE KEY-----\nNOTAKEYsecretsecret\n-----END PRIVATE KEY-----\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: AppStoreConnectError.self) { try AppStoreConnectKey.load(keyID: "K", issuerID: "I", privateKeyPath: path) }
        do { _ = try AppStoreConnectKey.load(keyID: "K", issuerID: "I", privateKeyPath: path) } catch {
            #expect("\(error)".contains(path))
            #expect(!"\(error)".contains("NOTAKEY"))
            #expect(error.exitStatus == .usage)
        }
        #expect(throws: AppStoreConnectError.self) {
            try AppStoreConnectKey.load(keyID: "K", issuerID: "I", privateKeyPath: folder.appendingPathComponent("missing.p8").path)
        }
    }

    @Test func plainHTTPIsOnlyForThisMachine() throws {
        try FetchRequest.checkBaseURL("https://api.appstoreconnect.apple.com")
        try FetchRequest.checkBaseURL("http://127.0.0.1:8080")
        #expect(throws: AppStoreConnectError.self) { try FetchRequest.checkBaseURL("http://api.appstoreconnect.apple.com") }
    }

    @Test func retryAfterTakesSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_772_000_000)
        #expect(AppStoreConnectClient.seconds(retryAfter: "7", now: now) == 7)
        let later = now.addingTimeInterval(30)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        #expect(AppStoreConnectClient.seconds(retryAfter: formatter.string(from: later), now: now) == 30)
        #expect(AppStoreConnectClient.seconds(retryAfter: "soon", now: now) == nil)
    }

    /// The real binary, credentials from the environment, --symbolicate through batch.
    @Test func theCommandDownloadsAndSymbolicates() async throws {
        let keys = try Keys()
        let clock = TestClock(live: ())
        let server = try FakeAppStoreConnect(key: keys.key, publicKey: keys.privateKey.publicKey, clock: clock)
        let output = keys.folder.appendingPathComponent("cli")
        let result = try await server.running { base in
            try CLI.run(
                ["fetch", "--app", FakeAppStoreConnect.appID, "--output", output.path, "--symbolicate"] + TestPaths.dsymBundles,
                environment: [
                    "APP_STORE_CONNECT_KEY_ID": keys.key.keyID, "APP_STORE_CONNECT_ISSUER_ID": keys.key.issuerID,
                    "APP_STORE_CONNECT_KEY_PATH": keys.path, "SYMBOLICATE_APP_STORE_CONNECT_URL": base,
                ], timeout: 300)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("4 crash logs and 2 diagnostic logs downloaded to \(output.path)"))
        #expect(result.stderr.contains("symbolicate fetch: downloaded 2026-03-05T10-00-00Z-crash-crash-5.crash"))
        #expect((result.stdout + result.stderr).contains("reports processed"))
        #expect(!(result.stdout + result.stderr).contains("unreadable:"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("symbolicated/summary.md").path))
        for secret in keys.secrets { #expect(!(result.stdout + result.stderr).contains(secret)) }
    }
}
