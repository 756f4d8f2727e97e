import ArgumentParser

/// The exit codes other tools rely on (design.md §3).
enum Exit {
    /// The report was processed but something asked for failed.
    static let failed = ExitCode(1)
    /// Bad command line.
    static let usage = ExitCode(64)
    /// Unreadable or invalid input.
    static let invalidInput = ExitCode(65)
    /// An output file or folder could not be created or written (sysexits' EX_CANTCREAT).
    static let cannotWrite = ExitCode(73)
}
