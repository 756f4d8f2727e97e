import Foundation
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Issue 40: a MetricKit diagnostic on its own (as apps log `MXDiagnostic.jsonRepresentation()`),
/// every diagnostic class, iOS 26 frames without `address`, the keys Apple added up to iOS 26 in
/// typed fields, and `.ips` bodies cut anywhere.
@Suite("MetricKit single diagnostics and cut .ips")
struct MetricKitDiagnosticTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("metrickit")

    static func read(_ name: String) throws -> [CrashReport] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try CrashReport.parseAll(data: data, path: name)
    }

    /// The single-diagnostic fixtures and the class each is.
    static let singles: [(file: String, kind: ReportKind.MetricKitDiagnostic)] = [
        ("swift-trap.metrickit-diagnostic.json", .crash),
        ("objc-exception.metrickit-diagnostic.json", .crash),
        ("crashapp-hang.metrickit-diagnostic.json", .hang),
        ("crashapp-cpu-exception.metrickit-diagnostic.json", .cpuException),
        ("crashapp-disk-write-exception.metrickit-diagnostic.json", .diskWriteException),
        ("crashapp-app-launch.metrickit-diagnostic.json", .appLaunch),
    ]

    @Test("each diagnostic class is read on its own and inside a payload, with the same frames")
    func everyClassAloneAndInPayload() throws {
        for (file, kind) in Self.singles {
            let alone = try Self.read(file)
            #expect(alone.count == 1, "\(file)")
            let report = try #require(alone.first)
            #expect(report.kind == .metricKit(kind), "\(file)")
            #expect(report.metricKit?.diagnostic == kind, "\(file)")
            #expect(report.metricKit?.inPayload == false, "\(file)")
            #expect(report.threads.contains { !$0.frames.isEmpty }, "\(file)")
            // The same diagnostic inside a payload.
            let diagnostic = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let payload = "{\"timeStampEnd\":\"2025-10-02 23:59:00 +0000\",\"\(kind.payloadKey)\":[\(diagnostic)]}"
            let inPayload = try CrashReport.parseAll(data: Data(payload.utf8), path: "payload.json")
            #expect(inPayload.count == 1, "\(file)")
            #expect(inPayload.first?.kind == .metricKit(kind), "\(file)")
            #expect(inPayload.first?.metricKit?.inPayload == true, "\(file)")
            #expect(inPayload.first?.metricKit?.timeStampEnd == "2025-10-02 23:59:00 +0000", "\(file)")
            let placed = { (r: CrashReport?) in
                r?.threads.map { $0.frames.map { [$0.imageName ?? "", String($0.address), String($0.imageOffset ?? 0)] } }
            }
            #expect(placed(inPayload.first) == placed(report), "\(file)")
            #expect(inPayload.first?.binaryImages.map(\.debugID) == report.binaryImages.map(\.debugID), "\(file)")
        }
    }

    @Test("an array of single diagnostics is one report per diagnostic")
    func arrayOfDiagnostics() throws {
        let hang = try String(contentsOf: Self.folder.appendingPathComponent("crashapp-hang.metrickit-diagnostic.json"), encoding: .utf8)
        let trap = try String(contentsOf: Self.folder.appendingPathComponent("swift-trap.metrickit-diagnostic.json"), encoding: .utf8)
        let reports = try CrashReport.parseAll(data: Data("[\(trap),\(hang)]".utf8), path: "list.json")
        #expect(reports.map(\.kind) == [.metricKit(.crash), .metricKit(.hang)])
        #expect(reports.map(\.path) == ["list.json ([0])", "list.json ([1])"])
    }

    @Test("the keys Apple added up to iOS 26 are typed fields")
    func typedMetaData() throws {
        let report = try #require(try Self.read("objc-exception.metrickit-diagnostic.json").first)
        let facts = try #require(report.metricKit)
        #expect(facts.exceptionType == 10)
        #expect(facts.signal == 6)
        #expect(facts.exceptionCode == 0)
        #expect(facts.terminationReason == "Namespace SIGNAL, Code 6 Abort trap: 6")
        #expect(facts.bundleIdentifier == "com.example.CrashApp")
        #expect(facts.isTestFlightApp == false)
        #expect(facts.lowPowerModeEnabled == false)
        #expect(facts.pid == 5311)
        #expect(facts.osVersion == "iPhone OS 26.0 (23A341)")
        #expect(facts.deviceType == "iPhone17,1")
        #expect(facts.platformArchitecture == "arm64e")
        #expect(facts.appVersion == "1.0")
        #expect(facts.appBuildVersion == "1")
        #expect(facts.otherMetaData.isEmpty)
        let reason = try #require(facts.exceptionReason)
        #expect(reason.composedMessage == "Profile legacy-profile is missing or corrupted")
        #expect(reason.formatString == "Profile %s is missing or corrupted")
        #expect(reason.arguments == ["legacy-profile"])
        #expect(reason.className == "NSException")
        #expect(reason.exceptionName == "CAProfileCorruptedException")
        #expect(reason.exceptionType == "Error")
        // The report's own typed fields, set from the JSON (not from rendered text).
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.exception?.codes == "0x0")
        #expect(report.exception?.message == "Profile legacy-profile is missing or corrupted")
        #expect(report.facts.termination?.namespace == "SIGNAL")
        #expect(report.termination?.codeValue == 6)
        #expect(report.processID == 5311)
        #expect(report.bundleIdentifier == "com.example.CrashApp")
        #expect(report.hardwareModel == "iPhone17,1")
        #expect(report.operatingSystem?.version == "26.0")
    }

    @Test("durations, CPU time and writes are measurements with their numbers")
    func measurements() throws {
        let hang = try #require(try Self.read("crashapp-hang.metrickit-diagnostic.json").first?.metricKit)
        #expect(hang.hangDuration?.text == "8.2 sec")
        #expect(hang.hangDuration?.seconds == 8.2)
        let cpu = try #require(try Self.read("crashapp-cpu-exception.metrickit-diagnostic.json").first?.metricKit)
        #expect(cpu.totalCPUTime?.seconds == 92)
        #expect(cpu.totalSampledTime?.seconds == 180)
        let disk = try #require(try Self.read("crashapp-disk-write-exception.metrickit-diagnostic.json").first?.metricKit)
        #expect(disk.writesCaused?.value == 1073.74)
        #expect(disk.writesCaused?.unit == "MB")
        #expect(disk.writesCaused?.seconds == nil)
        let launch = try #require(try Self.read("crashapp-app-launch.metrickit-diagnostic.json").first?.metricKit)
        #expect(launch.launchDuration?.seconds == 6.1)
        #expect(MetricKitFacts.Measurement(text: "250 ms").seconds == 0.25)
        #expect(MetricKitFacts.Measurement(text: "soon").value == nil)
    }

    /// iOS 26 frames: `binaryUUID` + `offsetIntoBinaryTextSegment`, no `address`. Each frame is
    /// its image + offset (the `.ips`'s own imageOffset), the image carries the UUID.
    @Test("frames without address are placed by image UUID and offset")
    func framesWithoutAddress() throws {
        let report = try #require(try Self.read("swift-trap.metrickit-diagnostic.json").first)
        let ips = try CrashReport.parse(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips").path)
        let crashed = try #require(report.crashedThread)
        let ipsCrashed = try #require(ips.crashedThread)
        #expect(crashed.frames.map(\.imageOffset) == ipsCrashed.frames.map(\.imageOffset))
        #expect(crashed.frames.map { report.image(for: $0)?.debugID } == ipsCrashed.frames.map { ips.image(for: $0)?.debugID })
        #expect(crashed.frames.allSatisfy { $0.imageOffset != nil && $0.imageIndex != nil })
        #expect(!report.warnings.contains { $0.message.contains("cannot be placed") })
    }

    static func diagnostic(frames: [String]) -> String {
        var tree = ""
        for frame in frames.reversed() { tree = tree.isEmpty ? "{\(frame)}" : "{\(frame),\"subFrames\":[\(tree)]}" }
        return
            "{\"version\":\"1.0.0\",\"callStackTree\":{\"callStackPerThread\":true,\"callStacks\":[{\"threadAttributed\":true,\"callStackRootFrames\":[\(tree)]}]},\"diagnosticMetaData\":{\"exceptionType\":1,\"signal\":11,\"platformArchitecture\":\"arm64\"}}"
    }

    /// A frame with neither an address nor an image and offset says so (warning, marked line)
    /// and is never read as address 0 (`0x0 _mh_execute_header + 0` once).
    @Test("a frame that cannot be placed is a warning and a marked line, never address 0")
    func unplacedFrames() throws {
        let uuid = "\"binaryUUID\":\"4C4C443B-5555-3144-A1E9-455154CFFD57\",\"binaryName\":\"CrashApp\""
        let json = Self.diagnostic(frames: [
            "\(uuid),\"offsetIntoBinaryTextSegment\":17424",
            "\(uuid)",
            "\"offsetIntoBinaryTextSegment\":17312",
            "\(uuid),\"offsetIntoBinaryTextSegment\":17564",
        ])
        let report = try #require(try CrashReport.parseAll(data: Data(json.utf8), path: "d.json").first)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.index) == [0, 3])
        #expect(frames.map(\.imageOffset) == [17424, 17564])
        #expect(!frames.contains { $0.address == 0 })
        let warnings = report.warnings.filter { $0.message.contains("cannot be placed") }
        #expect(
            warnings.map(\.message) == [
                "frame 1 cannot be placed in an image (no address, no offsetIntoBinaryTextSegment): not symbolicated",
                "frame 2 cannot be placed in an image (no address, no binaryUUID or binaryName): not symbolicated",
            ])
        #expect(warnings.allSatisfy { $0.jsonPath == "callStackTree.callStacks[0]" })
        #expect(!report.warnings.contains { $0.message.contains("not understood") })
        let text = report.textOutput()
        #expect(text.contains("1   CrashApp  (frame not placed: no address, no offsetIntoBinaryTextSegment)"))
        #expect(!text.contains("_mh_execute_header"))
    }

    // MARK: - Cut .ips

    /// `reports/swift-trap.ips` cut at seeded offsets after its header line: every cut is read
    /// (no crash, no error), marked partial with a partial-report warning, and its frames are
    /// the whole report's up to the cut.
    @Test("an .ips cut anywhere in its body is read as far as its JSON goes")
    func cutIPSAtManyOffsets() throws {
        let url = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.ips")
        let bytes = try [UInt8](Data(contentsOf: url))
        let whole = try CrashReport.parse(contentsOf: url.path)
        let headerEnd = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let seed = TestSeed.value()
        var random = SeededGenerator(seed: seed)
        var offsets = (0..<150).map { _ in Int.random(in: (headerEnd + 1)..<(bytes.count - 2), using: &random) }
        offsets += [headerEnd + 1, headerEnd + 2, bytes.count - 2]
        var sawThreadCut = false
        for offset in offsets {
            let cut = Data(bytes[..<offset]) + Data("\n".utf8)
            let reports: [CrashReport]
            do {
                reports = try CrashReport.parseAll(data: cut, path: "cut.ips")
            } catch {
                Issue.record("cut at \(offset) (seed \(seed)) refused: \(error)")
                continue
            }
            let report = try #require(reports.first)
            #expect(report.format == .ips, "cut at \(offset) (seed \(seed))")
            #expect(!report.completeness.isComplete, "cut at \(offset) (seed \(seed))")
            #expect(report.completeness.missing.contains { if case .jsonCut = $0 { true } else { false } }, "cut at \(offset)")
            #expect(report.warnings.contains { $0.kind == .partialReport && $0.message.hasPrefix("partial report: JSON body is cut") })
            // Frames up to the cut: every thread read is the whole report's thread, but the last
            // one, whose frames are a prefix (its last frame may have lost keys to the cut).
            for (t, thread) in report.threads.enumerated() {
                let full = whole.threads[t].frames.map(\.imageOffset)
                let read = thread.frames.map(\.imageOffset)
                let kept = t == report.threads.count - 1 ? Array(read.dropLast()) : read
                #expect(kept == Array(full.prefix(kept.count)), "cut at \(offset) (seed \(seed)), thread \(t)")
                if t < report.threads.count - 1 { #expect(read == full, "cut at \(offset) (seed \(seed)), thread \(t)") }
                // A frame the cut split is dropped whole: none is read without its offset (address 0).
                #expect(!read.contains(nil), "cut at \(offset) (seed \(seed)), thread \(t)")
                if t == report.threads.count - 1, thread.frames.count < full.count { sawThreadCut = true }
            }
        }
        #expect(sawThreadCut, "no cut fell inside a thread's frames (seed \(seed))")
    }

    @Test("the cut .ips fixture names where it stops")
    func cutFixture() throws {
        let report = try #require(try Self.read("swift-trap.cut.ips").first)
        #expect(report.completeness.missing.first == .jsonCut(at: "threads[0].frames[3].imageOffset"))
        #expect(report.completeness.missing.contains(.endsInsideThread(0)))
        #expect(report.completeness.missing.contains(.noBinaryImages))
        #expect(report.threads.first?.frames.prefix(3).map(\.imageOffset) == [17424, 16404, 16540])
        #expect(report.exception?.type == "EXC_BREAKPOINT")
    }

    @Test("a complete document or one broken mid-way is not taken for a cut")
    func jsonCutOnlyClosesCuts() throws {
        #expect(JSONCut.close(Array("{\"a\":1}".utf8)) == nil)
        #expect(JSONCut.close(Array("{\"a\":1} x".utf8)) == nil)
        #expect(JSONCut.close(Array("\"a\"".utf8)) == nil)
        #expect(JSONCut.close(Array("{\"a\":[1,2".utf8)).map { String(decoding: $0, as: UTF8.self) } == "{\"a\":[1]}")
        #expect(JSONCut.close(Array("{\"a\":{\"b\":\"xy".utf8)).map { String(decoding: $0, as: UTF8.self) } == "{\"a\":{}}")
        #expect(JSONCut.close(Array("{\"a\":\"x\\\"y\", \"b\"".utf8)).map { String(decoding: $0, as: UTF8.self) } == "{\"a\":\"x\\\"y\"}")
        #expect(JSONCut.close(Array("[{\"a\":true}, fal".utf8)).map { String(decoding: $0, as: UTF8.self) } == "[{\"a\":true}]")
        // A list's object cut in two (a frame without its offset) is dropped whole; an object
        // holding lists (a thread) is kept as far as it goes.
        #expect(
            JSONCut.close(Array("{\"f\":[{\"o\":1},{\"i\":0,\"o\":".utf8)).map { String(decoding: $0, as: UTF8.self) }
                == "{\"f\":[{\"o\":1}]}")
        #expect(
            JSONCut.close(Array("{\"t\":[{\"q\":\"m\",\"f\":[{\"o\":1}".utf8)).map { String(decoding: $0, as: UTF8.self) }
                == "{\"t\":[{\"q\":\"m\",\"f\":[{\"o\":1}]}]}")
        // Broken mid-way: closed, but the parser still refuses it, so the .ips reader reports the error.
        let broken = Array("{\"a\":1,,\"b\":[1".utf8)
        let closed = try #require(JSONCut.close(broken))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parseTape(closed) }
    }
}
