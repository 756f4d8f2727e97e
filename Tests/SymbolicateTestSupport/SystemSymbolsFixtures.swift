import Foundation

/// The system-symbols fixtures (`Fixtures/system-symbols`, built by its `generate.sh`): dylibs
/// standing for Apple's libraries as DeviceSupport folders under `home/`, the same dylibs in
/// dyld shared caches under `caches/`, reports with unnamed system frames, and
/// `manifest.json`, what the generator put where.
public enum SystemSymbolsFixtures {
    public static let root = TestPaths.fixtures.appendingPathComponent("system-symbols")
    /// Stands for `$HOME`: holds `Library/Developer/Xcode/<platform> DeviceSupport/…`.
    public static let home = root.appendingPathComponent("home").path
    public static let manifest: Manifest = {
        let url = root.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            fatalError("cannot read \(url.path); run Fixtures/system-symbols/generate.sh")
        }
        return manifest
    }()

    public struct Manifest: Decodable, Sendable {
        public var sets: [Set]
        public var reports: [Report]
    }

    /// One OS build of one architecture: its DeviceSupport folder and its cache.
    public struct Set: Decodable, Sendable {
        public var id: String
        public var os: String
        public var arch: String
        /// Relative to `root`.
        public var deviceSupport: String
        /// The main cache file, relative to `root`.
        public var cache: String
        /// `split` (iOS 15+: subcache and .symbols file) or `single` (older, one file).
        public var cacheLayout: String
        /// The exported symbol the cached image's symbol table leaves out (only the export trie names it).
        public var exportOnly: String
        public var images: [Image]

        public var deviceSupportPath: String { root.appendingPathComponent(deviceSupport).path }
        public var cachePath: String { root.appendingPathComponent(cache).path }
    }

    public struct Image: Decodable, Sendable {
        public var name: String
        public var path: String
        public var uuid: String
        /// Unslid `__TEXT` address (in the cache and in the DeviceSupport file alike).
        public var text: UInt64
        /// The cache file holding the image (`…_arm64e` or `…_arm64e.01`).
        public var file: String
        /// Stored name → address of every function symbol.
        public var symbols: [String: UInt64]
        /// The names the cache moved to its local-symbols table.
        public var localSymbols: [String]
    }

    public struct Report: Decodable, Sendable {
        public var report: String
        public var set: String
        /// Per thread, innermost first: the name and offset every system frame must get.
        public var threads: [[Frame]]
        public var path: String { root.appendingPathComponent("reports/\(report)").path }
    }

    public struct Frame: Decodable, Sendable {
        public var image: String
        public var address: String
        public var function: String
        public var offset: UInt64
    }

    public static func set(_ id: String) -> Set? { manifest.sets.first { $0.id == id } }

    /// `tools/lief_listing.py` (LIEF's view of the fixtures) as JSON, or why it cannot run.
    public static func lief(_ arguments: [String]) -> Result<Data, LIEFUnavailable> {
        guard let python = ExternalTool.find("python3") else { return .failure(LIEFUnavailable(reason: "python3 is not installed")) }
        let script = root.appendingPathComponent("tools/lief_listing.py").path
        do {
            let result = try runProcess(URL(fileURLWithPath: python), [script] + arguments, stdin: nil)
            guard result.status == 0 else {
                return .failure(LIEFUnavailable(reason: result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            return .success(Data(result.stdout.utf8))
        } catch {
            return .failure(LIEFUnavailable(reason: "cannot run \(script): \(error)"))
        }
    }

    public struct LIEFUnavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}
