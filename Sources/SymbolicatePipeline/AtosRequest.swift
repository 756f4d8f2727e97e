import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// One `atos` run: Apple's atos on any platform. Addresses come from `addresses`, else from
/// `addressFile`, else from `standardInput` (called only then, so a caller with addresses
/// never blocks on a terminal).
public struct AtosRequest: Sendable {
    /// `-o`; nil looks the `--uuid` image up in `systemSymbols` (an Apple library).
    public var debugFile: String?
    /// `-arch`: the slice of a universal file.
    public var architecture: String?
    /// `--uuid`: the slice, by identity.
    public var uuid: String?
    /// `-l`: the image's load address (hex), as given.
    public var loadAddress: String?
    /// `-s`: the image's slide (hex), as given: addresses are runtime addresses.
    public var slide: String?
    public var inlinedFrames: Bool
    public var offsets: Bool
    public var fullPath: Bool
    public var json: Bool
    public var addresses: [String]
    public var addressFile: String?
    public var standardInput: @Sendable () -> Data
    /// Where an Apple library is found by `--uuid` when there is no `debugFile`.
    public var systemSymbols: SystemSymbols?
    /// Where the object files a binary's debug map names may have moved (`--object-path-map`).
    public var objectPathMap = ObjectPathMap()
    /// Symbol servers, debuginfod, dsymForUUID and their cache, asked for `--uuid` without
    /// `-o` before system symbols; nil asks nobody.
    package var remoteDebugFiles: (any RemoteDebugFiles)?

    public init(
        debugFile: String?, architecture: String? = nil, uuid: String? = nil, loadAddress: String? = nil, inlinedFrames: Bool = false,
        offsets: Bool = false, fullPath: Bool = false, json: Bool = false, addresses: [String] = [], addressFile: String? = nil,
        standardInput: @escaping @Sendable () -> Data = { Data() }, systemSymbols: SystemSymbols? = nil
    ) {
        self.systemSymbols = systemSymbols
        self.debugFile = debugFile
        self.architecture = architecture
        self.uuid = uuid
        self.loadAddress = loadAddress
        self.inlinedFrames = inlinedFrames
        self.offsets = offsets
        self.fullPath = fullPath
        self.json = json
        self.addresses = addresses
        self.addressFile = addressFile
        self.standardInput = standardInput
    }

    /// The symbolicator's options, or why the arguments make none.
    package func options() -> Result<AtosSymbolicator.Options, AtosFailure> {
        var load: UInt64?
        if let loadAddress {
            guard let value = AtosSymbolicator.parseAddress(loadAddress) else {
                return .failure(.invalidArgument("-l: not a hex address: \(loadAddress)"))
            }
            load = value
        }
        if load != nil && offsets { return .failure(.invalidArgument("-l and --offset cannot be used together")) }
        var slideValue: UInt64?
        if let slide {
            guard let value = AtosSymbolicator.parseAddress(slide) else {
                return .failure(.invalidArgument("-s: not a hex slide: \(slide)"))
            }
            guard load == nil && !offsets else { return .failure(.invalidArgument("-s cannot be used with -l or --offset")) }
            slideValue = value
        }
        return .success(
            .init(loadAddress: load, offsets: offsets, inlinedFrames: inlinedFrames, fullPath: fullPath, json: json, slide: slideValue))
    }

    /// Whitespace- or comma-separated tokens of the arguments, the file or standard input.
    func tokens() -> Result<[String], AtosFailure> {
        guard addresses.isEmpty else { return .success(addresses) }
        let data: Data
        if let addressFile {
            guard let contents = FileManager.default.contents(atPath: addressFile) else {
                return .failure(.cannotReadAddresses(path: addressFile))
            }
            data = contents
        } else {
            data = standardInput()
        }
        // Split bytes, not Characters: thousands of addresses per call must be cheap.
        return .success(
            [UInt8](data).split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x2C })
                .map { String(decoding: $0, as: UTF8.self) })
    }

    /// Runs the request; never throws and never prints.
    public func run() -> AtosResponse {
        var response = AtosResponse()
        let options: AtosSymbolicator.Options
        let tokens: [String]
        var id: DebugID?
        do throws(AtosFailure) {
            options = try self.options().get()
            tokens = try self.tokens().get()
            if let uuid {
                guard let parsed = DebugID(parsing: uuid) else { throw .invalidArgument("--uuid: not a UUID or build ID: \(uuid)") }
                id = parsed
            }
        } catch {
            return response.fail(error)
        }
        var session: any DebugLookup
        var imageName: String?
        if let debugFile {
            // The same discovery, header reading and opening as a report's debug files.
            do {
                let named = try NamedDebugFile(path: debugFile)
                response.messages += named.problems.map(AtosMessage.debugFileProblem)
                session = try named.open(id: id, architecture: architecture.map(Architecture.init), objectPathMap: objectPathMap)
            } catch {
                return response.fail(.cannotOpen(error))
            }
            // A binary without DWARF (its symbol table only, or a debug map to object files):
            // its debug file from a symbol source, asked by the binary's identity and name
            // (`{name}` is the file's name); a dSYM found wins over the debug map.
            if !session.hasDWARF || session is DebugMapLookup, let binaryID = session.debugID {
                let name = (debugFile as NSString).lastPathComponent
                if case .success(let fetched)? = fetched(binaryID, name: name, into: &response) {
                    session = fetched.lookup
                    imageName = name
                }
            }
        } else if let id, let fetched = fetched(id, name: nil, into: &response) {
            // Symbol servers, debuginfod, dsymForUUID or their cache had it.
            switch fetched {
            case .success(let found):
                session = found.lookup
                imageName = found.imageName
            case .failure(let error): return response.fail(.cannotOpen(error))
            }
        } else {
            // An Apple library, by UUID, in the system symbols given (there is no report, so
            // no OS to choose Xcode's folder by).
            guard let id, let systemSymbols, !systemSymbols.explicitPlaces.isEmpty else {
                if let id, remoteDebugFiles != nil {
                    return response.fail(.cannotOpen(DebugInfoError(path: "--uuid", message: "no symbol source has \(id)")))
                }
                return response.fail(
                    .invalidArgument(
                        "give -o DEBUG_FILE, or --uuid with --system-symbols (or SYMBOLICATE_SYSTEM_SYMBOLS) or a symbol source (--symbol-server, DEBUGINFOD_URLS, --dsym-for-uuid)"
                    ))
            }
            let found = systemSymbols.image(id: id, architecture: architecture.map(Architecture.init), os: nil)
            response.messages += systemSymbols.takeMessages().map(AtosMessage.systemSymbols)
            guard let found else {
                let places = systemSymbols.explicitPlaces.joined(separator: ", ")
                return response.fail(.cannotOpen(DebugInfoError(path: places, message: "no image with UUID \(id)")))
            }
            session = found.lookup
        }
        let (output, warnings) = AtosSymbolicator(session: session, options: options, imageName: imageName).symbolicate(tokens)
        response.messages += warnings.map(AtosMessage.warning)
        response.output = output
        return response
    }
}

