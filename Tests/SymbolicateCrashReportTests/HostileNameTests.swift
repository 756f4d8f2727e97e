import Foundation
import Testing

@testable import SymbolicateCrashReport

/// Issue 54, findings 1 and 2: a report's frame names reach the demanglers when the report is
/// read. A name whose substitutions double at every level, or one too long, is printed as the
/// report gave it, and one note says how many frames and why; the other names demangle.
@Suite struct HostileNameTests {
    static func report(symbols: [String]) -> String {
        var lines = [
            "Incident Identifier: 356753AC-2172-45DC-977A-11F2328980D0",
            "Hardware Model:      iPhone14,2",
            "Process:             MyApp [455]",
            "Path:                /private/var/containers/Bundle/Application/13D0/MyApp.app/MyApp",
            "Code Type:           ARM-64 (Native)",
            "OS Version:          iPhone OS 16.0 (20A362)",
            "",
            "Exception Type:  EXC_BREAKPOINT (SIGTRAP)",
            "Exception Codes: 0x0000000000000001, 0x000000018a98520c",
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

    /// `X<int, int>`, then `X<S0_, S0_>`…: 40 levels would print terabytes.
    static let doublingItanium: String = {
        var name = "_Z1f1XIiiE"
        for level in 1...40 {
            name += "S_IS" + String(level - 1, radix: 36, uppercase: true) + "_S" + String(level - 1, radix: 36, uppercase: true) + "_E"
        }
        return name
    }()

    @Test func namesOverTheBoundsStayRawWithOneNote() throws {
        let swiftDoubling = "$sSDySiSiG" + (0..<26).map { "SDyA2\(UnicodeScalar(UInt8(65 + $0)))G" }.joined() + "D"
        let symbols = [Self.doublingItanium, "_ZN3foo3barEv", swiftDoubling, Self.doublingItanium]
        let report = try CrashReport.parse(data: Data(Self.report(symbols: symbols).utf8), path: "hostile.crash")
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.map(\.symbol) == [Self.doublingItanium, "foo::bar()", swiftDoubling, Self.doublingItanium])
        #expect(frames.map(\.mangledSymbol) == [nil, "_ZN3foo3barEv", nil, nil])
        let notes = report.warnings.filter { $0.kind == .nameNotDemangled }
        #expect(notes.count == 1)
        #expect(notes.first?.line == 14)
        #expect(notes.first?.message.hasPrefix("3 frames' names are printed as in the report, not demangled: ") == true)
        #expect(notes.first?.description.contains(": note: ") == true)
    }

    @Test func reportsWithOrdinaryNamesHaveNoNote() throws {
        let report = try CrashReport.parse(data: Data(Self.report(symbols: ["_ZN3foo3barEv", "main"]).utf8), path: "plain.crash")
        #expect(!report.warnings.contains { $0.kind == .nameNotDemangled })
    }
}
