import Foundation
import SymbolicateCore
import SymbolicateDWARF

/// dSYMs where Xcode leaves them, for a run given no debug files, after the report's folder
/// and `SYMBOLICATE_DSYM_PATH`: Spotlight (`mdfind "com_apple_xcode_dsym_uuids == UUID"`, only
/// where `mdfind` exists), then `~/Library/Developer/Xcode/Archives/**/dSYMs` and Xcode's
/// DerivedData products (`DerivedData/*/Build/Products/*/*.dSYM`, and the built `*.app` beside
/// them: a Debug build has no dSYM, its binaries' debug maps lead to the object files — the
/// device's `Debug-iphoneos/` and the Simulator's `Debug-iphonesimulator/` alike). The same
/// layouts under `$HOME` work on Linux (teams sync Archives to CI machines).
///
/// Every answer is checked by reading the file's UUIDs; nothing Spotlight or the index says is
/// trusted. The UUID → bundle index of what the folders held is kept in the user cache folder
/// (`xcode-dsyms.json`): a second run for the same UUIDs reads it and walks no folder, and an
/// entry whose bundle moved or changed is noticed (its UUID is not in it any more) and searched
/// for again.
package struct XcodeDSYMSearch: Sendable {
    /// `$HOME`.
    package var home: String
    /// The user cache folder (UserCacheFolder); nil keeps no index.
    package var cacheFolder: String?
    /// `mdfind`, where the system has it.
    package var mdfind: String?
    /// At most this many folders are visited and this many bundles read per place.
    package var folderLimit = 20_000
    package var bundleLimit = 5_000

    package init(home: String, cacheFolder: String?, mdfind: String?) {
        self.home = home
        self.cacheFolder = cacheFolder
        self.mdfind = mdfind
    }

    /// The search for this user, or nil without a `$HOME`.
    package init?(environment: [String: String]) {
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        let mdfind = "/usr/bin/mdfind"
        self.init(
            home: home, cacheFolder: UserCacheFolder.path(environment: environment),
            mdfind: FileManager.default.isExecutableFile(atPath: mdfind) ? mdfind : nil)
    }

    package var archives: String { home + "/Library/Developer/Xcode/Archives" }
    package var derivedData: String { home + "/Library/Developer/Xcode/DerivedData" }
    package var indexPath: String? { cacheFolder.map { $0 + "/xcode-dsyms.json" } }

    /// What a search found and did.
    package struct Outcome: Sendable, Equatable {
        /// The dSYM bundles holding wanted UUIDs (checked), each once.
        package var bundles: [String] = []
        /// One line per place searched (and for the index), for standard error.
        package var messages: [String] = []
        /// Wanted UUIDs the index answered (checked) without any folder being walked.
        package var fromIndex = 0
        /// Folders walked in Archives and DerivedData.
        package var foldersWalked = 0
    }

    /// Finds the bundles holding `wanted`.
    package func locate(_ wanted: Set<DebugID>) -> Outcome {
        var outcome = Outcome()
        guard !wanted.isEmpty else { return outcome }
        var missing = wanted
        var found: [String] = []
        func take(_ bundle: String, ids: Set<DebugID>) {
            let matching = ids.intersection(missing)
            guard !matching.isEmpty else { return }
            missing.subtract(matching)
            if !found.contains(bundle) { found.append(bundle) }
        }

        // 1. The index, each answer checked.
        var index = loadIndex()
        var stale: [String] = []
        for id in wanted.sorted(by: { $0.hexString < $1.hexString }) {
            guard missing.contains(id), let bundle = index[id.hexString] else { continue }
            let ids = Self.uuids(inBundle: bundle)
            if ids.contains(id) {
                take(bundle, ids: ids)
                outcome.fromIndex += 1
            } else {
                stale.append(bundle)
                index[id.hexString] = nil
            }
        }
        if outcome.fromIndex > 0, let indexPath {
            outcome.messages.append(
                "found \(outcome.fromIndex) UUID\(outcome.fromIndex == 1 ? "" : "s") in the index of Xcode's dSYMs (\(indexPath))")
        }
        for bundle in Set(stale).sorted() {
            outcome.messages.append("the index of Xcode's dSYMs named \(bundle), which is gone or holds another build now; searching again")
        }
        guard !missing.isEmpty else {
            outcome.bundles = found
            if !stale.isEmpty { saveIndex(index) }
            return outcome
        }

        // 2. Spotlight, where there is one. Its answers are checked like the index's.
        if let mdfind {
            var spotlightFound = 0
            for id in missing.sorted(by: { $0.hexString < $1.hexString }) {
                let query = "com_apple_xcode_dsym_uuids == \(id.description)"
                for bundle in Self.run(mdfind, [query]) where bundle.hasSuffix(".dSYM") {
                    let ids = Self.uuids(inBundle: bundle)
                    guard ids.contains(id) else { continue }
                    take(bundle, ids: ids)
                    spotlightFound += 1
                    for other in ids { index[other.hexString] = bundle }
                }
            }
            outcome.messages.append(
                "searched Spotlight (mdfind) for \(wanted.count) UUID\(wanted.count == 1 ? "" : "s"): \(spotlightFound) found")
        }

        // 3. Archives, then DerivedData: every bundle read once and remembered.
        var walkedAny = false
        for place in [(archives, "~/Library/Developer/Xcode/Archives"), (derivedData, "~/Library/Developer/Xcode/DerivedData")] {
            guard !missing.isEmpty else { break }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: place.0, isDirectory: &isFolder), isFolder.boolValue else { continue }
            walkedAny = true
            let walk = place.0 == archives ? archiveBundles() : derivedDataBundles()
            outcome.foldersWalked += walk.folders
            var matching = 0
            for bundle in walk.bundles {
                let ids = Self.uuids(inBundle: bundle)
                for id in ids { index[id.hexString] = bundle }
                if !ids.intersection(missing).isEmpty { matching += 1 }
                take(bundle, ids: ids)
            }
            let cut = walk.truncated ? " (stopped at the limit of \(folderLimit) folders, \(bundleLimit) dSYMs)" : ""
            let apps = walk.bundles.filter(Self.isAppBundle).count
            let dsyms = walk.bundles.count - apps
            let built = apps == 0 ? "" : ", \(apps) built app\(apps == 1 ? "" : "s")"
            outcome.messages.append(
                "searched \(place.1) (\(walk.folders) folder\(walk.folders == 1 ? "" : "s")): \(dsyms) dSYM\(dsyms == 1 ? "" : "s")\(built), \(matching) matching\(cut)"
            )
        }
        if walkedAny || mdfind != nil || !stale.isEmpty { saveIndex(index) }
        outcome.bundles = found
        return outcome
    }

    /// `Archives/<date>/<name>.xcarchive/dSYMs/*.dSYM`, walked to a bounded depth.
    func archiveBundles() -> (bundles: [String], folders: Int, truncated: Bool) {
        var bundles: [String] = []
        var folders = 0
        var truncated = false
        var queue: [(path: String, depth: Int)] = [(archives, 0)]
        while let (folder, depth) = queue.popLast() {
            guard folders < folderLimit, bundles.count < bundleLimit else {
                truncated = true
                break
            }
            folders += 1
            for name in Self.children(folder) {
                let path = folder + "/" + name
                guard Self.isFolder(path) else { continue }
                if name.hasSuffix(".dSYM") {
                    if (folder as NSString).lastPathComponent == "dSYMs" { bundles.append(path) }
                } else if depth < 6 {
                    queue.append((path, depth + 1))
                }
            }
        }
        return (bundles.sorted(), folders, truncated)
    }

    /// `DerivedData/*/Build/Products/*/*.dSYM` and `*.app` (built apps, for their debug maps).
    func derivedDataBundles() -> (bundles: [String], folders: Int, truncated: Bool) {
        var bundles: [String] = []
        var folders = 1
        var truncated = false
        outer: for project in Self.children(derivedData) {
            let products = derivedData + "/" + project + "/Build/Products"
            guard Self.isFolder(products) else { continue }
            folders += 1
            for configuration in Self.children(products) {
                let folder = products + "/" + configuration
                guard Self.isFolder(folder) else { continue }
                folders += 1
                for name in Self.children(folder)
                where (name.hasSuffix(".dSYM") || name.hasSuffix(".app")) && Self.isFolder(folder + "/" + name) {
                    bundles.append(folder + "/" + name)
                }
                if folders >= folderLimit || bundles.count >= bundleLimit {
                    truncated = true
                    break outer
                }
            }
        }
        return (bundles.sorted(), folders, truncated)
    }

    /// The UUIDs of every DWARF file of a dSYM bundle, or of every binary of a built app
    /// (headers only).
    static func uuids(inBundle bundle: String) -> Set<DebugID> {
        let folders = isAppBundle(bundle) ? appBinaryFolders(bundle) : [DSYMBundle.dwarfFolder(of: bundle)]
        var ids: Set<DebugID> = []
        for folder in folders {
            for name in children(folder) {
                let path = folder + "/" + name
                guard !isFolder(path), let format = DebugFileFormats.format(ofFileAt: path), let objects = try? format.objects(inFile: path)
                else { continue }
                for object in objects { if let id = object.debugID { ids.insert(id) } }
            }
        }
        return ids
    }

    static func isAppBundle(_ path: String) -> Bool { path.hasSuffix(".app") }

    /// Where a built app keeps binaries: its top level (iOS; a Debug build's stub,
    /// `App.debug.dylib` and `__preview.dylib`), `Contents/MacOS` (macOS), and the same inside
    /// each of its frameworks and extensions, one level down.
    static func appBinaryFolders(_ app: String) -> [String] {
        var folders = [app, app + "/Contents/MacOS"]
        for (container, suffix) in [
            ("/Frameworks", ".framework"), ("/PlugIns", ".appex"), ("/Contents/Frameworks", ".framework"), ("/Contents/PlugIns", ".appex"),
        ] {
            for name in children(app + container) where name.hasSuffix(suffix) {
                folders += [app + container + "/" + name, app + container + "/" + name + "/Contents/MacOS"]
            }
        }
        return folders
    }

    private static func children(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Standard output lines of a tool (mdfind), or none when it cannot run.
    private static func run(_ tool: String, _ arguments: [String]) -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return [] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// The stored index: UUID (hex) → bundle path.
    struct IndexFile: Codable {
        var version = 1
        var bundles: [String: String]
    }

    func loadIndex() -> [String: String] {
        guard let indexPath, case .success(let data) = RegularFile.read(path: indexPath, limit: 64 << 20),
            let file = try? JSONDecoder().decode(IndexFile.self, from: data), file.version == 1
        else { return [:] }
        return file.bundles
    }

    func saveIndex(_ bundles: [String: String]) {
        guard let cacheFolder, let indexPath else { return }
        try? FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(IndexFile(bundles: bundles)) else { return }
        try? writeAtomically(String(decoding: data, as: UTF8.self), to: indexPath)
    }
}
