import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateSourceContext
import SymbolicateTestSupport
import Testing

/// Source context against real git repositories made in the test, for the fixture report
/// `swift-trap.crash` symbolicated with the fixture dSYMs (compile path
/// `/src/CrashApp/Profile.swift`, line 28).
@Suite("Source context")
struct SourceContextTests {
    static let report = TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash").path

    /// The report, symbolicated, with the context from `options`.
    static func context(_ options: SourceContextOptions) throws -> (SourceContext, SourceContextProvider) {
        let provider = try SourceContextProvider(options: options)
        var request = ReportRequest(report: .file(report), debugFiles: [TestPaths.dsyms], searchesNearReport: false)
        request.sourceContext = provider
        let response = request.run()
        let context = try #require(response.reports.first?.sourceContext)
        return (context, provider)
    }

    static func crashing(_ context: SourceContext) throws -> FrameSource {
        try #require(context.frames.first { $0.crashing })
    }

    @Test("the shipped tag's lines, blame at it, and the change made after it, across a moved folder")
    func history() throws {
        let (checkout, commits) = try FixtureSources.history("history")
        defer { checkout.remove() }
        let (context, _) = try Self.context(SourceContextOptions(root: checkout.path))
        #expect(context.shipped.commit == commits[1])
        #expect(context.shipped.tag == "v1.0")
        let frame = try Self.crashing(context)
        #expect(frame.file == "/src/CrashApp/Profile.swift")
        #expect(frame.line == FixtureSources.crashLine)
        // Read at the shipped commit, where the folder had not moved yet.
        #expect(frame.path == "CrashApp/Profile.swift")
        let shipped = try FixtureSources.text("Profile.swift").components(separatedBy: "\n")
        #expect(frame.lines.map(\.number) == Array(25...30))
        #expect(frame.lines.map(\.text) == Array(shipped[24...29]))
        #expect(frame.lines.filter(\.marked).map(\.number) == [28])
        #expect(frame.lastChange?.commit == commits[1])
        #expect(frame.lastChange?.summary == "Require the identifier field")
        #expect(frame.lastChange?.author == "Ada Example")
        #expect(frame.lastChange?.date == "2024-02-01T10:00:00+09:00")
        #expect(frame.lastChange?.boundary == false)
        #expect(frame.sinceBuild == SinceBuild(changed: true, commit: commits[2], subject: "Do not trap on a missing field"))
        #expect(frame.permalink == "https://github.com/example/CrashApp/blob/\(commits[1])/CrashApp/Profile.swift#L28")
    }

    @Test("a file renamed after the build: same line, unchanged since")
    func renamedFile() throws {
        let checkout = try GitCheckout.make("rename")
        defer { checkout.remove() }
        try checkout.write("CrashApp/Profile.swift", try FixtureSources.text("Profile.swift"))
        let shipped = try checkout.commit("Add the profile scanner", date: "2024-01-01T10:00:00+0900")
        try checkout.git("tag", "1.0")
        try checkout.git("mv", "CrashApp/Profile.swift", "CrashApp/ProfileScanner.swift")
        try checkout.commit("Rename the scanner's file", date: "2024-02-01T10:00:00+0900")
        let (context, _) = try Self.context(SourceContextOptions(root: checkout.path))
        #expect(context.shipped.commit == shipped)
        let frame = try Self.crashing(context)
        #expect(frame.path == "CrashApp/Profile.swift")
        #expect(frame.lastChange?.commit == shipped)
        #expect(frame.sinceBuild == SinceBuild(changed: false))
    }

