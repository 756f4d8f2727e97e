import Foundation
import SymbolicateJSON
import Testing

@testable import SymbolicateCrashReport

/// `--format ips` gives the body back in the input's own layout: Apple's compact one-line body,
/// its pretty form (members on their own lines, nested values compact) or a fully pretty
/// re-serialisation; only the symbolication keys are added, everything else is copied.
@Suite(".ips out keeps the input's layout")
struct IPSLayoutTests {
    static let levels = [
        SymbolicatedFrame(
            function: "CrashClass.inner()", offsetInFunction: 20, file: "/src/App/Inner.swift", line: 12, column: 5, isInlined: true),
        SymbolicatedFrame(
            function: "CrashClass.pleaseCrash()", offsetInFunction: 44, file: "/src/App/Crash.swift", line: 30, column: 9, isInlined: false),
    ]
    static let header = #"{"app_name":"MyApp","bug_type":"309"}"#
    static let images =
        #"[{"source":"P","arch":"arm64","base":4330815488,"size":32768,"uuid":"82d13d98-219e-3040-b62a-07a297007a7c","path":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","name":"MyApp"},{"source":"P","arch":"arm64e","base":6619975680,"size":5672960,"uuid":"341bbf64-6034-357e-8aa6-e4b988e03c00","path":"\/usr\/lib\/dyld","name":"dyld"}]"#

    static func symbolicated(_ text: String, frame: Int = 0, _ levels: [SymbolicatedFrame] = levels) throws -> String {
        var report = try CrashReport.parse(data: Data(text.utf8), path: "layout.ips")
        report.threads[0].frames[frame].symbolication = levels
        return try report.ipsOutput()
    }

    @Test("compact one-line body: still one line, untouched bytes copied, numbers as written")
    func compactBody() throws {
        let input =
            Self.header + "\n"
            + #"{"rawNumber":1.50e+3,"faultingThread":0,"threads":[{"triggered":true,"frames":[{"imageOffset":25788,"imageIndex":0},{"imageOffset":4,"imageIndex":1,"symbol":"start","symbolLocation":4}]}],"usedImages":"#
            + Self.images + "}\n"
        let expected =
            Self.header + "\n"
            + #"{"rawNumber":1.50e+3,"faultingThread":0,"threads":[{"triggered":true,"frames":["#
            + #"{"imageOffset":25788,"imageIndex":0,"symbol":"CrashClass.inner()","symbolLocation":20,"sourceFile":"Inner.swift","sourceLine":12,"inline":true},"#
            + #"{"imageOffset":25788,"imageIndex":0,"symbol":"CrashClass.pleaseCrash()","symbolLocation":44,"sourceFile":"Crash.swift","sourceLine":30},"#
            + #"{"imageOffset":4,"imageIndex":1,"symbol":"start","symbolLocation":4}]}],"usedImages":"#
            + Self.images + "}\n"
        #expect(try Self.symbolicated(input) == expected)
    }

    @Test("Apple's pretty form: members on their own lines, nested values compact; line count kept")
    func applePrettyBody() throws {
        let input =
            Self.header + "\n" + """
                {
                  "uptime" : 25000,
                  "faultingThread" : 0,
                  "threads" : [{"triggered":true,"id":207732,"frames":[{"imageOffset":25788,"imageIndex":0},{"imageOffset":4,"imageIndex":1}]}],
                  "usedImages" : \(Self.images)
                }

                """
        let out = try Self.symbolicated(input)
        #expect(
            out.split(separator: "\n", omittingEmptySubsequences: false).count
                == input.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(
            out.contains(
                #"  "threads" : [{"triggered":true,"id":207732,"frames":[{"imageOffset":25788,"imageIndex":0,"symbol":"CrashClass.inner()","#
            ))
        // Removing what symbolication added gives the input back.
        let added = [
            #","symbol":"CrashClass.inner()","symbolLocation":20,"sourceFile":"Inner.swift","sourceLine":12,"inline":true},{"imageOffset":25788,"imageIndex":0"#,
            #","symbol":"CrashClass.pleaseCrash()","symbolLocation":44,"sourceFile":"Crash.swift","sourceLine":30"#,
        ]
        #expect(added.reduce(out) { $0.replacingOccurrences(of: $1, with: "") } == input)
    }

