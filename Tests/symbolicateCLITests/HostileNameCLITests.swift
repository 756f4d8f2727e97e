import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 54, end to end through the real binary: frame names that overflowed the C++
/// demangler's stack (SIGSEGV) or doubled at every level (minutes, gigabytes), and `explain`
/// inputs whose cost grew with a field or a query. Each run is killed after a generous guard:
/// a hang is a failure, never the assertion.
@Suite(.tags(.launchesBinary)) struct HostileNameCLITests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func report(symbols: [String], codes: String = "0x0000000000000001, 0x000000018a98520c") -> String {
        var lines = [
            "Incident Identifier: 356753AC-2172-45DC-977A-11F2328980D0",
            "Hardware Model:      iPhone14,2",
            "Process:             MyApp [455]",
            "Path:                /private/var/containers/Bundle/Application/13D0/MyApp.app/MyApp",
            "Code Type:           ARM-64 (Native)",
            "OS Version:          iPhone OS 16.0 (20A362)",
            "",
            "Exception Type:  EXC_BREAKPOINT (SIGTRAP)",
            "Exception Codes: " + codes,
            "",
            "Triggered by Thread:  0",
            "",
            "Thread 0 Crashed:",
        ]
        for (index, symbol) in symbols.enumerated() {
            lines.append(
                "\(index)   MyApp                         \t       0x\(String(0x1_0223_4000 + index * 16, radix: 16)) \(symbol) + 16")
        }
        lines += [
            "",
            "Binary Images:",
            "       0x102230000 -        0x102237fff MyApp arm64  <82d13d98219e3040b62a07a297007a7c> /private/var/containers/Bundle/Application/13D0/MyApp.app/MyApp",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static let pointerChain = "_Z1f" + String(repeating: "P", count: 90_000) + "i"
    static let nestedTemplates = "_Z" + String(repeating: "1AI", count: 20_000) + "i" + String(repeating: "E", count: 20_000) + "vv"
    static let doublingItanium: String = {
        var name = "_Z1f1XIiiE"
        for level in 1...40 {
            let index = String(level - 1, radix: 36, uppercase: true)
            name += "S_IS\(index)_S\(index)_E"
        }
        return name
    }()

    @Test func hostileFrameNamesPrintRawWithANote() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("names.crash")
        let symbols = [Self.pointerChain, Self.nestedTemplates, Self.doublingItanium, "_ZN3foo3barEv"]
        try Data(Self.report(symbols: symbols).utf8).write(to: file)
        let result = try CLI.run([file.path, "--explain"], timeout: 300)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr.prefix(2_000))")
        #expect(result.stdout.contains(Self.doublingItanium))
        #expect(result.stdout.contains(Self.pointerChain))
        #expect(result.stdout.contains("foo::bar()"))
        #expect(result.stderr.contains("3 frames' names are printed as in the report, not demangled"), "\(result.stderr.prefix(2_000))")
    }

    /// A megabyte of `Exception Codes` (finding 11): answered, as its first few codes would be.
    @Test func explainsAMegabyteOfCodes() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("codes.crash")
        let codes = "0x0000000000000001" + String(repeating: ", 0x0000000000000001", count: 50_000)
        try Data(Self.report(symbols: ["main"], codes: codes).utf8).write(to: file)
        let report = try CLI.run(["explain", file.path], timeout: 300)
        #expect(!report.timedOut)
        #expect(report.status == 0, "\(report.stderr.prefix(2_000))")
    }
}
