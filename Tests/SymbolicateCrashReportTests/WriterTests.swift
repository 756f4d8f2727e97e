import Foundation
import SymbolicateJSON
import Testing

@testable import SymbolicateCrashReport

private let textReport = """
    Incident Identifier: 1
    Process:             MyApp [1]
    Path:                /private/var/containers/Bundle/Application/X/MyApp.app/MyApp
    Code Type:           ARM-64 (Native)

    Exception Type:  EXC_BREAKPOINT (SIGTRAP)

    Thread 0 Crashed:
    0   libswiftCore.dylib            \t       0x18a98520c _assertionFailure(_:_:file:line:flags:) + 312
    1   MyApp                         \t       0x1022364bc 0x102230000 + 25788
    2   MyApp                         \t       0x1022361cc 0x102230000 + 25036
    3   UIKitCore                     \t       0x192fb1330 -[UIViewController view] + 84

    Thread 1:
    0   MyApp                         \t       0x102236000 0x102230000 + 24576

    Binary Images:
           0x18a94d000 -        0x18aeb5fff libswiftCore.dylib arm64e  <a49d560c13233bfba7e8762be0c1b2ef> /usr/lib/swift/libswiftCore.dylib
           0x102230000 -        0x102237fff MyApp arm64  <82d13d98219e3040b62a07a297007a7c> /private/var/containers/Bundle/Application/X/MyApp.app/MyApp
           0x192c2e000 -        0x1943f4fff UIKitCore arm64e  <7b942fa4cb7633759972f58c14492fb4> /System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore

    """

private let chain = [
    SymbolicatedFrame(
        function: "CrashClass.inner()", offsetInFunction: 20, file: "/src/App/Inner.swift", line: 12, column: 5, isInlined: true),
    SymbolicatedFrame(
        function: "CrashClass.pleaseCrash()", offsetInFunction: 44, file: "/src/App/Crash.swift", line: 30, column: 9, isInlined: false),
]

@Suite("Writers honour symbolication")
struct WriterTests {
    @Test("text: inline levels become numbered lines, later frames renumbered, other lines untouched")
    func textRewrite() throws {
        var r = try CrashReport.parse(data: Data(textReport.utf8), path: "w.crash")
        r.updateFrames { (kind: BacktraceKind, frame: inout Frame) in
            if kind == .thread(0), frame.address == 0x1022364bc { frame.symbolication = chain }
            if kind == .thread(1) {
                frame.symbolication = [SymbolicatedFrame(function: "main", offsetInFunction: 0, file: nil, line: nil, isInlined: false)]
            }
        }
        let lines = r.textOutput().components(separatedBy: "\n")
        #expect(lines[8] == "0   libswiftCore.dylib            \t       0x18a98520c _assertionFailure(_:_:file:line:flags:) + 312")
        #expect(lines[9] == "1   MyApp                         \t       0x1022364bc CrashClass.inner() + 20 (Inner.swift:12) [inlined]")
        #expect(lines[10] == "2   MyApp                         \t       0x1022364bc CrashClass.pleaseCrash() + 44 (Crash.swift:30)")
        #expect(lines[11] == "3   MyApp                         \t       0x1022361cc 0x102230000 + 25036")
        #expect(lines[12] == "4   UIKitCore                     \t       0x192fb1330 -[UIViewController view] + 84")
        #expect(lines[15] == "0   MyApp                         \t       0x102236000 main + 0")
        // Everything outside the rewritten backtraces is byte-identical.
        let original = textReport.components(separatedBy: "\n")
        #expect(Array(lines[0..<9]) == Array(original[0..<9]))
        #expect(Array(lines[16...]) == Array(original[15...]))
    }

    @Test("text: rendered lines carry their kinds")
    func kinds() throws {
        let r = try CrashReport.parse(data: Data(textReport.utf8), path: "w.crash")
        let lines = r.renderedLines()
        #expect(lines[7].kind == .threadHeader(thread: 0, crashed: true))
        #expect(lines[9].kind == .frame(thread: 0, backtrace: .thread(0), isAppImage: true))
        #expect(lines[8].kind == .frame(thread: 0, backtrace: .thread(0), isAppImage: false))
        #expect(lines[13].kind == .threadHeader(thread: 1, crashed: false))
        #expect(lines[16].kind == .sectionHeader)
        #expect(lines[18].kind == .binaryImage(isAppImage: true))
    }

