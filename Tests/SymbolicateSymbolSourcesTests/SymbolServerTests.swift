import Foundation
import SymbolicateCore
import SymbolicateDiscovery
import Testing

@testable import SymbolicateSymbolSources

/// URL templates, Sentry's layouts and the settings read from the environment. The layouts'
/// paths are the ones symbolicator's documentation gives for Mach-O and ELF.
@Suite struct SymbolServerTests {
    /// Below `$HOME`: where the platform keeps a user's caches.
    static var userCache: String {
        #if os(macOS)
            "/Library/Caches/symbolicate"
        #else
            "/.cache/symbolicate"
        #endif
    }

    /// The download cache, the unzip cache and the Xcode dSYM index share one folder (issue 50:
    /// on macOS the index was under ~/Library/Caches and the others under ~/.cache).
    @Test(arguments: [
        ["HOME": "/home/me"], ["HOME": "/home/me", "XDG_CACHE_HOME": "/xdg"], ["HOME": "/home/me", "XDG_CACHE_HOME": "relative"],
    ])
    func everyCacheUsesOneFolder(environment: [String: String]) throws {
        let downloads = try SymbolSourceSettings.resolve(environment: environment).cacheDirectory
        #expect(downloads != nil)
        #expect(ZipCache.defaultCacheFolder(environment: environment) == downloads)
        #expect(XcodeDSYMSearch(environment: environment)?.cacheFolder == downloads)
        #expect(downloads == (environment["XDG_CACHE_HOME"] == "/xdg" ? "/xdg/symbolicate" : "/home/me" + Self.userCache))
    }

    static func app() throws -> WantedDebugFile {
        WantedDebugFile(id: try #require(DebugID(uuid: "3ED35565-456D-33CB-B554-6C567FA81585")), architecture: .arm64, name: "My App")
    }

    static func library() throws -> WantedDebugFile {
        WantedDebugFile(
            id: try #require(DebugID(buildID: "2dae42ee8a1fb6bc56d8c5d44110466f390bd5e3")), architecture: .x86_64, name: "libcrashy.so")
    }

    @Test func everyPlaceholder() throws {
        let server = try SymbolServer(parsing: "https://s.example.com/{uuid}/{id}/{id2}/{idrest}/{uuidpath}/{arch}/{name}")
        #expect(
            server.urls(for: try Self.app()) == [
                "https://s.example.com/3ED35565-456D-33CB-B554-6C567FA81585/3ed35565456d33cbb5546c567fa81585/3e/d35565456d33cbb5546c567fa81585/3ED3/5565/456D/33CB/B554/6C567FA81585/arm64/My%20App"
            ])
        #expect(
            server.urls(for: try Self.library()) == [
                "https://s.example.com/2dae42ee8a1fb6bc56d8c5d44110466f390bd5e3/2dae42ee8a1fb6bc56d8c5d44110466f390bd5e3/2d/ae42ee8a1fb6bc56d8c5d44110466f390bd5e3/2DAE42EE8A1FB6BC56D8C5D44110466F390BD5E3/x86_64/libcrashy.so"
            ])
    }

