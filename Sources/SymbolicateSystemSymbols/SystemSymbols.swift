import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDyldCache
import SymbolicateMachO

/// Apple's own libraries, named from where Xcode keeps them: `DeviceSupport` folders of
/// Mach-O files (`…/iOS DeviceSupport/17.5 (21F79) arm64e/Symbols`) and dyld shared caches
/// (`dyld_shared_cache_arm64e` with its subcaches and `.symbols` file).
///
/// Images are matched by UUID only. Each place is indexed once per run (headers only) and
/// shared by every report of the run; a report's OS picks the default place when none was
/// given. What was searched, and a place for another OS build, is said once each through
/// `takeMessages()`.
public final class SystemSymbols: @unchecked Sendable {
    /// Places given with `--system-symbols` or `SYMBOLICATE_SYSTEM_SYMBOLS`; empty means
    /// "Xcode's DeviceSupport folder for the report's OS".
    public let explicitPlaces: [String]
    /// Where `Library/Developer/Xcode` is looked for (`$HOME`).
    public let home: String?

    private let lock = NSLock()
    private var indexed: [String: SystemSymbolPlace] = [:]
    private var opened: [String: Result<any DebugLookup, DebugInfoError>] = [:]
    private var said: Set<String> = []
    /// Lines to say, each with the OS build it is about when it says its folder is missing.
    private var messages: [(text: String, missingOS: String?)] = []

    public init(places: [String], home: String? = ProcessInfo.processInfo.environment["HOME"]) {
        explicitPlaces = places
        self.home = home
    }

