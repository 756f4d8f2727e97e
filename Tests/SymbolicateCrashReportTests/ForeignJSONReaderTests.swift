import Foundation
import SymbolicateJSON
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// Crash reporters' own JSON: KSCrash reports (KSCrash's example reports, as KSCrash wrote
/// them) and Sentry events (sentry-cocoa's converted event), plus the project's fixture crash
/// written in both layouts by `Fixtures/tools/thirdparty.py`.
@Suite struct ForeignJSONReaderTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("thirdparty")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    static func read(_ name: String) throws -> [CrashReport] {
        try CrashReport.parseAll(data: try Data(contentsOf: url(name)), path: name)
    }

    static func json(_ name: String) throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: url(name)))).value
    }

    /// KSCrash's `Example-Reports/*.json` (all of them).
    static let examples = [
        "Abort", "BadPointer", "CorruptMemory", "CorruptObject", "CrashInHandler", "MainThreadDeadlock", "NSException",
        "StackOverflow", "Zombie", "ZombieNSException",
    ].map { "kscrash/\($0).json" }

    static func chosenReader(_ text: String) -> String? { ReportReaderTests.chosenReader(text) }

    /// Numeric capture times are written by arithmetic, not by a shared DateFormatter (not
    /// `Sendable` on Apple's SDK, issue 50): the text is the one a UTC `DateFormatter` with the
    /// same pattern gives, across the years a report can carry, and nothing past 9999.
    @Test func numericTimestampsMatchFoundationsFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSS Z"
        var random = SeededGenerator(seed: 50)
        var samples: [Double] = [1, 59.5, 86_399.25, 951_782_400, 1_709_210_096.5, 4_107_542_400, 253_402_300_799]
        for _ in 0..<2000 { samples.append(Double(random.next() % 253_402_300_799) + Double(random.next() % 8) / 8) }
        for seconds in samples {
            #expect(DarwinNames.utcTimestamp(seconds) == formatter.string(from: Date(timeIntervalSince1970: seconds)), "\(seconds)")
        }
        #expect(DarwinNames.utcTimestamp(253_402_300_800) == nil)
        #expect(DarwinNames.timestamp(.number("1709210096000000")) == "2024-02-29 12:34:56.0000 +0000")
    }

    @Test func eachLayoutGoesToItsReader() throws {
        let text = { (name: String) in try String(contentsOf: Self.url(name), encoding: .utf8) }
        #expect(Self.chosenReader(try text("kscrash/NSException.json")) == "KSCrashReportReader")
        #expect(Self.chosenReader(try text("kscrash/oom.json")) == "KSCrashReportReader")
        #expect(Self.chosenReader(try text("sentry/converted-event.json")) == "SentryEventReader")
        #expect(Self.chosenReader(try text("own/null-deref.sentry.envelope")) == "SentryEventReader")
        #expect(Self.chosenReader("[1, 2, 3]\n") == "UnknownJSONReader")
        let order = ReportReaders.all.map { String(describing: $0) }
        let ips = try #require(order.firstIndex(of: "IPSReportReader"))
        #expect(try #require(order.firstIndex(of: "KSCrashReportReader")) < ips)
        #expect(try #require(order.firstIndex(of: "SentryEventReader")) < ips)
    }

    /// Every example: the crashed thread with every frame KSCrash recorded, every image by
    /// UUID and load address, and the error named.
    @Test(arguments: examples)
    func kscrashExampleReports(_ name: String) throws {
        let reports = try Self.read(name)
        let source = try Self.json(name)
        let report = try #require(reports.first)
        #expect(report.format == .kscrash)
        #expect(report.reportVersion == "KSCrash 2.0")
        let threads = try #require(source["crash"]?["threads"]?.arrayValue)
        let crashedIndex = try #require(threads.firstIndex { $0["crashed"]?.boolValue == true })
        let crashed = try #require(report.crashedThread)
        let frames = try #require(threads[crashedIndex]["backtrace"]?["contents"]?.arrayValue)
        #expect(crashed.frames.count == frames.count)
        #expect(crashed.frames.first?.address == frames.first?["instruction_addr"]?.uint64Value)
        #expect(crashed.frames.allSatisfy { $0.imageIndex != nil })
        #expect(crashed.queue == threads[crashedIndex]["dispatch_queue"]?.stringValue)
        let images = try #require(source["binary_images"]?.arrayValue)
        #expect(report.binaryImages.count == images.count)
        #expect(report.binaryImages.map { $0.debugID?.description.uppercased() } == images.map { $0["uuid"]?.stringValue?.uppercased() })
        #expect(report.binaryImages.map(\.loadAddress) == images.map { $0["image_addr"]?.uint64Value ?? 0 })
        let named =
            report.exception?.type != nil || report.applicationSpecificInformation?.isEmpty == false
            || report.facts.reporterDeadlock != nil
        #expect(named, "\(name): the error is named")
        if name.hasSuffix("MainThreadDeadlock.json") {
            // A typed fact, not words for explain to find.
            #expect(report.facts.reporterDeadlock?.reporter == "KSCrash")
            #expect(report.applicationSpecificInformation?.contains("watchdog ended the process") != true)
        }
    }

    @Test func nsexceptionNameAndReason() throws {
        let report = try #require(try Self.read("kscrash/NSException.json").first)
        #expect(
            report.facts.uncaughtException?.exception
                == UncaughtException(
                    language: .objectiveC, name: "NSInvalidArgumentException",
                    reason: "-[__NSArrayI objectForKey:]: unrecognized selector sent to instance 0x1e59bc50"))
        // Read as data: no line of libobjc's English was written for another stage to parse.
        #expect(report.facts.uncaughtException?.quote == nil)
        #expect(report.applicationSpecificInformation?.contains("Terminating app") != true)
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        // A deallocated exception keeps its name, reason and own backtrace.
        let zombie = try #require(try Self.read("kscrash/ZombieNSException.json").first)
        #expect(zombie.facts.uncaughtException?.exception.name == "TurboEncabulatorException")
        // The text output still says it as Apple's report would.
        let text = report.renderedLines().map(\.text).joined(separator: "\n")
        #expect(
            text.contains(
                "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[__NSArrayI objectForKey:]: unrecognized selector sent to instance 0x1e59bc50'"
            ))
    }

    @Test func machExceptionCodesAndSignal() throws {
        let report = try #require(try Self.read("kscrash/BadPointer.json").first)
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.codes == "0x0000000000000001, 0x0000000000000000")
        #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x00000000ffffffff")
        #expect(report.termination?.namespace == "SIGNAL")
    }

    @Test func cppExceptionAndStringVersion() throws {
        let report = try #require(try Self.read("kscrash/cpp-exception-v3.json").first)
        #expect(report.reportVersion == "KSCrash 3.1.0")
        #expect(
            report.facts.uncaughtException?.exception
                == UncaughtException(language: .cxx, name: "MyException", reason: "Something bad happened..."))
    }

    /// A user-reported exception (`KSCrash.reportUserException`), in the shape KSCrash's writer
    /// gives it: `crash.error.user_reported` with name, language, line of code and backtrace.
    @Test func userReportedException() throws {
        let text = """
            {"report": {"id": "U", "version": "3.3.0", "type": "standard"},
             "binary_images": [{"image_addr": 4294967296, "image_size": 65536, "name": "/a/App.app/App",
               "uuid": "4C4C443B-5555-3144-A1E9-455154CFFD57", "cpu_type": 16777228, "cpu_subtype": 0}],
             "crash": {"error": {"type": "user", "reason": "bad state", "address": 0,
                "user_reported": {"name": "StateError", "language": "swift", "line_of_code": "App.swift:12",
                  "backtrace": ["0 App foo()", "1 App bar()"]}},
               "threads": [{"index": 0, "crashed": true, "dispatch_queue": "com.apple.main-thread",
                 "backtrace": {"contents": [{"instruction_addr": 4294971392, "object_addr": 4294967296, "object_name": "App"}], "skipped": 0}}]}}
            """
        let report = try #require(try CrashReport.parseAll(data: Data(text.utf8), path: "user.json").first)
        let error = try #require(report.facts.reporterRecord?.error)
        #expect(error.name == "StateError" && error.reason == "bad state" && error.isUserReported)
        #expect(error.language == "swift" && error.lineOfCode == "App.swift:12")
        #expect(error.backtrace == ["0 App foo()", "1 App bar()"])
        // Stated as the crash's message, and printed where KSCrash's Apple-format filter prints it.
        #expect(report.facts.statedMessages.first?.text == "StateError: bad state")
        #expect(report.applicationSpecificInformation == nil)
        let rendered = report.renderedLines().map(\.text).joined(separator: "\n")
        #expect(rendered.contains("User-reported exception 'StateError' (swift): bad state"))
        #expect(rendered.contains("Line of code: App.swift:12"))
        #expect(rendered.contains("1 App bar()"))
        #expect(report.crashedThread?.frames.first?.imageOffset == 0x1000)
        #expect(report.binaryImages.first?.arch?.name == "arm64")
    }

    @Test func memoryTerminationHasNoThreads() throws {
        let report = try #require(try Self.read("kscrash/oom.json").first)
        #expect(report.threads.isEmpty)
        #expect(report.termination?.namespace == "JETSAM")
        #expect(report.facts.termination?.memoryTermination?.contains(MemoryFigure(name: "memory_level", value: "terminal")) == true)
        #expect(report.renderedLines().map(\.text).joined(separator: "\n").contains("memory_level terminal"))
        #expect(report.reportVersion == "KSCrash 3.3.0")
        #expect(report.osVersion == "visionOS 1.1 (23E224)")
    }

    /// The handler's own crash (`recrash_report`) is a report of its own.
    @Test func recrashReportIsASecondReport() throws {
        let reports = try Self.read("kscrash/CrashInHandler.json")
        #expect(reports.count == 2)
        #expect(reports[0].exception?.signal == "SIGSEGV")
        #expect(reports[1].exception?.signal == "SIGBUS")
        #expect(reports[1].path.hasSuffix("(crash in KSCrash's handler)"))
        #expect(reports[1].crashedThread?.name == "KSCrash Exception Handler (Primary)")
        // Threads keep KSCrash's own numbers: the handler's report lists only its crashed
        // thread, which KSCrash numbers 7 (its position in the full list of the first report).
        #expect(reports[1].crashedThreadIndex == 7)
        #expect(reports[1].threads.map(\.index) == [7])
        #expect(reports[0].threads.map(\.index) == Array(0..<8))
        #expect(reports[0].threads[7].name == "KSCrash Exception Handler (Primary)")
        #expect(reports[0].warnings.contains { $0.message.contains("incomplete") })
    }

    /// KSCrash's and Sentry's text put the image's own name where the symbol goes when they
    /// have none (`0x100a401bc CrashApp + 16828`): the offset is into the image.
    @Test func imageNamedInTheSymbolColumnIsAnImageOffset() throws {
        let frame = try #require(TextReportParser.parseFrame("1   CrashApp    0x0000000100a401bc CrashApp + 16828", reportLine: 1))
        #expect(frame.imageName == "CrashApp")
        #expect(frame.imageOffset == 16828)
        #expect(frame.symbol == nil)
        #expect(frame.symbolOffset == nil)
        // A function named in that column stays a function.
        let named = try #require(TextReportParser.parseFrame("1   CrashApp    0x100a401bc main + 36", reportLine: 1))
        #expect(named.symbol == "main")
        #expect(named.symbolOffset == 36)
        #expect(named.imageOffset == nil)
    }

    @Test func severalReportsInOneFile() throws {
        let a = try String(contentsOf: Self.url("kscrash/Abort.json"), encoding: .utf8)
        let b = try String(contentsOf: Self.url("kscrash/BadPointer.json"), encoding: .utf8)
        for text in ["[\(a),\(b)]", "{\"reports\": [\(a),\(b)]}"] {
            let reports = try CrashReport.parseAll(data: Data(text.utf8), path: "batch.json")
            #expect(reports.map { $0.exception?.type } == ["EXC_CRASH", "EXC_BAD_ACCESS"])
            #expect(reports.map(\.path) == ["batch.json (report 1 of 2)", "batch.json (report 2 of 2)"])
        }
    }

    /// KSCrash writes while the process dies: a trailing comma or a cut file is read as far
    /// as it goes, the place named.
    @Test func damagedReportsAreReadAsFarAsTheyGo() throws {
        let comma = try #require(try Self.read("kscrash/sigterm-trailing-comma.json").first)
        #expect(comma.warnings.contains { $0.line == 2564 && $0.message.contains("trailing comma") })
        #expect(comma.exception?.type == "SIGTERM")
        #expect(comma.crashedThread?.frames.isEmpty == false)

        let bytes = Array(try Data(contentsOf: Self.url("kscrash/NSException.json")))
        // Cut inside the crashed thread's backtrace (the file lists binary_images first, then crash).
        let cut = try #require(String(decoding: bytes, as: UTF8.self).range(of: "doesNotRecognizeSelector"))
        let prefix = String(decoding: bytes, as: UTF8.self)[..<cut.upperBound]
        let report = try #require(try CrashReport.parseAll(data: Data(prefix.utf8), path: "cut.json").first)
        #expect(report.format == .kscrash)
        #expect(report.warnings.contains { $0.message.contains("ends early") && $0.line != nil })
        #expect(report.binaryImages.count == 123)
        // The cut fell inside frame 2's symbol_name: frames 0-2 are kept (frame 2 without its
        // symbol), and the thread lost its `crashed` flag, which KSCrash 2.x writes after the backtrace.
        let thread = try #require(report.threads.first)
        #expect(thread.frames.count == 3)
        #expect(thread.frames.map(\.symbol) == ["__exceptionPreprocess", "objc_exception_throw", nil])
    }

    @Test func sentryEvent() throws {
        let report = try #require(try Self.read("sentry/converted-event.json").first)
        let source = try Self.json("sentry/converted-event.json")
        #expect(report.format == .sentry)
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.codes == "0x0000000000000001, 0x0000000000000008")
        let thread = try #require(source["threads"]?["values"]?.arrayValue?.first)
        let frames = try #require(thread["stacktrace"]?["frames"]?.arrayValue)
        let crashed = try #require(report.crashedThread)
        #expect(crashed.frames.count == frames.count)
        // Sentry lists callers first; the model the crashing frame first.
        #expect(crashed.frames.first?.address == frames.last?["instruction_addr"]?.uint64Value)
        #expect(crashed.frames.last?.address == frames.first?["instruction_addr"]?.uint64Value)
        let images = try #require(source["debug_meta"]?["images"]?.arrayValue)
        #expect(report.binaryImages.count == images.count)
        #expect(report.binaryImages.first?.debugID?.description.uppercased() == images.first?["debug_id"]?.stringValue?.uppercased())
        #expect(report.binaryImages.first?.loadAddress == 0x1_0008_8000)
    }

    @Test func sentryEnvelopeGivesTheEvent() throws {
        let stored = try #require(try Self.read("own/null-deref.sentry.envelope").first)
        let exported = try #require(try Self.read("own/null-deref.sentry.json").first)
        #expect(stored.format == .sentry)
        #expect(stored.threads == exported.threads)
        #expect(stored.binaryImages == exported.binaryImages)
    }

    /// The same crash in `.ips`, KSCrash and Sentry form reads to the same threads and images.
    @Test(arguments: ["null-deref", "swift-trap"])
    func sameCrashInThreeLayouts(_ scenario: String) throws {
        let ips = try CrashReport.parseAll(
            data: try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/\(scenario).ips")), path: "a.ips")[0]
        for name in ["own/\(scenario).kscrash.json", "own/\(scenario).sentry.json"] {
            let other = try #require(try Self.read(name).first)
            #expect(other.threads.map { $0.frames.map(\.address) } == ips.threads.map { $0.frames.map(\.address) }, "\(name)")
            #expect(other.threads.map { $0.frames.map(\.imageOffset) } == ips.threads.map { $0.frames.map(\.imageOffset) }, "\(name)")
            #expect(other.binaryImages.map(\.debugID) == ips.binaryImages.map(\.debugID), "\(name)")
            #expect(other.crashedThreadIndex == ips.crashedThreadIndex)
            #expect(other.exception?.type == ips.exception?.type)
            #expect(other.exception?.codes == ips.exception?.codes)
        }
    }

    /// Pointer-authentication bits on return addresses are stripped in every layout.
    @Test(arguments: ["own/null-deref-pac.kscrash.json", "own/null-deref-pac.sentry.json", "own/null-deref-pac.crash"])
    func pointerAuthenticationBitsAreStripped(_ name: String) throws {
        let signed = try #require(try Self.read(name).first)
        let plainName = name.hasSuffix(".crash") ? "reports/null-deref.crash" : "reports/null-deref.ips"
        let plain = try CrashReport.parseAll(data: try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(plainName)), path: "p")[0]
        let signedFrames = try #require(signed.crashedThread).frames
        let plainFrames = try #require(plain.crashedThread).frames
        #expect(signedFrames.map(\.address) == plainFrames.map(\.address))
        #expect(signedFrames.map(\.imageOffset) == plainFrames.map(\.imageOffset))
        #expect(
            signed.warnings.contains {
                $0.message.contains("pointer-authentication bits") && $0.message.contains("0x5a6b000100a401bc → 0x100a401bc")
            })
    }

    @Test func strippingLeavesOtherHighAddressesAlone() {
        #expect(PointerAuthentication.stripped(0x5A6B_0001_00A4_01BC) { $0 == 0x1_00A4_01BC } == 0x1_00A4_01BC)
        #expect(PointerAuthentication.stripped(0xFFFF_FFF0_0700_0000) { _ in false } == nil)
        #expect(PointerAuthentication.stripped(0x1_00A4_01BC) { _ in true } == nil)
    }

    /// A JSON document in no known layout is refused, naming the layouts tried.
    @Test(arguments: [
        #"{"name": "my-package", "version": "1.0.0", "dependencies": {"left-pad": "^1.3.0"}}"#,
        "{\n  \"name\": \"my-package\",\n  \"version\": \"1.0.0\"\n}\n",
        "[1, 2, 3]",
        #"{"report": {"id": "x"}, "user": {}}"#,
    ])
    func unknownJSONIsRefused(_ text: String) {
        #expect {
            _ = try CrashReport.parseAll(data: Data(text.utf8), path: "package.json")
        } throws: { error in
            guard let error = error as? CrashReportError else { return false }
            return error.kind == .notACrashReport && error.message.contains("KSCrash report") && error.message.contains("Sentry event")
        }
    }

    @Test func lenientParserRepairs() throws {
        let fixed = try #require(LenientJSON.parse(Array(#"{"a": [1, 2,], "b": {"c": 3,},}"#.utf8)))
        #expect(fixed.value["b"]?["c"]?.intValue == 3)
        #expect(fixed.notes.count == 3)
        let cut = try #require(LenientJSON.parse(Array(#"{"a": [1, 2, {"x": "ab"#.utf8)))
        // Cut back to the last place a value could close: the open object is closed empty.
        #expect(cut.value["a"]?.arrayValue?.count == 3)
        #expect(cut.notes.first?.message.contains("ends early") == true)
        #expect(LenientJSON.parse(Array(#"{"a": 1 "b": 2}"#.utf8)) == nil)
    }

    @Test func cxxTypeNames() {
        #expect(KSCrashReportReader.typeName("11MyException") == "MyException")
        #expect(KSCrashReportReader.typeName("N3foo3BarE") == "foo::Bar")
        #expect(KSCrashReportReader.typeName("St13runtime_error") == "St13runtime_error")
    }
}
