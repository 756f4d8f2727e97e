import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDyldCache
import SymbolicateMachO

/// One system image a place holds: a Mach-O file of a DeviceSupport folder, or an image of
/// a dyld shared cache.
struct SystemImage: Sendable {
    enum Source: Sendable {
        /// A slice of a file indexed from its first bytes only: mapped when opened.
        case machOFile(path: String)
        /// A slice of a file that had to be mapped to be indexed (universal files).
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
        case .machOFile(let path):
            let file: MachOFile
            do { file = try MachOFile(path: path) } catch { throw DebugInfoError(error) }
            guard let slice = file.slice(id: debugID) else {
                throw DebugInfoError(path: path, message: "no longer has a slice with UUID \(debugID) (changed since it was indexed?)")
            }
            return try slice.open()
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
            do throws(MachOError) {
                guard let images = try Self.headerImages(file) else { return }
                results.set(index, .images(images))
            } catch {
                results.set(index, .problem(error.description))
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
            // readdir's d_type says file or folder without a stat per entry (a DeviceSupport
            // folder has ~2,000 framework folders); lstat only where the file system does not.
            guard let directory = opendir(current) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                guard !name.hasPrefix(".") else { continue }
                visited += 1
                if visited > walkLimit {
                    problems.append("\(folder): stopped after \(walkLimit) entries; name the Symbols folder itself")
                    return
                }
                let full = current.hasSuffix("/") ? current + name : current + "/" + name
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var status = stat()
                    guard lstat(full, &status) == 0 else { continue }
                    let mode = status.st_mode & S_IFMT
                    type = mode == S_IFDIR ? Int32(DT_DIR) : mode == S_IFREG ? Int32(DT_REG) : Int32(DT_UNKNOWN)
                }
                if type == Int32(DT_DIR) {
                    pending.append(full)
                } else if type == Int32(DT_REG) {
                    if DyldCache.isMainCacheName(name) {
                        if DyldCache.hasMagic(path: full) { caches.append(full) }
                    } else if name.hasPrefix("dyld_shared_cache_") || name.hasPrefix("dyld_sim_shared_cache_") {
                        continue  // subcaches and .symbols files are opened with their main file
                    } else {
                        let ext = (name as NSString).pathExtension
                        if ext.isEmpty || ext == "dylib" { machO.append(full) }
                    }
                }
            }
        }
        machO.sort()
        caches.sort()
    }

    /// The images of one Mach-O file, from its first bytes: a thin file's header and load
    /// commands are read (not mapped) and the file is mapped only when a frame needs it, so
    /// indexing 2,000 files keeps no page of them resident. Universal files are mapped (their
    /// slices' headers lie far into the file). Nil for a file that is not Mach-O (a folder
    /// holds more than images: scripts, plists without extension).
    static func headerImages(_ path: String) throws(MachOError) -> [SystemImage]? {
        guard let prefix = RegularFile.prefix(path: path, count: headerReadSize), prefix.count >= 8,
            MachODebugFormat.recognizes(magic: [UInt8](prefix.prefix(8)))
        else { return nil }
        let thin = prefix.prefix(4).elementsEqual([0xCF, 0xFA, 0xED, 0xFE]) || prefix.prefix(4).elementsEqual([0xCE, 0xFA, 0xED, 0xFE])
        if thin, let parsed = try? prefix.withUnsafeBytes({ try MachOFile(mapping: MappedFile(path: path, copying: $0)) }) {
            return parsed.slices.compactMap { slice in
                slice.debugID.map {
                    SystemImage(debugID: $0, architecture: slice.architecture, displayPath: path, source: .machOFile(path: path))
                }
            }
        }
        return try MachOFile(path: path).slices.compactMap { slice in
            slice.debugID.map { SystemImage(debugID: $0, architecture: slice.architecture, displayPath: path, source: .machO(slice)) }
        }
    }

    /// Enough for the load commands of a system image (UIKitCore's are under 8 KiB); a file
    /// whose commands run longer is mapped instead.
    static let headerReadSize = 16 * 1024
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
