import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateTestSupport
import Testing

@testable import SymbolicateSystemSymbols

/// Finding Apple's images by UUID in DeviceSupport folders and dyld shared caches, on the
/// fixtures of `Fixtures/system-symbols` (`home/` stands for `$HOME`).
@Suite struct SystemSymbolsTests {
    @Test(arguments: [
        ("iPhone OS 17.5 (21F79)", "iOS", "17.5", "21F79"),
        ("iOS 18.1 (22B83)", "iOS", "18.1", "22B83"),
        ("iPadOS 17.5 (21F79)", "iOS", "17.5", "21F79"),
        ("macOS 14.5 (23F79)", "macOS", "14.5", "23F79"),
        ("Mac OS X 10.15.7 (19H2)", "macOS", "10.15.7", "19H2"),
        ("Watch OS 10.5 (21T576)", "watchOS", "10.5", "21T576"),
        ("Apple TVOS 17.5 (21L569)", "tvOS", "17.5", "21L569"),
        ("xrOS 1.2 (21O589)", "visionOS", "1.2", "21O589"),
    ])
    func readsTheOSOfAReport(_ text: String, _ platform: String, _ version: String, _ build: String) {
        #expect(OSBuild(OperatingSystem(printed: text)) == OSBuild(platform: platform, version: version, build: build))
    }

    @Test(arguments: ["", "iPhone OS", "17.5", "iPhone OS () ", "iPhone OS x.y (21F79)"])
    func refusesWhatIsNoOSBuild(_ text: String) {
        #expect(OSBuild(OperatingSystem(printed: text)) == nil)
    }

