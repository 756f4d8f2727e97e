import ArgumentParser
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
        try history.validate(sourceRoot: sourceRoot)
    }

    /// The provider for the run; nil without --source-root.
    func provider() throws -> SourceContextProvider? {
        try sourceRoot.map { try history.provider(root: $0) }
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

    func validate(sourceRoot: String?) throws {
        if sourceRoot == nil, isGiven {
            throw ValidationError("--source-path-map, --context, --commit and --tag-pattern go with --source-root DIR")
        }
        if let context, context < 0 || context > 1000 { throw ValidationError("--context takes a number of lines from 0 to 1000") }
        do { _ = try SourcePathMap(arguments: sourcePathMap) } catch { throw ValidationError(error.message) }
    }

    /// The provider for a checkout.
    func provider(root: String) throws -> SourceContextProvider {
        var options = SourceContextOptions(root: root)
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
