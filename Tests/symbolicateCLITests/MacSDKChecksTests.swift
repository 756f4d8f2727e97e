import Foundation
import SymbolicateTestSupport
import Testing

/// The Linux-side checks of what Apple's SDK refuses (scripts/check-mac-sdk.py, scripts/check-linux-only.py)
/// and of the shipping files agreeing (scripts/check-release-files.py), all run by `make format-check`
/// (issue 50): the tree passes each, and each fails on a planted example of its class.
@Suite struct MacSDKChecksTests {
    static let scripts = TestPaths.packageRoot.appendingPathComponent("scripts")

    static func run(_ script: String, _ arguments: [String]) throws -> CLIResult {
        let python = try #require(ExternalTool.find("python3"), "python3 runs the format-check scripts")
        return try ExternalTool.result(python, [scripts.appendingPathComponent(script).path] + arguments)
    }

    /// A Swift file with `body` in a fresh folder; the check runs on that file alone.
    static func planted(_ body: String, folder: String = "Sources") throws -> (root: URL, file: String) {
        let root = try TestPaths.temporaryDirectory("mac-sdk-check")
        let dir = root.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("Planted.swift")
        try Data(body.utf8).write(to: file)
        return (root, file.path)
    }

    @Test func theTreePassesEveryCheck() throws {
        for script in ["check-mac-sdk.py", "check-linux-only.py", "check-release-files.py"] {
            let result = try Self.run(script, [])
            #expect(result.status == 0, "\(script): \(result.stdout)\(result.stderr)")
        }
    }

    /// (a) APIs newer than the floor: issue 50's `String(validating:as:)` under a macOS 14 floor,
    /// macOS 26's `enumerated().reversed()`, a new standard-library type and a Foundation API
    /// newer than the floor; allowed under `if #available` that covers it.
    @Test(arguments: [
        ("let s = String(validating: bytes, as: UTF8.self)", "14", "String(validating:"),
        ("for (i, x) in items.enumerated().reversed() { print(i, x) }", "15", ".enumerated().reversed"),
        ("let wide: InlineArray<4, Int> = [1, 2, 3, 4]", "15", "InlineArray"),
        ("let raw = data.mutableSpan", "15", ".mutableSpan"),
        ("let url = URL(filePath: path)", "12", "URL(filePath:"),
    ])
    func availabilityNewerThanTheFloorIsCaught(line: String, floor: String, api: String) throws {
        let (root, file) = try Self.planted("import Foundation\n\nfunc f() {\n    \(line)\n}\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-mac-sdk.py", ["--floor", floor, file])
        #expect(result.status == 1, "not caught: \(line)")
        #expect(result.stdout.contains("Planted.swift:4: availability: \(api)"), "\(result.stdout)")
        // Under an #available check as new as the API: allowed.
        let (guardedRoot, guarded) = try Self.planted(
            "import Foundation\n\nfunc f() {\n    if #available(macOS 26.0, *) {\n        \(line)\n    }\n}\n")
        defer { try? FileManager.default.removeItem(at: guardedRoot) }
        let allowed = try Self.run("check-mac-sdk.py", ["--floor", floor, guarded])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        // The same API at a floor that has it: allowed.
        #expect(try Self.run("check-mac-sdk.py", ["--floor", "26", file]).status == 0)
    }

