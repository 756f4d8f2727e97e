import Foundation
import MCP
import SymbolicateAudit
import SymbolicateCore
import SymbolicateJSON
import SymbolicatePipeline
import SymbolicateSymbolStore
import SymbolicateSystemSymbols

/// The tools `symbolicate mcp` offers and how each is answered: by the same library request
/// the CLI makes, in its JSON output, so an agent gets what `symbolicate … --format json`
/// prints. Every path is checked by `AllowedFolders` first.
public struct Toolbox: Sendable {
    public let allowed: AllowedFolders
    /// The most bytes one answer holds; a longer one is cut at a line end and says so.
    public let maxAnswerBytes: Int

    public init(allowed: AllowedFolders, maxAnswerBytes: Int = 256 * 1024) {
        self.allowed = allowed
        self.maxAnswerBytes = max(1024, maxAnswerBytes)
    }

    /// One tool's answer: texts (the output first) and whether it is an error.
    public struct Answer: Sendable, Equatable {
        public var texts: [String]
        public var isError: Bool
    }

    // MARK: The tools

    private static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }

    private static func string(_ description: String) -> Value { ["type": "string", "description": .string(description)] }
    private static func strings(_ description: String) -> Value {
        ["type": "array", "items": ["type": "string"], "description": .string(description)]
    }
    private static func flag(_ description: String) -> Value { ["type": "boolean", "description": .string(description)] }

    private static let reportProperties: [String: Value] = [
        "report": string("Path of the crash report (.crash, .ips, KSCrash, Sentry, MetricKit, log…), inside an allowed folder."),
        "text": string("The crash report's text itself, instead of a path."),
        "debug_files": strings("dSYM bundles, DWARF or Mach-O files, folders, .xcarchive or .zip files, inside the allowed folders."),
    ]

    public static let tools: [Tool] = [
        Tool(
            name: "symbolicate",
            description:
                "Symbolicate a crash report with its debug files; answers `symbolicate REPORT DEBUG_FILES --format json` (function, file and line of every frame).",
            inputSchema: object(
                reportProperties.merging([
                    "explain": flag("Put the plain-language diagnosis in the answer (--explain)."),
                    "crashed_only": flag("Only the crashed thread (--crashed-only)."),
                    "scrub": flag("Replace user names, device and incident ids, e-mail and IP addresses (--scrub)."),
                ]) { $1 }),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "explain",
            description:
                "Explain a crash term (EXC_BAD_ACCESS, 0x8badf00d…) or diagnose a report: meaning, evidence, likely causes, next steps; answers `symbolicate explain … --format json`.",
            inputSchema: object(reportProperties.merging(["term": string("A term to explain instead of a report.")]) { $1 }),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "atos",
            description:
                "Look up addresses in a debug file as Apple's atos does; answers `symbolicate atos -o DEBUG_FILE --json ADDRESSES`.",
            inputSchema: object(
                [
                    "debug_file": string("The dSYM bundle, DWARF file, ELF debug file or binary with symbols."),
                    "addresses": strings("Addresses in hex."),
                    "load_address": string("Load address of the image (addresses are then runtime addresses), -l."),
                    "slide": string("Slide of the image, -s."),
                    "arch": string("The slice of a universal file (arm64, x86_64…)."),
                    "inlined_frames": flag("Inlined frames too, innermost first (-i)."),
                    "offsets": flag("Addresses are offsets from the start of the image (--offset)."),
                ], required: ["debug_file", "addresses"]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "audit",
            description:
                "Check that every binary of a build (.xcarchive, .ipa, .app, folder) has its debug information; answers `symbolicate audit BUILD --format json`.",
            inputSchema: object(
                [
                    "build": string("The .xcarchive, .ipa, .app or folder."),
                    "debug_files": strings("Debug files besides the build's own."),
                    "require": string("Which binaries must be complete: app, app+extensions or all (default)."),
                ], required: ["build"]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "store_lookup",
            description:
                "Look up a debug file by UUID or build ID in a debug-file store (the folder `symbolicate serve --store` keeps); answers its entry as JSON, as serve's GET /v1/debug-files/ID.",
            inputSchema: object(
                ["store": string("The store's folder."), "id": string("A UUID or build ID in hex.")], required: ["store", "id"]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "scrub",
            description:
                "Replace user names in paths, device, incident and anonymous ids, UDIDs, e-mail and IP addresses in a report by placeholders; answers the scrubbed text (as `symbolicate scrub REPORT` prints it), then what was replaced as JSON (--report-json).",
            inputSchema: object(reportProperties.filter { $0.key != "debug_files" }),
            annotations: .init(readOnlyHint: true)),
    ]

    // MARK: Calls

    /// Answers one call; never throws: a refused path or a failed request is an error answer
    /// with the CLI's words.
    public func call(_ name: String, arguments: [String: Value]) -> Answer {
        do {
            switch name {
            case "symbolicate": return try symbolicate(arguments)
            case "explain": return try explain(arguments)
            case "atos": return try atos(arguments)
            case "audit": return try audit(arguments)
            case "store_lookup": return try storeLookup(arguments)
            case "scrub": return try scrub(arguments)
            default:
                return Answer(
                    texts: ["unknown tool \(name); the tools are \(Self.tools.map(\.name).joined(separator: ", "))"], isError: true)
            }
        } catch let error as MCPPathError {
            return Answer(texts: [error.description], isError: true)
        } catch let error as ToolArgumentError {
            return Answer(texts: [error.message], isError: true)
        } catch {
            return Answer(texts: ["\(error)"], isError: true)
        }
    }

    private func path(_ arguments: [String: Value], _ key: String) throws -> String? {
        guard let value = arguments[key] else { return nil }
        guard let text = value.stringValue else { throw ToolArgumentError("\(key) is a path (a string)") }
        return try allowed.resolve(text)
    }

    private func paths(_ arguments: [String: Value], _ key: String) throws -> [String] {
        guard let value = arguments[key] else { return [] }
        guard let items = value.arrayValue else { throw ToolArgumentError("\(key) is a list of paths") }
        return try items.map { item in
            guard let text = item.stringValue else { throw ToolArgumentError("\(key) is a list of paths (strings)") }
            return try allowed.resolve(text)
        }
    }

    private func string(_ arguments: [String: Value], _ key: String) throws -> String? {
        guard let value = arguments[key] else { return nil }
        guard let text = value.stringValue else { throw ToolArgumentError("\(key) is a string") }
        return text
    }

    private func flag(_ arguments: [String: Value], _ key: String) throws -> Bool {
        guard let value = arguments[key] else { return false }
        guard let flag = value.boolValue else { throw ToolArgumentError("\(key) is true or false") }
        return flag
    }

    /// The report named by `report` (a path) or given as `text`, exactly one of them.
    private func reportSource(_ arguments: [String: Value]) throws -> ReportSource {
        let path = try self.path(arguments, "report")
        let text = try string(arguments, "text")
        switch (path, text) {
        case (let path?, nil): return .file(path)
        case (nil, let text?): return .bytes(Data(text.utf8), name: "report")
        default: throw ToolArgumentError("give the report as a path (report) or as text (text), one of them")
        }
    }

    private func symbolicate(_ arguments: [String: Value]) throws -> Answer {
        var request = ReportRequest(
            report: try reportSource(arguments), debugFiles: try paths(arguments, "debug_files"), searchesNearReport: false,
            explain: try flag(arguments, "explain"), format: .json, crashedOnly: try flag(arguments, "crashed_only"),
            systemSymbols: SystemSymbols(places: SystemSymbols.environmentPlaces()))
        request.scrub = try flag(arguments, "scrub")
        let response = request.run()
        return answer(output: response.output, messages: response.messages, status: response.status)
    }

    private func explain(_ arguments: [String: Value]) throws -> Answer {
        let subject: ExplainRequest.Subject
        if let term = try string(arguments, "term") {
            guard arguments["report"] == nil, arguments["text"] == nil else {
                throw ToolArgumentError("give a term or a report, not both")
            }
            subject = .term(term)
        } else {
            subject = .report(try reportSource(arguments), debugFiles: try paths(arguments, "debug_files"))
        }
        let request = ExplainRequest(
            subject: subject, format: .json, systemSymbols: SystemSymbols(places: SystemSymbols.environmentPlaces()))
        let response = request.run()
        // An unknown term still answers its near matches (the CLI's exit 1).
        return answer(output: response.output, messages: response.messages, status: response.status == .failed ? .success : response.status)
    }

    private func atos(_ arguments: [String: Value]) throws -> Answer {
        guard let debugFile = try path(arguments, "debug_file") else { throw ToolArgumentError("debug_file is required") }
        guard let items = arguments["addresses"]?.arrayValue else { throw ToolArgumentError("addresses is a list of hex addresses") }
        let addresses = try items.map { item in
            guard let text = item.stringValue else { throw ToolArgumentError("addresses are strings (hex)") }
            return text
        }
        var request = AtosRequest(
            debugFile: debugFile, architecture: try string(arguments, "arch"), loadAddress: try string(arguments, "load_address"),
            inlinedFrames: try flag(arguments, "inlined_frames"), offsets: try flag(arguments, "offsets"), json: true,
            addresses: addresses, systemSymbols: SystemSymbols(places: SystemSymbols.environmentPlaces()))
        request.slide = try string(arguments, "slide")
        let response = request.run()
        return answer(output: response.output, messages: response.messages, status: response.status)
    }

    private func audit(_ arguments: [String: Value]) throws -> Answer {
        guard let build = try path(arguments, "build") else { throw ToolArgumentError("build is required") }
        var requirement = AuditRequirement.all
        if let text = try string(arguments, "require") {
            guard let value = AuditRequirement(rawValue: text) else { throw ToolArgumentError("require is app, app+extensions or all") }
            requirement = value
        }
        let request = AuditRequest(build: build, debugFiles: try paths(arguments, "debug_files"), requirement: requirement, format: .json)
        let response = request.run()
        // An incomplete build is an answer (the CLI's exit 1), not an error.
        return answer(
            output: response.standardOutput, messages: response.messages, status: response.status == .failed ? .success : response.status)
    }

    private func storeLookup(_ arguments: [String: Value]) throws -> Answer {
        guard let store = try self.path(arguments, "store") else { throw ToolArgumentError("store is required") }
        guard let text = try string(arguments, "id"), text.count <= 80, let id = DebugID(parsing: text) else {
            throw ToolArgumentError("id is a UUID or a build ID in hex")
        }
        guard FileManager.default.fileExists(atPath: store + "/" + DebugFileStore.indexName) else {
            throw ToolArgumentError("\(store): not a debug-file store (no \(DebugFileStore.indexName))")
        }
        let opened: DebugFileStore
        do { opened = try DebugFileStore(root: store) } catch { throw ToolArgumentError("\(error)") }
        guard let file = opened.info(for: id) else { return Answer(texts: ["\(id) is not in the store"], isError: true) }
        return Answer(texts: [bounded((OutputJSON.text(file) ?? "{}") + "\n")], isError: false)
    }

    private func scrub(_ arguments: [String: Value]) throws -> Answer {
        if let path = try self.path(arguments, "report") {
            guard arguments["text"] == nil else {
                throw ToolArgumentError("give the report as a path (report) or as text (text), one of them")
            }
            let response = ScrubRequest(files: [path]).run()
            guard response.status == .success, let output = response.standardOutput else {
                return Answer(texts: response.messages.map(\.body), isError: true)
            }
            return Answer(texts: [bounded(output), response.reportJSON()], isError: false)
        }
        guard let text = try string(arguments, "text") else {
            throw ToolArgumentError("give the report as a path (report) or as text (text), one of them")
        }
        let response = ScrubRequest.scrub(text: text, name: "report")
        return Answer(texts: [bounded(response.standardOutput ?? ""), response.reportJSON()], isError: false)
    }

    // MARK: Answers

    /// The output, bounded; the run's messages after it (warnings, what was missing); an error
    /// when the run failed, with the messages that say why.
    private func answer(output: String?, messages: [some RunMessage], status: ExitStatus) -> Answer {
        let words = messages.map { $0.text(tool: "symbolicate") }.joined()
        guard status == .success, let output else {
            return Answer(texts: [words.isEmpty ? "failed (exit status \(status.rawValue))" : words], isError: true)
        }
        return Answer(texts: [bounded(output)] + (words.isEmpty ? [] : [words]), isError: false)
    }

    /// `text` when it fits in `maxAnswerBytes`, else its first lines that fit and a last line
    /// saying it was cut, how much was left out and how to ask for less.
    func bounded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > maxAnswerBytes else { return text }
        var end = maxAnswerBytes
        while end > 0, bytes[end - 1] != 0x0A { end -= 1 }
        if end == 0 {
            end = maxAnswerBytes
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a UTF-8 sequence
        }
        let kept = String(decoding: bytes[..<end], as: UTF8.self)
        return kept + (kept.hasSuffix("\n") ? "" : "\n")
            + "[truncated by symbolicate mcp: \(end) of \(bytes.count) bytes shown (--max-answer-bytes \(maxAnswerBytes)); ask for less, e.g. crashed_only]\n"
    }
}

/// An argument of the wrong type or a missing one.
struct ToolArgumentError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
