// Fills a store index with N entries (default one million) and reports the time per lookup
// by identity and the process's memory; then stores a real debug file through the store (as an
// upload does) and looks it up from a second store object on the same folder and index (as the
// next request, on this server or another, does). Not a test: figures go to Benchmarks/README.md.
//
//   swift build -c release --product store-index-benchmark
//   .build/release/store-index-benchmark [--entries N] [--lookups N] [--folder DIR] [--index postgres://…]
//       [--upload Fixtures/dsyms/CrashApp.app.dSYM]
import Foundation
import SymbolicateCore
import SymbolicateStoreIndex
import SymbolicateStoreIndexPostgres
import SymbolicateSymbolStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Options {
    var entries = 1_000_000
    var lookups = 100_000
    var folder: String?
    /// A PostgreSQL index (`serve --store-index`) instead of the folder's SQLite file.
    var index: String?
    var upload = "Fixtures/dsyms/CrashApp.app.dSYM"

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            let value = rest.popFirst()
            switch flag {
            case "--entries": entries = value.flatMap(Int.init) ?? entries
            case "--lookups": lookups = value.flatMap(Int.init) ?? lookups
            case "--folder": folder = value
            case "--index": index = value
            case "--upload": upload = value ?? upload
            default:
                FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
                exit(64)
            }
        }
    }
}

/// A deterministic identity for entry `n` (a splitmix64 sequence), as a UUID.
func identity(_ n: Int) -> DebugID? {
    func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    let a = mix(UInt64(n) &* 2), b = mix(UInt64(n) &* 2 &+ 1)
    let bytes = (0..<8).map { UInt8(truncatingIfNeeded: a >> ($0 * 8)) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> ($0 * 8)) }
    return DebugID(uuidBytes: bytes)
}

/// A line of /proc/self/status in KiB (`VmRSS`, `VmHWM`), or -1.
func status(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
    }
    return -1
}

func residentKiB() -> Int { status("VmRSS") }
func peakKiB() -> Int { status("VmHWM") }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let options = Options(CommandLine.arguments)
let folder = options.folder ?? (NSTemporaryDirectory() + "store-index-benchmark-\(getpid())")
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let path = folder + "/index.sqlite"
/// The index the options name: the folder's SQLite file (what a store opens by default), or PostgreSQL.
func openIndex() throws -> any StoreIndex {
    if let url = options.index { return try PostgresStoreIndex(url: url) }
    return try SQLiteStoreIndex(path: path)
}
let index = try openIndex()
let now = Date()

var filled = 0
let fill = try seconds {
    let existing = try index.figures().entries
    filled = existing
    while filled < options.entries {
        let batch = (filled..<min(options.entries, filled + 50_000)).compactMap { n in
            identity(n).map { id in
                StoreIndexRecord(
                    id: id, format: "mach-o", architecture: "arm64", name: "App\(n % 1000)", size: 1_000_000 + UInt64(n),
                    footprint: 1_000_400 + UInt64(n), hasDWARF: true, storedAt: now, origin: "benchmark",
                    digest: String(repeating: "0", count: 64), lastUsed: now.addingTimeInterval(Double(n)))
            }
        }
        if let sqlite = index as? SQLiteStoreIndex {
            try sqlite.insert(batch)
        } else if let postgres = index as? PostgresStoreIndex {
            try postgres.insert(batch)
        }
        filled += batch.count
    }
}
let afterFill = residentKiB()
// A fresh connection, as a server started on an existing store has.
let reopened = try openIndex()
let openedKiB = residentKiB()

var found = 0
var worst = 0.0
let lookups = try seconds {
    for i in 0..<options.lookups {
        // Spread over the whole table; every third asks for an identity that is not there.
        let n = (i &* 7919) % options.entries
        guard let id = i % 3 == 2 ? identity(options.entries + i) : identity(n) else { continue }
        let one = try seconds {
            if try reopened.record(for: id) != nil { found += 1 }
        }
        worst = max(worst, one)
    }
}
let figures = try seconds { _ = try reopened.figures() }
let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0

// An upload through one store object, then the lookup the next request makes through another
// (another server sharing the folder and the index).
let uploader = try DebugFileStore(root: folder, index: try openIndex())
let server = try DebugFileStore(root: folder, index: try openIndex())
var uploaded: [DebugID] = []
let upload = try seconds { uploaded = try uploader.put(fileAt: options.upload, origin: "benchmark", replace: true).stored.map(\.debugID) }
var usedByNext = false
let nextLookup = seconds { usedByNext = !uploaded.isEmpty && uploaded.allSatisfy { server.lookup($0) != nil } }
for id in uploaded { uploader.remove(id) }

print("index:              \(reopened.location)")
print("entries:            \(try reopened.figures().entries)")
if options.index == nil { print("index file:         \(fileBytes / 1_048_576) MiB") }
print(String(format: "fill:               %.1f s", fill))
let average = lookups / Double(max(options.lookups, 1)) * 1e6
print("lookups:            \(options.lookups) (\(found) found), \(String(format: "%.1f", average)) µs each on average")
print("slowest lookup:     \(String(format: "%.2f", worst * 1e3)) ms")
print("count and bytes:    \(String(format: "%.1f", figures * 1e3)) ms")
print(
    "upload:             \(String(format: "%.1f", upload * 1e3)) ms (\(uploaded.count) build(s)); used by the next lookup: "
        + "\(usedByNext ? "yes" : "NO") (\(String(format: "%.2f", nextLookup * 1e3)) ms)")
print("resident after fill: \(afterFill / 1024) MiB; after reopening: \(openedKiB / 1024) MiB; now: \(residentKiB() / 1024) MiB")
print("peak resident:      \(peakKiB() / 1024) MiB")
if options.folder == nil { try? FileManager.default.removeItem(atPath: folder) }
