import Foundation
import SymbolicateTestSupport
import Testing

/// `symbolicate atos` end to end. Expected answers come from `Fixtures/facts.json`
/// (llvm-symbolizer-19's output when the fixtures were generated) and from llvm-nm-19.
@Suite(.tags(.launchesBinary)) struct AtosTests {
    struct Fact: Decodable, Sendable {
        struct Frame: Decodable, Sendable {
            var function: String
            var file: String?
            var line: Int?
        }
        var dsym: String
        var binary: String?
        var arch: String
        var uuid: String
        var address: String
        var frames: [Frame]
    }

    static let facts: [Fact] = {
        guard let data = try? Data(contentsOf: TestPaths.fixtures.appendingPathComponent("facts.json")) else { return [] }
        return (try? JSONDecoder().decode([Fact].self, from: data)) ?? []
    }()

    static func basename(_ path: String?) -> String {
        (path ?? "").split(separator: "/").last.map(String.init) ?? ""
    }

    /// The image name atos prints: the DWARF file's name inside the bundle.
    static func image(_ fact: Fact) -> String {
        let folder = TestPaths.fixtures.appendingPathComponent(fact.dsym).appendingPathComponent("Contents/Resources/DWARF")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path).first) ?? "?"
    }

    static func textVMAddress(_ fact: Fact) -> UInt64 {
        // Every fixture links __TEXT at 0x100000000 except the framework, linked at 0.
        fact.dsym.contains("framework") ? 0 : 0x1_0000_0000
    }

    @Test func factsLoaded() { #expect(Self.facts.count >= 5) }

    @Test func inlinedFramesOneLineEachInnermostFirst() throws {
        for fact in Self.facts {
            let result = try CLI.run([
                "atos", "-o", TestPaths.fixtures.appendingPathComponent(fact.dsym).path, "-arch", fact.arch, "-i", fact.address,
            ])
            #expect(result.status == 0, "\(result.stderr.suffix(1500))")
            let expected = fact.frames.map { "\($0.function) (in \(Self.image(fact))) (\(Self.basename($0.file)):\($0.line ?? 0))" }
            #expect(result.stdout.split(separator: "\n").map(String.init) == expected, "\(fact.dsym) \(fact.address)")
        }
    }

    @Test func withoutInlinesConcreteFunctionAndLineTableLocation() throws {
        let fact = try #require(Self.facts.first { $0.frames.count > 1 })
        let result = try CLI.run(["atos", "-o", TestPaths.fixtures.appendingPathComponent(fact.dsym).path, fact.address])
        let concrete = try #require(fact.frames.last)
        let innermost = try #require(fact.frames.first)
        #expect(
            result.stdout == "\(concrete.function) (in \(Self.image(fact))) (\(Self.basename(innermost.file)):\(innermost.line ?? 0))\n")
    }

    @Test func loadAddressOffsetAndFullPath() throws {
        let fact = try #require(Self.facts.first { $0.dsym.contains("CrashApp.app") })
        let dsym = TestPaths.fixtures.appendingPathComponent(fact.dsym).path
        let fileAddress = try #require(UInt64(fact.address.dropFirst(2), radix: 16))
        let load: UInt64 = 0x1_0480_0000
        let runtime = fileAddress - Self.textVMAddress(fact) + load
        let viaLoad = try CLI.run(["atos", "-o", dsym, "-l", "0x" + String(load, radix: 16), "-i", "0x" + String(runtime, radix: 16)])
        let direct = try CLI.run(["atos", "-o", dsym, "-i", fact.address])
        #expect(viaLoad.stdout == direct.stdout)
        #expect(!direct.stdout.isEmpty)
        let offset = fileAddress - Self.textVMAddress(fact)
        let viaOffset = try CLI.run(["atos", "-o", dsym, "-offset", "-i", "0x" + String(offset, radix: 16)])
        #expect(viaOffset.stdout == direct.stdout)
        let full = try CLI.run(["atos", "-o", dsym, "-fullPath", fact.address])
        #expect(full.stdout.contains("(\(fact.frames[0].file ?? "?"):"))
    }

    @Test func unknownAddressesAreEchoedAndStdinAndFileWork() throws {
        let fact = try #require(Self.facts.first)
        let dsym = TestPaths.fixtures.appendingPathComponent(fact.dsym).path
        let stdin = try CLI.run(["atos", "-o", dsym, "-arch", fact.arch], stdin: "0x10 \(fact.address)\nnot-an-address\n")
        let lines = stdin.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "0x10")
        #expect(lines.last == "not-an-address")
        #expect(lines[1].hasPrefix("\(fact.frames.last?.function ?? "?") (in "))
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("atos-\(UUID().uuidString).txt")
        try "0x10\n\(fact.address)\nnot-an-address\n".write(to: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: list) }
        let file = try CLI.run(["atos", "-o", dsym, "-arch", fact.arch, "-f", list.path])
        #expect(file.stdout == stdin.stdout)
    }

    @Test func jsonOneObjectPerAddress() throws {
        let fact = try #require(Self.facts.first { $0.frames.count > 1 })
        let dsym = TestPaths.fixtures.appendingPathComponent(fact.dsym).path
        let result = try CLI.run(["atos", "-o", dsym, "--json", fact.address, "0x10"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["address"] as? String == fact.address)
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.map { $0["function"] as? String } == fact.frames.map(\.function))
        #expect(frames.map { $0["file"] as? String } == fact.frames.map(\.file))
        #expect(frames.map { $0["line"] as? Int } == fact.frames.map(\.line))
        #expect(frames.map { $0["inlined"] as? Bool } == fact.frames.indices.map { $0 < fact.frames.count - 1 })
        let unknown = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect((unknown["frames"] as? [Any])?.isEmpty == true)
    }

    /// A binary without DWARF: `function (in Image) + offset` from the nearest symbol (llvm-nm-19).
    @Test func symbolTableFallbackGrammar() throws {
        let binary = TestPaths.fixtures.appendingPathComponent("bin/CrashApp").path
        let nmPaths = ["/usr/bin/llvm-nm-19", "/usr/lib/llvm-19/bin/llvm-nm"]
        guard let nm = nmPaths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("AtosTests: skipped symbol-table grammar: llvm-nm-19 not found")
            return
        }
        let text = try ExternalTool.run(nm, ["--defined-only", "-n", binary])
        let symbols = text.split(separator: "\n").compactMap { line -> (UInt64, String)? in
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[1] == "T", let address = UInt64(parts[0], radix: 16) else { return nil }
            return (address, String(parts[2]))
        }
        let plain = try #require(symbols.first { !$0.1.hasPrefix("_$s") && !$0.1.hasPrefix("__Z") })
        let result = try CLI.run(["atos", "-o", binary, "0x" + String(plain.0 + 8, radix: 16)])
        #expect(result.stdout == "\(plain.1.dropFirst()) (in CrashApp) + 8\n")
    }

    /// A file in the bundle's DWARF folder that is no Mach-O file is a warning; the DWARF
    /// file beside it answers (the bundle used to fail on whichever file sorted first).
    @Test func strayFileInTheBundleIsAWarning() throws {
        let fact = try #require(Self.facts.first { $0.dsym.contains("CrashApp.app") })
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("atos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dwarf = root.appendingPathComponent("CrashApp.app.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: dwarf.appendingPathComponent("AAA"))
        let original = TestPaths.fixtures.appendingPathComponent(fact.dsym)
        try FileManager.default.copyItem(
            at: original.appendingPathComponent("Contents/Resources/DWARF/CrashApp"), to: dwarf.appendingPathComponent("CrashApp"))
        let result = try CLI.run(["atos", "-o", root.appendingPathComponent("CrashApp.app.dSYM").path, "-i", fact.address])
        let direct = try CLI.run(["atos", "-o", original.path, "-i", fact.address])
        #expect(result.status == 0)
        #expect(result.stdout == direct.stdout && !direct.stdout.isEmpty)
        #expect(result.stderr == "symbolicate atos: warning: \(dwarf.path)/AAA: at offset 0x0: not a Mach-O file: 2 bytes long\n")
    }

    @Test func badInputsExitCodes() throws {
        let missing = try CLI.run(["atos", "-o", "/nonexistent/Thing.dSYM", "0x1000"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/Thing.dSYM"))
        let usage = try CLI.run(["atos", "0x1000"])
        #expect(usage.status == 64)
        let fat = try #require(Self.facts.first { $0.dsym.hasSuffix("MacApp.app.dSYM") })
        let ambiguous = try CLI.run(["atos", "-o", TestPaths.fixtures.appendingPathComponent(fat.dsym).path, fat.address])
        #expect(ambiguous.status == 65)
        #expect(ambiguous.stderr.contains("--arch"))
    }
}
