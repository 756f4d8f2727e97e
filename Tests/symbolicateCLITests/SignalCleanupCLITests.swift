import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 14: SIGINT/SIGTERM/SIGHUP during a batch left the unpacked zip in TMPDIR. The real
/// binary is interrupted while its temporary folder exists; it must die of the signal
/// (conventional status) with TMPDIR empty.
@Suite(.serialized) struct SignalCleanupCLITests {
    /// A stored zip of `count` copies of a fixture report: seconds of batch work.
    static func bigZip(at url: URL, count: Int) throws {
        let report = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips"))
        try StoredZip((0..<count).map { .init("r/\($0).ips", report) }).write(to: url)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalMidBatchLeavesTMPDIRClean(signal: Int32) throws {
        let root = try TestPaths.temporaryDirectory("signal")
        defer { try? FileManager.default.removeItem(at: root) }
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let zip = root.appendingPathComponent("reports.zip")
        try Self.bigZip(at: zip, count: 1000)

        let process = try CLI.start(
            ["batch", zip.path, "--dsyms", TestPaths.dsyms, "--output", root.appendingPathComponent("out").path, "--jobs", "1"],
            environment: ["TMPDIR": tmp.path])
        // Wait until the run has unpacked something, then interrupt it.
        let deadline = Date().addingTimeInterval(60)
        var sawTemporaryFolder = false
        while process.isRunning && Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
            if let folder = names.first(where: { $0.hasPrefix("symbolicate-") }),
                ((try? FileManager.default.subpathsOfDirectory(atPath: tmp.appendingPathComponent(folder).path)) ?? []).count > 100
            {
                sawTemporaryFolder = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(sawTemporaryFolder, "the run ended before its temporary folder was seen")
        kill(process.processIdentifier, signal)
        let stop = Date().addingTimeInterval(30)
        while process.isRunning && Date() < stop { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        #expect(left.isEmpty, "left in TMPDIR after signal \(signal): \(left)")
    }

    /// A report that kills the process mid-batch (stood in for by SIGSEGV from outside):
    /// the summary still lists what was done and names the failure; the exit status is the
    /// signal's, and TMPDIR is clean.
    @Test func fatalSignalMidBatchStillWritesTheSummary() throws {
        let root = try TestPaths.temporaryDirectory("signal")
        defer { try? FileManager.default.removeItem(at: root) }
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let zip = root.appendingPathComponent("reports.zip")
        try Self.bigZip(at: zip, count: 1000)
        let out = root.appendingPathComponent("out")
        let process = try CLI.start(
            ["batch", zip.path, "--dsyms", TestPaths.dsyms, "--output", out.path, "--jobs", "1"],
            environment: ["TMPDIR": tmp.path, "SWIFT_BACKTRACE": "enable=no"])
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            let written = (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("reports/r").path)) ?? []
            if written.count >= 20 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, SIGSEGV)
        let stop = Date().addingTimeInterval(30)
        while process.isRunning && Date() < stop { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGSEGV)
        let summary = try String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("died of SIGSEGV"))
        #expect(summary.contains("\"output\" : \"reports/r/0.crash\""), "finished reports are listed as usual")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.md").path))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
    }
}
