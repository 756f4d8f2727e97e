import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Issue 40's "done when": one fixture crash handed over in each of the shapes a developer may
/// have it in symbolicates to the same frame lines wherever the text has addresses. The crash is
/// `reports/objc-exception.ips`; the other shapes are derived from its load addresses and UUIDs
/// by `Fixtures/tools/debugger_forms.py` (see Fixtures/README.md). A new shape is one more row of
/// `forms`.
@Suite struct CrashFormsTests {
    /// One shape of the crash.
    struct Form: Sendable, CustomTestStringConvertible {
        /// Fixture path under `Fixtures/`.
        var path: String
        /// Whether the shape carries image UUIDs (an `.ips`, LLDB's `image list`): without them a
        /// debug file is matched by name and its frames are marked unverified.
        var hasUUIDs: Bool
        /// The app frames (CrashApp's addresses) the shape holds: all of them must come out placed.
        var appFrames: Int
        var testDescription: String { path }
    }

    static let reference = "reports/objc-exception.ips"

    static let forms: [Form] = [
        Form(path: reference, hasUUIDs: true, appFrames: 8),
        Form(path: "debugger/objc-exception.console.txt", hasUUIDs: false, appFrames: 4),
        Form(path: "debugger/objc-exception.lldb.txt", hasUUIDs: true, appFrames: 8),
    ]

    /// CrashApp's load address in the fixture crash, and the end of its `__TEXT`.
    static let appRange: ClosedRange<UInt64> = 0x1_04f2_8000...0x1_04f2_ffff

    static func run(_ path: String) -> ReportResponse {
        ReportRequest(report: .file(TestPaths.fixtures.appendingPathComponent(path).path), debugFiles: [TestPaths.dsyms]).run()
    }

    /// Address → the text printed after the address on that frame's lines (every inline level),
    /// for CrashApp's frames in the rendered output.
    static func frameLines(_ output: String?) -> [UInt64: [String]] {
        var lines: [UInt64: [String]] = [:]
        for line in (output ?? "").split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let word = words.first(where: { $0.hasPrefix("0x") }), let address = UInt64(word.dropFirst(2), radix: 16),
                appRange.contains(address), address != appRange.lowerBound, let end = line.range(of: word)?.upperBound
            else { continue }
            var rest = String(line[end...]).trimmingCharacters(in: .whitespaces)
            // Matched by name (no UUID in the shape): the same lines, marked.
            if rest.hasSuffix(" [unverified]") { rest = String(rest.dropLast(13)) }
            if !(lines[address]?.contains(rest) ?? false) { lines[address, default: []].append(rest) }
        }
        return lines
    }

    /// Address → symbolicated levels of the app frames in the model.
    static func appLevels(_ report: CrashReport) -> [UInt64: [SymbolicatedFrame]] {
        var levels: [UInt64: [SymbolicatedFrame]] = [:]
        for (_, frames) in report.allBacktraces {
            for frame in frames where appRange.contains(frame.address) {
                levels[frame.address] = frame.symbolication?.map { level in
                    var level = level
                    level.isUnverified = false
                    return level
                }
            }
        }
        return levels
    }

    @Test(arguments: forms)
    func eachFormSymbolicatesToTheSameFrameLines(_ form: Form) throws {
        let reference = Self.run(Self.reference)
        let response = Self.run(form.path)
        #expect(response.status == .success)
        let report = try #require(response.reports.first?.report)
        let expectedLevels = Self.appLevels(try #require(reference.reports.first?.report))
        let levels = Self.appLevels(report)
        let appFrames = report.allBacktraces.flatMap(\.frames).filter { Self.appRange.contains($0.address) }
        #expect(appFrames.count == form.appFrames)
        #expect(!levels.isEmpty)
        for (address, chain) in levels {
            #expect(chain.isEmpty == false, "frame at 0x\(String(address, radix: 16)) not symbolicated")
            #expect(chain == expectedLevels[address], "frame at 0x\(String(address, radix: 16))")
        }
        // The same text after each address as the .ips gives (not the image's own line).
        let expectedLines = Self.frameLines(reference.standardOutput)
        let lines = Self.frameLines(response.standardOutput)
        #expect(Set(lines.keys) == Set(levels.keys))
        for (address, rests) in lines {
            #expect(rests == expectedLines[address], "lines of 0x\(String(address, radix: 16))")
        }
        // Matched by UUID, or by name and said so.
        let unverified = appFrames.contains { $0.symbolication?.contains(where: \.isUnverified) ?? false }
        #expect(unverified == !form.hasUUIDs)
        if form.hasUUIDs {
            #expect(report.binaryImages.first { $0.name == "CrashApp" }?.debugID?.description == "4C4C443B-5555-3144-A1E9-455154CFFD57")
        }
    }

    /// The console's bare address list says where the exception was thrown but not where any
    /// image was loaded: read, nothing placed, and the report says why.
    @Test func anAddressListIsReadButCannotBePlaced() throws {
        let response = Self.run("debugger/objc-exception.console-addresses.txt")
        #expect(response.status == .success)
        let report = try #require(response.reports.first?.report)
        let frames = try #require(report.lastExceptionBacktrace?.frames)
        #expect(
            frames.map(\.address).filter { Self.appRange.contains($0) } == [0x1_04f2_c26c, 0x1_04f2_c2cc, 0x1_04f2_c168, 0x1_04f2_c014])
        #expect(frames.allSatisfy { $0.symbolication == nil })
        #expect(
            report.exception?.uncaught
                == UncaughtException(
                    language: .objectiveC, name: "CAProfileCorruptedException",
                    reason: "Profile legacy-profile is missing or corrupted"))
        #expect(report.warnings.contains { $0.kind == .partialReport && $0.message.contains("cannot be matched to debug files") })
    }

    /// Without `image list`, LLDB's frames keep the names it printed and nothing is matched.
    @Test func lldbWithoutImageListKeepsItsNames() throws {
        let response = Self.run("debugger/objc-exception.lldb-no-images.txt")
        #expect(response.status == .success)
        let report = try #require(response.reports.first?.report)
        let thread = try #require(report.crashedThread)
        #expect(thread.index == 1 && thread.queue == "com.apple.main-thread")
        #expect(thread.frames.count == 17)
        #expect(thread.frames.allSatisfy { $0.symbolication == nil })
        #expect(thread.frames[1].symbol == "pthread_kill" && thread.frames[1].nameSource == .report)
        // LLDB's made-up names are no names.
        #expect(thread.frames[12].symbol == nil && thread.frames[12].imageName == "CrashApp")
        #expect(report.completeness.missing.contains(.noBinaryImages))
        #expect(report.warnings.contains { $0.kind == .partialReport && $0.message.contains("not symbolicated again") })
        #expect(report.exception?.type == "SIGABRT")
    }
}