    @Test func readsTheBuildOfADeviceSupportFolder() {
        #expect(
            OSBuild(deviceSupportPath: "/Users/a/Library/Developer/Xcode/iOS DeviceSupport/17.5 (21F79) arm64e/Symbols")
                == OSBuild(platform: "iOS", version: "17.5", build: "21F79"))
        #expect(OSBuild(deviceSupportPath: "/tmp/caches/ios17") == nil)
    }

    /// Xcode's folder for the report's OS: with and without the architecture suffix.
    @Test func defaultFolderIsXcodesForTheReportsOS() throws {
        let home = SystemSymbolsFixtures.home
        let ios17 = SystemSymbols.deviceSupportFolders(
            for: try #require(OSBuild(OperatingSystem(printed: "iPhone OS 17.5 (21F79)"))), home: home)
        #expect(ios17.map { ($0 as NSString).lastPathComponent } == ["Symbols"])
        #expect(ios17.first?.contains("iOS DeviceSupport/17.5 (21F79) arm64e/") == true)
        let ios14 = SystemSymbols.deviceSupportFolders(
            for: try #require(OSBuild(OperatingSystem(printed: "iPhone OS 14.8 (18H17)"))), home: home)
        #expect(ios14.first?.hasSuffix("iOS DeviceSupport/14.8 (18H17)/Symbols") == true)
        #expect(
            SystemSymbols.deviceSupportFolders(for: try #require(OSBuild(OperatingSystem(printed: "iPhone OS 17.5 (21F80)"))), home: home)
                .isEmpty)
        let macOS = SystemSymbols.deviceSupportFolders(
            for: try #require(OSBuild(OperatingSystem(printed: "macOS 14.5 (23F79)"))), home: home)
        #expect(macOS.first?.contains("macOS DeviceSupport/14.5 (23F79) arm64e/") == true)
    }

    /// Every image of every set is found by UUID, from the default folder and from the cache,
    /// and both name a function the same way.
    @Test(arguments: SystemSymbolsFixtures.manifest.sets.map(\.id))
    func findsEveryImageByUUIDInTheFolderAndTheCache(_ id: String) throws {
        let set = try #require(SystemSymbolsFixtures.set(id))
        let fromFolder = SystemSymbols(places: [], home: SystemSymbolsFixtures.home)
        let fromCache = SystemSymbols(places: [set.cachePath], home: nil)
        for image in set.images {
            let uuid = try #require(DebugID(parsing: image.uuid))
            let folder = try #require(
                fromFolder.image(id: uuid, architecture: Architecture(set.arch), os: OperatingSystem(printed: set.os)))
            let cache = try #require(fromCache.image(id: uuid, architecture: Architecture(set.arch), os: OperatingSystem(printed: set.os)))
            #expect(folder.displayPath == set.deviceSupportPath + image.path)
            #expect(cache.displayPath == "\(set.cachePath)!\(image.path)")
            #expect(folder.lookup.linkedAddress == image.text && cache.lookup.linkedAddress == image.text)
            for (_, address) in image.symbols {
                let a = folder.lookup.lookup(fileAddress: address + 4)?.frames.map(\.function)
                let b = cache.lookup.lookup(fileAddress: address + 4)?.frames.map(\.function)
                #expect(a != nil && a == b, "\(image.name) 0x\(String(address, radix: 16))")
            }
        }
    }

    @Test func aPlaceIsIndexedOnceAndSaidOnce() throws {
        let set = try #require(SystemSymbolsFixtures.set("ios17"))
        let symbols = SystemSymbols(places: [set.deviceSupportPath], home: nil)
        let uuid = try #require(DebugID(parsing: set.images[0].uuid))
        _ = symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: set.os))
        let first = symbols.takeMessages()
        #expect(first.count == 1 && first[0].contains("for system symbols: \(set.images.count) images"), "\(first)")
        _ = symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: set.os))
        #expect(symbols.takeMessages().isEmpty)
    }

    @Test func aFolderForAnotherBuildIsSaidOnce() throws {
        let ios14 = try #require(SystemSymbolsFixtures.set("ios14"))
        let ios17 = try #require(SystemSymbolsFixtures.set("ios17"))
        let symbols = SystemSymbols(places: [ios14.deviceSupportPath], home: nil)
        let uuid = try #require(DebugID(parsing: ios17.images[0].uuid))
        #expect(symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: ios17.os)) == nil)
        #expect(symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: ios17.os)) == nil)
        let messages = symbols.takeMessages()
        #expect(messages.filter { $0.contains("are for iOS 14.8 (18H17), the report is from iOS 17.5 (21F79)") }.count == 1, "\(messages)")
    }

    @Test func aMissingDefaultFolderIsSaidWithWhereItWasLookedFor() throws {
        let home = try TestPaths.temporaryDirectory("no-device-support")
        defer { try? FileManager.default.removeItem(at: home) }
        let symbols = SystemSymbols(places: [], home: home.path)
        let uuid = try #require(DebugID(parsing: "AFDC5DD5-B153-33FE-8912-09AAFB1CEE5B"))
        #expect(symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: "iPhone OS 17.5 (21F79)")) == nil)
        #expect(symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: "iPhone OS 16.0 (20A362)")) == nil)
        let lines = symbols.takeMessages()
        #expect(lines.count == 2, "\(lines)")
        #expect(
            lines.first
                == "no system symbols for iOS 17.5 (21F79): no \(home.path)/Library/Developer/Xcode/iOS DeviceSupport/17.5 (21F79)*/Symbols (use --system-symbols to name a DeviceSupport folder or a dyld shared cache)"
        )
    }

    @Test func missingFoldersOfABatchAreSaidInOneLine() throws {
        let home = try TestPaths.temporaryDirectory("no-device-support")
        defer { try? FileManager.default.removeItem(at: home) }
        let symbols = SystemSymbols(places: [], home: home.path)
        let uuid = try #require(DebugID(parsing: "AFDC5DD5-B153-33FE-8912-09AAFB1CEE5B"))
        for os in ["iPhone OS 17.5 (21F79)", "iPhone OS 16.0 (20A362)", "iPhone OS 15.5 (19F77)", "iPhone OS 14.8 (18H17)"] {
            _ = symbols.image(id: uuid, architecture: nil, os: OperatingSystem(printed: os))
        }
        let lines = symbols.takeMessages(collapsingMissing: true)
        #expect(lines.count == 1 && lines[0].contains("iOS 17.5 (21F79), iOS 16.0 (20A362), iOS 15.5 (19F77) and 1 more"), "\(lines)")
    }

    @Test func anUnreadablePlaceIsSaidNotFatal() throws {
        let folder = try TestPaths.temporaryDirectory("bad-system-symbols")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bogus = folder.appendingPathComponent("dyld_shared_cache_arm64e")
        try Data("dyld_v1  arm64e\0 and nothing more".utf8).write(to: bogus)
        let symbols = SystemSymbols(places: [folder.path, folder.appendingPathComponent("missing").path], home: nil)
        let uuid = try #require(DebugID(parsing: "AFDC5DD5-B153-33FE-8912-09AAFB1CEE5B"))
        #expect(symbols.image(id: uuid, architecture: nil, os: nil) == nil)
        let messages = symbols.takeMessages()
        #expect(messages.contains { $0.hasPrefix("warning: \(bogus.path)") }, "\(messages)")
        #expect(messages.contains { $0.contains("missing: no such file or folder") }, "\(messages)")
    }
}