    @Test func sentryUnified() throws {
        let server = try SymbolServer(parsing: "unified=https://s.example.com/base")
        #expect(
            server.urls(for: try Self.app()) == [
                "https://s.example.com/base/3e/d35565456d33cbb5546c567fa81585/debuginfo",
                "https://s.example.com/base/3e/d35565456d33cbb5546c567fa81585/executable",
            ])
    }

    @Test func sentryNativeIsLLDBsLayoutForMachOAndGDBsForELF() throws {
        let server = try SymbolServer(parsing: "native=https://s.example.com/")
        #expect(
            server.urls(for: try Self.app()) == [
                "https://s.example.com/3ED3/5565/456D/33CB/B554/6C567FA81585",
                "https://s.example.com/3ED3/5565/456D/33CB/B554/6C567FA81585.app",
            ])
        #expect(
            server.urls(for: try Self.library()) == [
                "https://s.example.com/2d/ae42ee8a1fb6bc56d8c5d44110466f390bd5e3.debug",
                "https://s.example.com/2d/ae42ee8a1fb6bc56d8c5d44110466f390bd5e3",
            ])
    }

    @Test(arguments: [
        ("ftp://s.example.com/{id}", "not an http:// or https:// URL"),
        ("https://s.example.com/files", "no placeholder"),
        ("native=file:///tmp", "not an http:// or https:// URL"),
        ("https:///{id}", "not a valid URL"),
    ])
    func badServersAreRefusedByName(text: String, reason: String) {
        #expect {
            try SymbolServer(parsing: text)
        } throws: { error in
            let message = (error as? SymbolSourceError)?.description ?? ""
            return message.contains(text) && message.contains(reason)
        }
    }

    @Test func settingsFromTheEnvironment() throws {
        let settings = try SymbolSourceSettings.resolve(
            environment: [
                "SYMBOLICATE_SYMBOL_SERVERS": "unified=https://a.example.com  https://b.example.com/{id}\n",
                "DEBUGINFOD_URLS": "https://debuginfod.example.com/ http://d2.example.com",
                "DBGShellCommands": "/usr/local/bin/dsymForUUID --copyExecutable",
                "DBGFileMappedPaths": "/Volumes/dsyms/uuids:/other",
                "XDG_CACHE_HOME": "/xdg", "HOME": "/home/me",
                "SYMBOLICATE_FETCH_TIMEOUT": "5", "SYMBOLICATE_FETCH_RETRIES": "1", "SYMBOLICATE_CACHE_MAX_MIB": "100",
                "SYMBOLICATE_SYMBOL_SERVER_HEADERS": "a.example.com Authorization: Bearer s3cret\nb.example.com X-Token: t",
            ], symbolServers: ["https://first.example.com/{uuid}"], dsymForUUID: ["/bin/fetch"])
        #expect(
            settings.servers.map(\.description) == [
                "https://first.example.com/{uuid}", "unified=https://a.example.com", "https://b.example.com/{id}",
            ])
        #expect(settings.debuginfod == ["https://debuginfod.example.com", "http://d2.example.com"])
        #expect(settings.dsymForUUID == ["/bin/fetch", "/usr/local/bin/dsymForUUID --copyExecutable"])
        #expect(settings.fileMappedPaths == ["/Volumes/dsyms/uuids", "/other"])
        #expect(settings.cacheDirectory == "/xdg/symbolicate")
        #expect(settings.timeout == 5 && settings.retries == 1 && settings.cacheSizeLimit == 100 << 20)
        #expect(settings.headers(forHost: "a.example.com").map { "\($0.0): \($0.1)" } == ["Authorization: Bearer s3cret"])
        #expect(settings.headers(forHost: "c.example.com").isEmpty)
        // No XDG: the platform's user cache; --cache-dir wins over both.
        #expect(try SymbolSourceSettings.resolve(environment: ["HOME": "/home/me"]).cacheDirectory == "/home/me" + Self.userCache)
        #expect(try SymbolSourceSettings.resolve(environment: ["HOME": "/h"], cacheDirectory: "/c").cacheDirectory == "/c")
        #expect(try !SymbolSourceSettings.resolve(environment: [:]).hasSources)
    }

    @Test func aMalformedHeaderLineIsRefusedWithoutEchoingTheSecret() {
        #expect {
            try SymbolSourceSettings.resolve(environment: ["SYMBOLICATE_SYMBOL_SERVER_HEADERS": "Authorization=s3cret"])
        } throws: { error in
            let message = (error as? SymbolSourceError)?.description ?? ""
            return message.contains("line 1") && !message.contains("s3cret")
        }
    }

    @Test func dsymForUUIDPropertyLists() {
        let uuid = "3ED35565-456D-33CB-B554-6C567FA81585"
        let found = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>\(uuid)</key><dict>
            <key>DBGArchitecture</key><string>arm64</string>
            <key>DBGDSYMPath</key><string>/dsyms/App.dSYM</string>
            </dict></dict></plist>
            """.utf8)
        #expect(DsymForUUID.parse(found, uuid: uuid) == .path("/dsyms/App.dSYM"))
        let missing = Data(
            """
            <plist version="1.0"><dict><key>\(uuid)</key><dict><key>DBGError</key><string>not in the store</string></dict></dict></plist>
            """.utf8)
        #expect(DsymForUUID.parse(missing, uuid: uuid) == .notFound("not in the store"))
        #expect(DsymForUUID.parse(Data(), uuid: uuid) == .notFound(nil))
        #expect(DsymForUUID.parse(Data("hello".utf8), uuid: uuid) == .failed("printed something that is not a property list"))
    }

    @Test func messagesNeverShowAQuery() {
        #expect(HTTPDownloader.withoutQuery("https://u:p@s.example.com/a/b?token=s3cret#x") == "https://s.example.com/a/b")
    }
}
