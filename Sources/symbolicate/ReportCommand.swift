import ArgumentParser
import Foundation
import SymbolicateCrashReport

/// `symbolicate REPORT [DEBUG_FILES…]`: symbolicate one crash report.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Symbolicate one crash report (the default subcommand).",
        discussion: """
            With no debug files the report is printed normalised: text reports unchanged, \
            .ips reports rendered in Apple's text layout (or as .ips/JSON with --format).
            """
    )

    /// Output formats of the report writer.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        /// Text report (an `.ips` is rendered in Apple's layout).
        case text
        /// `.ips` JSON again, unknown keys kept (only for `.ips` input).
        case ips
        /// The parsed model as JSON (keys documented in the README).
        case json
    }

    @Argument(help: "The crash report: .crash/.txt text or .ips JSON, detected by content.")
    var report: String

    @Argument(help: "dSYM bundles, DWARF files, folders, .xcarchive or .zip files.")
    var debugFiles: [String] = []

    @Option(help: "Output format: text, ips (for .ips input) or json.")
    var format: OutputFormat = .text

    func run() async throws {
        let parsed: CrashReport
        do {
            parsed = try CrashReport.parse(contentsOf: report)
        } catch {
            FileHandle.standardError.write(Data("symbolicate: \(error.description)\n".utf8))
            throw Exit.invalidInput
        }
        for warning in parsed.warnings {
            FileHandle.standardError.write(Data("symbolicate: \(warning.description)\n".utf8))
        }
        if !debugFiles.isEmpty {
            FileHandle.standardError.write(Data("symbolicate: warning: symbolication is not available in this build; printing the report unchanged\n".utf8))
        }
        let output: String
        switch format {
        case .text:
            output = parsed.textOutput()
        case .json:
            output = parsed.jsonDump()
        case .ips:
            do {
                output = try parsed.ipsOutput()
            } catch {
                FileHandle.standardError.write(Data("symbolicate: \(error.description)\n".utf8))
                throw Exit.usage
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
