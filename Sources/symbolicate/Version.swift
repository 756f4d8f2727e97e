/// The release version, written only here. `--version` prints it, and `make release` and
/// `make install` ask the built binary for it (tarball name, man page footer), so a release
/// cannot carry two different numbers.
enum SymbolicateVersion {
    static let current = "0.1.0"
}