    /// The generator reads a swiftlang/swift checkout: `@available(SwiftStdlib X.Y, *)` expanded by
    /// utils/availability-macros.def (a release still at 9999 is newer than any floor), an
    /// initializer's label found where the parameter list wraps, and a conformance with the
    /// function that produces the type and the members that then outrank Sequence's.
    @Test func theGeneratorExpandsACheckoutsMacros() throws {
        let root = try TestPaths.temporaryDirectory("availability-checkout")
        defer { try? FileManager.default.removeItem(at: root) }
        let utils = root.appendingPathComponent("utils"), core = root.appendingPathComponent("stdlib/public/core")
        for folder in [utils, core] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data(
            """
            # comment
            SwiftStdlib 5.9:macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0
            SwiftStdlib 6.0:macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0
            SwiftStdlib 6.2:macOS 9999, iOS 9999, watchOS 9999, tvOS 9999, visionOS 9999

            """.utf8
        ).write(to: utils.appendingPathComponent("availability-macros.def"))
        try Data(
            """
            extension String {
              @available(SwiftStdlib 6.0, *)
              public init?<Encoding: Unicode.Encoding>(
                validating codeUnits: some Sequence<Encoding.CodeUnit>,
                as encoding: Encoding.Type
              ) {
                self = ""
              }
              public init(decoding value: Int) {}
            }
            @available(SwiftStdlib 6.2, *)
            @frozen
            public struct InlineArray<let count: Int, Element: ~Copyable>: ~Copyable {
              public var span: Int { 0 }
            }
            extension Sequence {
              public func enumerated() -> EnumeratedSequence<Self> { fatalError() }
            }
            @available(SwiftStdlib 6.2, *)
            extension EnumeratedSequence: Collection where Base: Collection {
            }
            extension BidirectionalCollection {
              public func reversed() -> ReversedCollection<Self> { fatalError() }
            }

            """.utf8
        ).write(to: core.appendingPathComponent("Planted.swift"))
        let output = root.appendingPathComponent("table.json")
        let result = try Self.run("generate-availability.py", ["--checkout", root.path, "-o", output.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let table = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect((table["inits"] as? [String: String]) == ["String(validating:": "15.0"])
        #expect((table["types"] as? [String: String]) == ["InlineArray": "9999"])
        #expect((table["members"] as? [String: String]) == ["span": "9999"])
        let conformance = try #require((table["conformances"] as? [[String: Any]])?.first)
        #expect(conformance["type"] as? String == "EnumeratedSequence")
        #expect(conformance["producers"] as? [String] == ["enumerated"])
        #expect(conformance["members"] as? [String] == ["reversed"])
    }

    /// The committed table (made from the toolchain's interfaces) has issue 50's facts.
    @Test func theCommittedTableHasIssue50sAPIs() throws {
        let data = try Data(contentsOf: Self.scripts.appendingPathComponent("availability/stdlib.json"))
        let table = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((table["inits"] as? [String: String])?["String(validating:"] == "15.0")
        let conformances = try #require(table["conformances"] as? [[String: Any]])
        #expect(
            conformances.contains {
                $0["type"] as? String == "EnumeratedSequence" && $0["macOS"] as? String == "26.0"
                    && ($0["members"] as? [String])?.contains("reversed") == true
            })
    }

    /// (b) Statics and globals of types Apple's SDK does not mark Sendable (issue 50's DateFormatter).
    @Test(arguments: [
        "    private static let timestampFormatter: DateFormatter = {\n        DateFormatter()\n    }()",
        "    static let pattern = NSRegularExpression(pattern: \"a\")",
        "    static var numbers = NumberFormatter()",
    ])
    func aNonSendableStaticIsCaught(declaration: String) throws {
        let (root, file) = try Self.planted("import Foundation\n\nenum Names {\n\(declaration)\n}\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-mac-sdk.py", [file])
        #expect(result.status == 1, "not caught: \(declaration)")
        #expect(result.stdout.contains("Planted.swift:4: sendable:"), "\(result.stdout)")
        // A local one, or one marked nonisolated(unsafe) on purpose, is not.
        let local = declaration.replacingOccurrences(of: "private static ", with: "").replacingOccurrences(of: "static ", with: "")
        let (localRoot, localFile) = try Self.planted("import Foundation\n\nfunc f() {\n\(local)\n}\n")
        defer { try? FileManager.default.removeItem(at: localRoot) }
        #expect(try Self.run("check-mac-sdk.py", [localFile]).status == 0)
    }

    @Test func aGlobalOfANonSendableTypeIsCaught() throws {
        let (root, file) = try Self.planted("import Foundation\n\nlet formatter = DateFormatter()\n")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.run("check-mac-sdk.py", [file]).stdout.contains("Planted.swift:3: sendable: a global"))
    }

