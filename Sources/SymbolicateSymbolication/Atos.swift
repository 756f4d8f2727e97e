import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateJSON

/// `atos`-compatible symbolication of addresses against one debug file slice.
///
/// Address arithmetic: with a load address, `fileAddress = address − load + textVMAddress`;
/// with `offsets`, each input is an offset from the image start, `fileAddress =
/// textVMAddress + offset`; otherwise inputs are file addresses already. Inputs come from the
/// command line, so both sums are checked: one past 2^64 is no address at all (a warning). Output always echoes the address as given.
package struct AtosSymbolicator: Sendable {
    package struct Options: Sendable {
        /// Runtime load address of the image (`-l`).
        package var loadAddress: UInt64?
        /// Inputs are offsets from the image's `__TEXT` start (`--offset`).
        package var offsets: Bool
        /// Print every inlined frame, innermost first (`-i`).
        package var inlinedFrames: Bool
        /// Print full source paths instead of basenames (`-fullPath`).
        package var fullPath: Bool
        /// One JSON object per input address and line (`--json`), for scripts.
        package var json: Bool
        /// How far the image was moved from its linked address (`-s`): addresses are runtime
        /// addresses, `fileAddress = address − slide`.
        package var slide: UInt64?

        package init(
            loadAddress: UInt64? = nil, offsets: Bool = false, inlinedFrames: Bool = false, fullPath: Bool = false, json: Bool = false,
            slide: UInt64? = nil
        ) {
            self.slide = slide
            self.loadAddress = loadAddress
            self.offsets = offsets
            self.inlinedFrames = inlinedFrames
            self.fullPath = fullPath
            self.json = json
        }
    }

    package let session: any DebugLookup
    package let options: Options
    /// Image name printed in `(in Image)`: the Mach-O file's name; for a separate ELF debug
    /// file (`app.debug`), the binary's name it was split from.
    package let imageName: String

    /// - Parameters:
    ///   - session: the debug information.
    ///   - options: the flags.
    ///   - imageName: the name to print when the file's own name is not the image's (a debug
    ///     file kept by identity in a cache, named `debug` there); nil takes the file's name.
    package init(session: any DebugLookup, options: Options, imageName: String? = nil) {
        self.session = session
        self.options = options
        let name = session.path.split(separator: "/").last.map(String.init) ?? session.path
        let isELFDebugFile = session.debugID?.kind == .buildID && name.hasSuffix(".debug") && name.count > 6
        self.imageName = imageName ?? (isELFDebugFile ? String(name.dropLast(6)) : name)
    }

    /// Parses an atos address: hex with or without `0x` (atos reads bare digits as hex).
    package static func parseAddress(_ token: String) -> UInt64? {
        var digits = Substring(token)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        return UInt64(digits, radix: 16)
    }

    /// The file address an input address stands for, or nil when it cannot be one
    /// (below the load address, or past 2^64 once moved to the file's `__TEXT`).
    package func fileAddress(for address: UInt64) -> UInt64? {
        if options.offsets { return checkedSum(session.linkedAddress, address) }
        if let slide = options.slide { return address >= slide ? address - slide : nil }
        if let load = options.loadAddress {
            guard address >= load else { return nil }
            return checkedSum(address - load, session.linkedAddress)
        }
        return address
    }

    private func checkedSum(_ a: UInt64, _ b: UInt64) -> UInt64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// Output for many input tokens, one block per token in input order.
    package func symbolicate(_ tokens: [String]) -> (output: String, warnings: [AtosWarning]) {
        let addresses = tokens.map(Self.parseAddress)
        let fileAddresses = addresses.map { $0.flatMap(fileAddress(for:)) }
        let wanted = fileAddresses.compactMap { $0 }
        let results = session.lookup(fileAddresses: wanted)
        var resultIterator = results.makeIterator()
        var output = ""
        output.reserveCapacity(tokens.count * 80)
        var warnings: [AtosWarning] = []
        var reported = Set<String>()
        for (token, fileAddress) in zip(tokens, fileAddresses) {
            let result: LookupResult? = fileAddress == nil ? nil : (resultIterator.next() ?? nil)
            if fileAddress == nil, let address = Self.parseAddress(token),
                options.offsets || options.loadAddress.map({ address >= $0 }) == true
            {
                warnings.append(.addressOverflow(token: token, linkedAddress: session.linkedAddress))
            }
            if let error = result?.dwarfError, reported.insert(error.description).inserted {
                warnings.append(.unreadableDebugInfo(error))
            }
            if options.json {
                output += jsonLine(token: token, result: result)
            } else {
                output += textLines(token: token, fileAddress: fileAddress, result: result)
            }
        }
        return (output, warnings)
    }

    private func displayFile(_ path: String) -> Substring {
        guard !options.fullPath, let slash = path.lastIndex(of: "/") else { return path[...] }
        return path[path.index(after: slash)...]
    }

    /// atos grammar: `function (in Image) (File.swift:42)` with DWARF line information,
    /// `function (in Image) + 12` without; an unknown address is echoed back.
    func textLines(token: String, fileAddress: UInt64?, result: LookupResult?) -> String {
        guard let fileAddress, let result, let concrete = result.frames.last else { return token + "\n" }
        var text = ""
        if options.inlinedFrames {
            for frame in result.frames {
                append(frame.function, frame.file, frame.line, frame.functionStart, fileAddress, to: &text)
            }
        } else {
            // Without -i atos names the concrete function and gives the line-table location
            // of the address (the innermost inlined code).
            let innermost = result.frames[0]
            append(concrete.function, innermost.file, innermost.line, concrete.functionStart, fileAddress, to: &text)
        }
        return text
    }

    private func append(_ function: String, _ file: String?, _ line: Int?, _ start: UInt64, _ fileAddress: UInt64, to text: inout String) {
        text += function
        text += " (in "
        text += imageName
        if let file, let line {
            text += ") ("
            text += displayFile(file)
            text += ":"
            text += String(line)
            text += ")\n"
        } else {
            text += ") + "
            text += String(fileAddress >= start ? fileAddress - start : 0)
            text += "\n"
        }
    }

    func jsonLine(token: String, result: LookupResult?) -> String {
        var text = "{\"address\":" + JSONValue.quoted(token) + ",\"frames\":["
        for (index, frame) in (result?.frames ?? []).enumerated() {
            if index > 0 { text += "," }
            text += "{\"function\":" + JSONValue.quoted(frame.function)
            if let file = frame.file { text += ",\"file\":" + JSONValue.quoted(file) }
            if let line = frame.line { text += ",\"line\":\(line)" }
            if let column = frame.column, column > 0 { text += ",\"column\":\(column)" }
            text += ",\"inlined\":\(frame.isInlined)}"
        }
        text += "]"
        if let result { text += ",\"source\":\"\(result.source == .dwarf ? "dwarf" : "symtab")\"" }
        return text + "}\n"
    }
}

/// Something atos printed unchanged or could not fully answer; the address is still echoed.
public enum AtosWarning: Sendable, Equatable, CustomStringConvertible {
    /// The address, once moved to the file's `__TEXT`, passes 2^64.
    case addressOverflow(token: String, linkedAddress: UInt64)
    /// The debug information could not be read where an address fell (said once per error).
    case unreadableDebugInfo(DebugInfoError)

    public var description: String {
        switch self {
        case .addressOverflow(let token, let linkedAddress):
            return
                "\(token): address moved to the file's __TEXT (vmaddr 0x\(String(linkedAddress, radix: 16))) passes 2^64; not a valid address, printed unchanged"
        case .unreadableDebugInfo(let error):
            return error.description
        }
    }
}
