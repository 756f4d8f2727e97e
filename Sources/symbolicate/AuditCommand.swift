import ArgumentParser
import SymbolicateAudit
import SymbolicateDiscovery
import SymbolicatePipeline

/// `symbolicate audit`: before a build ships, whether every binary in it can be symbolicated.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check that every binary of a build (.xcarchive, .ipa, .app, folder) has its debug information, before it ships.",
        discussion: """
            Every Mach-O in BUILD (the app, each extension, App Clip and watch app, each framework \
            and dylib, each architecture slice) is matched by UUID with the debug files: the \
            build's own (an archive's dSYMs folder, .dSYM bundles inside a folder), DSYMS and \
            SYMBOLICATE_DSYM_PATH. Each slice is reported as: ok (a dSYM with DWARF; renamed when \
            its file has another name), hidden names (bitcode __hidden# names, the BCSymbolMaps \
            are needed), names only (no DWARF: the binary's own symbol table), other build (a dSYM \
            of the same name with another UUID), missing (stripped, no dSYM anywhere), no UUID, \
            Apple's (a libswift*.dylib Swift runtime copy, install name @rpath/libswift*.dylib: \
            needs no dSYM), or unreadable (damaged, or left in an .ipa by the unpack limit: always \
            fails), ok (debug map: no dSYM, but the object files its debug map names are here, \
            as linked) or objects missing. Headers only are read.

            --collect and --collect-zip copy each matching dSYM; a slice with only a debug map, \
            its objects all here, is linked into a dSYM by dsymutil (--dsymutil PATH, else the \
            newest dsymutil-N on PATH, else dsymutil), which is used only when its UUID is the \
            binary's and it answers as the debug map does. A debug-mapped slice that cannot be \
            collected (no dsymutil, objects missing or changed, the link failed) is named with \
            the reason in the table and the JSON, and fails the run when --require asks for it.

            Exit codes: 0 everything --require asks for is complete; 1 a required binary cannot \
            be fully symbolicated (or, collecting, its debug map could not be linked); 64 an output would replace an input; 65 BUILD or a DSYMS path \
            is missing or unreadable; 73 the JUnit file or a collected dSYM cannot be written.
            """
    )

    @Argument(help: "The build: an .xcarchive, an .ipa, an .app (iOS, macOS, watchOS) or a folder.")
    var build: String

    @Argument(help: "Debug files besides the build's own: dSYM bundles, DWARF files, folders, .xcarchive or .zip files.")
    var debugFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "Which binaries must have their debug information for exit 0: app (the app, App Clip and watch app executables), app+extensions (and each .appex), all (everything not Apple's).",
            valueName: "app|app+extensions|all"))
    var require: AuditRequirement = .all

    @Option(help: "Output on stdout: text (a table), json or markdown (for $GITHUB_STEP_SUMMARY).")
    var format: AuditFormat = .text

    @Option(help: "Also write a JUnit XML file: one test case per slice, failed when required and incomplete.")
    var junit: String?

    @Flag(help: "Also print a GitHub Actions ::error annotation per failing slice (::warning for incomplete ones not required).")
    var githubAnnotations = false

    @Option(help: "Copy exactly the matching dSYMs into this folder, one <UUID>.dSYM bundle per UUID (written atomically).")
    var collect: String?

    @Option(help: "The same bundles as one zip file (for App Store Connect or a crash service).")
    var collectZip: String?

    @Option(
        help: ArgumentHelp(
            "The DWARF linker --collect runs for a binary with only a debug map (default: the newest dsymutil-N on PATH, else dsymutil).",
            valueName: "PATH"))
    var dsymutil: String?

    @OptionGroup var color: ColorOption<AuditCommand>

    @OptionGroup var symbolSources: SymbolSourceOptions

    @OptionGroup var objectPaths: ObjectPathMapOption

    func validate() throws {
        if dsymutil != nil, collect == nil, collectZip == nil {
            throw ValidationError("--dsymutil is used only with --collect or --collect-zip")
        }
    }

    func run() throws {
        var request = AuditRequest(
            build: build, debugFiles: debugFiles, searchFolders: DebugFileIndex.extraSearchFolders(), requirement: require,
            format: format, junit: junit, githubAnnotations: githubAnnotations, collectFolder: collect, collectZip: collectZip)
        request.color = color.color
        request.terminal = .current
        request.terminalWidth = Console.terminalColumns()
        request.remoteDebugFiles = try symbolSources.sources()
        request.objectPathMap = objectPaths.objectPathMap
        request.dsymutil = dsymutil
        let response = request.run()
        try Console.finish(response.messages, standardOutput: response.standardOutput, status: response.status)
    }
}

extension AuditCommand: ColorHelp {
    static let colorHelp =
        "Colour the table's verdicts (green complete, red failing, yellow not required): auto, always or never (NO_COLOR is honoured). On a terminal the table also fits its width, paths shortened in the middle."
}

extension AuditRequirement: ExpressibleByArgument {}
extension AuditFormat: ExpressibleByArgument {}
