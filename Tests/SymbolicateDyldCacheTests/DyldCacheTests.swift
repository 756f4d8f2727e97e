import Foundation
import SymbolicateCore
import SymbolicateDyldCache
import SymbolicateTestSupport
import Testing

/// The dyld shared cache reader on the fixture caches (`Fixtures/system-symbols/caches`): a
/// split iOS 17 and macOS 14 cache (main file, subcache `.01`, `.symbols` file) and a single-file
/// iOS 14 cache (local symbols in the main file, 32-bit local-symbol entries), each holding the
/// dylibs of the matching DeviceSupport folder.
@Suite struct DyldCacheTests {
    static let sets = SystemSymbolsFixtures.manifest.sets.map(\.id)

    @Test(arguments: sets)
    func listsEveryImageWithItsUUIDAndAddress(_ id: String) throws {
        let set = try #require(SystemSymbolsFixtures.set(id))
        let cache = try DyldCache(path: set.cachePath)
        #expect(cache.architecture.name == set.arch)
        #expect(cache.images.map(\.installName) == set.images.map(\.path))
        #expect(cache.images.map { $0.debugID?.description } == set.images.map(\.uuid))
        #expect(cache.images.map(\.address) == set.images.map(\.text))
        #expect(cache.localSymbolsProblem == nil)
    }

    /// Local symbols (from `.symbols` or the main file), the image's own symbol table and the
    /// export trie together give back every function the dylib was linked with.
    @Test(arguments: sets)
    func namesEveryFunctionOfEveryImage(_ id: String) throws {
        let set = try #require(SystemSymbolsFixtures.set(id))
        let cache = try DyldCache(path: set.cachePath)
        for (image, expected) in zip(cache.images, set.images) {
            let symbols = try cache.symbols(of: image)
            let found = Dictionary(symbols.all.map { ($0.name, $0.address) }, uniquingKeysWith: { a, _ in a })
            #expect(found == expected.symbols, "\(image.installName)")
            for (name, address) in expected.symbols {
                let hit = symbols.nearest(atOrBefore: address + 4)
                #expect(hit?.name == name && hit?.address == address, "\(name)")
            }
            // Nothing names an address before the first function or past __TEXT.
            #expect(symbols.nearest(atOrBefore: image.address + image.textSize) == nil)
        }
    }

    @Test func exportOnlySymbolComesFromTheTrie() throws {
        for set in SystemSymbolsFixtures.manifest.sets {
            let cache = try DyldCache(path: set.cachePath)
            let owner = try #require(set.images.first { $0.symbols[set.exportOnly] != nil })
            let image = try #require(cache.images.first { $0.installName == owner.path })
            let address = try #require(owner.symbols[set.exportOnly])
            #expect(try cache.symbols(of: image).nearest(atOrBefore: address)?.name == set.exportOnly)
        }
    }