    @Test("text: a wider renumbered index keeps the column when it can")
    func widerIndex() {
        #expect(FrameFormatting.rewrite("9   MyApp  0x1 foo + 1", index: 10, rest: nil) == "10  MyApp  0x1 foo + 1")
        #expect(FrameFormatting.rewrite("9   MyApp  0x1 foo + 1", index: 1000, rest: "bar + 2") == "1000 MyApp  0x1 bar + 2")
    }

    static let ips = """
        {"app_name":"MyApp","bug_type":"309","os_version":"iPhone OS 16.0 (20A362)"}
        {
          "osVersion" : {"isEmbedded" : true, "train" : "iPhone OS 16.0", "build" : "20A362"},
          "procPath" : "\\/private\\/var\\/containers\\/Bundle\\/Application\\/X\\/MyApp.app\\/MyApp",
          "faultingThread" : 0,
          "unknownKey" : {"kept" : [1, 2.5, 18446744073709551615]},
          "threads" : [{"triggered" : true, "id" : 5798, "queue" : "com.apple.main-thread",
            "frames" : [{"imageOffset" : 25788, "imageIndex" : 0, "extra" : "x"}, {"imageOffset" : 4, "imageIndex" : 1, "symbol" : "start", "symbolLocation" : 4}]}],
          "usedImages" : [
            {"source" : "P", "arch" : "arm64", "base" : 4330815488, "size" : 32768, "uuid" : "82d13d98-219e-3040-b62a-07a297007a7c", "path" : "\\/private\\/var\\/containers\\/Bundle\\/Application\\/X\\/MyApp.app\\/MyApp", "name" : "MyApp"},
            {"source" : "P", "arch" : "arm64e", "base" : 6619975680, "size" : 5672960, "uuid" : "341bbf64-6034-357e-8aa6-e4b988e03c00", "path" : "\\/usr\\/lib\\/dyld", "name" : "dyld"}
          ]
        }
        """

    @Test(".ips: frames resolve to absolute addresses and app images")
    func ipsModel() throws {
        let r = try CrashReport.parse(data: Data(Self.ips.utf8), path: "m.ips")
        #expect(r.format == .ips)
        #expect(r.bugType == "309")
        let f = try #require(r.crashedThread?.frames.first)
        #expect(f.address == 4330815488 + 25788)
        #expect(f.imageOffset == 25788)
        #expect(r.image(for: f)?.isAppOwned == true)
        #expect(r.binaryImages[1].isAppOwned == false)
        #expect(r.binaryImages[0].endAddress == 4330815488 + 32768 - 1)
    }

    @Test(".ips JSON out: inline levels become frame objects before the concrete one; unknown keys and big numbers kept")
    func ipsOut() throws {
        var r = try CrashReport.parse(data: Data(Self.ips.utf8), path: "m.ips")
        r.threads[0].frames[0].symbolication = chain
        let out = try r.ipsOutput()
        let lines = out.split(separator: "\n", maxSplits: 1)
        #expect(lines[0] == #"{"app_name":"MyApp","bug_type":"309","os_version":"iPhone OS 16.0 (20A362)"}"#)
        let body = try JSONParser.parse(Array(lines[1].utf8)).value
        #expect(body["unknownKey"] == .object([("kept", .array([.number("1"), .number("2.5"), .number("18446744073709551615")]))]))
        let frames = try #require(body["threads"]?.arrayValue?.first?["frames"]?.arrayValue)
        #expect(frames.count == 3)
        #expect(frames[0]["symbol"] == .string("CrashClass.inner()"))
        #expect(frames[0]["inline"] == .bool(true))
        #expect(frames[0]["sourceFile"] == .string("Inner.swift"))
        #expect(frames[0]["sourceLine"] == .number("12"))
        #expect(frames[0]["imageOffset"] == .number("25788"))
        #expect(frames[0]["extra"] == .string("x"))
        #expect(frames[1]["symbol"] == .string("CrashClass.pleaseCrash()"))
        #expect(frames[1]["symbolLocation"] == .number("44"))
        #expect(frames[1]["inline"] == nil)
        #expect(frames[2]["symbol"] == .string("start"))
        // Reading our own output again gives the same frames, now symbolicated in the report.
        let again = try CrashReport.parse(data: Data(out.utf8), path: "again.ips")
        #expect(again.threads[0].frames.map(\.symbol) == ["CrashClass.inner()", "CrashClass.pleaseCrash()", "start"])
        #expect(again.threads[0].frames.map(\.isInlined) == [true, false, false])
    }