    @Test("--commit names the build; a commit that is not there is said, never guessed")
    func givenCommit() throws {
        let (checkout, commits) = try FixtureSources.history("commit")
        defer { checkout.remove() }
        var options = SourceContextOptions(root: checkout.path)
        options.commit = String(commits[0].prefix(12))
        let (first, _) = try Self.context(options)
        #expect(first.shipped.commit == commits[0])
        #expect(try Self.crashing(first).lines.first { $0.marked }?.text == "        return value ?? 0")
        options.commit = "0123456789abcdef0123456789abcdef01234567"
        let (missing, _) = try Self.context(options)
        #expect(missing.shipped.commit == nil)
        #expect(missing.shipped.problem == .commitNotFound)
        // Lines as the work tree has them now (the moved folder), no history.
        let frame = try Self.crashing(missing)
        #expect(frame.path == "Sources/CrashApp/Profile.swift")
        #expect(frame.lines.first { $0.marked }?.text == "        return value ?? -1")
        #expect(frame.lastChange == nil && frame.sinceBuild == nil && frame.permalink == nil)
    }

    @Test("no tag for the version: said, with lines from the work tree and no history")
    func noTag() throws {
        let (checkout, _) = try FixtureSources.history("notag")
        defer { checkout.remove() }
        try checkout.git("tag", "-d", "v1.0")
        let (context, _) = try Self.context(SourceContextOptions(root: checkout.path))
        #expect(context.shipped.problem == .noMatchingTag)
        #expect(context.shipped.commit == nil)
        #expect(try Self.crashing(context).lastChange == nil)
    }

    @Test("--tag-pattern with {version} and {build}")
    func tagPattern() throws {
        let (checkout, commits) = try FixtureSources.history("pattern")
        defer { checkout.remove() }
        try checkout.git("tag", "release/1.0-1", commits[2])
        var options = SourceContextOptions(root: checkout.path)
        options.tagPattern = "release/{version}-{build}"
        let (context, _) = try Self.context(options)
        #expect(context.shipped.commit == commits[2])
        #expect(context.shipped.tag == "release/1.0-1")
        #expect(try Self.crashing(context).sinceBuild?.changed == false)
    }

    @Test("a shallow clone: the tag is not there (said); at HEAD, blame stops at the clone's boundary")
    func shallowClone() throws {
        let (origin, commits) = try FixtureSources.history("shallow-origin")
        defer { origin.remove() }
        let clone = try GitCheckout.make("shallow", initialise: false)
        defer { clone.remove() }
        try GitCheckout.run(["clone", "-q", "--depth", "1", "file://" + origin.path, clone.path + "/repo"])
        let root = clone.path + "/repo"
        let (context, _) = try Self.context(SourceContextOptions(root: root))
        #expect(context.shipped.problem == .noMatchingTag)
        #expect(context.shipped.detail?.contains("shallow clone") == true)
        let frame = try Self.crashing(context)
        #expect(frame.path == "Sources/CrashApp/Profile.swift")
        #expect(frame.lines.first { $0.marked }?.text == "        return value ?? -1")
        var options = SourceContextOptions(root: root)
        options.commit = "HEAD"
        let (atHead, _) = try Self.context(options)
        #expect(atHead.shipped.commit == commits[3])
        let head = try Self.crashing(atHead)
        #expect(head.lastChange?.commit == commits[3])
        #expect(head.lastChange?.boundary == true)
        #expect(head.sinceBuild == SinceBuild(changed: false))
        options.commit = commits[1]
        let (old, _) = try Self.context(options)
        #expect(old.shipped.problem == .commitNotFound)
        #expect(old.shipped.detail?.contains("shallow") == true)
    }

    @Test("no git at all: the lines as the files are, no history")
    func noRepository() throws {
        let folder = try GitCheckout.make("plain", initialise: false)
        defer { folder.remove() }
        try folder.write("app/CrashApp/Profile.swift", try FixtureSources.text("Profile.swift"))
        var options = SourceContextOptions(root: folder.path + "/app")
        options.before = 1
        options.after = 1
        let (context, provider) = try Self.context(options)
        // The premise is a folder outside every work tree. A temporary folder inside one (the
        // Mac-shaped lane keeps TMPDIR under the clone's .build-libdwarf-current) is read as part
        // of that enclosing checkout, as git itself does; then only that is checked.
        if GitCheckout.isInsideWorkTree(folder.path) {
            #expect(context.shipped.problem != .notARepository)
        } else {
            #expect(context.shipped.problem == .notARepository)
        }
        let frame = try Self.crashing(context)
        #expect(frame.lines.map(\.number) == [27, 28, 29])
        #expect(frame.lastChange == nil && frame.sinceBuild == nil)
        #expect(provider.counter.count("blame") == 0)
    }

