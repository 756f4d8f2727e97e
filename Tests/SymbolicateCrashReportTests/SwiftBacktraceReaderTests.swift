import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

/// The Swift runtime's backtraces (text and JSON) captured from the Linux fixture program,
/// read into the report model; frame addresses and image bases checked against what the
/// fixture generator recorded (`oracle.json`, from the same logs by its own parser).
@Suite struct SwiftBacktraceReaderTests {
    static let logs: [String] = LinuxFixtures.modes.flatMap { ["\($0).txt", "\($0).json"] }

    static func read(_ name: String) throws -> CrashReport {
        let data = try Data(contentsOf: URL(fileURLWithPath: LinuxFixtures.log(name)))
        let reports = try CrashReport.parseAll(data: data, path: name)
        try #require(reports.count == 1)
        return reports[0]
    }

    /// The backtracer's colour theme (a terminal: `💣 Program crashed: …`, escape sequences kept
    /// or lost in the copy) after the program's own output, without the `*** Signal` line a
    /// copy often leaves out: read as the plain theme is, the signal named by the backtracer's
    /// description and the fault address kept.
    @Test(arguments: [false, true])
    func theColourThemeAfterTheProgramsOutputIsRead(escapes: Bool) throws {
        let plain = try String(contentsOfFile: LinuxFixtures.log("pointer.txt"), encoding: .utf8)
        var lines = ["❯ swift run crashy pointer", "Build complete! (1.36s)", "swift-runtime: unable to suspend thread 8033", ""]
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix("*** Signal ") {
            guard line.hasPrefix("*** Program crashed: ") else {
                lines.append(String(line))
                continue
            }
            let description = line.dropFirst("*** Program crashed: ".count).dropLast(" ***".count)
            lines.append(escapes ? "\u{1B}[91m💣 Program crashed: \(description)\u{1B}[0m" : "💣 Program crashed: \(description)")
        }
        let report = try CrashReport.parse(data: Data(lines.joined(separator: "\n").utf8), path: "colour.txt")
        #expect(report.exception?.type == "Bad pointer dereference")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.facts.exception?.fault?.address == 0x20)
        #expect(report.threads.first { $0.crashed }?.frames.isEmpty == false)
        #expect(report.processName == "crashy")
    }

    @Test(arguments: logs)
    func readsThreadsFramesAndImages(_ name: String) throws {
        let report = try Self.read(name)
        #expect(report.architecture == .x86_64)
        #expect(report.osVersion?.hasPrefix("Linux") == true)
        #expect(report.processName == "crashy")
        let crashed = try #require(report.threads.first { $0.crashed })
        #expect(report.crashedThreadIndex == crashed.index)
        #expect(!crashed.frames.isEmpty)
        let image = try #require(report.binaryImages.first { $0.name == "crashy" })
        #expect(image.isAppOwned)
        #expect(image.debugID?.kind == .buildID)
        #expect(image.path?.hasSuffix("/srv/crashy") == true)
        #expect(
            report.binaryImages.filter { $0.name.hasPrefix("libswiftCore") || $0.name.hasPrefix("libc.so") }.allSatisfy { !$0.isAppOwned })
        // Every frame the generator found in `crashy` is read with the same address, at the
        // same place, resolved to the crashy image.
        let expected = try #require(LinuxFixtures.oracle[name])
        #expect(!expected.isEmpty)
        for entry in expected {
            let thread = report.threads[entry.thread]
            let frame = try #require(thread.frames.first { $0.index == entry.frame })
            #expect("0x" + String(frame.address, radix: 16).leftPadded16 == entry.address.leftPadded16With0x)
            #expect(frame.imageName == "crashy")
            #expect(frame.imageIndex.map { report.binaryImages[$0].name } == "crashy")
            #expect(frame.symbol == nil)
        }
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test(arguments: LinuxFixtures.modes)
    func crashReason(_ mode: String) throws {
        for name in ["\(mode).txt", "\(mode).json"] {
            let report = try Self.read(name)
            let exception = try #require(report.exception)
            switch mode {
            case "pointer":
                #expect(exception.type == "Bad pointer dereference")
                #expect(exception.signal == "SIGSEGV")
            case "async":
                #expect(exception.type == "Illegal instruction")
                #expect(exception.message == "record 3 is missing")
                #expect(report.crashedThreadIndex != 0)
            default:
                #expect(exception.type == "Illegal instruction")
                #expect(exception.signal == "SIGILL")
            }
        }
    }

