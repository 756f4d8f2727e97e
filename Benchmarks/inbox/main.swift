// Fills a crash inbox with N reports (default 100,000) varied from the real corpus, and reports
// the ingest rate, the process's memory and the time of the inbox's list and group queries;
// with --serve PORT it then serves the inbox on loopback for wrk (Benchmarks/inbox/run.sh). Not
// a test: figures go to Benchmarks/README.md.
//
//   swift build -c release --product inbox-benchmark
//   .build/release/inbox-benchmark [--reports N] [--inbox FILE|postgres://…] [--queries N] [--serve PORT] [--churn N]
//
// --churn N: while serving, N more varied reports a second are ingested (each moves the inbox's
// generation, so the server's kept answers are read again at that rate).
import Foundation
import SymbolicateCore
import SymbolicateInbox
import SymbolicatePipeline
import SymbolicateServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Options {
    var reports = 100_000
    var queries = 2_000
    var inbox: String?
    var serve: Int?
    var churn = 0
    var fixtures = "Fixtures"
    var corpus = "../shared/corpus/reports"

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            let value = rest.popFirst()
            switch flag {
            case "--reports": reports = value.flatMap(Int.init) ?? reports
            case "--queries": queries = value.flatMap(Int.init) ?? queries
            case "--inbox": inbox = value
            case "--serve": serve = value.flatMap(Int.init)
            case "--churn": churn = value.flatMap(Int.init) ?? churn
            case "--fixtures": fixtures = value ?? fixtures
            case "--corpus": corpus = value ?? corpus
            default:
                FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
                exit(64)
            }
        }
    }
}

/// A line of /proc/self/status in KiB (`VmRSS`, `VmHWM`), else the peak from getrusage.
func memoryKiB(_ field: String) -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
    {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    #if os(macOS)
        // No /proc: the peak, in bytes on macOS.
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024
    #else
        return -1
    #endif
}

func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let options = Options(CommandLine.arguments)
let fixtures = URL(fileURLWithPath: options.fixtures)
let dsyms = fixtures.appendingPathComponent("dsyms").path

// The real reports, symbolicated and diagnosed once each.
var files: [URL] = []
for folder in [fixtures.appendingPathComponent("reports"), fixtures.appendingPathComponent("corpus"), URL(fileURLWithPath: options.corpus)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    files += names.filter { $0.hasSuffix(".crash") || $0.hasSuffix(".ips") }.sorted().map { folder.appendingPathComponent($0) }
}
var read: [InboxReport] = []
for file in files {
    guard let body = try? Data(contentsOf: file) else { continue }
    let response = ReportRequest(
        report: .bytes(body, name: file.lastPathComponent), debugFiles: [dsyms], searchesNearReport: false, explain: true, format: .json
    ).run()
    read += InboxIntake.reports(from: response.reports, body: body, receivedAt: Date()).prefix(1)
}
let bases = read
guard !bases.isEmpty else {
    say("no report read under \(options.fixtures) or \(options.corpus)")
    exit(66)
}

let location = options.inbox ?? FileManager.default.temporaryDirectory.appendingPathComponent("inbox-benchmark-\(getpid()).sqlite").path
let served = try ServeInbox(location: location)
let inbox = served.store

// Varied: each report is one of the real ones as another build, version, OS, device and time
// states it; 1 in 40 of the crashes is made a crash of its own (a module suffix on the
// function: a team's many distinct crashes), so the inbox holds thousands of groups.
let versions = (0..<12).map { "4.\($0) (\(400 + $0))" }
let systems = ["iOS 17.5", "iOS 18.1", "iOS 18.5", "iPadOS 18.5", "macOS 15.5"]
let devices = ["iPhone14,2", "iPhone14,5", "iPhone15,3", "iPhone16,1", "iPhone17,1", "iPad13,4", "iPad14,3", "Mac14,2"]
let start = Date(timeIntervalSince1970: 1_800_000_000)
let started = ContinuousClock.now
var stored = 0
@Sendable func varied(_ n: Int) -> InboxReport {
    var report = bases[(n &* 2_654_435_761) % bases.count]
    report.id = InboxIntake.id(of: Data("benchmark \(n)".utf8))
    if n % 40 == 0 { report.key.function = (report.key.function ?? "?") + " [module \(n / 40 % 2_000)]" }
    report.version = AppVersion(versions[min(n * versions.count / options.reports, versions.count - 1)])
    report.os = systems[n % systems.count]
    report.device = devices[(n / 3) % devices.count]
    report.seenAt = start.addingTimeInterval(Double(n) * 60)
    report.receivedAt = report.seenAt
    return report
}
for n in 0..<options.reports {
    if try inbox.ingest(varied(n), body: Data()).stored { stored += 1 }
}
let ingestSeconds = seconds(ContinuousClock.now - started)
let total = try inbox.groups(GroupQuery(perPage: 1)).total
say("ingested \(stored) reports from \(bases.count) real ones into \(total) groups in \(String(format: "%.1f", ingestSeconds)) s")
say("  ingest rate: \(Int(Double(stored) / ingestSeconds)) reports/s (one transaction each)")
say("  memory: VmRSS \(memoryKiB("VmRSS") / 1024) MiB, peak \(memoryKiB("VmHWM") / 1024) MiB")

// The list and group queries as the API runs them, in process.
let queries: [(String, GroupQuery)] = [
    ("first page", GroupQuery()), ("page 20", GroupQuery(page: 20)), ("version 4.11", GroupQuery(version: "4.11")),
    ("new in 4.11", GroupQuery(version: "4.11", filter: .new)), ("version + OS", GroupQuery(version: "4.5 (405)", os: "iOS 18.5")),
]
for (name, query) in queries {
    var times: [Double] = []
    for _ in 0..<options.queries {
        let clock = ContinuousClock.now
        _ = try inbox.groups(query)
        times.append(seconds(ContinuousClock.now - clock) * 1000)
    }
    say("  GET /v1/groups \(name): p50 \(String(format: "%.2f", percentile(times, 0.5))) ms, p99 \(String(format: "%.2f", percentile(times, 0.99))) ms")
}
let id = try inbox.groups(GroupQuery()).groups[0].group.id
var times: [Double] = []
for _ in 0..<min(options.queries, 500) {
    let clock = ContinuousClock.now
    _ = try inbox.group(id: id)
    times.append(seconds(ContinuousClock.now - clock) * 1000)
}
say("  group detail (largest group, without the diagnosis): p99 \(String(format: "%.2f", percentile(times, 0.99))) ms")

if let port = options.serve {
    var configuration = ServeConfiguration()
    configuration.port = port
    configuration.debugFiles = [dsyms]
    configuration.storePath = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-benchmark-store-\(getpid())").path
    configuration.inbox = location
    let server = try ServeServer(configuration: configuration)
    if options.churn > 0 {
        let more = options.reports
        let churn = options.churn
        Thread.detachNewThread {
            var n = more
            while true {
                _ = try? inbox.ingest(varied(n), body: Data())
                n += 1
                usleep(UInt32(1_000_000 / churn))
            }
        }
        say("ingesting \(options.churn) more reports a second while serving")
    }
    try await server.run { port in say("serving the inbox on http://127.0.0.1:\(port)/inbox (group \(id))") }
}
if options.inbox == nil { unlink(location) }