    @Test("files not in the checkout are said once each, with the paths tried")
    func missingFiles() throws {
        let folder = try GitCheckout.make("missing", initialise: false)
        defer { folder.remove() }
        try folder.write("Other/Readme.txt", "nothing here\n")
        let (context, _) = try Self.context(SourceContextOptions(root: folder.path))
        #expect(context.frames.isEmpty)
        let profile = context.missing.filter { $0.file == "/src/CrashApp/Profile.swift" }
        #expect(profile.count == 1)
        #expect(
            profile.first?.tried == [
                folder.path + "/src/CrashApp/Profile.swift", folder.path + "/CrashApp/Profile.swift", folder.path + "/Profile.swift",
            ])
        #expect(Set(context.missing.map(\.file)).count == context.missing.count)
    }

    @Test("--source-path-map sends a compile prefix elsewhere in the checkout")
    func pathMap() throws {
        let folder = try GitCheckout.make("map", initialise: false)
        defer { folder.remove() }
        try folder.write("ios/App/Profile.swift", try FixtureSources.text("Profile.swift"))
        var options = SourceContextOptions(root: folder.path)
        options.pathMap = try SourcePathMap(arguments: ["/src/CrashApp=ios/App"])
        let (context, _) = try Self.context(options)
        #expect(try Self.crashing(context).path == "ios/App/Profile.swift")
        #expect(throws: SourcePathMap.ParseError.notOldEqualsNew("/src")) { try SourcePathMap(arguments: ["/src"]) }
    }

    @Test("a symlink leading out of the checkout, and a folder reached through one, are never read")
    func symlinksOut() throws {
        let folder = try GitCheckout.make("links", initialise: false)
        defer { folder.remove() }
        try folder.write("outside/CrashApp/Profile.swift", try FixtureSources.text("Profile.swift"))
        try folder.write("outside/Profile.swift", "secret\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/root", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/root/CrashApp", withDestinationPath: folder.path + "/outside/CrashApp")
        let (context, _) = try Self.context(SourceContextOptions(root: folder.path + "/root"))
        let frame = try Self.crashing(context)
        #expect(frame.note?.kind == .outsideRoot)
        #expect(frame.lines.isEmpty)
        // A file symlink too, and `..` in a mapped path.
        try FileManager.default.removeItem(atPath: folder.path + "/root/CrashApp")
        try FileManager.default.createDirectory(atPath: folder.path + "/root/CrashApp", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/root/CrashApp/Profile.swift", withDestinationPath: folder.path + "/outside/Profile.swift")
        let (file, _) = try Self.context(SourceContextOptions(root: folder.path + "/root"))
        #expect(try Self.crashing(file).note?.kind == .outsideRoot)
        var options = SourceContextOptions(root: folder.path + "/root")
        options.pathMap = try SourcePathMap(arguments: ["/src=../outside"])
        let (climbed, _) = try Self.context(options)
        #expect(climbed.frames.allSatisfy { $0.lines.allSatisfy { !$0.text.contains("secret") } })
        #expect(climbed.frames.allSatisfy { $0.note?.kind != nil })
    }

    @Test("a file over 1 MiB and a file that is not UTF-8 are a note, not read")
    func largeAndBinary() throws {
        let folder = try GitCheckout.make("large", initialise: false)
        defer { folder.remove() }
        try folder.write("CrashApp/Profile.swift", String(repeating: "// padding line\n", count: 70_000))
        let (large, _) = try Self.context(SourceContextOptions(root: folder.path))
        #expect(try Self.crashing(large).note?.kind == .tooLarge)
        #expect(try Self.crashing(large).lines.isEmpty)
        try Data([0x2F, 0x2F, 0xFF, 0xFE, 0x0A]).write(to: folder.folder.appendingPathComponent("CrashApp/Profile.swift"))
        let (binary, _) = try Self.context(SourceContextOptions(root: folder.path))
        #expect(try Self.crashing(binary).note?.kind == .notUTF8)
    }

    @Test("one blame and one reverse blame per distinct line, however many reports name it")
    func cachedPerLine() throws {
        let (checkout, _) = try FixtureSources.history("cache")
        defer { checkout.remove() }
        let provider = try SourceContextProvider(options: SourceContextOptions(root: checkout.path))
        var request = ReportRequest(report: .file(Self.report), debugFiles: [TestPaths.dsyms], searchesNearReport: false)
        request.sourceContext = provider
        let first = try #require(request.run().reports.first?.sourceContext)
        let blames = provider.counter.count("blame")
        #expect(blames == 2 * Set(first.frames.filter { !$0.lines.isEmpty }.map { "\($0.path ?? ""):\($0.line)" }).count)
        for _ in 0..<3 { _ = request.run() }
        #expect(provider.counter.count("blame") == blames)
        #expect(provider.counter.count("ls-tree") == 1)
    }

    @Test("permalinks for GitHub, GitLab, Bitbucket and Gitea remotes in https, ssh and scp-like forms")
    func permalinks() {
        let sha = "0123456789abcdef0123456789abcdef01234567"
        let cases: [(String, String?)] = [
            ("https://github.com/acme/app.git", "https://github.com/acme/app/blob/\(sha)/Sources/A%20B.swift#L7"),
            ("git@github.com:acme/app.git", "https://github.com/acme/app/blob/\(sha)/Sources/A%20B.swift#L7"),
            ("ssh://git@github.com/acme/app", "https://github.com/acme/app/blob/\(sha)/Sources/A%20B.swift#L7"),
            ("https://user:token@gitlab.com/group/sub/app.git", "https://gitlab.com/group/sub/app/-/blob/\(sha)/Sources/A%20B.swift#L7"),
            (
                "ssh://git@gitlab.example.com:2222/group/app.git",
                "https://gitlab.example.com/group/app/-/blob/\(sha)/Sources/A%20B.swift#L7"
            ),
            ("git@bitbucket.org:acme/app.git", "https://bitbucket.org/acme/app/src/\(sha)/Sources/A%20B.swift#lines-7"),
            ("https://gitea.example.org/acme/app.git", "https://gitea.example.org/acme/app/src/commit/\(sha)/Sources/A%20B.swift#L7"),
            ("https://codeberg.org/acme/app", "https://codeberg.org/acme/app/src/commit/\(sha)/Sources/A%20B.swift#L7"),
            ("https://git.example.com/acme/app.git", nil),
            ("/srv/git/app.git", nil),
        ]
        for (remote, expected) in cases {
            #expect(Permalink(remote: remote)?.link(commit: sha, file: "Sources/A B.swift", line: 7) == expected, "\(remote)")
        }
    }

    @Test("tags of a version: any prefix, with the build preferred; different commits are ambiguous")
    func tagMatching() throws {
        let version = try #require(ShippedCommitFinder.Version("1.2.3 (45)"))
        #expect(version.version == "1.2.3" && version.build == "45")
        #expect(ShippedCommitFinder.matching(["v1.2.3", "1.2.30", "v1.2.3.1", "1.2.3-beta"], version) == ["v1.2.3"])
        #expect(ShippedCommitFinder.matching(["v1.2.3", "1.2.3+45", "release-1.2.3(45)"], version) == ["1.2.3+45", "release-1.2.3(45)"])
        let (checkout, commits) = try FixtureSources.history("ambiguous")
        defer { checkout.remove() }
        try checkout.git("tag", "1.0", commits[0])
        let (context, _) = try Self.context(SourceContextOptions(root: checkout.path))
        #expect(context.shipped.problem == .ambiguousTags)
        #expect(context.shipped.detail == "1.0, v1.0")
    }
}
