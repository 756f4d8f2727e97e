import ArgumentParser
import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateSymbolication

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
        var load: UInt64?
        if let loadAddress {
            guard let value = AtosSymbolicator.parseAddress(loadAddress) else {
                throw ValidationError("-l: not a hex address: \(loadAddress)")
            }
            load = value
        }
        if load != nil && offsets {
            throw ValidationError("-l and --offset cannot be used together")
        }
        var tokens = addresses
        if tokens.isEmpty {
            let data: Data?
            if let addressFile {
                data = FileManager.default.contents(atPath: addressFile)
                if data == nil {
                    FileHandle.standardError.write(Data("symbolicate atos: cannot read \(addressFile)\n".utf8))
                    throw Exit.invalidInput
                }
            } else {
                data = FileHandle.standardInput.readDataToEndOfFile()
            }
            // Split bytes, not Characters: thousands of addresses per call must be cheap.
            tokens = [UInt8](data ?? Data())
                .split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x2C })
                .map { String(decoding: $0, as: UTF8.self) }
        }
        var id: DebugID?
        if let uuid {
            guard let parsed = DebugID(parsing: uuid) else { throw ValidationError("--uuid: not a UUID or build ID: \(uuid)") }
            id = parsed
        }
        let session: any DebugLookup
        if let debugFile {
            do {
                session = try DebugFile.open(path: debugFile, id: id, architecture: arch.map(Architecture.init))
            } catch {
                FileHandle.standardError.write(Data("symbolicate atos: \(error)\n".utf8))
                throw Exit.invalidInput
            }
        } else {
            // An Apple library: found by UUID in the system symbols given (no report, so no OS
            // to choose Xcode's folder by).
            let systemSymbols = system.systemSymbols()
            guard let id, !systemSymbols.explicitPlaces.isEmpty else {
                throw ValidationError("give -o DEBUG_FILE, or --uuid with --system-symbols (or SYMBOLICATE_SYSTEM_SYMBOLS)")
            }
            let found = systemSymbols.image(id: id, architecture: arch.map(Architecture.init), os: nil)
            for line in systemSymbols.takeMessages() { FileHandle.standardError.write(Data("symbolicate atos: \(line)\n".utf8)) }
            guard let found else {
                FileHandle.standardError.write(
                    Data("symbolicate atos: no image with UUID \(id) in \(systemSymbols.explicitPlaces.joined(separator: ", "))\n".utf8))
                throw Exit.invalidInput
            }
            session = found.lookup
        }
        let symbolicator = AtosSymbolicator(
            session: session,
            options: .init(
                loadAddress: load, offsets: offsets, inlinedFrames: inlinedFrames, fullPath: fullPath, json: json
            ))
        let (output, warnings) = symbolicator.symbolicate(tokens)
        for warning in warnings {
            FileHandle.standardError.write(Data("symbolicate atos: warning: \(warning)\n".utf8))
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