    /// The places of `SYMBOLICATE_SYSTEM_SYMBOLS` (colon-separated).
    public static func environmentPlaces(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        (environment["SYMBOLICATE_SYSTEM_SYMBOLS"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    /// The system image with this UUID for a report from `os` (iOS 17.5, build 21F79),
    /// opened for lookups; nil when no place has it. Never throws: an unreadable place or
    /// image is said once and skipped.
    package func image(id: DebugID, architecture: Architecture?, os: OperatingSystem?) -> (lookup: any DebugLookup, displayPath: String)? {
        let places = self.places(for: os)
        for place in places {
            guard let candidates = place.images[id] else { continue }
            let ranked = candidates.sorted { ($0.architecture == architecture ? 0 : 1) < ($1.architecture == architecture ? 0 : 1) }
            for candidate in ranked {
                switch open(candidate) {
                case .success(let lookup): return (lookup, candidate.displayPath)
                case .failure(let error): say("warning: \(error.description)")
                }
            }
        }
        return nil
    }

    /// Lines for stderr gathered since the last call: what was searched, places for another
    /// OS build, unreadable files. Each is said once per run.
    /// With `collapsingMissing` (batch mode: many reports, many OS builds), the OS builds
    /// without a DeviceSupport folder are said in one line.
    package func takeMessages(collapsingMissing: Bool = false) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let taken = messages
        messages = []
        guard collapsingMissing else { return taken.map(\.text) }
        var out = taken.filter { $0.missingOS == nil }.map(\.text)
        let missing = taken.compactMap(\.missingOS)
        if missing.count == 1, let only = taken.first(where: { $0.missingOS != nil }) {
            out.append(only.text)
        } else if missing.count > 1 {
            let shown = missing.prefix(3).joined(separator: ", ")
            let more = missing.count > 3 ? " and \(missing.count - 3) more" : ""
            out.append(
                "no system symbols for \(shown)\(more): no DeviceSupport folder for them under ~/Library/Developer/Xcode (use --system-symbols)"
            )
        }
        return out
    }

    // MARK: - Places

    /// The indexed places for a report: the explicit ones, else Xcode's folders for its OS.
    func places(for os: OperatingSystem?) -> [SystemSymbolPlace] {
        let wanted = OSBuild(os)
        if !explicitPlaces.isEmpty {
            return explicitPlaces.map { path in
                let place = index(path)
                if let wanted, let own = place.build, own.build != wanted.build, own.platform == wanted.platform || own.platform == nil {
                    say(
                        "warning: system symbols \(path) are for \(own.description), the report is from \(wanted.description); only images with the same UUID are used"
                    )
                }
                return place
            }
        }
        guard let wanted, let home else { return [] }
        let folders = Self.deviceSupportFolders(for: wanted, home: home)
        if folders.isEmpty {
            let root = Self.deviceSupportRoot(wanted, home: home)
            say(
                "no system symbols for \(wanted.description): no \(root)/\(wanted.version) (\(wanted.build))*/Symbols (use --system-symbols to name a DeviceSupport folder or a dyld shared cache)",
                missingOS: wanted.description)
            return []
        }
        return folders.map(index)
    }

    /// `~/Library/Developer/Xcode/iOS DeviceSupport/17.5 (21F79)[ arm64e]/Symbols` and every
    /// other architecture's folder of the same build.
    static func deviceSupportFolders(for os: OSBuild, home: String) -> [String] {
        let root = deviceSupportRoot(os, home: home)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        let exact = "\(os.version) (\(os.build))"
        return names.filter { $0 == exact || $0.hasPrefix(exact + " ") }.sorted().map {
            (root as NSString).appendingPathComponent($0 + "/Symbols")
        }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    static func deviceSupportRoot(_ os: OSBuild, home: String) -> String {
        (home as NSString).appendingPathComponent("Library/Developer/Xcode/\(os.platform ?? "iOS") DeviceSupport")
    }

    private func index(_ path: String) -> SystemSymbolPlace {
        lock.lock()
        if let place = indexed[path] {
            lock.unlock()
            return place
        }
        lock.unlock()
        let place = SystemSymbolPlace(path: path)
        lock.lock()
        defer { lock.unlock() }
        if let raced = indexed[path] { return raced }
        indexed[path] = place
        for problem in place.problems { sayLocked("warning: \(problem)") }
        sayLocked(place.searchedLine)
        return place
    }

    private func open(_ image: SystemImage) -> Result<any DebugLookup, DebugInfoError> {
        let key = image.displayPath + "#" + image.debugID.description
        lock.lock()
        if let cached = opened[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let result: Result<any DebugLookup, DebugInfoError>
        do { result = .success(try image.open()) } catch { result = .failure(error) }
        lock.lock()
        defer { lock.unlock() }
        if let raced = opened[key] { return raced }
        opened[key] = result
        return result
    }

    private func say(_ line: String, missingOS: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        sayLocked(line, missingOS: missingOS)
    }

    private func sayLocked(_ line: String, missingOS: String? = nil) {
        guard said.insert(line).inserted else { return }
        messages.append((line, missingOS))
    }
}

/// A report's OS as Xcode names DeviceSupport folders: platform folder, version, build.
struct OSBuild: Equatable, CustomStringConvertible {
    /// `iOS`, `watchOS`, `tvOS`, `visionOS`, `macOS`; nil when the text does not say.
    var platform: String?
    var version: String
    var build: String

    /// The report's OS as its reader typed it; nil without a version and a build (no folder to name).
    init?(_ os: OperatingSystem?) {
        guard let os, let version = os.version, let build = os.build, version.first?.isNumber == true else { return nil }
        self.init(platform: os.platform?.rawValue, version: version, build: build)
    }

    init(platform: String?, version: String, build: String) {
        self.platform = platform
        self.version = version
        self.build = build
    }

    /// From a DeviceSupport path: `…/iOS DeviceSupport/17.5 (21F79) arm64e/Symbols`.
    init?(deviceSupportPath path: String) {
        let parts = path.split(separator: "/").map(String.init)
        guard let at = parts.lastIndex(where: { $0.hasSuffix(" DeviceSupport") }), at + 1 < parts.count else { return nil }
        let platformName = String(parts[at].dropLast(" DeviceSupport".count))
        let folder = "\(platformName) \(parts[at + 1].split(separator: ")").first.map { $0 + ")" } ?? "")"
        guard let parsed = OSBuild(OperatingSystem(printed: folder)) else {
            return nil
        }
        self = parsed
        platform = platformName
    }

    var description: String { "\(platform ?? "OS") \(version) (\(build))" }
}
