import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Outputs never destroy inputs or special files (issue 14): `-o`/`--junit` on an input is a
/// usage error naming both; devices and our own stdout are written in place; long names work.
@Suite(.tags(.launchesBinary)) struct OutputSafetyCLITests {
    static let dsyms = TestPaths.fixtures.appendingPathComponent("dsyms").path

    static func copyOfReport(_ name: String, in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("reports/\(name)"), to: copy)
        return copy
    }

    @Test(arguments: ["swift-trap.crash", "swift-trap.ips"])
    func outputOnTheReportIsAUsageError(name: String) throws {
        let root = try TestPaths.temporaryDirectory("output-safety")
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try Self.copyOfReport(name, in: root)
        let before = try Data(contentsOf: report)
        let link = root.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: report)
        for output in [report.path, link.path, root.appendingPathComponent("./sub/../\(name)").path] {
            let result = try CLI.run([report.path, Self.dsyms, "-o", output])
            #expect(result.status == 64, "\(output): \(result.stderr)")
            #expect(result.stderr.contains(output) && result.stderr.contains(report.path), "\(result.stderr)")
            #expect(try Data(contentsOf: report) == before)
        }
    }

    @Test func devicesAreWrittenInPlace() throws {
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let piped = try CLI.run([report, Self.dsyms, "-o", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("Thread 0 Crashed"))
        let null = try CLI.run([report, Self.dsyms, "-o", "/dev/null"])
        #expect(null.status == 0, "\(null.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        if let device = PortableTools.fullDevice {
            let full = try CLI.run([report, Self.dsyms, "-o", device])
            #expect(full.status == 73, "\(full.stderr)")
            #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        }
    }

    @Test func fifoWithoutReaderIsAnErrorNotAHang() throws {
        let root = try TestPaths.temporaryDirectory("output-safety")
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("out.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let (result, timedOut) = try HostileInputCLITests.run([report, Self.dsyms, "-o", fifo])
        #expect(!timedOut)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("no reader"))
    }

    @Test func longOutputNameFitsAndNothingIsLeftBeside() throws {
        let root = try TestPaths.temporaryDirectory("output-safety")
        defer { try? FileManager.default.removeItem(at: root) }
        let name = String(repeating: "n", count: 246) + ".crash"
        let output = root.appendingPathComponent(name)
        let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let result = try CLI.run([report, Self.dsyms, "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [name])
        // A rerun replaces it atomically, keeping a symlink to it a symlink.
        let link = root.appendingPathComponent("latest.crash")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: output)
        let again = try CLI.run([report, Self.dsyms, "-o", link.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == output.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["latest.crash", name].sorted())
    }

    /// `-o /dev/stdout >> log`: the report is appended through our stdout, the log file is
    /// neither replaced nor truncated.
    @Test func devStdoutRedirectedToAFileAppends() throws {
        let root = try TestPaths.temporaryDirectory("output-safety")
        defer { try? FileManager.default.removeItem(at: root) }
        let log = root.appendingPathComponent("log.txt")
        try Data("previous line\n".utf8).write(to: log)
        let inode = try FileManager.default.attributesOfItem(atPath: log.path)[.systemFileNumber] as? Int
        let handle = try FileHandle(forWritingTo: log)
        try handle.seekToEnd()
        let process = try CLI.start(
            [TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path, Self.dsyms, "-o", "/dev/stdout"],
            standardOutput: handle)
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.hasPrefix("previous line\n") && text.contains("Thread 0 Crashed"))
        #expect(try FileManager.default.attributesOfItem(atPath: log.path)[.systemFileNumber] as? Int == inode)
    }
}
