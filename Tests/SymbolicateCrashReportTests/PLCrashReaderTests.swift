import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// PLCrashReporter's binary `.plcrash` reports: the report PLCrashReporter publishes
/// (`Resources/fuzz_report.plcrash`, MIT) and the project's fixture crashes written as
/// `.plcrash` by `Fixtures/tools/thirdparty.py`, each read as `plcrashutil convert
/// --format=iphone` prints it. The expected text (`Fixtures/expected/plcrash/*.plcrashutil.txt`)
/// was written by applying the rules of PLCrashReporter's `PLCrashReportTextFormatter.m` to
/// the message as `protoc --decode` prints it; it is read back with the Apple text reader, so
/// the binary reading is checked against a reading that shares nothing with it but the model.
@Suite struct PLCrashReaderTests {
    static let fixtures = TestPaths.fixtures
    static let reports = [
        "thirdparty/plcrashreporter/fuzz_report.plcrash", "thirdparty/own/null-deref.plcrash",
        "thirdparty/own/swift-trap.plcrash", "thirdparty/own/objc-exception.plcrash",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func read(_ name: String) throws -> CrashReport {
        let reports = try CrashReport.parseAll(data: Data(try bytes(name)), path: name)
        #expect(reports.count == 1)
        return try #require(reports.first)
    }

    /// What plcrashutil prints for the report, read as Apple text.
    static func printed(_ name: String) throws -> CrashReport {
        let base = (name as NSString).lastPathComponent.replacingOccurrences(of: ".plcrash", with: "")
        let url = fixtures.appendingPathComponent("expected/plcrash/\(base).plcrashutil.txt")
        return try CrashReport.parse(data: try Data(contentsOf: url), path: url.lastPathComponent)
    }

    /// The result of reading `bytes`, which must be an error.
    static func failure(_ bytes: [UInt8], path: String = "damaged.plcrash") -> CrashReportError? {
        do {
            _ = try CrashReport.parseAll(data: Data(bytes), path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: reports)
    func readsTheFramesAndExceptionPlcrashutilPrints(_ name: String) throws {
        let report = try Self.read(name)
        let printed = try Self.printed(name)
        #expect(report.format == .plcrash)
        #expect(report.kind == .crash)
        #expect(report.bundleIdentifier == printed.bundleIdentifier)
        #expect(report.crashedThreadIndex == printed.crashedThreadIndex)
        #expect(report.threads.map(\.index) == printed.threads.map(\.index))
        for (thread, expected) in zip(report.threads, printed.threads) {
            #expect(thread.crashed == expected.crashed)
            #expect(thread.frames.map(\.address) == expected.frames.map(\.address), "thread \(thread.index)")
            #expect(thread.frames.map(\.imageName) == expected.frames.map(\.imageName), "thread \(thread.index)")
            #expect(thread.frames.map(\.imageOffset) == expected.frames.map(\.imageOffset), "thread \(thread.index)")
            #expect(thread.frames.map(\.symbol) == expected.frames.map(\.symbol), "thread \(thread.index)")
        }
        // The crashed thread's registers, by name and value (plcrashutil prints only that thread's).
        let registers = try #require(report.crashedThread?.registers)
        #expect(!registers.isEmpty)
        #expect(registers.map(\.name) == printed.crashedThread?.registers.map(\.name))
        #expect(registers.map(\.value) == printed.crashedThread?.registers.map(\.value))
        // The exception: the signal and the address plcrashutil prints beside its code.
        let exception = try #require(report.facts.exception)
        #expect(exception.signal == printed.facts.exception?.signal ?? printed.exception?.type)
        if let address = printed.facts.exception?.fault?.address, address != 0 {
            #expect(exception.fault?.address == address)
        }
        // The uncaught exception and the frames of its throw.
        #expect(report.facts.uncaughtException?.exception == printed.facts.uncaughtException?.exception)
        #expect(report.lastExceptionBacktrace?.frames.map(\.address) == printed.lastExceptionBacktrace?.frames.map(\.address))
        #expect(report.lastExceptionBacktrace?.frames.map(\.symbol) == printed.lastExceptionBacktrace?.frames.map(\.symbol))
        // Every image plcrashutil lists (it drops repeats of a load address), with its UUID.
        struct Image: Hashable {
            var base: UInt64
            var uuid: DebugID?
            var path: String?
        }
        let images = Set(report.binaryImages.map { Image(base: $0.loadAddress, uuid: $0.debugID, path: $0.path) })
        let listed = Set(printed.binaryImages.map { Image(base: $0.loadAddress, uuid: $0.debugID, path: $0.path) })
        #expect(listed.isSubset(of: images))
        #expect(Set(images.map(\.base)) == Set(listed.map(\.base)))
    }

    /// PLCrashReporter's own report (2009, format 1.0: x86, no process or machine info, no
    /// symbols): every field it has, as plcrashutil shows them.
    @Test func publishedSampleReport() throws {
        let report = try Self.read("thirdparty/plcrashreporter/fuzz_report.plcrash")
        #expect(report.threads.count == 1)
        #expect(report.crashedThread?.frames.map(\.address) == [0x9089_8584, 0x1f4b, 0x1e6e])
        #expect(report.crashedThread?.frames.map(\.imageName) == ["CoreFoundation", "DemoCrash", "DemoCrash"])
        #expect(report.binaryImages.count == 76)
        #expect(report.binaryImages.first?.debugID?.description == "21EA5A71-F63E-A543-B319-595FDAD40190")
        #expect(report.osVersion == "Mac OS X 10.5.6")
        #expect(report.architecture == Architecture(codeType: "X86"))
        #expect(report.exception?.type == "SIGBUS")
        #expect(report.facts.exception?.signal == "SIGBUS")
        #expect(report.facts.exception?.fault?.address == 5)
        #expect(report.crashedThread?.registers.first { $0.name == "eip" }?.value == 0x9089_8584)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    /// A report the reporter wrote with the Mach exception: its type, codes and fault address.
    @Test func machExceptionAndProcess() throws {
        let report = try Self.read("thirdparty/own/null-deref.plcrash")
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.facts.exception?.machType == "EXC_BAD_ACCESS")
        #expect(report.facts.exception?.codes == [1, 8])
        #expect(report.facts.exception?.fault?.address == 8)
        #expect(report.processName == "CrashApp")
        #expect(report.processID == 3152)
        #expect(report.hardwareModel == "iPhone14,2")
        #expect(report.appVersion == "1.0 (1)")
        #expect(report.incidentIdentifier == "EF90758D-8E38-4709-A70E-43DF21F4CD95")
        #expect(report.architecture == .arm64)
        #expect(report.binaryImages.allSatisfy { $0.debugID != nil })
    }

    @Test func detectionIsByContent() {
        #expect(PLCrashReportReader.detect(head: ArraySlice(Array("plcrash\u{1}\n".utf8))) != nil)
        // A text that starts with the word is text.
        #expect(PLCrashReportReader.detect(head: ArraySlice(Array("plcrash report for build 12\n".utf8))) == nil)
        #expect(PLCrashReportReader.detect(head: ArraySlice(Array("Incident Identifier: x".utf8))) == nil)
        #expect(ReportSniffer.looksLikeReport(prefix: Data("plcrash".utf8) + Data([1, 0x0A, 0x12])))
    }

    @Test func wrongVersionNamesTheVersionAndItsByte() throws {
        var bytes = try Self.bytes("thirdparty/own/null-deref.plcrash")
        bytes[7] = 2
        let error = try #require(Self.failure(bytes))
        #expect(error.kind == .notACrashReport)
        #expect(error.path == "damaged.plcrash")
        #expect(error.offset == 7)
        #expect(error.description == "damaged.plcrash: PLCrashReporter report of version 2, not one of the versions read (1) (at byte 7)")
    }

    /// Cut anywhere, the file gives a typed error naming the file and a byte inside it, or (cut
    /// between two whole fields) a report read as far as it goes; never a crash.
    @Test func truncatedAnywhere() throws {
        let whole = try Self.bytes("thirdparty/own/objc-exception.plcrash")
        var errors = 0
        for cut in stride(from: 7, to: whole.count, by: 7) {
            let bytes = Array(whole[..<cut])
            guard let error = Self.failure(bytes) else { continue }
            errors += 1
            #expect(error.path == "damaged.plcrash")
            // Cut between two whole fields before the first thread, the message decodes but holds
            // nothing to read: refused as any empty report.
            if error.kind == .notACrashReport { continue }
            #expect(error.kind == .truncated, "cut at \(cut): \(error)")
            let offset = try #require(error.offset, "cut at \(cut): \(error)")
            #expect(offset <= cut)
        }
        #expect(errors > 0)
        let header = try #require(Self.failure(Array(whole[..<8])))
        #expect(header.kind == .truncated)
        #expect(header.offset == 8)
        let magic = try #require(Self.failure(Array(whole[..<7])))
        #expect(magic.kind == .truncated)
        #expect(magic.offset == 7)
    }

    /// A cut inside a thread's frame: the field path and the byte where the value starts.
    @Test func truncatedInsideAFrameNamesTheField() throws {
        // threads (3) { thread_number (1) = 0, frames (2) { pc (3) = a varint cut after 2 bytes } }
        let message: [UInt8] = [0x1A, 0x08, 0x08, 0x00, 0x12, 0x04, 0x18, 0xFF, 0xFF]
        let error = try #require(Self.failure(PLCrashReportReader.magic + [1] + message))
        #expect(error.kind == .truncated)
        #expect(error.jsonPath == "threads[0].frames[0].pc")
        #expect(error.offset == 8 + 7)
    }

    @Test func varintOverflowNamesTheByte() throws {
        // threads (3) { thread_number (1) = eleven bytes of varint }
        let message: [UInt8] = [0x1A, 0x0C, 0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01]
        let error = try #require(Self.failure(PLCrashReportReader.magic + [1] + message))
        #expect(error.kind == .damaged)
        #expect(error.jsonPath == "threads[0].thread_number")
        #expect(error.offset == 8 + 3)
        #expect(error.message.contains("varint"))
    }

    @Test func textThatIsNotUTF8NamesTheField() throws {
        // application_info (2) { identifier (1) = C3 28, not UTF-8 }
        let message: [UInt8] = [0x12, 0x04, 0x0A, 0x02, 0xC3, 0x28]
        let error = try #require(Self.failure(PLCrashReportReader.magic + [1] + message))
        #expect(error.kind == .damaged)
        #expect(error.jsonPath == "application_info.identifier")
        #expect(error.offset == 8 + 4)
    }

    /// Bytes that are not protobuf at all after a valid header: a typed error, never a crash.
    @Test func garbageAfterTheHeader() throws {
        var random = SeededGenerator(seed: 53)
        var refused = 0
        for _ in 0..<200 {
            let length = Int(random.next() % 64) + 1
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            do {
                _ = try CrashReport.parseAll(data: Data(PLCrashReportReader.magic + [1] + body), path: "garbage.plcrash")
            } catch {
                refused += 1
                #expect(error.path == "garbage.plcrash")
            }
        }
        #expect(refused > 150)
    }
}
