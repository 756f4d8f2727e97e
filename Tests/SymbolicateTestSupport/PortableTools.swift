import Foundation

/// The same test on Linux and macOS: what the tests need from the userland, spelled so that
/// both have it (issue 50: GNU `env --default-signal`, `/usr/bin/sha256sum`, `/dev/full` and
/// Debian's bash-completion path are Linux's alone).
public enum PortableTools {
    /// Runs `executable` with every catchable signal at its default action, whatever this test
    /// process ignores (a signal ignored here stays ignored across `exec`, as it should for a
    /// user's shell). Perl is in both userlands (Debian's perl-base is essential); GNU's
    /// `env --default-signal` is not on macOS.
    public static func withDefaultSignals(_ executable: String, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        let script =
            #"for (keys %SIG) { $SIG{$_} = "DEFAULT" unless /^(KILL|STOP)$/ || /^__/ } exec { $ARGV[0] } @ARGV or die "cannot run $ARGV[0]: $!\n""#
        return (URL(fileURLWithPath: "/usr/bin/perl"), ["-e", script, executable] + arguments)
    }

    /// A device whose every write fails with ENOSPC: Linux's `/dev/full`. macOS has none, so
    /// the tests that need one are skipped there, saying so.
    public static let fullDevice: String? = FileManager.default.fileExists(atPath: "/dev/full") ? "/dev/full" : nil  // guarded: probed

    /// The lowercase hex SHA-256 of a file, as `sha256sum` (GNU) or `shasum -a 256` (macOS's
    /// Perl tool) prints it: an independent digest to compare the store's with.
    public static func sha256(ofFile path: String) throws -> String? {
        let output: String
        if let gnu = ExternalTool.find("sha256sum") {
            output = try ExternalTool.run(gnu, [path])
        } else if let shasum = ExternalTool.find("shasum") {
            output = try ExternalTool.run(shasum, ["-a", "256", path])
        } else {
            return nil
        }
        return output.split(separator: " ").first.map(String.init)
    }

    /// bash-completion's loader: Debian's, else Homebrew's `bash-completion@2` (Apple silicon,
    /// then Intel prefix); nil when neither is installed.
    public static var bashCompletionLoader: String? {
        [
            "/usr/share/bash-completion/bash_completion", "/opt/homebrew/share/bash-completion/bash_completion",  // guarded: probed
            "/usr/local/share/bash-completion/bash_completion",
        ].first { FileManager.default.fileExists(atPath: $0) }
    }
}
