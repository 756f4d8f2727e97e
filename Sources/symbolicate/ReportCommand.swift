import ArgumentParser
import Foundation

/// `symbolicate REPORT [DEBUG_FILES…]`: symbolicate one crash report.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Symbolicate one crash report (the default subcommand)."
    )

    @Argument(help: "The crash report: .crash/.txt text or .ips JSON, detected by content.")
    var report: String

    @Argument(help: "dSYM bundles, DWARF files, folders, .xcarchive or .zip files.")
    var debugFiles: [String] = []

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: report) else {
            FileHandle.standardError.write(Data("symbolicate: cannot read \(report)\n".utf8))
            throw Exit.invalidInput
        }
        FileHandle.standardOutput.write(data)
    }
}