    @Test func withoutTheSymbolsFileOnlyGlobalNamesRemainAndItIsSaid() throws {
        let set = try #require(SystemSymbolsFixtures.manifest.sets.first { $0.cacheLayout == "split" })
        let folder = try TestPaths.temporaryDirectory("dsc-no-symbols")
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent((set.cache as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: set.cachePath, toPath: main.path)
        try FileManager.default.copyItem(atPath: set.cachePath + ".01", toPath: main.path + ".01")
        let cache = try DyldCache(path: main.path)
        #expect(cache.localSymbolsProblem?.contains(".symbols") == true)
        let image = try #require(cache.images.first)
        let expected = try #require(set.images.first)
        let names = Set(try cache.symbols(of: image).all.map(\.name))
        #expect(names == Set(expected.symbols.keys).subtracting(expected.localSymbols))
    }

    @Test func missingSubcacheIsAnErrorNamingIt() throws {
        let set = try #require(SystemSymbolsFixtures.manifest.sets.first { $0.cacheLayout == "split" })
        let folder = try TestPaths.temporaryDirectory("dsc-no-subcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("dyld_shared_cache_\(set.arch)")
        try FileManager.default.copyItem(atPath: set.cachePath, toPath: main.path)
        #expect {
            try DyldCache(path: main.path)
        } throws: { error in
            "\(error)".contains(main.path + ".01")
        }
    }

    /// Every truncation of a cache header is an error naming the file, never a crash.
    @Test(arguments: [0, 7, 16, 100, 0x200, 0x300, 0x1000])
    func truncatedCacheIsAnError(_ length: Int) throws {
        let set = try #require(SystemSymbolsFixtures.set("ios14"))
        let folder = try TestPaths.temporaryDirectory("dsc-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = folder.appendingPathComponent("dyld_shared_cache_arm64")
        try Data(try Data(contentsOf: URL(fileURLWithPath: set.cachePath)).prefix(length)).write(to: cut)
        do {
            let cache = try DyldCache(path: cut.path)
            // What opens (a cut past the header) must fail per image, not crash.
            for image in cache.images { _ = try? cache.symbols(of: image) }
        } catch {
            #expect(error.path == cut.path)
        }
    }

    /// Random damage to any byte of the header area: an error or a usable cache, never a trap.
    @Test func damagedHeaderBytesNeverTrap() throws {
        let set = try #require(SystemSymbolsFixtures.set("ios17"))
        let original = try Data(contentsOf: URL(fileURLWithPath: set.cachePath))
        let folder = try TestPaths.temporaryDirectory("dsc-damage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("dyld_shared_cache_arm64e")
        try FileManager.default.copyItem(atPath: set.cachePath + ".01", toPath: damaged.path + ".01")
        try FileManager.default.copyItem(atPath: set.cachePath + ".symbols", toPath: damaged.path + ".symbols")
        let seed = TestSeed.value()
        // A crash here ends the process before any expectation can name the seed: print it first.
        print("seeded damage: seed \(seed) (SYMBOLICATE_TEST_SEED=\(seed) runs it again)")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            var bytes = original
            for _ in 0..<4 {
                bytes[Int.random(in: 0..<0x800, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            try bytes.write(to: damaged)
            if let cache = try? DyldCache(path: damaged.path) {
                for image in cache.images { _ = (try? cache.symbols(of: image))?.nearest(atOrBefore: image.address + 64) }
            }
        }
    }

    /// LIEF's dyld shared cache reader, where it has one, must list the same images, UUIDs
    /// and symbols. The PyPI build of LIEF 1.0 ships `lief.dsc` without the reader behind it
    /// ("Dyld shared cache not available for this build"): then the reason is printed and
    /// the comparison is skipped.
    @Test(arguments: sets)
    func liefAgreesOnImagesUUIDsAndSymbols(_ id: String) throws {
        let set = try #require(SystemSymbolsFixtures.set(id))
        let listing: Data
        switch SystemSymbolsFixtures.lief(["dsc", set.cachePath]) {
        case .success(let data): listing = data
        case .failure(let why):
            print("skipped: LIEF cannot check \(set.cache): \(why)")
            return
        }
        struct Library: Decodable {
            var path: String
            var address: UInt64
            var uuid: String?
            var symbols: [[LIEFValue]]?
        }
        let libraries = try JSONDecoder().decode([Library].self, from: listing)
        let cache = try DyldCache(path: set.cachePath)
        #expect(libraries.map(\.path) == cache.images.map(\.installName))
        #expect(libraries.map(\.address) == cache.images.map(\.address))
        #expect(libraries.map(\.uuid) == cache.images.map { $0.debugID?.description })
        for (library, image) in zip(libraries, cache.images) {
            let ours = Set(try cache.symbols(of: image).all.map(\.name))
            let theirs = Set((library.symbols ?? []).compactMap { $0.first?.string })
            #expect(theirs.isSubset(of: ours), "\(image.installName): LIEF has \(theirs.subtracting(ours))")
        }
    }

    /// LIEF's Mach-O reader (which the PyPI build has) on the DeviceSupport copies of the
    /// same dylibs: the UUIDs and function symbols the caches hold are the dylibs' own.
    @Test(arguments: sets)
    func liefReadsTheSameDylibsFromTheDeviceSupportFolder(_ id: String) throws {
        let set = try #require(SystemSymbolsFixtures.set(id))
        let files = set.images.map { set.deviceSupportPath + $0.path }
        let listing: Data
        switch SystemSymbolsFixtures.lief(["macho"] + files) {
        case .success(let data): listing = data
        case .failure(let why):
            print("skipped: LIEF cannot check \(set.deviceSupport): \(why)")
            return
        }
        struct Binary: Decodable {
            var uuid: String?
            var symbols: [[LIEFValue]]
            var exports: [[LIEFValue]]
        }
        let binaries = try JSONDecoder().decode([Binary].self, from: listing)
        let cache = try DyldCache(path: set.cachePath)
        #expect(binaries.map(\.uuid) == cache.images.map { $0.debugID?.description })
        for (binary, image) in zip(binaries, cache.images) {
            var theirs: [String: UInt64] = [:]
            for pair in binary.symbols + binary.exports {
                if let name = pair.first?.string, let value = pair.last?.number { theirs[name] = value }
            }
            let ours = Dictionary(try cache.symbols(of: image).all.map { ($0.name, $0.address) }, uniquingKeysWith: { a, _ in a })
            #expect(ours == theirs, "\(image.installName)")
        }
    }
}

/// A string or a number in LIEF's JSON pairs.
enum LIEFValue: Decodable {
    case string(String)
    case number(UInt64)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var number: UInt64? { if case .number(let n) = self { return n } else { return nil } }
}
