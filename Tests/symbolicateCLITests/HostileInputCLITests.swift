import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 14's reproducers, end to end through the real binary: numbers from files and the
/// command line that used to trap, and special files that used to hang.
@Suite(.tags(.launchesBinary)) struct HostileInputCLITests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs the binary and kills it after `seconds`: a hang is a failure, not a stuck suite. The
    /// guard is generous (a busy machine never reaches it, issue 39); only a run that never ends does.
    static func run(_ arguments: [String], seconds: Double = 180) throws -> (result: CLIResult, timedOut: Bool) {
        let result = try CLI.run(arguments, timeout: seconds)
        return (result, result.timedOut)
    }

    static let dsym = TestPaths.fixtures.appendingPathComponent("dsyms/CrashApp.app.dSYM").path

    /// A copy of CrashApp.dSYM whose `__TEXT` vmsize is 2^64 − 1, so vmaddr + vmsize wraps.
    static func wrappingTextDSYM(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("Wrap.dSYM")
        try FileManager.default.copyItem(atPath: dsym, toPath: bundle.path)
        let file = bundle.appendingPathComponent("Contents/Resources/DWARF/CrashApp")
        var bytes = [UInt8](try Data(contentsOf: file))
        // LC_SEGMENT_64 (0x19) whose segname is "__TEXT": vmsize sits 32 bytes into the command.
        let name = Array("__TEXT".utf8) + [UInt8](repeating: 0, count: 10)
        var patched = 0
        var at = 32
        let commands = Int(bytes[16]) | Int(bytes[17]) << 8
        for _ in 0..<commands {
            let cmd = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8
            if cmd == 0x19, Array(bytes[(at + 8)..<(at + 24)]) == name {
                for i in 0..<8 { bytes[at + 32 + i] = 0xFF }
                patched += 1
            }
            at += size
        }
        #expect(patched == 1)
        try Data(bytes).write(to: file)
        return bundle
    }

    @Test func ipsImageRangePastTwoTo64IsAWarning() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("wrap.ips")
        try Data("{\"bug_type\":\"309\"}\n{\"usedImages\":[{\"base\":-1,\"size\":16}],\"threads\":[]}\n".utf8).write(to: report)
        let (result, timedOut) = try Self.run([report.path])
        #expect(!timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrap.ips"))
        #expect(result.stderr.contains("usedImages[0].size"))
    }

    @Test func batchWithAWrappingIPSStillWritesItsSummary() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips"),
            to: reports.appendingPathComponent("good.ips"))
        try Data(
            "{\"bug_type\":\"309\"}\n{\"usedImages\":[{\"base\":-1,\"size\":16}],\"threads\":[],\"exception\":{\"type\":\"EXC_CRASH\"}}\n"
                .utf8
        )
        .write(to: reports.appendingPathComponent("wrap.ips"))
        let out = folder.appendingPathComponent("out")
        let (result, timedOut) = try Self.run([
            "batch", reports.path, TestPaths.fixtures.appendingPathComponent("dsyms").path, "--output", out.path,
        ])
        #expect(!timedOut)
        #expect(result.status != 132 && result.status < 128, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.md").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.json").path))
    }

    @Test func atosAddressPastTwoTo64AfterSlideIsEchoed() throws {
        let (result, timedOut) = try Self.run(["atos", "-o", Self.dsym, "-l", "0x0", "-i", "0xffffffffffffffff"])
        #expect(!timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "0xffffffffffffffff\n")
        #expect(result.stderr.contains("2^64"))
    }

    @Test func textSegmentThatWrapsMakesTheDebugFileUnusable() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = try Self.wrappingTextDSYM(in: folder)
        let (atos, atosTimedOut) = try Self.run(["atos", "-o", bundle.path, "0x100003f00"])
        #expect(!atosTimedOut)
        #expect(atos.status == 65, "\(atos.stderr)")
        #expect(atos.stderr.contains("CrashApp") && atos.stderr.contains("__TEXT") && atos.stderr.contains("vmsize"))
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let (run, runTimedOut) = try Self.run([report, bundle.path])
        #expect(!runTimedOut)
        #expect(run.status < 128, "\(run.stderr)")
        #expect(run.stderr.contains("__TEXT"))
    }

    @Test func fifoAsDebugFileIsRefusedNotWaitedOn() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dwarf = folder.appendingPathComponent("X.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        let fifo = dwarf.appendingPathComponent("App").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let (atos, atosTimedOut) = try Self.run(["atos", "-o", folder.appendingPathComponent("X.dSYM").path, "0x1000"])
        #expect(!atosTimedOut)
        #expect(atos.status == 65)
        #expect(atos.stderr.contains("FIFO"))
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let (run, runTimedOut) = try Self.run([report, folder.appendingPathComponent("X.dSYM").path])
        #expect(!runTimedOut)
        #expect(run.stderr.contains("FIFO"))
        let (direct, directTimedOut) = try Self.run(["atos", "-o", fifo, "0x1000"])
        #expect(!directTimedOut)
        #expect(direct.status == 65)
    }

    @Test func fifoAsReportIsRefusedNotWaitedOn() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("r.crash").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let (result, timedOut) = try Self.run([fifo])
        #expect(!timedOut)
        #expect(result.status == 65)
        #expect(result.stderr.contains("FIFO"))
        let out = folder.appendingPathComponent("out")
        let (batch, batchTimedOut) = try Self.run(["batch", fifo, "--output", out.path])
        #expect(!batchTimedOut)
        #expect(
            batch.stderr.contains("FIFO")
                || ((try? String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)) ?? "").contains("FIFO"))
    }
}