    /// The text and JSON logs of one crash read alike (thread names, crashed thread, frames per
    /// thread); they are two runs, so addresses differ.
    @Test(arguments: LinuxFixtures.modes)
    func textAndJSONAgree(_ mode: String) throws {
        let text = try Self.read("\(mode).txt")
        let json = try Self.read("\(mode).json")
        #expect(text.threads.map(\.name) == json.threads.map(\.name))
        #expect(text.crashedThreadIndex == json.crashedThreadIndex)
        #expect(text.threads.map { $0.frames.map { $0.imageName ?? "" } } == json.threads.map { $0.frames.map { $0.imageName ?? "" } })
        #expect(text.binaryImages.map(\.name) == json.binaryImages.map(\.name))
        #expect(text.binaryImages.map(\.debugID) == json.binaryImages.map(\.debugID))
    }

    @Test func frameLineShapes() throws {
        let symbolicated = try #require(
            SwiftBacktraceLine.frame("  3 [ra]             0x0000555c9b5c40f1 Router.route(at:) + 64 in crashy0 at /src/crashy.swift:28:15")
        )
        #expect(symbolicated.index == 3)
        #expect(symbolicated.address == 0x555c9b5c40f1)
        #expect(symbolicated.symbol == "Router.route(at:)")
        #expect(symbolicated.symbolOffset == 64)
        #expect(symbolicated.imageName == "crashy0")
        #expect(symbolicated.sourceFile == "/src/crashy.swift")
        #expect(symbolicated.sourceLine == 28)
        #expect(symbolicated.isProgramCounter == false)
        let resume = try #require(SwiftBacktraceLine.frame("  6 [async] [system] 0x0000555c9b5c2f90 static Crashy.$main() in crashy0"))
        #expect(resume.isProgramCounter == true)
        #expect(resume.symbol == "static Crashy.$main()")
        let inlined = try #require(SwiftBacktraceLine.frame("  0 [inlined] 0x0000555c9b5c40f1 closure #1 in f() in app"))
        #expect(inlined.isInlined)
        #expect(inlined.symbol == "closure #1 in f()")
        #expect(SwiftBacktraceLine.frame("rax 0x0000000000000000  0") == nil)
        #expect(SwiftBacktraceLine.frame("  7 [ra] 0xZZ <unknown> in app") == nil)
    }

    /// Cut, damaged and hostile variants read as far as they go, never crash.
    @Test func damagedLogs() throws {
        let original = try String(contentsOfFile: LinuxFixtures.log("async.txt"), encoding: .utf8)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        for cut in stride(from: 1, to: lines.count, by: 3) {
            let text = lines.prefix(cut).joined(separator: "\n")
            _ = try? CrashReport.parseAll(data: Data(text.utf8), path: "cut.txt")
        }
        let hostile =
            "*** Program crashed: x at 0xFFFFFFFFFFFFFFFFFF ***\nThread 99999999999999999999 crashed:\n 0 0x1 <unknown> in a\nImages:\n0xffffffffffffffff–0x0 zz a /a\n0x10–0x20 abc\n"
        // Nothing readable is left (no thread, no image): refused with a clear error, not an empty report.
        #expect(throws: CrashReportError.self) { try CrashReport.parseAll(data: Data(hostile.utf8), path: "hostile.txt") }
    }
}

private extension String {
    /// Hex digits without `0x`, zero-padded to 16.
    var leftPadded16: String { String(repeating: "0", count: max(0, 16 - count)) + self }
    var leftPadded16With0x: String { "0x" + String(dropFirst(2)).leftPadded16 }
}
