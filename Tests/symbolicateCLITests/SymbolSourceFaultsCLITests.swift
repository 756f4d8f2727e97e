import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every way fetching can go wrong gives a warning naming the source and a complete report,
/// never a hang or a crash (issue 24): a server down, 404, 500, slow past the time limit, a
/// body cut short, the wrong file, a zip bomb, a file over the size limit, a read-only cache.
@Suite(.serialized) struct SymbolSourceFaultsCLITests {
    typealias Space = SymbolSourcesCLITests.Workspace
    static let crashApp = SymbolSourcesCLITests.dsyms[0]
    static let crashKit = SymbolSourcesCLITests.dsyms[1]

    /// The report with no debug file at all, and with only CrashKit's: what a run must print
    /// when CrashApp's (or every) fetch fails.
    static let bare = (try? SymbolSourcesCLITests.localSync("swift-trap.ips", []))?.stdout ?? "?"
    static let crashKitOnly = (try? SymbolSourcesCLITests.localSync("swift-trap.ips", [crashKit]))?.stdout ?? "?"
    static let full = (try? SymbolSourcesCLITests.localSync("swift-trap.ips", [crashApp, crashKit]))?.stdout ?? "?"

    static func uuidHex(_ name: String) -> String? {
        SymbolSourcesCLITests.identities.first { $0.name == name }.map { $0.uuid.replacingOccurrences(of: "-", with: "").lowercased() }
    }

    /// Runs the report against `server` and checks the run ended by itself. `hangGuard` only
    /// stops a run that never ends (then the test fails, not the suite hangs); how long a run
    /// takes is never asserted (issue 39: a busy machine took 36 s for a run a quiet one does in
    /// 2): what the time stood for is checked by counting (requests, probes) instead.
    func run(_ space: Space, server: String, environment: [String: String] = [:], hangGuard: Double = 300) async throws -> CLIResult {
        let result = try await space.run(
            [try space.report("swift-trap.ips"), "--symbol-server", server, "--cache-dir", space.cache], environment: environment,
            timeout: hangGuard)
        #expect(!result.timedOut, "the run hung")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Thread 0 Crashed"))
        return result
    }

    @Test func aServerThatIsDownIsOneWarningAndTheReportAsItIs() async throws {
        let space = try Space()
        defer { space.remove() }
        // Port 9 (discard) on loopback: below the ephemeral range, so no server another test
        // starts meanwhile can take it (a freed ephemeral port could be reused at once).
        // The connect probe hears the refusal before any request is sent (ConnectProbeTests
        // counts the probes and the requests in-process; async-http-client alone retried it until
        // its connect timeout). Here: one warning for the server, and the report as it is.
        let port = 9
        let result = try await run(
            space, server: "http://127.0.0.1:\(port)/{id2}/{idrest}/debuginfo", environment: ["SYMBOLICATE_FETCH_TIMEOUT": "5"])
        #expect(result.stdout == Self.bare)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("symbol server http://127.0.0.1:\(port)") }
        #expect(lines.count == 1, "one warning for the server, not one per image: \(result.stderr)")
        #expect(lines.first?.contains("cannot connect") == true, "\(result.stderr)")
    }

    @Test func notFoundIsANoteForAppImagesAndRemembered() async throws {
        let space = try Space()
        defer { space.remove() }
        let server = try SymbolServerProcess(root: space.serverRoot)
        let template = server.base + "/{id2}/{idrest}/debuginfo"
        let result = try await run(space, server: template)
        #expect(result.stdout == Self.bare)
        #expect(result.stderr.contains("note: no symbol source has CrashApp"), "\(result.stderr)")
        #expect(!result.stderr.contains("warning: symbol server"))
        let asked = server.requests.count
        #expect(asked > 0)
        // Within the negative entries' lifetime nothing is asked again; past it, it is.
        _ = try await run(space, server: template)
        #expect(server.requests.count == asked)
        _ = try await run(space, server: template, environment: ["SYMBOLICATE_NEGATIVE_CACHE_SECONDS": "0"])
        #expect(server.requests.count == 2 * asked)
    }

    @Test func aServerErrorIsRetriedABoundedNumberOfTimes() async throws {
        let space = try Space()
        defer { space.remove() }
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(space, server: server.base + "/fault/500/{id2}/{idrest}/debuginfo")
        #expect(result.stdout == Self.bare)
        #expect(result.stderr.contains("HTTP 500"), "\(result.stderr)")
        #expect(result.stderr.contains("(3 tries)"), "\(result.stderr)")
        // Three tries for each image the report asked for, and no more.
        let perID = Dictionary(grouping: server.requests, by: { $0 }).values.map(\.count)
        #expect(!perID.isEmpty && perID.allSatisfy { $0 == 3 }, "\(server.requests)")
        // A failure is not a "not found": the next run asks again.
        _ = try await run(
            space, server: server.base + "/fault/500/{id2}/{idrest}/debuginfo", environment: ["SYMBOLICATE_FETCH_RETRIES": "0"])
        #expect(server.requests.count == perID.count * 4)
    }

