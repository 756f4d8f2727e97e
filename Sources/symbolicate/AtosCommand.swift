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
            echoed back. atos's single-dash spellings -arch, -offset and -fullPath are accepted. \
            Without -o, --uuid picks an Apple library from --system-symbols (a DeviceSupport \
            folder or a dyld shared cache); -l is then its load address in the process.
            """
    )

    @Option(
        name: .customShort("o"),
        help:
            "The dSYM bundle, DWARF file, ELF debug file or binary with symbols (or none: the system image of --uuid in --system-symbols).")
    var debugFile: String?

    @OptionGroup var system: SystemSymbolOptions

    @OptionGroup var symbolSources: SymbolSourceOptions

    @Option(
        name: [.customLong("arch"), .customLong("arch", withSingleDash: true)],
        help: "The slice to use in a universal file (arm64, arm64e, x86_64, …).")
    var arch: String?

    @Option(name: .customLong("uuid"), help: "The slice to use, by UUID.")
    var uuid: String?

    @Option(name: .customShort("l"), help: "Load address of the image; addresses are runtime addresses.")
    var loadAddress: String?

    @Flag(name: .customShort("i"), help: "Print inlined frames, innermost first, one line each.")
    var inlinedFrames = false

    @Flag(
        name: [.customLong("offset"), .customLong("offset", withSingleDash: true)],
        help: "Addresses are offsets from the start of the image.")
    var offsets = false

    @Flag(
        name: [.customLong("full-path"), .customLong("fullPath", withSingleDash: true)],
        help: "Print full source paths, not just file names.")
    var fullPath = false

    @Option(name: .customShort("f"), help: "Read addresses from this file.")
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
        let response = request.run()
        // Arguments that make no request are usage errors, printed with the usage text.
        if case .invalidArgument(let message)? = response.failure { throw ValidationError(message) }
        try Console.finish(response.messages, standardOutput: response.output, status: response.status, tool: "symbolicate atos")
    }
}
