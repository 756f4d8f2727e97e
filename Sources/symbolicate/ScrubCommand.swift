import ArgumentParser
import SymbolicatePipeline

/// `symbolicate scrub FILE…`: a report made fit to paste into a public issue.
struct ScrubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrub",
        abstract: "Replace user names, device, incident and anonymous ids, UDIDs, e-mail and IP addresses in reports.",
        discussion: """
            Each value is replaced by a placeholder that stays the same for the same value across \
            the run (incident-1, user-1, container-1, udid-1, email-1@example.invalid, 192.0.2.1, \
            2001:db8::1, …), so the result still reads; image UUIDs and build IDs, addresses, \
            names and versions are kept, so it symbolicates the same. Works on every layout \
            symbolicate reads (text, .ips, KSCrash, Sentry, MetricKit, logs): JSON stays valid JSON. \
            Values are found by the field that holds them, by where they sit in a path \
            (/Users/NAME/, /home/NAME/, app container and simulator ids) and by their shape \
            (e-mail and IP addresses, UDIDs); a text no reader knows is scrubbed with a warning. \
            The files are never changed unless --in-place; outputs are written atomically. \
            A summary of what was replaced (kinds and counts, never the values) goes to stderr.
            """
    )

    @Argument(help: "Reports to scrub.")
    var files: [String]

    @Option(
        name: [.short, .customLong("output")], help: "Write the scrubbed report to this file (atomically) instead of stdout (one file).")
    var output: String?

    @Option(help: "Write each scrubbed file into this folder under its own name (several files).")
    var outputDir: String?

    @Flag(help: "Replace each file by its scrubbed text (atomically).")
    var inPlace = false

    @Option(help: "Write what was replaced (kinds and counts per file, never the values) as JSON to this file.")
    var reportJSON: String?

    func validate() throws {
        if [output != nil, outputDir != nil, inPlace].filter({ $0 }).count > 1 {
            throw ValidationError("--output, --output-dir and --in-place exclude each other.")
        }
    }

    func run() throws {
        let destination: ScrubRequest.Destination =
            inPlace ? .inPlace : output.map { .file($0) } ?? outputDir.map { .folder($0) } ?? .standardOutput
        let response = ScrubRequest(files: files, destination: destination, reportJSON: reportJSON).run()
        try Console.finish(response.messages, standardOutput: response.standardOutput, status: response.status)
    }
}
