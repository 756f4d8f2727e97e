import Foundation
import SymbolicateTestSupport
import Testing

/// What a new user found (issue 39), end to end through the binary: zips read like folders and
/// kept unpacked in the cache, atos and symbol servers, the negative cache's note.
@Suite(.serialized, .tags(.launchesBinary)) struct NewUserCLITests {
    typealias Space = SymbolSourcesCLITests.Workspace
    static let appUUID = "4C4C443B-5555-3144-A1E9-455154CFFD57"
    static let appAddress = "0x100004410"
    static let appDSYM = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM").path
    static let appDWARF = appDSYM + "/Contents/Resources/DWARF/CrashApp"
    static let kitDWARF = TestPaths.fixtures.appendingPathComponent("dsyms/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit").path

    /// Finding 1: a zip of bare DWARF files symbolicates like the dSYMs it came from, and is
    /// unpacked once into the cache (`XDG_CACHE_HOME`), then reused.
    @Test func aZipOfBareDWARFFilesIsReadLikeTheFolderAndKept() async throws {
        let space = try Space()
        defer { space.remove() }
        let zip = space.folder.appendingPathComponent("symbols.zip")
        let staged = space.folder.appendingPathComponent("staged")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        for file in [Self.appDWARF, Self.kitDWARF] {
            try FileManager.default.copyItem(atPath: file, toPath: staged.appendingPathComponent((file as NSString).lastPathComponent).path)
        }
        let zipped = try ExternalTool.result("/usr/bin/zip", ["-q", zip.path, "CrashApp", "CrashKit"], currentDirectory: staged)
        #expect(zipped.status == 0, "zip: \(zipped.stderr)")
        let local = try await SymbolSourcesCLITests.local(
            "swift-trap.ips", [SymbolSourcesCLITests.dsyms[0], SymbolSourcesCLITests.dsyms[1]])
        let cacheHome = space.folder.appendingPathComponent("xdg").path
        for _ in 0..<2 {
            let result = try await space.run([try space.report("swift-trap.ips"), zip.path], environment: ["XDG_CACHE_HOME": cacheHome])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == local.stdout)
            #expect(!result.stderr.contains("no dSYM"), "\(result.stderr)")
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: cacheHome + "/symbolicate/unzipped").filter { !$0.hasPrefix(".") }
        #expect(kept.count == 1, "\(kept)")
    }

    /// Finding 7: `atos -o BINARY` with a symbol server fetches the binary's debug file by its
    /// UUID and file name (`{name}`), and prints the binary's name.
    @Test func atosWithABinaryWithoutDWARFAsksTheServerByNameAndUUID() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.zip.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let local = try await SymbolSourcesCLITests.cli(["atos", "-o", Self.appDSYM, "-i", Self.appAddress])
        let binary = TestPaths.fixtures.appendingPathComponent("bin/CrashApp").path
        let fetched = try await space.run([
            "atos", "-o", binary, "--symbol-server", SymbolSourcesCLITests.Layout.zip.server(server.base), "--cache-dir", space.cache, "-i",
            Self.appAddress,
        ])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout == local.stdout, "\(fetched.stderr)")
        #expect(server.requests.contains { $0.contains("/zips/\(Self.appUUID)/CrashApp.dSYM.zip") }, "\(server.requests)")
    }

    /// Finding 7: `atos --uuid` alone has no image name: a `{name}` template is not asked with
    /// the UUID standing in for it (that was a wrong URL and a 404).
    @Test func atosWithoutANameDoesNotAskANameTemplate() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.zip.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        let result = try await space.run([
            "atos", "--uuid", Self.appUUID, "--symbol-server", SymbolSourcesCLITests.Layout.zip.server(server.base), "--cache-dir",
            space.cache, Self.appAddress,
        ])
        #expect(result.status != 0)
        #expect(server.requests.isEmpty, "\(server.requests)")
        #expect(result.stderr.contains("no symbol source has"), "\(result.stderr)")
    }

    /// Finding 7: an image fetched through `unified=` (kept in the cache as `debug`) is printed
    /// by the name recorded with it, never as `(in debug)`.
    @Test func atosNamesAFetchedImageByItsRecordedName() async throws {
        let space = try Space()
        defer { space.remove() }
        try SymbolSourcesCLITests.Layout.unified.lay(into: space.serverRoot)
        let server = try SymbolServerProcess(root: space.serverRoot)
        for _ in 0..<2 {  // downloaded, then from the cache
            let result = try await space.run([
                "atos", "--uuid", Self.appUUID, "--symbol-server", SymbolSourcesCLITests.Layout.unified.server(server.base), "--cache-dir",
                space.cache, Self.appAddress,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("(in debug)"), "\(result.stdout)")
            #expect(result.stdout.contains("(in \(Self.appUUID))"), "\(result.stdout)")
        }
    }

    /// Finding 7: atos's own `-s SLIDE` and `-inlineFrames`; placeholders in the help name what
    /// they take.
    @Test func atosTakesItsOwnSlideAndInlineFramesSpellings() throws {
        let withLoad = try CLI.run(["atos", "-o", Self.appDSYM, "-l", "0x100100000", "-i", "0x100104410"])
        #expect(withLoad.status == 0, "\(withLoad.stderr)")
        let withSlide = try CLI.run(["atos", "-o", Self.appDSYM, "-s", "0x100000", "-inlineFrames", "0x100104410"])
        #expect(withSlide.status == 0, "\(withSlide.stderr)")
        #expect(withSlide.stdout == withLoad.stdout)
        #expect(withSlide.stdout.contains("(in CrashApp)"))
        let help = try CLI.run(["atos", "--help"])
        #expect(!help.stdout.contains("<o>") && !help.stdout.contains("<l>") && !help.stdout.contains("<f>"), "\(help.stdout)")
        #expect(help.stdout.contains("-o <debug-file>") && help.stdout.contains("-s <slide>"), "\(help.stdout)")
    }

    /// Finding 2: the note says what was remembered and since when, and how to ask again;
    /// `--refresh` asks again.
    @Test func theNegativeCacheSaysWhatItRememberedAndRefreshAsksAgain() async throws {
        let space = try Space()
        defer { space.remove() }
        let server = try SymbolServerProcess(root: space.serverRoot)
        let template = server.base + "/{id2}/{idrest}/debuginfo"
        func run(_ extra: [String]) async throws -> CLIResult {
            try await space.run(
                [try space.report("swift-trap.ips"), "--symbol-server", template, "--cache-dir", space.cache] + extra, timeout: 300)
        }
        let first = try await run([])
        #expect(first.stderr.contains("note: no symbol source has CrashApp"), "\(first.stderr)")
        #expect(first.stderr.contains("(asked: symbol server"), "\(first.stderr)")
        let asked = server.requests.count
        #expect(asked > 0)
        let second = try await run([])
        #expect(server.requests.count == asked, "nothing asked within the lifetime")
        let note = second.stderr.split(separator: "\n").first { $0.contains("no symbol source has CrashApp") } ?? ""
        #expect(!note.contains("asked: symbol server"), "no request was sent: \(note)")
        #expect(note.contains("not asked: remembered as missing from symbol server \(server.base)"), "\(note)")
        #expect(note.contains(" since 20") && note.contains(" UTC for 1 hour"), "\(note)")
        #expect(note.contains("--refresh"), "\(note)")
        let refreshed = try await run(["--refresh"])
        #expect(server.requests.count == 2 * asked, "--refresh asks again")
        #expect(refreshed.stderr.contains("(asked: symbol server"), "\(refreshed.stderr)")
    }
}