    /// (b) A Process or Pipe captured by a @Sendable closure (issue 50: DsymForUUID's reader thread,
    /// the test runner's dispatch blocks); a file descriptor passed instead is fine.
    @Test(arguments: ["Thread {", "DispatchQueue.global().async {", "process.terminationHandler = { _ in"])
    func aPipeCapturedByASendableClosureIsCaught(opening: String) throws {
        let body = """
            import Foundation

            func read(_ process: Process) {
                let output = Pipe()
                let descriptor = output.fileHandleForReading.fileDescriptor
                _ = \(opening)
                    _ = output.fileHandleForReading.readDataToEndOfFile()
                }
            }

            """
        let (root, file) = try Self.planted(body)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-mac-sdk.py", [file])
        #expect(result.status == 1, "not caught: \(opening)")
        #expect(result.stdout.contains("Planted.swift:7: sendable: `output`"), "\(result.stdout)")
        let fixed = body.replacingOccurrences(
            of: "output.fileHandleForReading.readDataToEndOfFile()",
            with: "FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()")
        try Data(fixed.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try Self.run("check-mac-sdk.py", [file]).status == 0)
    }

    /// (c) A var mutated only inside an OS-conditional #if (issue 50's `var signals`); mutated in
    /// every branch, or outside, it is fine.
    @Test func aVarMutatedOnlyOnOneOSIsCaught() throws {
        let body = """
            func signals() -> [Int32] {
                var signals: [Int32] = [2, 15]
                #if canImport(Glibc)
                    signals += [29]
                #endif
                return signals
            }

            """
        let (root, file) = try Self.planted(body)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-mac-sdk.py", [file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Planted.swift:2: os-only-var: `signals`"), "\(result.stdout)")
        for fine in [
            body.replacingOccurrences(of: "    #endif", with: "    #else\n        signals += [23]\n    #endif"),
            body.replacingOccurrences(of: "    return signals", with: "    signals.append(1)\n    return signals"),
        ] {
            try Data(fine.utf8).write(to: URL(fileURLWithPath: file))
            let allowed = try Self.run("check-mac-sdk.py", [file])
            #expect(allowed.status == 0, "\(fine): \(allowed.stdout)")
        }
    }

    /// (d) Test code naming Linux userland in a string literal, outside a Linux #if.
    @Test(arguments: [
        #"let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)"#,
        #"let full = FileHandle(forWritingAtPath: "/dev/full")"#,
        #"process.arguments = ["--default-signal", binary]"#,
        #"let sum = try ExternalTool.run("/usr/bin/sha256sum", [path])"#,
        #"let loader = "/usr/share/bash-completion/bash_completion""#,
        #"let index = home.appendingPathComponent(".cache/symbolicate/xcode-dsyms.json")"#,
    ])
    func linuxUserlandInATestStringIsCaught(line: String) throws {
        let (root, file) = try Self.planted("import Foundation\n\nfunc f() throws {\n    \(line)\n}\n", folder: "Tests")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-linux-only.py", [file])
        #expect(result.status == 1, "not caught: \(line)")
        #expect(result.stdout.contains("Planted.swift:4: a test names Linux userland"), "\(result.stdout)")
        // In a Linux branch it is what Linux has: allowed.
        try Data("#if os(Linux)\n    \(line)\n#endif\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try Self.run("check-linux-only.py", [file]).status == 0)
    }

    /// A copy of the files check-release-files.py reads, with `change` applied to one of them.
    static func releaseFiles(_ path: String, _ change: (String) -> String) throws -> URL {
        let root = try TestPaths.temporaryDirectory("release-files")
        for file in [
            "Package.swift", "Formula/symbolicate.rb", ".github/workflows/macos.yml", ".github/workflows/release.yml", "README.md",
            "action.yml", "scripts/github-action.sh", "scripts/release.sh", "Dockerfile", ".dockerignore",
        ] {
            let target = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            var text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(file), encoding: .utf8)
            if file == path { text = change(text) }
            try Data(text.utf8).write(to: target)
        }
        return root
    }

    /// Each disagreement the release-files check exists for, planted in a copy: caught, named.
    @Test(arguments: [
        ("Package.swift", ".macOS(.v15)", ".macOS(.v14)", "depends_on macos: :sequoia"),
        ("Formula/symbolicate.rb", "depends_on macos: :sequoia", "depends_on macos: :sonoma", "Package.swift's floor is macOS 15"),
        ("Formula/symbolicate.rb", "homepage REPOSITORY", "homepage \"https://github.com/OWNER/symbolicate\"", "stated once"),
        (".github/workflows/macos.yml", "runs-on: macos-26", "runs-on: macos-14", "older than"),
        (".github/workflows/macos.yml", "run: make test\n", "run: swift test\n", "does not run `make test`"),
        (".github/workflows/macos.yml", "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683", "actions/checkout@v4", "not pinned"),
        (".github/workflows/release.yml", "- arch: aarch64", "- arch: arm64", "builds"),
        ("scripts/release.sh", "name=\"symbolicate-$version-linux-$arch\"", "name=\"symbolicate-$version-$arch\"", "scripts/release.sh"),
        (
            "scripts/github-action.sh", "echo \"symbolicate-$1-linux-$2.tar.gz\"", "echo \"symbolicate-$1-$2.tar.gz\"",
            "scripts/github-action.sh"
        ),
        ("action.yml", "${{ github.action_repository }}", "OWNER/symbolicate", "action.yml"),
        ("Dockerfile", "COPY dist/symbolicate-*-linux-*.tar.gz", "COPY dist/symbolicate-linux.tar.gz", "does not match what make release"),
        ("Dockerfile", "FROM debian:bookworm-slim", "FROM debian:bullseye-slim", "older than the release's glibc"),
        ("Dockerfile", "aarch64|arm64) arch=aarch64", "arm64) arch=arm64", "no step for aarch64"),
        (".dockerignore", "!dist/symbolicate-*-linux-*.tar.gz", "!dist/other", "leaves"),
        ("README.md", "docker run --rm -v \"$PWD:/data\" -w /data", "docker run IMAGE", "docker run"),
    ])
    func aDisagreementBetweenShippingFilesIsCaught(path: String, original: String, planted: String, says: String) throws {
        let root = try Self.releaseFiles(path) { text in
            #expect(text.contains(original), "\(path) no longer contains \(original)")
            return text.replacingOccurrences(of: original, with: planted)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run("check-release-files.py", ["--root", root.path])
        #expect(result.status == 1, "not caught: \(path): \(planted)")
        #expect(result.stdout.contains(says), "\(result.stdout)")
        let untouched = try Self.releaseFiles("", { $0 })
        defer { try? FileManager.default.removeItem(at: untouched) }
        #expect(try Self.run("check-release-files.py", ["--root", untouched.path]).status == 0)
    }

    /// Every tarball release.yml and the Action name is the one scripts/release.sh writes, for
    /// the version the binary prints: checked against the built binary's --version.
    @Test func releaseNamesFollowTheBinarysVersion() throws {
        let version = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let action = try String(contentsOf: Self.scripts.appendingPathComponent("github-action.sh"), encoding: .utf8)
        let release = try String(contentsOf: Self.scripts.appendingPathComponent("release.sh"), encoding: .utf8)
        #expect(release.contains("version=\"$(\"$bin\" --version)\""))
        #expect(action.contains("release_name \"${tag#v}\" \"$arch\""))
        // The name both build for this version, as release.yml checks it.
        let script = "release_name() { echo \"symbolicate-$1-linux-$2.tar.gz\"; }; release_name \"${1#v}\" x86_64"
        let named = try CLI.run(["-c", script, "sh", "v\(version)"], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(named.stdout == "symbolicate-\(version)-linux-x86_64.tar.gz\n")
    }
}