    @Test("fully pretty body: new members and frame objects laid out like their neighbours")
    func fullyPrettyBody() throws {
        let input =
            Self.header + "\n" + """
                {
                  "faultingThread" : 0,
                  "threads" : [
                    {
                      "frames" : [
                        {
                          "imageOffset" : 25788,
                          "imageIndex" : 0
                        },
                        {
                          "imageOffset" : 4,
                          "imageIndex" : 1
                        }
                      ]
                    }
                  ],
                  "usedImages" : \(Self.images)
                }
                """
        let out = try Self.symbolicated(input, [Self.levels[1]])
        #expect(
            out.contains(
                """
                      "frames" : [
                        {
                          "imageOffset" : 25788,
                          "imageIndex" : 0,
                          "symbol" : "CrashClass.pleaseCrash()",
                          "symbolLocation" : 44,
                          "sourceFile" : "Crash.swift",
                          "sourceLine" : 30
                        },
                        {
                          "imageOffset" : 4,
                """))
        let withInline = try Self.symbolicated(input)
        #expect(
            withInline.contains(
                """
                          "inline" : true
                        },
                        {
                          "imageOffset" : 25788,
                """))
    }

    @Test("a resymbolicated frame loses the keys its new answer does not have")
    func resymbolicatedFrameDropsStaleKeys() throws {
        let input =
            Self.header + "\n"
            + #"{"threads":[{"frames":[{"imageOffset":25788,"imageIndex":0,"symbol":"old","symbolLocation":1,"sourceFile":"Old.swift","sourceLine":3,"inline":true}]}],"usedImages":"#
            + Self.images + "}"
        let noFile = SymbolicatedFrame(function: "fresh", offsetInFunction: 8, isInlined: false)
        let out = try Self.symbolicated(input, [noFile])
        #expect(out.contains(#"{"imageOffset":25788,"imageIndex":0,"symbol":"fresh","symbolLocation":8}"#))
    }

    @Test("nothing symbolicated: the output is the input, byte for byte (CRLF included)")
    func untouchedIsIdentical() throws {
        let input =
            Self.header + "\r\n"
            + "{\r\n  \"faultingThread\" : 0,\r\n  \"threads\" : [{\"frames\":[{\"imageOffset\":1,\"imageIndex\":0}]}],\r\n  \"usedImages\" : \(Self.images)\r\n}\r\n"
        let report = try CrashReport.parse(data: Data(input.utf8), path: "crlf.ips")
        #expect(try report.ipsOutput() == input)
    }
}

@Suite("JSONValue keeps order and exact numbers")
struct JSONValueFidelityTests {
    @Test("text bridge: key order and number spelling survive parse → compactText")
    func textBridge() throws {
        let text = #"{"zeta":1,"alpha":[1.50,-0,1e-7,18446744073709551615,123456789012345678901234567890],"mid":{"b":true,"a":null}}"#
        let value = try JSONValue(parsing: text)
        #expect(value.objectValue?.map(\.key) == ["zeta", "alpha", "mid"])
        #expect(value.compactText() == text)
    }

    @Test("Codable bridge: numbers keep their exact value through JSONDecoder and JSONEncoder")
    func codableNumbers() throws {
        let decoded = try JSONDecoder().decode(
            JSONValue.self, from: Data("[0.1, 1e-7, 12345678901234567890123, 18446744073709551615, -5, 2.5]".utf8))
        #expect(
            decoded
                == .array([
                    .number("0.1"), .number("0.0000001"), .number("12345678901234567890123"),
                    .number("18446744073709551615"), .number("-5"), .number("2.5"),
                ]))
        let encoded = String(
            decoding: try JSONEncoder().encode(
                JSONValue.array([.number("12345678901234567890123"), .number("0.1"), .number("-9223372036854775808")])), as: UTF8.self)
        #expect(encoded == "[12345678901234567890123,0.1,-9223372036854775808]")
    }
}
