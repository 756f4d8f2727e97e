import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateTestSupport
import Testing

@testable import SymbolicateSymbolication

/// Symbolicates every fixture report and compares the crashed thread's app frames (and the
/// Last Exception Backtrace) with what llvm-symbolizer said for the same lookup addresses
/// (recorded in Fixtures/reports/manifest.json by the fixture script, not by this tool).
@Suite struct AnnotatorTests {
    static let index: DebugFileIndex? = try? DebugFileIndex(inputs: [TestPaths.dsyms])

    @Test func manifestIsPresent() {
        #expect(FixtureManifest.reports.count >= 12)
        #expect(Self.index != nil)
    }

    @Test(arguments: FixtureManifest.reports)
    func crashedThreadMatchesOracle(_ fixture: FixtureManifest.Report) throws {
        let index = try #require(Self.index)
        let annotator = Annotator(index: index)
        let (report, summary) = try annotator.symbolicate(contentsOf: fixture.path)
        let thread = try #require(report.threads.first { $0.index == fixture.crashedThread })
        try Self.compare(frames: thread.frames, with: fixture.crashedThreadAppFrames, in: fixture)
        if let expectedLEB = fixture.lastExceptionBacktraceAppFrames {
            let leb = try #require(report.lastExceptionBacktrace, "\(fixture.file): no Last Exception Backtrace parsed")
            try Self.compare(frames: leb.frames, with: expectedLEB, in: fixture)
        }
        // Every app image with a dSYM in the manifest is matched; the others are diagnosed.
        for image in fixture.appImages {
            if let dsym = image.dsym {
                let used = try #require(summary.debugFiles[image.name], "\(fixture.file): \(image.name) not matched")
                #expect(used.hasSuffix(dsym), "\(fixture.file): \(image.name) matched \(used), expected \(dsym)")
            } else {
                let diagnostic = summary.diagnostics.first { $0.imageName == image.name }
                #expect(diagnostic?.kind == .uuidMismatch, "\(fixture.file): \(image.name) should be a UUID mismatch")
                #expect(diagnostic?.uuid == DebugID(uuid: image.uuid))
            }
        }
    }

    static func compare(frames: [Frame], with expected: [FixtureManifest.ExpectedFrame], in fixture: FixtureManifest.Report) throws {
        for want in expected {
            let frame = try #require(
                frames.first { $0.index == want.frameIndex },
                "\(fixture.file): no frame \(want.frameIndex)")
            #expect(
                String(frame.address, radix: 16) == want.address.dropFirst(2).lowercased(),
                "\(fixture.file) frame \(want.frameIndex): address")
            guard let levels = want.expected else {
                #expect(frame.symbolication == nil, "\(fixture.file) frame \(want.frameIndex) should stay unsymbolicated")
                continue
            }
            let got = try #require(frame.symbolication, "\(fixture.file) frame \(want.frameIndex) (\(want.image)) not symbolicated")
            #expect(got.map(\.function) == levels.map(\.function), "\(fixture.file) frame \(want.frameIndex): functions")
            #expect(got.map(\.file) == levels.map(\.file), "\(fixture.file) frame \(want.frameIndex): files")
            #expect(got.map(\.line) == levels.map(\.line), "\(fixture.file) frame \(want.frameIndex): lines")
            #expect(got.dropLast().allSatisfy(\.isInlined) && got.last?.isInlined == false)
        }
    }

    /// With only the executables (no dSYMs), frames fall back to the symbol table: the
    /// nearest preceding symbol and the offset from it, no file or line — as llvm-nm says.
    @Test(arguments: FixtureManifest.reports.filter { $0.format == "text" })
    func symbolTableFallbackMatchesManifest(_ fixture: FixtureManifest.Report) throws {
        let index = try DebugFileIndex(inputs: [TestPaths.binaries])
        let (report, _) = try Annotator(index: index).symbolicate(contentsOf: fixture.path)
        let thread = try #require(report.threads.first { $0.index == fixture.crashedThread })
        for want in fixture.crashedThreadAppFrames {
            guard want.dsym != nil, let fact = want.symbolTable else { continue }
            let frame = try #require(thread.frames.first { $0.index == want.frameIndex })
            let levels = try #require(frame.symbolication, "\(fixture.file) frame \(want.frameIndex)")
            #expect(levels.count == 1 && levels[0].file == nil && levels[0].line == nil)
            #expect(levels.first?.function == fact.symbol, "\(fixture.file) frame \(want.frameIndex)")
            #expect(levels.first?.offsetInFunction == fact.offset, "\(fixture.file) frame \(want.frameIndex)")
        }
    }

    /// A binary and its dSYM share the UUID; the dSYM (with DWARF) must win whatever the order.
    @Test func dSYMWinsOverExecutableWithTheSameUUID() throws {
        let index = try DebugFileIndex(inputs: [TestPaths.binaries, TestPaths.dsyms])
        let path = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path
        let (report, summary) = try Annotator(index: index).symbolicate(contentsOf: path)
        #expect(summary.debugFiles["CrashApp"]?.hasSuffix("CrashApp.app.dSYM") == true)
        #expect(report.threads[0].frames[0].symbolication?.count == 5)
    }

    @Test func mismatchedUUIDIsDiagnosedAndFramesStay() throws {
        let index = try #require(Self.index)
        let path = TestPaths.fixtures.appendingPathComponent("reports/uuid-mismatch.crash").path
        let (report, summary) = try Annotator(index: index).symbolicate(contentsOf: path)
        #expect(summary.hasUnsymbolicatedAppImage)
        let diagnostic = try #require(summary.diagnostics.first { $0.kind == .uuidMismatch })
        #expect(diagnostic.description.contains("but the report expects"))
        // CrashApp frames stay as the report had them.
        let crashAppFrames = report.threads[0].frames.filter { $0.imageName == "CrashApp" }
        #expect(!crashAppFrames.isEmpty && crashAppFrames.allSatisfy { $0.symbolication == nil })
    }

    @Test func missingDebugFileIsDiagnosed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let index = try DebugFileIndex(inputs: [empty.path])
        let path = TestPaths.fixtures.appendingPathComponent("reports/null-deref.ips").path
        let (_, summary) = try Annotator(index: index).symbolicate(contentsOf: path)
        let names = Set(summary.diagnostics.filter { $0.kind == .missingDebugFile }.map(\.imageName))
        #expect(names == ["CrashApp", "CrashKit"])
        #expect(summary.diagnostics.allSatisfy { $0.description.hasPrefix("no dSYM for ") })
    }
}

extension FixtureManifest.Report: CustomTestStringConvertible {}
