import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDyldCache
import SymbolicateMachO

/// One system image a place holds: a Mach-O file of a DeviceSupport folder, or an image of
/// a dyld shared cache.
struct SystemImage: Sendable {
    enum Source: Sendable {
        case machO(MachOSlice)
        case cache(DyldCache, DyldCacheImage)
    }

    var debugID: DebugID
    var architecture: Architecture
    /// The file, or `cache!/install/name` for a cache image.
    var displayPath: String
    var source: Source

    func open() throws(DebugInfoError) -> any DebugLookup {
        switch source {
        case .machO(let slice): return try slice.open()
        case .cache(let cache, let image): return DyldCacheLookup(cache: cache, image: image)
        }
    }
}

/// One searched place, indexed from headers only: a folder (walked recursively for Mach-O
/// files and dyld shared caches) or a dyld shared cache file.
struct SystemSymbolPlace: Sendable {
    let path: String
    let images: [DebugID: [SystemImage]]
    let problems: [String]
    /// The OS build the place is for, from its DeviceSupport folder name or a cache's path.
    let build: OSBuild?
    let machOCount: Int
    let caches: [String]

    /// Upper bound of directory entries visited, so a mistaken `--system-symbols /` ends.
    static let walkLimit = 500_000

    init(path: String) {
        self.path = path
        build = OSBuild(deviceSupportPath: path)
        var problems: [String] = []
        var machOFiles: [String] = []
        var cacheFiles: [String] = []
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            problems.append("\(path): no such file or folder (given as system symbols)")
        } else if isDirectory.boolValue {
            Self.walk(path, machO: &machOFiles, caches: &cacheFiles, problems: &problems)
        } else if DyldCache.hasMagic(path: path) {
            cacheFiles.append(path)
        } else if MachODebugFormat.recognizes(magic: [UInt8](RegularFile.prefix(path: path, count: 8) ?? Data())) {
            machOFiles.append(path)
        } else {
            problems.append("\(path): neither a folder, a Mach-O file nor a dyld shared cache (given as system symbols)")
        }

        // Header reads are independent: spread them over the cores (a DeviceSupport folder
        // has ~2,000 images).
        let files = machOFiles
        let results = ResultSlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            do {
                let slices = try MachOFile(path: file).slices
                results.set(
                    index,
                    .images(
                        slices.compactMap { slice in
                            slice.debugID.map {
                                SystemImage(debugID: $0, architecture: slice.architecture, displayPath: file, source: .machO(slice))
                            }
                        }))
            } catch {
                results.set(index, .problem("\(error)"))
            }
        }
        var images: [DebugID: [SystemImage]] = [:]
        var machOCount = 0
        for result in results.values {
            switch result {
            case .images(let list):
                machOCount += list.isEmpty ? 0 : 1
                for image in list { images[image.debugID, default: []].append(image) }
            case .problem(let message): problems.append(message)
            case nil: break
            }
        }
        var caches: [String] = []
        for file in cacheFiles {
            do {
                let cache = try DyldCache(path: file)
                caches.append(file)
                if let problem = cache.localSymbolsProblem { problems.append(problem) }
                for image in cache.images {
                    guard let id = image.debugID else { continue }
                    images[id, default: []].append(
                        SystemImage(
                            debugID: id, architecture: cache.architecture, displayPath: "\(file)!\(image.installName)",
                            source: .cache(cache, image)))
                }
            } catch {
                problems.append(error.description)
            }
        }
        self.images = images
        self.problems = problems
        self.machOCount = machOCount
        self.caches = caches
    }

    /// `system symbols: 2,031 images in …/Symbols (1 dyld shared cache)` — the one line that
    /// says what a place held.
    var searchedLine: String {
        let count = images.values.reduce(0) { $0 + $1.count }
        var parts = ["\(count) image\(count == 1 ? "" : "s")"]
        if !caches.isEmpty { parts.append("\(caches.count) dyld shared cache\(caches.count == 1 ? "" : "s")") }
        return "searched \(path) for system symbols: \(parts.joined(separator: ", "))"
    }

    /// Every Mach-O file and main dyld shared cache file under `folder`. Only names that can
    /// be images are opened: no extension (frameworks' binaries), `.dylib`, and cache files.
    private static func walk(_ folder: String, machO: inout [String], caches: inout [String], problems: inout [String]) {
        var pending = [folder]
        var visited = 0
        while let current = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                visited += 1
                if visited > walkLimit {
                    problems.append("\(folder): stopped after \(walkLimit) entries; name the Symbols folder itself")
                    return
                }
                let full = (current as NSString).appendingPathComponent(name)
                var status = stat()
                guard lstat(full, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append(full)
                case S_IFREG:
                    if DyldCache.isMainCacheName(name) {
                        if DyldCache.hasMagic(path: full) { caches.append(full) }
                    } else if name.hasPrefix("dyld_shared_cache_") || name.hasPrefix("dyld_sim_shared_cache_") {
                        continue  // subcaches and .symbols files are opened with their main file
                    } else {
                        let ext = (name as NSString).pathExtension
                        if ext.isEmpty || ext == "dylib" { machO.append(full) }
                    }
                default:
                    continue
                }
            }
        }
        // Files that turn out not to be Mach-O (scripts, plists without extension) are not
        // problems: a folder holds more than images.
        machO = machO.filter {
            MachODebugFormat.recognizes(magic: [UInt8](RegularFile.prefix(path: $0, count: 8) ?? Data()))
        }
    }
}

/// What reading one file's headers gave: its images, or a problem to say.
enum HeaderOutcome: Sendable {
    case images([SystemImage])
    case problem(String)
}

/// Slots written from `concurrentPerform` iterations, each to its own index.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [HeaderOutcome?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: HeaderOutcome) {
        lock.lock()
        defer { lock.unlock() }
        values[index] = outcome
    }
}
