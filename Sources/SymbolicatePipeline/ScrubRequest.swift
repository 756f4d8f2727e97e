import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateJSON
import SymbolicatePresentation
import SymbolicateScrub

/// One `scrub` run, as data: which files, where the scrubbed texts go, where the report of
/// what was replaced goes. `run()` prints nothing, so the CLI and a server give the same bytes.
public struct ScrubRequest: Sendable {
    public enum Destination: Sendable, Equatable {
        /// Returned in `ScrubResponse.standardOutput` (one file only).
        case standardOutput
        /// Written atomically to this file (one file only).
        case file(String)
        /// Each file written atomically into this folder under its own name.
        case folder(String)
        /// Each file replaced atomically by its scrubbed text (`--in-place`).
        case inPlace
    }

    public var files: [String]
    public var destination: Destination
    /// Where the JSON report of what was replaced is written (atomically), if anywhere.
    public var reportJSON: String?

    public init(files: [String], destination: Destination = .standardOutput, reportJSON: String? = nil) {
        self.files = files
        self.destination = destination
        self.reportJSON = reportJSON
    }

    /// The scrubbed text of one report already in memory, with what was replaced. Used by
    /// servers (the MCP `scrub` tool) that are handed text, not a file.
    /// The scrubbed text is the response's `standardOutput`.
    public static func scrub(text: String, name: String) -> ScrubResponse {
        let reports = (try? CrashReport.parseAll(data: Data(text.utf8), path: name)) ?? []
        var scrubber = Scrubber()
        var response = ScrubResponse()
        response.standardOutput = scrubber.scrub(text, context: ScrubContext(reports: reports))
        response.tally = scrubber.tally
        response.files = [ScrubbedFile(path: name, output: nil, kinds: scrubber.tally.kinds)]
        if reports.isEmpty { response.messages.append(.notAReport(path: name)) }
        response.messages.append(.summary(scrubber.tally))
        return response
    }

    public func run() -> ScrubResponse {
        var response = ScrubResponse()
        if files.isEmpty { return response.fail(.usage("give at least one file to scrub")) }
        switch destination {
        case .standardOutput where files.count > 1, .file where files.count > 1:
            return response.fail(.usage("\(files.count) files give \(files.count) outputs: name a folder (--output-dir) or use --in-place"))
        default: break
        }
        let guardInputs = OutputGuard(inputs: files)
        if let reportJSON, let input = guardInputs.input(replacedBy: reportJSON) {
            return response.fail(.outputReplacesInput(output: reportJSON, input: input))
        }
        var scrubber = Scrubber()
        var texts: [(path: String, output: String?, text: String)] = []
        for path in files {
            let text: String
            let reports: [CrashReport]
            do {
                let data = try CrashReport.read(contentsOf: path)
                text = try CrashReport.decodedText(data: data, path: path)
                // Reading as a report only tells which identities to keep; a text no reader
                // knows is still scrubbed, with a word that none could be protected.
                do { reports = try CrashReport.parseAll(data: data, path: path) } catch {
                    reports = []
                    response.messages.append(.notAReport(path: path))
                }
            } catch {
                return response.fail(.unreadable(error))
            }
            let before = scrubber.tally
            let scrubbed = scrubber.scrub(text, context: ScrubContext(reports: reports))
            let output: String?
            switch destination {
            case .standardOutput: output = nil
            case .file(let out): output = out
            case .folder(let folder): output = folder + "/" + URL(fileURLWithPath: path).lastPathComponent
            case .inPlace: output = path
            }
            if let output, destination != .inPlace, let input = guardInputs.input(replacedBy: output) {
                return response.fail(.outputReplacesInput(output: output, input: input))
            }
            response.files.append(ScrubbedFile(path: path, output: output, kinds: scrubber.tally.since(before).kinds))
            texts.append((path, output, scrubbed))
        }
        if case .folder(let folder) = destination {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                return response.fail(.cannotWrite(path: folder, reason: error.localizedDescription))
            }
        }
        // Every file read and scrubbed before any is written: a bad input leaves nothing half done.
        for (_, output, text) in texts {
            guard let output else {
                response.standardOutput = text
                continue
            }
            do { try writeAtomically(text, to: output) } catch {
                return response.fail(.cannotWrite(path: output, reason: error.localizedDescription))
            }
        }
        response.tally = scrubber.tally
        if let reportJSON {
            do { try writeAtomically(response.reportJSON(), to: reportJSON) } catch {
                return response.fail(.cannotWrite(path: reportJSON, reason: error.localizedDescription))
            }
        }
        response.messages.append(.summary(scrubber.tally))
        return response
    }
}

/// One file of a scrub run: where it went and what was replaced in it.
public struct ScrubbedFile: Sendable, Codable, Equatable {
    public var path: String
    /// nil: standard output.
    public var output: String?
    public var kinds: [ScrubTally.Entry]
}

/// What a `scrub` run produced.
public struct ScrubResponse: Sendable {
    public var messages: [ScrubMessage] = []
    public var files: [ScrubbedFile] = []
    public var tally = ScrubTally()
    /// The scrubbed text when it goes to standard output.
    public var standardOutput: String?
    public var status: ExitStatus = .success

    public init() {}

    mutating func fail(_ failure: ScrubFailure) -> ScrubResponse {
        messages.append(.failure(failure))
        status = failure.exitStatus
        standardOutput = nil
        return self
    }

    /// The report of what was replaced (`--report-json`): per file and in all, kinds with
    /// distinct values and occurrences. Never the values themselves.
    public func reportJSON() -> String {
        struct Report: Encodable {
            var replacements: Int
            var kinds: [ScrubTally.Entry]
            var files: [ScrubbedFile]
        }
        return (OutputJSON.text(Report(replacements: tally.replacements, kinds: tally.kinds, files: files)) ?? "{}") + "\n"
    }
}

/// Why a scrub run stopped.
public enum ScrubFailure: Sendable, Equatable {
    case usage(String)
    case unreadable(CrashReportError)
    case outputReplacesInput(output: String, input: String)
    case cannotWrite(path: String, reason: String)

    var exitStatus: ExitStatus {
        switch self {
        case .usage, .outputReplacesInput: return .usage
        case .unreadable: return .invalidInput
        case .cannotWrite: return .cannotWrite
        }
    }
}

/// What a scrub run tells besides its output.
public enum ScrubMessage: RunMessage {
    case failure(ScrubFailure)
    /// The file is text but no reader knows it: scrubbed without knowing which identities to keep.
    case notAReport(path: String)
    case summary(ScrubTally)

    public var severity: MessageSeverity {
        switch self {
        case .failure: return .error
        case .notAReport: return .warning
        case .summary: return .note
        }
    }

    public var body: String {
        switch self {
        case .failure(.usage(let text)): return text
        case .failure(.unreadable(let error)): return error.description
        case .failure(.outputReplacesInput(let output, let input)):
            return "\(output): the output would replace the input \(input) (scrub in place only with --in-place)"
        case .failure(.cannotWrite(let path, let reason)): return "\(path): cannot write: \(reason)"
        case .notAReport(let path):
            return "\(path): not a report any reader knows; scrubbed, but no binary identity could be recognised to keep"
        case .summary(let tally): return tally.summary
        }
    }
}
