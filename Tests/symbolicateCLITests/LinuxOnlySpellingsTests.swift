import Foundation
import SymbolicateTestSupport
import Testing

/// scripts/check-linux-only.py (run by `make format-check`): the tree passes, and each
/// spelling that once stopped a macOS build is caught outside a Linux `#if` and allowed inside.
@Suite struct LinuxOnlySpellingsTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/check-linux-only.py").path

    static func check(_ paths: [String]) throws -> CLIResult {
        let python = try #require(ExternalTool.find("python3"), "python3 runs scripts/check-linux-only.py")
        return try ExternalTool.result(python, [script] + paths)
    }

    @Test func theTreePasses() throws {
        let result = try Self.check([])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    static let spellings: [(line: String, reason: String)] = [
        ("private var previous: [Int32: sighandler_t?] = [:]", "sighandler_t"),
        ("let age = TimeInterval(info.st_mtim.tv_sec)", "st_mtim"),
        ("let changed = info.st_ctim", "st_mtim"),
        ("let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)", "SOCK_"),
        ("let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)", "SOCK_"),
        ("var actions = posix_spawn_file_actions_t()", "posix_spawn"),
        ("var attributes = posix_spawnattr_t()", "posix_spawn"),
        ("device = UInt64(info.st_dev)", "dev_t"),
    ]

    @Test func eachSpellingIsCaughtOutsideALinuxIf() throws {
        let folder = try TestPaths.temporaryDirectory("linux-only")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (number, spelling) in Self.spellings.enumerated() {
            let bare = folder.appendingPathComponent("Bare\(number).swift")
            try Data("import Foundation\n\nfunc f() {\n    \(spelling.line)\n}\n".utf8).write(to: bare)
            let result = try Self.check([bare.path])
            #expect(result.status == 1, "not caught: \(spelling.line)")
            #expect(result.stdout.contains("Bare\(number).swift:4: "), "\(result.stdout)")
            #expect(result.stdout.contains(spelling.reason), "\(result.stdout)")
            // Inside the Linux branch of a platform #if it is what the SDK wants: allowed.
            for (opening, middle) in [
                ("#if canImport(Glibc)", "#else\n    let other = 0"), ("#if os(Linux)", ""),
                ("#if canImport(Darwin)\n    let other = 0", "#else"),
            ] {
                let guarded = folder.appendingPathComponent("Guarded\(number).swift")
                let body =
                    opening.hasPrefix("#if canImport(Darwin)")
                    ? "\(opening)\n\(middle)\n    \(spelling.line)\n#endif\n" : "\(opening)\n    \(spelling.line)\n\(middle)\n#endif\n"
                try Data(body.utf8).write(to: guarded)
                let allowed = try Self.check([guarded.path])
                #expect(allowed.status == 0, "\(body): \(allowed.stdout)")
            }
            // The Darwin branch is not Linux's: still caught there.
            let darwin = folder.appendingPathComponent("Darwin\(number).swift")
            try Data("#if canImport(Glibc)\n    let a = 0\n#else\n    \(spelling.line)\n#endif\n".utf8).write(to: darwin)
            #expect(try Self.check([darwin.path]).status == 1, "not caught in the Darwin branch: \(spelling.line)")
            // A comment or a string that names it is not code.
            let comment = folder.appendingPathComponent("Comment\(number).swift")
            let quoted = spelling.line.replacingOccurrences(of: "\"", with: "\\\"")
            try Data("// \(spelling.line)\nlet text = \"\(quoted)\"\n".utf8).write(to: comment)
            #expect(try Self.check([comment.path]).status == 0)
        }
    }

    /// A package module imported only where Glibc is: every test target that needs it fails
    /// to build on macOS.
    @Test func aPackageImportInsideALinuxIfIsCaught() throws {
        let folder = try TestPaths.temporaryDirectory("linux-only-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Imports.swift")
        try Data("#if canImport(Glibc)\n    import Glibc\n    import SymbolicateTestSupport\n#endif\n".utf8).write(to: file)
        let result = try Self.check([file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Imports.swift:3: "))
        try Data("import SymbolicateTestSupport\n#if canImport(Glibc)\n    import Glibc\n#endif\n".utf8).write(to: file)
        #expect(try Self.check([file.path]).status == 0)
    }
}
