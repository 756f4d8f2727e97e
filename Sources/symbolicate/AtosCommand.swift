import ArgumentParser
import Foundation
import SymbolicatePipeline

/// `symbolicate atos`: Apple's atos on any platform, for scripts that already speak it.
struct AtosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atos",
        abstract: "Symbolicate addresses the way Apple's atos does.",
        discussion: """
            Addresses come from the arguments, else from -f FILE, else from standard input \
            (whitespace-separated, hex with or without 0x). Addresses nothing knows are \
            echoed back. atos's single-dash spellings -arch, -offset, -fullPath and \
            -inlineFrames are accepted. Without -o, --uuid picks an Apple library from \
            --system-symbols (a DeviceSupport folder or a dyld shared cache), or the debug file \
            of that identity from a symbol source; -l is then its load address in the process. \
            With -o naming a binary without DWARF and a symbol source configured, its debug file \
            is fetched by the binary's UUID and file name ({name} in a URL template).
            """
    )

    @Option(
        name: .customShort("o"),
        help: ArgumentHelp(
            "The dSYM bundle, DWARF file, ELF debug file or binary with symbols (or none: the system image of --uuid in --system-symbols).",
            valueName: "debug-file"))
    var debugFile: String?

    @OptionGroup var system: SystemSymbolOptions

    @OptionGroup var objectPaths: ObjectPathMapOption

    @OptionGroup var symbolSources: SymbolSourceOptions

    @Option(
        name: [.customLong("arch"), .customLong("arch", withSingleDash: true)],
        help: ArgumentHelp("The slice to use in a universal file (arm64, arm64e, x86_64, …).", valueName: "arch"))
    var arch: String?

    @Option(name: .customLong("uuid"), help: ArgumentHelp("The slice to use, by UUID.", valueName: "uuid"))
    var uuid: String?

    @Option(
        name: .customShort("l"), help: ArgumentHelp("Load address of the image; addresses are runtime addresses.", valueName: "address"))
    var loadAddress: String?

    @Option(
        name: .customShort("s"),
        help: ArgumentHelp(
            "Slide of the image (load address minus its linked address); addresses are runtime addresses.", valueName: "slide"))
    var slide: String?

    @Flag(
        name: [.customShort("i"), .customLong("inlineFrames", withSingleDash: true)],
        help: "Print inlined frames, innermost first, one line each.")
    var inlinedFrames = false

    @Flag(
        name: [.customLong("offset"), .customLong("offset", withSingleDash: true)],
        help: "Addresses are offsets from the start of the image.")
    var offsets = false

    @Flag(
        name: [.customLong("full-path"), .customLong("fullPath", withSingleDash: true)],
        help: "Print full source paths, not just file names.")
    var fullPath = false

    @Option(name: .customShort("f"), help: ArgumentHelp("Read addresses from this file.", valueName: "file"))
    var addressFile: String?

    @Flag(help: "One JSON object per address and line.")
    var json = false

    @Argument(help: "Addresses (hex).")
    var addresses: [String] = []

    func run() throws {
        var request = AtosRequest(
            debugFile: debugFile, architecture: arch, uuid: uuid, loadAddress: loadAddress, inlinedFrames: inlinedFrames,
            offsets: offsets, fullPath: fullPath, json: json, addresses: addresses, addressFile: addressFile,
            standardInput: { FileHandle.standardInput.readDataToEndOfFile() }, systemSymbols: system.systemSymbols())
        request.remoteDebugFiles = try symbolSources.sources()
        request.slide = slide
        request.objectPathMap = objectPaths.objectPathMap
        let response = request.run()
        // Arguments that make no request are usage errors, printed with the usage text.
        if case .invalidArgument(let message)? = response.failure { throw ValidationError(message) }
        try Console.finish(response.messages, standardOutput: response.output, status: response.status, tool: "symbolicate atos")
    }
}
