import Foundation
import SymbolicateJSON
import Testing

/// The JSON reader every layout goes through, on its own: values as written (numbers kept as their text),
/// errors with line, column and path, nesting limits, and edits spliced into the text it was read from.
@Suite struct JSONTests {
    @Test func valuesKeepTheirSpelling() throws {
        let text = #"{"pid": 412, "big": 18446744073709551615, "frac": 1.50, "name": "A\u00e9\n", "ok": true, "none": null}"#
        let value = try JSONParser.parse(Array(text.utf8)).value
        #expect(value["pid"]?.intValue == 412)
        #expect(value["big"]?.uint64Value == UInt64.max)
        // A number is kept as written, so a writer can give it back byte for byte.
        #expect(value["frac"] == .number("1.50"))
        #expect(value["name"]?.stringValue == "Aé\n")
        #expect(value["ok"]?.boolValue == true)
        #expect(value["none"] == .null)
        #expect(value["missing"] == nil)
    }

    @Test func errorsSayWhereAndInWhichValue() {
        let text = "{\n  \"threads\": [{\"frames\": [1, 2,]}]\n}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONParser.parse(Array(text.utf8))
        } catch {
            #expect(error.line == 2)
            #expect(error.path?.hasPrefix("threads[0].frames") == true, "\(error)")
        }
    }

    @Test func nestingIsBoundedWithoutRecursion() {
        let deep =
            String(repeating: "[", count: JSONParser.defaultMaxDepth + 1) + String(repeating: "]", count: JSONParser.defaultMaxDepth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let allowed = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect((try? JSONParser.parse(Array(allowed.utf8), maxDepth: JSONParser.deepMaxDepth)) != nil)
    }

    @Test func trailingTextIsRefusedUnlessAllowed() throws {
        let text = #"{"a": 1} {"b": 2}"#
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
        let (value, end) = try JSONParser.parse(Array(text.utf8), allowTrailing: true)
        #expect(value["a"]?.intValue == 1)
        #expect(text.utf8.dropFirst(end).first.map { Character(UnicodeScalar($0)) } == " ")
    }

    /// The `.ips` writer's way of editing: only the changed member is rewritten, every other byte (spacing,
    /// key order, number spelling) is copied as read.
    @Test func editsKeepEveryUnchangedByte() throws {
        let tape = try JSONParser.parseTape(Array(#"{ "symbol" : "old", "kept" : [1,  2.0] }"#.utf8))
        let edited = tape.editedObject(tape.root, updates: [(key: "symbol", value: .string("new"))])
        #expect(edited.contains(#""symbol" : "new""#), "\(edited)")
        #expect(edited.contains(#""kept" : [1,  2.0]"#), "\(edited)")
    }

    @Test func outputIsSortedAndReadable() {
        struct Row: Encodable {
            var zeta = 1
            var path = "/a/b.swift"
        }
        #expect(OutputJSON.text(Row()) == "{\n  \"path\" : \"/a/b.swift\",\n  \"zeta\" : 1\n}")
    }
}
