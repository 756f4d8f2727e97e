import ArgumentParser
import Foundation
import SymbolicateSourceContext

/// `--source-root` and its companions, shared by `report`, `explain` and `serve`: the lines
/// around the crashing frames in a checkout, and their history from git.
struct SourceContextOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A checkout of the app's sources: show the lines around the crashing frame and the first app frames, with the commit that last changed each line and whether it changed since the build (from git, when the folder is in a git work tree).",
            valueName: "DIR"))
    var sourceRoot: String?

    @OptionGroup var history: SourceHistoryOptions

    func validate() throws {
        // A root may still be found (report, explain); serve checks `provider(discovery: nil)`.
        try history.validate(sourceRoot: sourceRoot ?? "")
    }

    /// The provider for the run: --source-root, else, with `discovery` (report, explain and
    /// batch; not serve, whose folder is no user's checkout) and unless it says no,
    /// `$SYMBOLICATE_SOURCE_ROOT` or the git work tree of the current directory.
    func provider(discovery: SourceDiscoveryFlag?) throws -> SourceContextProvider? {
        if let sourceRoot {
            try discovery?.check(sourceRoot: sourceRoot)
            return try history.provider(root: sourceRoot)
        }
        guard let discovery, !discovery.noSourceRoot else {
            try history.validate(sourceRoot: nil)
            return nil
        }
        return try history.discoveredProvider()
    }
}

/// `--no-source-root`: the commands that look for the sources in the current directory's git
/// work tree when no `--source-root` is given.
struct SourceDiscoveryFlag: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Without --source-root, the git work tree of the current directory (or $SYMBOLICATE_SOURCE_ROOT) gives the lines of the frames whose files it holds: this turns that off."
        ))
    var noSourceRoot = false

    /// `--no-source-root` with `--source-root DIR` is a contradiction (report, explain, batch).
    func check(sourceRoot: String?) throws {
        if noSourceRoot, sourceRoot != nil { throw ValidationError("--no-source-root and --source-root DIR: give one") }
    }
}

/// The companions of `--source-root` (`batch` has its own `--source-root`, which also strips
/// the folder from annotation paths).
struct SourceHistoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With --source-root: look for compile paths under OLD under NEW (repeatable; else the longest suffix of the compile path that is in the checkout).",
            valueName: "OLD=NEW"))
    var sourcePathMap: [String] = []

    @Option(help: ArgumentHelp("With --source-root: lines shown before and after each line (default 3 before, 2 after).", valueName: "N"))
    var context: Int?

    @Option(
        help: ArgumentHelp(
            "With --source-root: the commit the build shipped from (else the tag of the report's app version: v1.2.3, 1.2.3, 1.2.3+45…).",
            valueName: "SHA"))
    var commit: String?

    @Option(
        help: ArgumentHelp(
            "With --source-root: the tag of a version, {version} and {build} standing for the report's (e.g. release/{version}-{build}).",
            valueName: "PATTERN"))
    var tagPattern: String?

    /// Any of the options was given.
    var isGiven: Bool { !sourcePathMap.isEmpty || context != nil || commit != nil || tagPattern != nil }

    /// `sourceRoot` is nil when there is none and none will be looked for ("" when one may be).
    func validate(sourceRoot: String?) throws {
        if sourceRoot == nil, isGiven {
            throw ValidationError("--source-path-map, --context, --commit and --tag-pattern go with --source-root DIR")
        }
        if let context, context < 0 || context > 1000 { throw ValidationError("--context takes a number of lines from 0 to 1000") }
        do { _ = try SourcePathMap(arguments: sourcePathMap) } catch { throw ValidationError(error.message) }
    }

    /// The provider for a checkout.
    func provider(root: String) throws -> SourceContextProvider {
        try provider(options: SourceContextOptions(root: root))
    }

    /// `$SYMBOLICATE_SOURCE_ROOT` (a checkout; `none` for no source lines; empty is unset), else
    /// the git work tree of the current directory, taken only for reports that name a file in it
    /// (`SourceContextOptions.discovered`); nil when there is neither.
    func discoveredProvider() throws -> SourceContextProvider? {
        let variable = ProcessInfo.processInfo.environment[Self.variable] ?? ""
        if variable == "none" {
            try validate(sourceRoot: nil)
            return nil
        }
        if !variable.isEmpty {
            do { return try provider(root: variable) } catch { throw ValidationError("\(Self.variable)=\(variable): \(error)") }
        }
        guard let options = SourceContextOptions.discovered(from: FileManager.default.currentDirectoryPath) else {
            if isGiven {
                throw ValidationError(
                    "--source-path-map, --context, --commit and --tag-pattern go with --source-root DIR (the current directory is in no git work tree)"
                )
            }
            return nil
        }
        return try provider(options: options)
    }

    static let variable = "SYMBOLICATE_SOURCE_ROOT"

    private func provider(options given: SourceContextOptions) throws -> SourceContextProvider {
        var options = given
        do { options.pathMap = try SourcePathMap(arguments: sourcePathMap) } catch { throw ValidationError(error.message) }
        if let context {
            options.before = context
            options.after = context
        }
        options.commit = commit
        options.tagPattern = tagPattern
        do { return try SourceContextProvider(options: options) } catch { throw ValidationError(error.message) }
    }
}
