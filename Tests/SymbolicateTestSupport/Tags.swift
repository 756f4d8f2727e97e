import Testing

extension Tag {
    /// Tests that launch the `symbolicate` binary (or a server process) or run a command end to end:
    /// seconds each on a busy machine. `swift test --skip-build --skip 'symbolicateCLITests'` leaves
    /// them out while iterating on a library; CI runs them all.
    @Tag public static var launchesBinary: Self
    /// Tests that start real servers on loopback (HTTP, PostgreSQL) or run many requests.
    @Tag public static var server: Self
}