    @Test(arguments: ["slow", "trickle"])
    func aSlowServerIsCutOffAtTheTimeLimit(kind: String) async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.template.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(
            space, server: server.base + "/fault/\(kind)/symbols/{id2}/{idrest}/debuginfo",
            environment: ["SYMBOLICATE_FETCH_TIMEOUT": "2", "SYMBOLICATE_FETCH_RETRIES": "0"])
        #expect(result.stdout == Self.bare)
        // Cut off by the time limit (the message says which limit), once: no retry was asked for.
        #expect(result.stderr.contains("within the time limit"), "\(result.stderr)")
        #expect(!server.requests.isEmpty && Set(server.requests).count == server.requests.count, "none repeated: \(server.requests)")
    }

    @Test func aBodyCutShortIsRetriedThenAWarning() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.template.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(space, server: server.base + "/fault/truncated/symbols/{id2}/{idrest}/debuginfo")
        #expect(result.stdout == Self.bare)
        #expect(result.stderr.contains("closed"), "\(result.stderr)")
        #expect(result.stderr.contains("(3 tries)"), "\(result.stderr)")
    }

    @Test func theWrongFileIsRefusedLoudly() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.template.lay(into: space.serverRoot)
        // CrashApp's place holds CrashKit's DWARF file.
        let app = try #require(Self.uuidHex("CrashApp"))
        let kitFile = try #require(SymbolSourcesCLITests.identities.first { $0.name == "CrashKit" }?.file)
        let appPlace = space.serverRoot.appendingPathComponent("symbols/\(app.prefix(2))/\(app.dropFirst(2))/debuginfo")
        try FileManager.default.removeItem(at: appPlace)
        try FileManager.default.copyItem(atPath: kitFile, toPath: appPlace.path)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(space, server: server.base + "/symbols/{id2}/{idrest}/debuginfo")
        #expect(result.stdout == Self.crashKitOnly)
        #expect(result.stderr.contains("answered with the wrong file for CrashApp"), "\(result.stderr)")
        #expect(result.stderr.contains("refused"))
        // Nothing was cached under CrashApp's identity.
        let cached = try FileManager.default.subpathsOfDirectory(atPath: space.cache).filter { $0.hasSuffix("/debug") }
        #expect(cached.count == 1, "\(cached)")
    }

    @Test func aZipBombIsRefusedWithinTheUnzipLimits() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.zip.lay(into: space.serverRoot)
        let appUUID = try #require(SymbolSourcesCLITests.identities.first { $0.name == "CrashApp" }?.uuid)
        let bomb = space.serverRoot.appendingPathComponent("zips/\(appUUID)/CrashApp.dSYM.zip")
        // 256 MiB of zeros deflated to a few hundred KiB, named as a dSYM's DWARF file.
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                with z.open("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", "w", force_zip64=True) as f:
                    block = bytes(1 << 20)
                    for _ in range(256):
                        f.write(block)
            """
        try FileManager.default.removeItem(at: bomb)
        let made = try ExternalTool.result("/usr/bin/env", ["python3", "-c", script, bomb.path])
        #expect(made.status == 0, "\(made.stderr)")
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(space, server: SymbolSourcesCLITests.Layout.zip.server(server.base))
        #expect(result.stdout == Self.crashKitOnly)
        #expect(result.stderr.contains("did not answer with a debug file for CrashApp"), "\(result.stderr)")
        #expect(result.stderr.contains("zip bomb") || result.stderr.contains("ratio"), "\(result.stderr)")
    }

    @Test func aFileOverTheSizeLimitIsNotDownloaded() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.template.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await run(
            space, server: server.base + "/symbols/{id2}/{idrest}/debuginfo", environment: ["SYMBOLICATE_MAX_DOWNLOAD_MIB": "0.01"])
        #expect(result.stdout == Self.bare)
        #expect(result.stderr.contains("limit"), "\(result.stderr)")
    }

    /// A cache folder nothing can be written to: the run still fetches, keeps the files for
    /// itself, and says so once. Root ignores permission bits, so as root the folder is a
    /// read-only mount.
    @Test func aReadOnlyCacheFolderIsAWarningAndTheRunStillFetches() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.template.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        try FileManager.default.createDirectory(atPath: space.cache, withIntermediateDirectories: true)
        var mounted = false
        if geteuid() == 0 {
            let mount = try ExternalTool.result("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", space.cache])
            try #require(mount.status == 0, "mounting a read-only tmpfs (as root) failed: \(mount.stderr)")
            mounted = true
        } else {
            chmod(space.cache, 0o555)
        }
        defer {
            if mounted { _ = try? ExternalTool.result("/bin/umount", [space.cache]) } else { chmod(space.cache, 0o755) }
        }
        let result = try await run(space, server: server.base + "/symbols/{id2}/{idrest}/debuginfo")
        #expect(result.stdout == Self.full)
        #expect(result.stderr.contains("the cache folder \(space.cache) cannot be"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cache folder").count == 2, "said once: \(result.stderr)")
    }
}
