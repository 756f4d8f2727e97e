import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debug files fetched where teams keep them (issue 24), end to end: the real binary against
/// real servers on loopback (Python's http.server in symbol-server layouts, Debian's
/// debuginfod), a dsymForUUID script, and the cache. The output must be the one the same
/// report gets with its debug files given locally; every fault is a warning and a complete report.
@Suite(.serialized, .tags(.launchesBinary)) struct SymbolSourcesCLITests {
    static let dsyms = [
        "CrashApp.app.dSYM", "CrashKit.framework.dSYM", "MacApp.app.dSYM", "CrashApp-dwarf4.app.dSYM", "MacApp-dwarf5.app.dSYM",
    ]
    .map { TestPaths.dsyms + "/" + $0 }

    /// UUID (dashed, uppercase) → (DWARF file, image name), read by llvm-dwarfdump: the
    /// identities the layouts are built from come from an independent reader.
    static let identities: [(uuid: String, file: String, name: String)] = {
        guard let tool = ExternalTool.uuidDumper else { return [] }
        var out: [(String, String, String)] = []
        for bundle in dsyms {
            let folder = bundle + "/Contents/Resources/DWARF"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let file = folder + "/" + name
                for line in ((try? ExternalTool.run(tool, ["--uuid", file])) ?? "").split(separator: "\n") {
                    let parts = line.split(separator: " ")
                    if parts.count >= 3, parts[0] == "UUID:" { out.append((String(parts[1]), file, name)) }
                }
            }
        }
        return out
    }()

    enum Layout: String, CaseIterable, Sendable {
        /// `--symbol-server URL/{id2}/{idrest}/debuginfo`-style template: the DWARF file.
        case template
        /// Sentry's unified layout (`unified=URL`).
        case unified
        /// Sentry's native layout for Mach-O (LLDB's file-mapped UUID path, `native=URL`).
        case native
        /// A zipped dSYM bundle per UUID (`URL/{uuid}/{name}.dSYM.zip`).
        case zip

        func server(_ base: String) -> String {
            switch self {
            case .template: return base + "/symbols/{id2}/{idrest}/debuginfo"
            case .unified: return "unified=" + base + "/sentry"
            case .native: return "native=" + base + "/lldb"
            case .zip: return base + "/zips/{uuid}/{name}.dSYM.zip"
            }
        }

        /// Lays the fixtures' dSYMs out in `root` the way this layout serves them.
        func lay(into root: URL) throws {
            for identity in SymbolSourcesCLITests.identities {
                let hex = identity.uuid.replacingOccurrences(of: "-", with: "").lowercased()
                let target: URL
                switch self {
                case .template:
                    target = root.appendingPathComponent("symbols/\(hex.prefix(2))/\(hex.dropFirst(2))/debuginfo")
                case .unified:
                    target = root.appendingPathComponent("sentry/\(hex.prefix(2))/\(hex.dropFirst(2))/debuginfo")
                case .native:
                    let upper = Array(hex.uppercased())
                    let parts = [0, 4, 8, 12, 16].map { String(upper[$0..<$0 + 4]) } + [String(upper[20...])]
                    target = root.appendingPathComponent("lldb/" + parts.joined(separator: "/"))
                case .zip:
                    let bundle = URL(fileURLWithPath: identity.file).deletingLastPathComponent().deletingLastPathComponent()
                        .deletingLastPathComponent().deletingLastPathComponent()
                    target = root.appendingPathComponent("zips/\(identity.uuid)/\(identity.name).dSYM.zip")
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let zipped = try ExternalTool.result(
                        "/usr/bin/zip", ["-qr", target.path, bundle.lastPathComponent], currentDirectory: bundle.deletingLastPathComponent()
                    )
                    #expect(zipped.status == 0, "zip: \(zipped.stderr)")
                    continue
                }
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(atPath: identity.file, toPath: target.path)
            }
        }
    }

    /// A fresh folder with the report copied in (so no dSYM sits next to it), a cache folder
    /// and a server root.
    struct Workspace {
        let folder: URL
        var cache: String { folder.appendingPathComponent("cache").path }
        var serverRoot: URL { folder.appendingPathComponent("server") }

        init() throws {
            folder = try TestPaths.temporaryDirectory("symbol-sources")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("server"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("run"), withIntermediateDirectories: true)
        }

        func report(_ name: String) throws -> String {
            let copy = folder.appendingPathComponent("run/" + name)
            if !FileManager.default.fileExists(atPath: copy.path) {
                try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("reports/" + name), to: copy)
            }
            return copy.path
        }

        func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) async throws -> CLIResult {
            let folder = folder.appendingPathComponent("run")
            return try await offCooperativePool {
                try CLI.run(arguments, environment: environment, currentDirectory: folder, timeout: timeout)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static func localSync(_ report: String, _ bundles: [String]) throws -> CLIResult {
        try CLI.run([TestPaths.fixtures.appendingPathComponent("reports/" + report).path] + bundles)
    }

    /// The report with these dSYMs given locally: the output every source must reproduce.
    static func local(_ report: String, _ bundles: [String]) async throws -> CLIResult {
        try await offCooperativePool { try localSync(report, bundles) }
    }

    static func cli(_ arguments: [String]) async throws -> CLIResult {
        try await offCooperativePool { try CLI.run(arguments) }
    }

    static let reports: [(name: String, bundles: [String])] = [
        ("swift-trap.ips", [dsyms[0], dsyms[1]]), ("macapp-x86_64.crash", [dsyms[2]]), ("swift-index-dwarf4.crash", [dsyms[3], dsyms[1]]),
    ]

    @Test(arguments: Layout.allCases)
    func aSymbolServerGivesTheOutputOfTheLocalDSYM(layout: Layout) async throws {
        try #require(Self.identities.count == 7, "llvm-dwarfdump-19 reads the fixtures' UUIDs (scripts/setup.sh installs it)")
        let space = try Workspace()
        defer { space.remove() }
        try layout.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        var downloads = 0
        for (name, bundles) in Self.reports {
            let local = try await Self.local(name, bundles)
            #expect(local.status == 0)
            let fetched = try await space.run([
                try space.report(name), "--symbol-server", layout.server(server.base), "--cache-dir", space.cache,
            ])
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(fetched.stdout == local.stdout, "\(layout) \(name): the output differs from the one with the dSYM given locally")
            #expect(!fetched.stderr.contains("warning"), "\(fetched.stderr)")
            // Once per image not yet fetched: CrashKit is shared by two reports.
            let now = server.downloads.count
            #expect(now > downloads)
            downloads = now
        }
        #expect(downloads == 4, "\(server.requests)")
        // A second run takes everything from the cache.
        let again = try await space.run([
            try space.report("swift-trap.ips"), "--symbol-server", layout.server(server.base), "--cache-dir", space.cache,
        ])
        let localOutput = try await Self.local("swift-trap.ips", [Self.dsyms[0], Self.dsyms[1]]).stdout
        #expect(again.stdout == localOutput)
        #expect(server.downloads.count == downloads)
    }

    @Test func theEnvironmentNamesServersAndTheDefaultCacheIsUnderXDGCacheHome() async throws {
        let space = try Workspace()
        defer { space.remove() }
        try Layout.unified.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let xdg = space.folder.appendingPathComponent("xdg").path
        let result = try await space.run(
            [try space.report("swift-trap.ips")],
            environment: [
                "SYMBOLICATE_SYMBOL_SERVERS": "http://127.0.0.1:1/unused/{id} " + Layout.unified.server(server.base), "XDG_CACHE_HOME": xdg,
            ])
        let localOutput = try await Self.local("swift-trap.ips", [Self.dsyms[0], Self.dsyms[1]]).stdout
        #expect(result.stdout == localOutput)
        // The first server is down: one warning naming it, and the next one answered.
        #expect(result.stderr.contains("symbol server http://127.0.0.1:1/unused/{id}"))
        let cached = try FileManager.default.subpathsOfDirectory(atPath: xdg + "/symbolicate/debug-files").filter { $0.hasSuffix("/debug") }
        #expect(cached.count == 2)
    }

    @Test func anELFDebugFileThroughDebuginfodGivesTheLocalOutput() async throws {
        let space = try Workspace()
        defer { space.remove() }
        let served = space.folder.appendingPathComponent("elf")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: LinuxFixtures.debugFile, toPath: served.appendingPathComponent("crashy.debug").path)
        #if !os(Linux)
            // A Mac has neither unless installed; Linux CI installs both (scripts/setup.sh).
            guard ExternalTool.readelf != nil, DebuginfodProcess.executable != nil else {
                print("SymbolSourcesCLITests: skipped the debuginfod test: it needs debuginfod and readelf (or llvm-readelf)")
                return
            }
        #endif
        let readelf = try #require(ExternalTool.readelf, "readelf (binutils) reads the build ID independently")
        let notes = try ExternalTool.run(readelf, ["-n", LinuxFixtures.debugFile])
        let buildID = try #require(
            notes.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init))
        let debuginfod = try await offCooperativePool { try DebuginfodProcess(folder: served, waitingFor: buildID) }
        for mode in LinuxFixtures.modes {
            let log = space.folder.appendingPathComponent("run/\(mode).txt")
            if !FileManager.default.fileExists(atPath: log.path) {
                try FileManager.default.copyItem(atPath: LinuxFixtures.log("\(mode).txt"), toPath: log.path)
            }
            let local = try await Self.cli([LinuxFixtures.log("\(mode).txt"), LinuxFixtures.debugFile])
            #expect(local.status == 0)
            let fetched = try await space.run([log.path, "--cache-dir", space.cache], environment: ["DEBUGINFOD_URLS": debuginfod.url])
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(fetched.stdout == local.stdout, "\(mode): the output differs from the one with crashy.debug given locally")
            #expect(!fetched.stderr.contains("warning"), "\(fetched.stderr)")
        }
    }

    @Test func aDsymForUUIDCommandNamesTheBundle() async throws {
        let space = try Workspace()
        defer { space.remove() }
        let store = space.folder.appendingPathComponent("dsym-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        for identity in Self.identities where identity.name == "CrashApp" || identity.name == "CrashKit" {
            let bundle = URL(fileURLWithPath: identity.file).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            try FileManager.default.createSymbolicLink(
                atPath: store.appendingPathComponent("\(identity.uuid).dSYM").path, withDestinationPath: bundle.path)
        }
        let result = try await space.run(
            [try space.report("swift-trap.ips"), "--dsym-for-uuid", SymbolServerProcess.dsymForUUID.path, "--cache-dir", space.cache],
            environment: ["DSYM_STORE": store.path])
        let localOutput = try await Self.local("swift-trap.ips", [Self.dsyms[0], Self.dsyms[1]]).stdout
        #expect(result.stdout == localOutput)
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        // DBGShellCommands is the same convention from the environment.
        let fromEnvironment = try await space.run(
            [try space.report("swift-trap.ips")],
            environment: [
                "DSYM_STORE": store.path, "DBGShellCommands": SymbolServerProcess.dsymForUUID.path, "XDG_CACHE_HOME": space.cache,
            ])
        #expect(fromEnvironment.stdout == result.stdout)
    }

    @Test func aDsymForUUIDAnswerWithTheWrongBundleIsRefused() async throws {
        let space = try Workspace()
        defer { space.remove() }
        let store = space.folder.appendingPathComponent("dsym-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let crashApp = try #require(Self.identities.first { $0.name == "CrashApp" })
        try FileManager.default.createSymbolicLink(
            atPath: store.appendingPathComponent("\(crashApp.uuid).dSYM").path, withDestinationPath: Self.dsyms[1])
        let result = try await space.run(
            [try space.report("swift-trap.ips"), "--dsym-for-uuid", SymbolServerProcess.dsymForUUID.path, "--cache-dir", space.cache],
            environment: ["DSYM_STORE": store.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: dsymForUUID command"), "\(result.stderr)")
        #expect(result.stderr.contains("refused"))
        #expect(result.stdout.contains("Thread 0 Crashed"))
    }

    @Test func offlineUsesTheCacheOnly() async throws {
        let space = try Workspace()
        defer { space.remove() }
        try Layout.template.lay(into: space.serverRoot)
        let report = try space.report("swift-trap.ips")
        let local = try await Self.local("swift-trap.ips", [Self.dsyms[0], Self.dsyms[1]])
        // An empty cache: nothing is asked, the report is printed as it is.
        var server: SymbolServerProcess? = try SymbolServerProcess(root: space.serverRoot)
        let template = Layout.template.server(server?.base ?? "")
        let empty = try await space.run([report, "--offline", "--symbol-server", template, "--cache-dir", space.cache])
        #expect(empty.status == 0)
        #expect(server?.requests.isEmpty == true)
        #expect(empty.stdout != local.stdout)
        // Filled once, then offline with the server gone: the same output as local.
        _ = try await space.run([report, "--symbol-server", template, "--cache-dir", space.cache])
        server = nil
        let offline = try await space.run([report, "--offline", "--symbol-server", template, "--cache-dir", space.cache])
        #expect(offline.stdout == local.stdout)
        #expect(!offline.stderr.contains("warning"), "\(offline.stderr)")
    }

    /// 500 reports over 5 images: 5 downloads, then none on a rerun (the server's own log counts).
    @Test func aBatchDownloadsEachImageOnceAndARerunNothing() async throws {
        let space = try Workspace()
        defer { space.remove() }
        try Layout.unified.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let inputs = space.folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        // Five app images: CrashApp, CrashKit, CrashApp-dwarf4, MacApp's x86_64 slice and
        // MacApp-dwarf5's x86_64 slice (a MacApp report pointed at that build's UUID).
        let dwarf5 = try #require(
            Self.identities.first { $0.name == "MacApp-dwarf5" && $0.uuid != "" && Self.arch($0.file, $0.uuid) == "x86_64" })
        let macApp = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/macapp-x86_64.crash"), encoding: .utf8)
        let macAppUUID = try #require(Self.identities.first { $0.name == "MacApp" && Self.arch($0.file, $0.uuid) == "x86_64" }?.uuid)
        let other = macApp.replacingOccurrences(
            of: "<\(macAppUUID.replacingOccurrences(of: "-", with: "").lowercased())>",
            with: "<\(dwarf5.uuid.replacingOccurrences(of: "-", with: "").lowercased())>")
        #expect(other != macApp, "the MacApp report names its image by <uuid>")
        let sources: [(String, String)] =
            try ["swift-trap.ips", "null-deref.crash", "swift-index-dwarf4.crash", "macapp-x86_64.crash"].map {
                ($0, try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/" + $0), encoding: .utf8))
            } + [("macapp-dwarf5.crash", other)]
        for i in 0..<500 {
            let (name, text) = sources[i % sources.count]
            try text.write(to: inputs.appendingPathComponent("\(i)-\(name)"), atomically: false, encoding: .utf8)
        }
        let arguments = [inputs.path, "--symbol-server", Layout.unified.server(server.base), "--cache-dir", space.cache]
        let first = try await space.run(["batch"] + arguments + ["-o", space.folder.appendingPathComponent("out1").path], timeout: 600)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.downloads.count == 5, "\(server.downloads)")
        let asked = server.requests.count
        let second = try await space.run(["batch"] + arguments + ["-o", space.folder.appendingPathComponent("out2").path], timeout: 600)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(server.downloads.count == 5)
        // Not found is remembered too: the rerun asks the server nothing at all.
        #expect(server.requests.count == asked)
    }

    static func arch(_ file: String, _ uuid: String) -> String? {
        guard let tool = ExternalTool.uuidDumper,
            let text = try? ExternalTool.run(tool, ["--uuid", file])
        else { return nil }
        return text.split(separator: "\n").first { $0.contains(uuid) }?.split(separator: " ").dropFirst(2).first
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) }
    }
}
