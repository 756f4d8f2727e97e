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

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["batch", zip.path, "--dsyms", TestPaths.dsyms, "--output", root.appendingPathComponent("out").path,
                             "--jobs", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Wait until the run has unpacked something, then interrupt it.
        let deadline = Date().addingTimeInterval(60)
        var sawTemporaryFolder = false
        while process.isRunning && Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
            if let folder = names.first(where: { $0.hasPrefix("symbolicate-") }),
               ((try? FileManager.default.subpathsOfDirectory(atPath: tmp.appendingPathComponent(folder).path)) ?? []).count > 100 {
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
}