extension AtosRequest {
    /// The image `id` from a remote source, opened, with the name to print for it (the one
    /// recorded with a cached file, whose own name is `debug`); nil when none has it.
    /// - Parameters:
    ///   - id: the identity.
    ///   - name: the image's file name (`-o`'s), or nil when nobody gave one (`--uuid` alone):
    ///     URL templates with `{name}` are then not asked.
    ///   - response: where the sources' messages go.
    /// - Returns: the opened debug file and its image name, why it cannot be opened, or nil.
    private func fetched(
        _ id: DebugID, name: String?, into response: inout AtosResponse
    ) -> Result<(lookup: any DebugLookup, imageName: String?), DebugInfoError>? {
        guard let remoteDebugFiles else { return nil }
        let wanted = WantedDebugFile(
            id: id, architecture: architecture.map(Architecture.init), name: name ?? id.description, isAppImage: true,
            nameIsKnown: name != nil)
        let entries = remoteDebugFiles.entries(for: wanted)
        response.messages += remoteDebugFiles.takeMessages().map(AtosMessage.symbolSources)
        guard let entry = entries.first else { return nil }
        do { return .success((try entry.openSession(), name ?? entry.imageName)) } catch { return .failure(error) }
    }
}

/// Why an atos run stopped.
public enum AtosFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The arguments make no request (`-l` not hex, `-l` with `--offset`, a bad `--uuid`):
    /// the CLI reports these as usage errors, with the usage text.
    case invalidArgument(String)
    /// `-f FILE` cannot be read.
    case cannotReadAddresses(path: String)
    /// The debug file cannot be opened, or has no slice for the request.
    case cannotOpen(DebugInfoError)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidArgument: return .usage
        case .cannotReadAddresses, .cannotOpen: return .invalidInput
        }
    }

    public var description: String {
        switch self {
        case .invalidArgument(let message): return message
        case .cannotReadAddresses(let path): return "cannot read \(path)"
        case .cannotOpen(let error): return error.description
        }
    }
}

/// What atos tells the user besides its output.
public enum AtosMessage: RunMessage, Equatable {
    case warning(AtosWarning)
    /// A file in the `-o` bundle that was skipped (a FIFO, a damaged file beside good ones).
    case debugFileProblem(DebugFileProblem)
    /// What a `--system-symbols` place held (its own `warning:` when it is one).
    case systemSymbols(String)
    /// What symbol servers, debuginfod, dsymForUUID or the cache said (its own `warning:`).
    case symbolSources(String)
    case failure(AtosFailure)

    public var severity: MessageSeverity {
        switch self {
        case .warning, .debugFileProblem: return .warning
        case .systemSymbols, .symbolSources: return .plain
        // atos's own errors carry no label, as they always have.
        case .failure: return .plain
        }
    }

    public var body: String {
        switch self {
        case .warning(let warning): return warning.description
        case .debugFileProblem(let problem): return problem.description
        case .systemSymbols(let line), .symbolSources(let line): return line
        case .failure(let failure): return failure.description
        }
    }
}

/// What an atos run produced.
public struct AtosResponse: Sendable {
    public var messages: [AtosMessage] = []
    /// One block (or JSON line) per address, in input order; nil when the run stopped first.
    public var output: String?
    public var status: ExitStatus = .success

    public init() {}

    public var failure: AtosFailure? {
        for case .failure(let failure) in messages.reversed() { return failure }
        return nil
    }

    mutating func fail(_ failure: AtosFailure) -> AtosResponse {
        messages.append(.failure(failure))
        status = failure.exitStatus
        return self
    }
}