    @Test(".ips to text: symbolicated frames use Apple's layout, one line per level")
    func ipsText() throws {
        var r = try CrashReport.parse(data: Data(Self.ips.utf8), path: "m.ips")
        r.threads[0].frames[0].symbolication = chain
        let frames = r.renderedLines().filter {
            if case .frame = $0.kind { return true }
            return false
        }.map(\.text)
        #expect(
            frames == [
                "0   MyApp                         \t       0x1022364bc CrashClass.inner() + 20 (Inner.swift:12) [inlined]",
                "1   MyApp                         \t       0x1022364bc CrashClass.pleaseCrash() + 44 (Crash.swift:30)",
                "2   dyld                          \t       0x18a94d004 start + 4",
            ])
    }

    @Test("--format ips on a text report is refused with a clear message")
    func ipsFromText() throws {
        let r = try CrashReport.parse(data: Data(textReport.utf8), path: "w.crash")
        #expect(throws: CrashReportError.self) { try r.ipsOutput() }
    }

    @Test("the JSON dump decodes back to the same model")
    func jsonDump() throws {
        let r = try CrashReport.parse(data: Data(textReport.utf8), path: "w.crash")
        let decoded = try JSONDecoder().decode(CrashReport.self, from: Data(r.jsonDump().utf8))
        #expect(decoded.threads == r.threads)
        #expect(decoded.binaryImages == r.binaryImages)
        #expect(decoded.exception == r.exception)
        #expect(decoded.format == .text)
    }

    @Test(".ips asiBacktraces (text strings) become frames resolved to images, and are rendered")
    func asiBacktraces() throws {
        let ips = Self.ips.replacingOccurrences(
            of: "\"faultingThread\" : 0,",
            with: """
                  "faultingThread" : 0,
                  "asiBacktraces" : ["0   dyld                          \\t0x18a94d010 start + 16\\n1   MyApp                         \\t0x1022364bc 0x102230000 + 25788"],
                """)
        let r = try CrashReport.parse(data: Data(ips.utf8), path: "asi.ips")
        let asi = try #require(r.asiBacktraces.first)
        #expect(asi.frames.map(\.address) == [0x18a94d010, 0x1022364bc])
        #expect(asi.frames.map(\.imageIndex) == [1, 0])
        #expect(asi.frames[1].imageOffset == 25788)
        #expect(r.renderedLines().contains { $0.kind == .frame(thread: nil, backtrace: .asi(0), isAppImage: true) })
    }

    @Test(".ips: a frame pointing at no image still parses, with a warning naming its JSON path")
    func badFrame() throws {
        let ips = Self.ips.replacingOccurrences(
            of: "{\"imageOffset\" : 4, \"imageIndex\" : 1,", with: "{\"imageOffset\" : 4, \"imageIndex\" : 7,")
        let r = try CrashReport.parse(data: Data(ips.utf8), path: "bad.ips")
        #expect(r.threads[0].frames.count == 2)
        #expect(r.threads[0].frames[1].imageIndex == nil)
        #expect(r.warnings.contains { $0.jsonPath == "threads[0].frames[1]" && $0.message.contains("imageIndex 7") })
        #expect(try r.ipsOutput().contains("\"imageIndex\" : 7"))
    }
}
