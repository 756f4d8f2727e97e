import Foundation
import SymbolicateTestSupport
import Testing

/// `make install PREFIX=…` into a scratch prefix with the binary under test: the files land in
/// the conventional folders, `man -M PREFIX/share/man symbolicate` shows the page with the
/// binary's version, bash completion completes subcommands, options and option values, and
/// `make uninstall` removes every file again.
@Suite(.serialized, .tags(.launchesBinary)) struct InstallTests {
    /// bash from PATH first: macOS's /bin/bash is 3.2, older than bash-completion 2 supports
    /// (Homebrew's bash comes first on a Mac that has it).
    static let bash = URL(fileURLWithPath: ExternalTool.find("bash") ?? "/bin/bash")
    static let installed = [
        "bin/symbolicate",
        "share/man/man1/symbolicate.1",
        "share/bash-completion/completions/symbolicate",
        "share/zsh/site-functions/_symbolicate",
        "share/fish/vendor_completions.d/symbolicate.fish",
    ]

    /// A fresh prefix with symbolicate installed by the Makefile; removed by the caller.
    static func install() throws -> URL {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let result = try CLI.run(
            ["-c", "make install PREFIX=\"$1\" SYMBOLICATE_BIN=\"$2\"", "install", prefix.path, CLI.binary.path],
            currentDirectory: TestPaths.packageRoot, executable: bash)
        #expect(result.status == 0, "make install failed: \(result.stderr)")
        return prefix
    }

    @Test func installPutsEveryFileInItsConventionalFolderAndUninstallRemovesThem() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        for file in Self.installed {
            let path = prefix.appendingPathComponent(file).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0, "make install did not write \(file) below PREFIX")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/symbolicate").path))
        let version = try CLI.run(["--version"], executable: prefix.appendingPathComponent("bin/symbolicate"))
        #expect(version.status == 0)

        let result = try CLI.run(
            ["-c", "make uninstall PREFIX=\"$1\"", "uninstall", prefix.path],
            currentDirectory: TestPaths.packageRoot, executable: Self.bash)
        #expect(result.status == 0, "make uninstall failed: \(result.stderr)")
        for file in Self.installed {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "make uninstall left \(file)")
        }
    }

    @Test func manFindsThePageBelowThePrefix() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let version = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let man = try CLI.run(
            ["-c", "man -M \"$1/share/man\" symbolicate", "man", prefix.path],
            environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8"],
            executable: Self.bash)
        #expect(
            man.status == 0, "man -M PREFIX/share/man symbolicate failed (is man-db installed? scripts/setup.sh installs it): \(man.stderr)"
        )
        // macOS's man (mandoc) writes bold and underline as overstrikes (`N\bN`) even into a pipe.
        let text = man.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        #expect(text.contains("SYMBOLICATE(1)"))
        #expect(text.contains("NAME"))
        #expect(text.contains("symbolicate \(version)"), "the man page footer does not carry `symbolicate --version` (\(version))")
    }

    /// Asks the installed bash completion what it offers after `words` (the last one is the
    /// word being completed), as bash does on TAB.
    static func complete(_ words: [String], prefix: URL) throws -> [String] {
        let script = """
            source "$1/share/bash-completion/completions/symbolicate"
            shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
            COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            _symbolicate symbolicate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try CLI.run(
            ["-c", script, "complete", prefix.path] + words,
            environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"],
            executable: bash)
        #expect(result.status == 0, "completion script failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func bashCompletionOffersSubcommandsOptionsAndValues() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try Self.complete(["symbolicate", "ba"], prefix: prefix) == ["batch"])
        #expect(try Self.complete(["symbolicate", "batch", "--fail"], prefix: prefix).contains("--fail-on"))
        #expect(
            try Self.complete(["symbolicate", "batch", "--fail-on", ""], prefix: prefix)
                == ["never", "crash", "unsymbolicated", "missing-dsym"])
        #expect(try Self.complete(["symbolicate", "report", "--format", "j"], prefix: prefix) == ["json"])
    }

    /// bash-completion (Debian's package, Homebrew's bash-completion@2) loads completions on demand from
    /// `DIR/bash-completion/completions/NAME` for each DIR in XDG_DATA_DIRS, which is where
    /// `make install` writes it (`/usr/local/share` is on the default list).
    @Test func bashCompletionLoaderFindsTheInstalledScript() throws {
        let loader = try #require(
            PortableTools.bashCompletionLoader,
            "bash-completion is missing: scripts/setup.sh installs it for the tests (Debian; Homebrew: bash-completion@2)")
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let result = try CLI.run(
            ["-c", "source \(loader); __load_completion symbolicate && complete -p symbolicate", "load"],
            environment: ["XDG_DATA_DIRS": prefix.appendingPathComponent("share").path],
            executable: Self.bash)
        #expect(result.status == 0, "bash-completion did not load the installed script: \(result.stderr)")
        #expect(result.stdout.contains("-F _symbolicate symbolicate"))
    }
}
